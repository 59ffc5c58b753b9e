//! Moore's Nim_k in closed form: any number of heaps; a move lowers between 1 and k heaps,
//! each by a positive amount (k = 1 is Nim).
//!
//! **Normal play** (E. H. Moore, "A generalization of the game called Nim", Annals of
//! Mathematics 11 (1910), 93–94): a position is unsafe exactly when, for every binary
//! digit, the number of heaps having that digit set is a multiple of k + 1.
//!
//! **Misère play**: the same, except when every heap is at most 1, where the position is
//! unsafe exactly when the number of heaps of size 1 is ≡ 1 (mod k + 1). For k = 1 this
//! is Bouton's misère Nim (C. L. Bouton, "Nim, a game with a complete mathematical
//! theory", Annals of Mathematics 3 (1901–02), 35–39). Proof for every k: among heaps of
//! at most 1 a move removes 1 to k ones, and the player left with no heap wins, so the
//! count of ones decides by its residue. With a heap of 2 or more, a normal-unsafe
//! position has a digit other than the last set in at least k + 1 heaps, so no move makes
//! every heap at most 1, and every move stays in normal-safe, hence misère-safe,
//! positions. From a normal-safe position with a heap of 2 or more, Moore's move wins
//! unless it leaves only heaps of at most 1; then it lowered every one of the h ≤ k
//! heaps of 2 or more, and lowering those h heaps to 0 or 1 and up to k − h of the u
//! ones to 0 can leave any number of ones from u − min(u, k − h) to u + h: at least k + 1
//! consecutive counts, or every count down to 0, so one of them is ≡ 1. Checked against a
//! brute-force solver for up to four heaps of up to 12, k = 1, 2, 3, in
//! `tests/closed_forms.rs`.
//!
//! Positions are multisets: heaps come in any order, zeros are ignored, and resulting
//! positions are ascending with zeros dropped. Every function is exact for heaps up to
//! `u64::MAX` and any number of heaps; a `k` beyond the number of heaps acts as that number.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use super::moore_search::for_each_normal_move;
use crate::value::Convention;

/// The heaps ascending without zeros, and k capped at their number (at least 1): a move
/// cannot touch more heaps than there are, and a column never holds more ones than there
/// are heaps, so the rule reads the same with the capped k.
fn normalise(heaps: &[u64], k: u32) -> (Vec<u64>, usize) {
    assert!(k >= 1, "Moore's Nim_k needs k ≥ 1");
    let mut position: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    position.sort_unstable();
    let k = usize::try_from(k)
        .unwrap_or(usize::MAX)
        .min(position.len())
        .max(1);
    (position, k)
}

/// True when `heaps` is an unsafe position of Moore's Nim_k: in normal play when every
/// binary digit is set in a multiple of k + 1 heaps (Moore 1910); in misère play the same
/// unless every heap is at most 1, when the number of ones must be ≡ 1 (mod k + 1)
/// (Bouton 1901 for k = 1; proved for every k in the module documentation).
///
/// # Panics
/// When `k` is 0.
pub fn is_unsafe(heaps: &[u64], k: u32, convention: Convention) -> bool {
    assert!(k >= 1, "Moore's Nim_k needs k ≥ 1");
    is_unsafe_in(heaps.iter().copied(), k, convention)
}

/// [`is_unsafe`] over heaps from an iterator (any order, zeros allowed), without
/// allocating: the form hot loops use (a table's predictions, position by position).
/// Capping k at the number of heaps changes nothing here: a column never holds more
/// ones than there are heaps.
#[inline]
pub(crate) fn is_unsafe_in(
    heaps: impl Iterator<Item = u64> + Clone,
    k: u32,
    convention: Convention,
) -> bool {
    let modulus = u64::from(k) + 1;
    if convention == Convention::Misere && heaps.clone().all(|h| h <= 1) {
        let ones = heaps.filter(|&h| h == 1).count() as u64;
        return ones % modulus == 1;
    }
    let mut counts = [0u64; 64];
    for h in heaps {
        let mut bits = h;
        while bits != 0 {
            counts[bits.trailing_zeros() as usize] += 1;
            bits &= bits - 1;
        }
    }
    counts.iter().all(|c| c % modulus == 0)
}

/// Up to `limit` distinct winning moves from `heaps` in Moore's Nim_k, each the position it
/// leaves (ascending, zeros dropped), in ascending order: all of them when there are at
/// most `limit`; none when `heaps` is unsafe, nor for the empty position in misère play
/// (safe without any move). The moves to normal-play unsafe positions
/// come from the digit-by-digit search of Moore's proof (Moore 1910), which chooses at
/// each bit which heaps change, never enumerating single moves; in misère play those
/// leaving only heaps of at most 1 are replaced by the moves leaving a number of ones
/// ≡ 1 (mod k + 1) (see [`is_unsafe`]). The number of winning moves can be astronomical
/// with large heaps and k ≥ 2 (free low bits), hence the limit.
///
/// # Panics
/// When `k` is 0.
pub fn winning_moves(heaps: &[u64], k: u32, convention: Convention, limit: usize) -> Vec<Vec<u64>> {
    let (position, k) = normalise(heaps, k);
    let modulus = k + 1;
    let residue = match convention {
        Convention::Normal => 0,
        Convention::Misere => 1,
    };
    let mut found = BTreeSet::new();
    if limit == 0 {
        return Vec::new();
    }
    let n = position.len();
    let big = position.iter().filter(|&&h| h >= 2).count();
    let ones = n - big;
    if big == 0 {
        // Only ones: a move removes 1 to k of them (in either convention, the same rule).
        for left in n - n.min(k)..n {
            if left % modulus == residue {
                found.insert(vec![1; left]);
            }
        }
        return found.into_iter().take(limit).collect();
    }
    if convention == Convention::Misere && big <= k {
        // The misère-only targets: every big heap lowered to 0 or 1 and some ones removed,
        // leaving from ones − min(ones, k − big) to ones + big ones.
        for left in ones - ones.min(k - big)..=ones + big {
            if left % modulus == 1 {
                found.insert(vec![1; left]);
            }
        }
    }
    if found.len() < limit {
        let misere = convention == Convention::Misere;
        let _ = for_each_normal_move(&position, k, &mut |after| {
            // In misère play a normal-unsafe position of ones only is safe.
            if misere && after.last().is_none_or(|&h| h <= 1) {
                return ControlFlow::Continue(());
            }
            found.insert(after);
            if found.len() >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
    }
    found.into_iter().take(limit).collect()
}

/// One winning move from `heaps` in Moore's Nim_k, as the position it leaves (ascending,
/// zeros dropped), or `None` when `heaps` is unsafe or empty (in misère play the empty
/// position is safe, without any move); built constructively from the top bit
/// down as in Moore's proof (Moore 1910; misère exception as in [`is_unsafe`]), in one
/// pass over the bits.
///
/// # Panics
/// When `k` is 0.
pub fn winning_move(heaps: &[u64], k: u32, convention: Convention) -> Option<Vec<u64>> {
    winning_moves(heaps, k, convention, 1).pop()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nim_is_k_one() {
        assert!(is_unsafe(&[1, 2, 3], 1, Convention::Normal));
        assert!(!is_unsafe(&[3, 4, 5], 1, Convention::Normal));
        assert_eq!(
            winning_moves(&[3, 4, 5], 1, Convention::Normal, 10),
            [vec![1, 4, 5]]
        );
        assert!(is_unsafe(&[1], 1, Convention::Misere));
        assert!(is_unsafe(&[1, 1, 1], 1, Convention::Misere));
        assert!(!is_unsafe(&[], 1, Convention::Misere));
        assert!(is_unsafe(&[], 1, Convention::Normal));
        assert_eq!(winning_move(&[1, 1], 1, Convention::Misere), Some(vec![1]));
    }

    #[test]
    fn zeros_and_order_are_ignored() {
        assert_eq!(
            is_unsafe(&[0, 5, 3, 0, 6], 1, Convention::Normal),
            is_unsafe(&[3, 5, 6], 1, Convention::Normal)
        );
        assert_eq!(
            winning_moves(&[7, 0, 2], 2, Convention::Misere, 100),
            winning_moves(&[2, 7], 2, Convention::Misere, 100)
        );
    }

    #[test]
    fn misere_moves_to_ones() {
        // Nim_2 misère with heaps 5 and 1: lower the 5 to 0 (leaving one 1) is a win.
        let moves = winning_moves(&[1, 5], 2, Convention::Misere, 100);
        assert!(moves.contains(&vec![1]), "{moves:?}");
        for after in &moves {
            assert!(is_unsafe(after, 2, Convention::Misere), "{after:?}");
        }
        // In normal play [1] is safe; the winning moves there are different.
        assert!(!winning_moves(&[1, 5], 2, Convention::Normal, 100).contains(&vec![1]));
    }

    #[test]
    fn large_k_is_capped() {
        assert!(!is_unsafe(&[4, 9], u32::MAX, Convention::Normal));
        assert_eq!(
            winning_move(&[4, 9], u32::MAX, Convention::Normal),
            Some(vec![])
        );
        assert_eq!(
            winning_move(&[4, 9], u32::MAX, Convention::Misere),
            Some(vec![1])
        );
    }

    #[test]
    fn limit_bounds_the_list() {
        // Both large heaps must fall below 2^40, after which each of the 40 columns the
        // two equal heaps fill needs exactly one more one: 2^39 winning moves.
        let heaps = [u64::MAX, u64::MAX - 1, (1 << 40) - 1, (1 << 40) - 1];
        let moves = winning_moves(&heaps, 2, Convention::Normal, 50);
        assert_eq!(moves.len(), 50);
        for after in &moves {
            assert!(is_unsafe(after, 2, Convention::Normal), "{after:?}");
        }
        assert!(winning_moves(&heaps, 2, Convention::Normal, 0).is_empty());
    }
}

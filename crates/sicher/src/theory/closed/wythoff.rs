//! Wythoff's game in closed form: two heaps; a move takes any positive number of tokens
//! from one heap, or the same positive number from both.
//!
//! **Normal play** (Wythoff 1907, "A modification of the game of Nim", Nieuw Archief voor
//! Wiskunde 7): the unsafe positions are the pairs (⌊kφ⌋, ⌊kφ²⌋), k ≥ 0, and their mirror
//! images. The two coordinates are complementary Beatty sequences, so every heap size
//! lies in exactly one unsafe pair (0 in (0, 0)) and every difference k in exactly one.
//!
//! **Misère play**: the same pairs for k ≥ 2, while (0, 0) and (1, 2) give way to (0, 1)
//! and (2, 2). Proof: (0, 0) has no move, so the player to move wins; no move joins two
//! of the pairs (0, 1), (2, 2), (⌊kφ⌋, ⌊kφ²⌋) for k ≥ 2, since each heap size and each
//! difference still lies in exactly one of them; and every other position reaches one of
//! them by the normal-play argument (lower the larger heap to the smaller one's partner,
//! or when that partner is larger, take from both down to the pair of the same
//! difference, whose smaller heap is then smaller: 0 and 2 for differences 1 and 0,
//! ⌊dφ⌋ increasing in d from d = 2 on). Checked against a brute-force solver for every
//! position with heaps up to 60 in `tests/closed_forms.rs`. V. Gurvich ("On tame, pet,
//! miserable, and strongly miserable impartial games", RUTCOR RRR 18-2012) lists
//! Wythoff's Nim among the tame games, whose normal and misère Sprague-Grundy values
//! differ only by 0 and 1 trading places: so it is at these four positions.
//!
//! Every function is O(1) up to the exact integer square roots of `golden.rs`, and
//! correct for heaps up to `u64::MAX`.

use super::golden::{floor_k_phi, partner};
use crate::value::Convention;

/// The smaller heap of the unique unsafe pair whose heaps differ by `d` (⌊dφ⌋ in normal
/// play, Wythoff 1907; with the misère exceptions (2, 2) for d = 0 and (0, 1) for d = 1).
fn lower_of_difference(d: u64, convention: Convention) -> u128 {
    match (convention, d) {
        (Convention::Misere, 0) => 2,
        (Convention::Misere, 1) => 0,
        _ => floor_k_phi(d),
    }
}

/// The other heap of the unique unsafe pair containing a heap of `n` (Wythoff 1907; in
/// misère play 0 pairs with 1 and 2 with itself). A `u128`: it can exceed `u64::MAX`.
fn partner_of(n: u64, convention: Convention) -> u128 {
    match (convention, n) {
        (Convention::Misere, 0) => 1,
        (Convention::Misere, 1) => 0,
        (Convention::Misere, 2) => 2,
        _ => partner(n),
    }
}

/// True when the Wythoff position (a, b), heaps in either order, is unsafe (the player to
/// move loses): in normal play when the smaller heap is ⌊dφ⌋ for d the difference
/// (Wythoff 1907); in misère play the same except that (0, 1) and (2, 2) are unsafe and
/// (0, 0) and (1, 2) safe (see the module documentation).
pub fn is_unsafe(a: u64, b: u64, convention: Convention) -> bool {
    let (lo, hi) = (a.min(b), a.max(b));
    lower_of_difference(hi - lo, convention) == u128::from(lo)
}

/// The unique unsafe pair whose heaps differ by `d`, ascending: (⌊dφ⌋, ⌊dφ⌋ + d) in normal
/// play (Wythoff 1907), and in misère play (2, 2) for d = 0, (0, 1) for d = 1; `None`
/// when its larger heap exceeds `u64::MAX`.
pub fn unsafe_pair(d: u64, convention: Convention) -> Option<(u64, u64)> {
    let lo = u64::try_from(lower_of_difference(d, convention)).ok()?;
    Some((lo, lo.checked_add(d)?))
}

/// Every winning move from (a, b): the distinct unsafe positions one move away, each as
/// an ascending pair (zeros kept), in ascending order; empty when (a, b) is unsafe, and
/// for (0, 0) in misère play, which is safe without any move.
///
/// At most three candidates are examined (Wythoff 1907 in normal play, the misère
/// exceptions of [`is_unsafe`] otherwise): lowering the larger heap to the smaller one's
/// partner, lowering the smaller heap to the larger one's partner, and taking the same
/// amount from both down to the pair with the same difference; each costs O(1).
pub fn winning_moves(a: u64, b: u64, convention: Convention) -> Vec<(u64, u64)> {
    let (lo, hi) = (a.min(b), a.max(b));
    let mut moves = Vec::with_capacity(3);
    // One heap lowered to the other heap's partner. A partner of at least the heap it
    // would replace is no move (`try_from` also fails only for partners above u64::MAX).
    for (keep, lower) in [(lo, hi), (hi, lo)] {
        let target = partner_of(keep, convention);
        if target < u128::from(lower) {
            let target = u64::try_from(target).expect("below a u64 heap");
            moves.push((target.min(keep), target.max(keep)));
        }
    }
    // The same amount from both: the difference stays, so the target is its pair.
    let d = hi - lo;
    let x = lower_of_difference(d, convention);
    if x < u128::from(lo) {
        let x = u64::try_from(x).expect("below a u64 heap");
        moves.push((x, x + d));
    }
    // Two kinds of move can reach the same pair, e.g. (5, 7) to (3, 5) by taking 4 from
    // the 7 or 2 from both; and with equal heaps the first two candidates coincide.
    moves.sort_unstable();
    moves.dedup();
    moves
}

/// One winning move from (a, b) as an ascending pair, or `None` when (a, b) is unsafe or
/// is misère (0, 0), safe with no move (the least of [`winning_moves`]; Wythoff 1907,
/// misère exceptions as in [`is_unsafe`]).
pub fn winning_move(a: u64, b: u64, convention: Convention) -> Option<(u64, u64)> {
    winning_moves(a, b, convention).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOTH: [Convention; 2] = [Convention::Normal, Convention::Misere];

    #[test]
    fn small_unsafe_pairs() {
        let unsafe_below = |convention| {
            (0..14u64)
                .flat_map(|a| (a..14).map(move |b| (a, b)))
                .filter(|&(a, b)| is_unsafe(a, b, convention))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            unsafe_below(Convention::Normal),
            [(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13)]
        );
        assert_eq!(
            unsafe_below(Convention::Misere),
            [(0, 1), (2, 2), (3, 5), (4, 7), (6, 10), (8, 13)]
        );
        assert_eq!(unsafe_pair(0, Convention::Misere), Some((2, 2)));
        assert_eq!(unsafe_pair(1, Convention::Misere), Some((0, 1)));
        assert_eq!(unsafe_pair(5, Convention::Normal), Some((8, 13)));
    }

    #[test]
    fn both_move_kinds_to_one_pair_count_once() {
        // (7, 10) reaches (4, 7) both by taking 6 from the 10 and 3 from each heap.
        assert_eq!(winning_moves(7, 10, Convention::Normal), [(4, 7), (6, 10)]);
        assert_eq!(winning_moves(10, 7, Convention::Normal), [(4, 7), (6, 10)]);
        assert_eq!(winning_moves(0, 0, Convention::Misere), []);
        assert_eq!(winning_moves(1, 2, Convention::Misere), [(0, 1)]);
        assert_eq!(winning_moves(3, 3, Convention::Normal), [(0, 0)]);
        assert_eq!(winning_moves(4, 5, Convention::Normal), [(1, 2), (3, 5)]);
        assert_eq!(winning_move(3, 3, Convention::Misere), Some((2, 2)));
    }

    #[test]
    fn no_overflow_at_the_top() {
        for convention in BOTH {
            for (a, b) in [
                (u64::MAX, u64::MAX),
                (0, u64::MAX),
                (u64::MAX - 1, u64::MAX),
                (1, u64::MAX),
            ] {
                let moves = winning_moves(a, b, convention);
                assert!(!moves.is_empty(), "({a}, {b})");
                for (x, y) in moves {
                    assert!(is_unsafe(x, y, convention));
                }
            }
        }
        assert_eq!(unsafe_pair(u64::MAX, Convention::Normal), None);
    }
}

//! The closed forms of `sicher::theory::closed` against an independent brute-force solver
//! (children generated here from the rules, not by sicher's move generators), and at huge
//! heaps against the rules of play themselves.

use std::collections::BTreeSet;

use sicher::theory::closed::{moore, wythoff};
use sicher::value::Convention;

const BOTH: [Convention; 2] = [Convention::Normal, Convention::Misere];

/// True when the player to move at a position with no move loses (normal play).
fn terminal_is_unsafe(convention: Convention) -> bool {
    convention == Convention::Normal
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform enough below `n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A heap size: mostly huge (up to u64::MAX), sometimes tiny, sometimes around 10^18.
    fn heap(&mut self) -> u64 {
        match self.below(8) {
            0 => self.below(4),
            1 => u64::MAX - self.below(4),
            2 | 3 => 1_000_000_000_000_000_000 + self.below(1 << 40),
            _ => self.next(),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Wythoff

const WYTHOFF_MAX: usize = 60;

/// Brute-force outcomes of every Wythoff position (a, b) with heaps up to [`WYTHOFF_MAX`]:
/// `unsafe_[a][b]`.
fn wythoff_brute(convention: Convention) -> Vec<Vec<bool>> {
    let n = WYTHOFF_MAX + 1;
    let mut unsafe_ = vec![vec![false; n]; n];
    // Children have a smaller total, so filling by total is bottom-up.
    for total in 0..=2 * WYTHOFF_MAX {
        for a in total.saturating_sub(WYTHOFF_MAX)..=total.min(WYTHOFF_MAX) {
            let b = total - a;
            let children = wythoff_children(a, b);
            unsafe_[a][b] = if children.is_empty() {
                terminal_is_unsafe(convention)
            } else {
                children.iter().all(|&(x, y)| !unsafe_[x][y])
            };
        }
    }
    unsafe_
}

/// Every position one Wythoff move from (a, b), heaps in place.
fn wythoff_children(a: usize, b: usize) -> Vec<(usize, usize)> {
    let mut children = Vec::new();
    children.extend((0..a).map(|x| (x, b)));
    children.extend((0..b).map(|y| (a, y)));
    children.extend((1..=a.min(b)).map(|d| (a - d, b - d)));
    children
}

#[test]
fn wythoff_matches_brute_force_up_to_60() {
    for convention in BOTH {
        let unsafe_ = wythoff_brute(convention);
        for a in 0..=WYTHOFF_MAX {
            for b in 0..=WYTHOFF_MAX {
                let (x, y) = (a as u64, b as u64);
                assert_eq!(
                    wythoff::is_unsafe(x, y, convention),
                    unsafe_[a][b],
                    "({a}, {b}) {convention}"
                );
                let expected: BTreeSet<(u64, u64)> = wythoff_children(a, b)
                    .into_iter()
                    .filter(|&(p, q)| unsafe_[p][q])
                    .map(|(p, q)| (p.min(q) as u64, p.max(q) as u64))
                    .collect();
                let moves = wythoff::winning_moves(x, y, convention);
                assert_eq!(
                    moves,
                    expected.iter().copied().collect::<Vec<_>>(),
                    "({a}, {b}) {convention}"
                );
                // A winning move exists exactly when the position is safe, except for
                // misère (0, 0): safe, but with no move at all.
                assert_eq!(
                    wythoff::winning_move(x, y, convention).is_some(),
                    !unsafe_[a][b] && (a, b) != (0, 0)
                );
            }
        }
    }
}

#[test]
fn wythoff_misere_exceptions_are_exactly_the_four_small_positions() {
    let normal = wythoff_brute(Convention::Normal);
    let misere = wythoff_brute(Convention::Misere);
    let mut differ = Vec::new();
    for a in 0..=WYTHOFF_MAX {
        for b in a..=WYTHOFF_MAX {
            if normal[a][b] != misere[a][b] {
                differ.push((a, b));
            }
        }
    }
    assert_eq!(differ, [(0, 0), (0, 1), (1, 2), (2, 2)]);
}

/// True when one Wythoff move takes (a, b) to the multiset {x, y}.
fn wythoff_legal(a: u64, b: u64, (x, y): (u64, u64)) -> bool {
    // One heap lowered (the other kept), in either role.
    let one = (x == a && y < b) || (y == a && x < b) || (x == b && y < a) || (y == b && x < a);
    // The same positive amount from both.
    let (lo, hi) = (a.min(b), a.max(b));
    let (p, q) = (x.min(y), x.max(y));
    let both = p < lo && q < hi && lo - p == hi - q;
    one || both
}

/// Some positions one move from (a, b), as pairs: each heap lowered by a few random
/// amounts and to 0, and both lowered together.
fn some_wythoff_children(rng: &mut Rng, a: u64, b: u64) -> Vec<(u64, u64)> {
    let mut children = Vec::new();
    for _ in 0..6 {
        if a > 0 {
            children.push((a - 1 - rng.below(a), b));
            children.push((a - 1 - rng.below(a.min(8)), b));
        }
        if b > 0 {
            children.push((a, b - 1 - rng.below(b)));
            children.push((a, b - 1 - rng.below(b.min(8))));
        }
        let m = a.min(b);
        if m > 0 {
            let d = 1 + rng.below(m);
            children.push((a - d, b - d));
        }
    }
    children.push((0, b));
    children.push((a, 0));
    children.retain(|&c| c != (a, b));
    children
}

#[test]
fn wythoff_at_huge_heaps_moves_are_legal_and_unsafe_positions_have_no_unsafe_child() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for convention in BOTH {
        for _ in 0..3_000 {
            let (a, b) = (rng.heap(), rng.heap());
            let moves = wythoff::winning_moves(a, b, convention);
            assert_eq!(
                moves.is_empty(),
                wythoff::is_unsafe(a, b, convention) || (a, b) == (0, 0)
            );
            for &(x, y) in &moves {
                assert!(x <= y);
                assert!(wythoff_legal(a, b, (x, y)), "({a}, {b}) -> ({x}, {y})");
                assert!(wythoff::is_unsafe(x, y, convention), "({x}, {y})");
                assert!(wythoff::is_unsafe(y, x, convention), "({y}, {x})");
                // The position reached is unsafe: nothing it reaches is.
                for (p, q) in some_wythoff_children(&mut rng, x, y) {
                    assert!(
                        !wythoff::is_unsafe(p, q, convention),
                        "({x}, {y}) -> ({p}, {q}) {convention}"
                    );
                    assert!(
                        (p, q) == (0, 0) || !wythoff::winning_moves(p, q, convention).is_empty()
                    );
                }
            }
        }
        // Unsafe pairs picked by difference, up to where they leave u64.
        for _ in 0..2_000 {
            let d = rng.next() >> rng.below(64);
            let Some((x, y)) = wythoff::unsafe_pair(d, convention) else {
                continue;
            };
            assert_eq!(y - x, d);
            assert!(wythoff::is_unsafe(x, y, convention));
            assert!(wythoff::winning_moves(x, y, convention).is_empty());
            for (p, q) in some_wythoff_children(&mut rng, x, y) {
                assert!(!wythoff::is_unsafe(p, q, convention), "({p}, {q})");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Moore's Nim_k

const MOORE_HEAPS: usize = 4;
const MOORE_MAX: u8 = 12;
const MOORE_BASE: usize = MOORE_MAX as usize + 1;

/// A position of up to four heaps: sorted, zeros first standing for no heap.
type Small = [u8; MOORE_HEAPS];

fn index(position: &Small) -> usize {
    position
        .iter()
        .fold(0, |acc, &h| acc * MOORE_BASE + usize::from(h))
}

/// Every position one Moore's Nim_k move from `position`, canonical (sorted).
fn moore_children(position: &Small, k: usize) -> BTreeSet<Small> {
    let mut children = BTreeSet::new();
    for subset in 1u32..1 << MOORE_HEAPS {
        let chosen: Vec<usize> = (0..MOORE_HEAPS).filter(|i| subset >> i & 1 == 1).collect();
        if chosen.len() > k || chosen.iter().any(|&i| position[i] == 0) {
            continue;
        }
        // Every way to give each chosen heap a smaller size (an odometer).
        let mut sizes: Vec<u8> = vec![0; chosen.len()];
        loop {
            let mut child = *position;
            for (&i, &s) in chosen.iter().zip(&sizes) {
                child[i] = s;
            }
            child.sort_unstable();
            children.insert(child);
            let mut digit = 0;
            loop {
                if digit == chosen.len() {
                    break;
                }
                sizes[digit] += 1;
                if sizes[digit] < position[chosen[digit]] {
                    break;
                }
                sizes[digit] = 0;
                digit += 1;
            }
            if digit == chosen.len() {
                break;
            }
        }
    }
    children
}

/// Every canonical position of up to four heaps of at most [`MOORE_MAX`], children first.
fn all_small_positions() -> Vec<Small> {
    let mut positions = Vec::new();
    for a in 0..=MOORE_MAX {
        for b in a..=MOORE_MAX {
            for c in b..=MOORE_MAX {
                for d in c..=MOORE_MAX {
                    positions.push([a, b, c, d]);
                }
            }
        }
    }
    // Children have a smaller total.
    positions.sort_by_key(|p| p.iter().map(|&h| u32::from(h)).sum::<u32>());
    positions
}

fn heaps_of(position: &Small) -> Vec<u64> {
    position
        .iter()
        .filter(|&&h| h > 0)
        .map(|&h| u64::from(h))
        .collect()
}

fn check_moore_against_brute_force(k: u32) {
    let positions = all_small_positions();
    for convention in BOTH {
        let mut unsafe_ = vec![false; MOORE_BASE.pow(MOORE_HEAPS as u32)];
        for position in &positions {
            let children = moore_children(position, k as usize);
            let is_unsafe = if children.is_empty() {
                terminal_is_unsafe(convention)
            } else {
                children.iter().all(|c| !unsafe_[index(c)])
            };
            unsafe_[index(position)] = is_unsafe;
            // The position as given, zeros and all, in descending order.
            let given: Vec<u64> = position.iter().rev().map(|&h| u64::from(h)).collect();
            let label = format!("{position:?} k = {k} {convention}");
            assert_eq!(
                moore::is_unsafe(&given, k, convention),
                is_unsafe,
                "{label}"
            );
            let expected: Vec<Vec<u64>> = children
                .iter()
                .filter(|c| unsafe_[index(c)])
                .map(heaps_of)
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            assert_eq!(
                moore::winning_moves(&given, k, convention, usize::MAX),
                expected,
                "{label}"
            );
            match moore::winning_move(&given, k, convention) {
                Some(after) => assert!(expected.contains(&after), "{label}: {after:?}"),
                // Safe with no move: misère play's empty position.
                None => assert!(is_unsafe || children.is_empty(), "{label}"),
            }
            // A limit lists that many of them.
            let limited = moore::winning_moves(&given, k, convention, 2);
            assert_eq!(limited.len(), expected.len().min(2), "{label}");
            assert!(limited.iter().all(|m| expected.contains(m)), "{label}");
        }
    }
}

#[test]
fn moore_k1_matches_brute_force() {
    check_moore_against_brute_force(1);
}

#[test]
fn moore_k2_matches_brute_force() {
    check_moore_against_brute_force(2);
}

#[test]
fn moore_k3_matches_brute_force() {
    check_moore_against_brute_force(3);
}

/// True when one move of Moore's Nim_k takes `before` (any order, zeros allowed) to
/// `after` (ascending, no zeros): 1 to k heaps lowered, the rest kept. Removing the heaps
/// the two have in common loses nothing (if x went to v and v went to y, x could have gone
/// to y directly with one heap fewer changed), and what remains must pair off, ascending,
/// with each heap lowered.
fn moore_legal(before: &[u64], after: &[u64], k: u32) -> bool {
    if after.windows(2).any(|w| w[0] > w[1]) || after.contains(&0) {
        return false;
    }
    let mut old: Vec<u64> = before.iter().copied().filter(|&h| h > 0).collect();
    old.sort_unstable();
    let mut new = after.to_vec();
    let mut i = 0;
    while i < old.len() {
        if let Some(j) = new.iter().position(|&h| h == old[i]) {
            new.remove(j);
            old.remove(i);
        } else {
            i += 1;
        }
    }
    if old.is_empty() || old.len() > k as usize || new.len() > old.len() {
        return false;
    }
    let mut padded = vec![0; old.len() - new.len()];
    padded.extend(new);
    padded.iter().zip(&old).all(|(n, o)| n < o)
}

/// A random move of Moore's Nim_k from `heaps` (some heap nonzero): 1 to k nonzero heaps,
/// each lowered by a random positive amount (often to 0, 1 or by 1).
fn random_moore_move(rng: &mut Rng, heaps: &[u64], k: u32) -> Vec<u64> {
    let mut after = heaps.to_vec();
    let nonzero: Vec<usize> = (0..heaps.len()).filter(|&i| heaps[i] > 0).collect();
    let count = 1 + rng.below(u64::from(k).min(nonzero.len() as u64)) as usize;
    let mut order = nonzero;
    for i in 0..count {
        let j = i + rng.below((order.len() - i) as u64) as usize;
        order.swap(i, j);
    }
    for &i in &order[..count] {
        let h = heaps[i];
        after[i] = match rng.below(4) {
            0 => 0,
            1 => h.min(2) - 1,
            2 => h - 1,
            _ => rng.below(h),
        };
    }
    after
}

#[test]
fn moore_at_huge_heaps_moves_are_legal_and_unsafe_positions_have_no_unsafe_child() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for convention in BOTH {
        for _ in 0..1_500 {
            let k = 1 + rng.below(4) as u32;
            let n = 1 + rng.below(6) as usize;
            let mut heaps: Vec<u64> = (0..n).map(|_| rng.heap()).collect();
            // Equal heaps and shared high bits make the columns interesting.
            if n > 1 && rng.below(2) == 0 {
                heaps[1] = heaps[0];
            }
            let label = format!("{heaps:?} k = {k} {convention}");
            let unsafe_before = moore::is_unsafe(&heaps, k, convention);
            let Some(after) = moore::winning_move(&heaps, k, convention) else {
                assert!(unsafe_before || heaps.iter().all(|&h| h == 0), "{label}");
                continue;
            };
            assert!(!unsafe_before, "{label}");
            assert!(moore_legal(&heaps, &after, k), "{label} -> {after:?}");
            assert!(
                moore::is_unsafe(&after, k, convention),
                "{label} -> {after:?}"
            );
            assert_eq!(
                moore::winning_move(&after, k, convention),
                None,
                "{after:?}"
            );
            assert!(moore::winning_moves(&after, k, convention, 4).is_empty());
            // Nothing an unsafe position reaches is unsafe.
            if !after.is_empty() {
                for _ in 0..20 {
                    let child = random_moore_move(&mut rng, &after, k);
                    assert!(
                        !moore::is_unsafe(&child, k, convention),
                        "{label}: {after:?} -> {child:?}"
                    );
                }
            }
            let moves = moore::winning_moves(&heaps, k, convention, 16);
            assert!(!moves.is_empty() && moves.len() <= 16, "{label}");
            assert!(moves.windows(2).all(|w| w[0] < w[1]), "{label}");
            for m in &moves {
                assert!(moore_legal(&heaps, m, k), "{label} -> {m:?}");
                assert!(moore::is_unsafe(m, k, convention), "{label} -> {m:?}");
            }
        }
    }
}

/// Moore's Nim_1 is Nim: heaps of any size are answered (it once refused heaps past the
/// nim-values it computes, "moore:1 has no periodicity theorem"), with Nim's answers in
/// both conventions.
#[test]
fn moore_1_is_nim_at_any_size() {
    use sicher::answer::{Chain, Policy, Query, Remoteness};
    use sicher::game::{resolve, Convention, Position};
    let query = Query {
        best_move: true,
        remoteness: Remoteness::Skip,
    };
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for convention in [Convention::Normal, Convention::Misere] {
        let mut moore = Chain::new(
            &resolve("moore:1").unwrap().with_convention(convention),
            &Policy::default(),
        )
        .unwrap();
        let mut nim = Chain::new(
            &resolve("nim").unwrap().with_convention(convention),
            &Policy::default(),
        )
        .unwrap();
        let mut positions = vec![vec![
            593_802_182_213_568,
            121_690_994_573_697,
            499_810_786_380_009,
        ]];
        for _ in 0..200 {
            let count = 1 + next() % 5;
            let bits = 1 + next() % 62;
            positions.push((0..count).map(|_| next() % (1 << bits)).collect());
        }
        positions.push(vec![1, 1]);
        positions.push(vec![1, 1, 1]);
        for heaps in positions {
            let position = Position::new(heaps.clone());
            let a = moore.answer(&position, query).unwrap();
            let b = nim.answer(&position, query).unwrap();
            assert_eq!(
                a.value.is_win(),
                b.value.is_win(),
                "{convention:?} {heaps:?}"
            );
            assert_eq!(a.best_move.is_some(), b.best_move.is_some(), "{heaps:?}");
            if let Some(to) = a.best_move {
                let after = nim.answer(&to, query).unwrap();
                assert!(!after.value.is_win(), "{convention:?} {heaps:?} to {to:?}");
            }
        }
    }
}

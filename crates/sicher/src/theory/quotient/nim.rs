//! Misère Nim in closed form (Bouton 1902; Winning Ways ch. 13): play as in normal Nim
//! unless the move would leave only heaps of size 1; then leave an odd number of them.
//! Proved for all heap sizes.

use super::tame::misere_nim_safe;
use crate::game::Ruleset;
use crate::theory::invariant::{self, HeapInvariant};

/// Misère Nim outcome: true when the player to move wins. With every heap at most 1 the
/// mover wins exactly when the number of 1s is even; otherwise exactly when the
/// nim-sum is non-zero.
pub fn outcome(heaps: &[u64]) -> bool {
    // A nim heap's nim-value is its size.
    super::tame::tame_misere_safe(heaps.iter().copied())
}

/// Misère Nim as a theory's invariant: a heap's nim-value is its size and it is firm when
/// it holds two or more; the tame rule decides, and the heap a winning move leaves is
/// named at once (so huge heaps cost nothing).
struct MisereNim;

impl HeapInvariant for MisereNim {
    type Element = (u64, bool);

    fn identity(&self) -> (u64, bool) {
        (0, false)
    }

    fn element(&self, heap: u64) -> Option<(u64, bool)> {
        Some((heap, heap >= 2))
    }

    fn combine(&self, a: (u64, bool), b: (u64, bool)) -> (u64, bool) {
        (a.0 ^ b.0, a.1 || b.1)
    }

    fn is_unsafe(&self, (nim_sum, firm): (u64, bool)) -> bool {
        !misere_nim_safe(nim_sum, firm)
    }

    fn direct_option(&self, heap: u64, (rest, firm): (u64, bool)) -> Option<Option<Vec<u64>>> {
        // Beside a firm rest the heap must cancel the nim-sum (normal play's move); beside
        // heaps of at most 1, it must leave an odd number of 1s, so it becomes 0 or 1.
        let target = if firm { rest } else { rest ^ 1 };
        Some((target < heap).then(|| vec![target]))
    }
}

/// A winning move in misère Nim, as the position after it (ascending, no zeros); `None`
/// when the position is lost or has no move.
pub fn winning_move(heaps: &[u64]) -> Option<Vec<u64>> {
    invariant::winning_move(&MisereNim, &Ruleset::Nim, heaps).map(|found| found.after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases() {
        assert!(outcome(&[]));
        assert!(!outcome(&[1]));
        assert!(outcome(&[1, 1]));
        assert!(outcome(&[2]));
        assert!(!outcome(&[2, 2]));
        assert_eq!(winning_move(&[2]), Some(vec![1]));
        assert_eq!(winning_move(&[1, 2]), Some(vec![1]));
        assert_eq!(winning_move(&[1, 1]), Some(vec![1]));
        assert_eq!(winning_move(&[]), None);
    }
}

//! Applying a move: the one place that turns a position and a move, as the generators
//! report it (indices of the heaps removed, heaps added), into the position after it.

use super::{Heap, Position};

/// Builds, in `out`, the ascending zero-free position `heaps` (ascending, zero-free)
/// becomes after a move that removes the heaps at `removed` (ascending indices, as every
/// generator reports them) and adds `added` (any order, zeros dropped). Never allocates
/// once `out` has room, so engines call it in their inner loops.
#[inline]
pub fn child_into(heaps: &[Heap], removed: &[usize], added: &[Heap], out: &mut Vec<Heap>) {
    out.clear();
    let mut skip = removed.iter().peekable();
    for (i, &h) in heaps.iter().enumerate() {
        if skip.peek() == Some(&&i) {
            skip.next();
        } else {
            out.push(h);
        }
    }
    for &a in added {
        if a != 0 {
            let at = out.partition_point(|&h| h < a);
            out.insert(at, a);
        }
    }
}

/// The position `position` becomes after a move (see [`child_into`]); allocates.
pub fn child(position: &Position, removed: &[usize], added: &[Heap]) -> Position {
    let mut heaps = Vec::with_capacity(position.heaps().len() + added.len());
    child_into(position.heaps(), removed, added, &mut heaps);
    Position::from_canonical(heaps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The child is the parent less the removed heaps plus the added ones, sorted,
        /// zeros dropped.
        #[test]
        fn child_is_the_sorted_multiset(
            mut heaps in proptest::collection::vec(1u64..20, 0..8),
            picks in proptest::collection::vec(any::<bool>(), 8),
            added in proptest::collection::vec(0u64..20, 0..4),
        ) {
            heaps.sort();
            let removed: Vec<usize> = (0..heaps.len()).filter(|&i| picks[i]).collect();
            let expected: Vec<u64> = heaps
                .iter()
                .enumerate()
                .filter(|(i, _)| !removed.contains(i))
                .map(|(_, &h)| h)
                .chain(added.iter().copied())
                .collect();
            let expected = Position::new(expected);
            let mut out = Vec::new();
            child_into(&heaps, &removed, &added, &mut out);
            prop_assert_eq!(&out[..], expected.heaps());
            let position = Position::new(heaps.clone());
            prop_assert_eq!(child(&position, &removed, &added), expected);
        }
    }
}

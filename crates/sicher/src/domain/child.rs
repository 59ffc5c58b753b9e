//! The heaps a move leaves, walked in order without building the position.
//!
//! Labelling ranks every child of every position; merging "the heaps not removed" with
//! "the heaps added" on the fly saves a copy, a sort and an allocation per move.

use crate::game::Heap;

/// Most non-zero heaps one move may add (Moore's Nim changes at most 16 heaps).
pub const MAX_ADDED: usize = 16;

/// The child's heaps, ascending from the front and descending from the back.
pub struct ChildHeaps<'a> {
    heaps: &'a [Heap],
    removed: &'a [usize],
    /// The added heaps, ascending, zeros dropped.
    added: &'a [Heap],
    /// Front and back cursors into `heaps`, `removed` and `added`.
    front: (usize, usize, usize),
    back: (usize, usize, usize),
    /// Heaps in the child.
    len: usize,
}

impl<'a> ChildHeaps<'a> {
    /// The child of ascending zero-free `heaps` after removing the heaps at `removed`
    /// (ascending indices) and adding `added` (any order, zeros ignored, at most
    /// [`MAX_ADDED`]); `scratch` holds them sorted when they come unsorted.
    #[inline]
    pub fn new(
        heaps: &'a [Heap],
        removed: &'a [usize],
        added: &'a [Heap],
        scratch: &'a mut [Heap; MAX_ADDED],
    ) -> Self {
        // Move generators mostly report added heaps ascending already (Moore does not).
        let sorted: &'a [Heap] = if added.is_sorted() {
            added
        } else {
            let scratch = &mut scratch[..added.len()];
            scratch.copy_from_slice(added);
            scratch.sort_unstable();
            scratch
        };
        let sorted = &sorted[sorted.partition_point(|&a| a == 0)..];
        let count = sorted.len();
        ChildHeaps {
            heaps,
            removed,
            added: sorted,
            front: (0, 0, 0),
            back: (heaps.len(), removed.len(), count),
            len: heaps.len() - removed.len() + count,
        }
    }

    /// Number of heaps in the child.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Tokens in the child, given the parent's total.
    #[inline]
    pub fn total(&self, parent_total: Heap) -> Heap {
        let taken: Heap = self.removed.iter().map(|&i| self.heaps[i]).sum();
        let added: Heap = self.added[..self.back.2].iter().sum();
        parent_total - taken + added
    }
}

impl Iterator for ChildHeaps<'_> {
    type Item = Heap;

    #[inline]
    fn next(&mut self) -> Option<Heap> {
        let (mut i, mut r, e) = self.front;
        while i < self.back.0 && r < self.back.1 && self.removed[r] == i {
            i += 1;
            r += 1;
        }
        let kept = (i < self.back.0).then(|| self.heaps[i]);
        let extra = (e < self.back.2).then(|| self.added[e]);
        let (value, front) = match (kept, extra) {
            (Some(k), Some(x)) if x < k => (x, (i, r, e + 1)),
            (Some(k), _) => (k, (i + 1, r, e)),
            (None, Some(x)) => (x, (i, r, e + 1)),
            (None, None) => return None,
        };
        self.front = front;
        Some(value)
    }
}

impl DoubleEndedIterator for ChildHeaps<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Heap> {
        let (mut i, mut r, e) = self.back;
        while i > self.front.0 && r > self.front.1 && self.removed[r - 1] == i - 1 {
            i -= 1;
            r -= 1;
        }
        let kept = (i > self.front.0).then(|| self.heaps[i - 1]);
        let extra = (e > self.front.2).then(|| self.added[e - 1]);
        let (value, back) = match (kept, extra) {
            (Some(k), Some(x)) if x > k => (x, (i, r, e - 1)),
            (Some(k), _) => (k, (i - 1, r, e)),
            (None, Some(x)) => (x, (i, r, e - 1)),
            (None, None) => return None,
        };
        self.back = back;
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn walks_the_sorted_child_both_ways(
            mut heaps in proptest::collection::vec(1u64..20, 0..8),
            picks in proptest::collection::vec(any::<bool>(), 8),
            added in proptest::collection::vec(0u64..20, 0..4),
        ) {
            heaps.sort();
            let removed: Vec<usize> = (0..heaps.len()).filter(|&i| picks[i]).collect();
            let mut expected: Vec<u64> = heaps
                .iter()
                .enumerate()
                .filter(|(i, _)| !removed.contains(i))
                .map(|(_, &h)| h)
                .chain(added.iter().copied().filter(|&a| a != 0))
                .collect();
            expected.sort();
            let mut scratch = [0; MAX_ADDED];
            let child = ChildHeaps::new(&heaps, &removed, &added, &mut scratch);
            prop_assert_eq!(child.len(), expected.len());
            let parent_total: u64 = heaps.iter().sum();
            prop_assert_eq!(child.total(parent_total), expected.iter().sum::<u64>());
            prop_assert_eq!(child.collect::<Vec<_>>(), expected.clone());
            let mut backwards: Vec<u64> =
                ChildHeaps::new(&heaps, &removed, &added, &mut scratch).rev().collect();
            backwards.reverse();
            prop_assert_eq!(backwards, expected);
        }
    }
}

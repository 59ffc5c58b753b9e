//! One winning-move search for every theory that values a position heap by heap.
//!
//! Normal play's nim-sum, misère Nim's and the tame misère rule, and a misère quotient
//! all work the same way: each heap has an element of a commutative monoid (a nim-value;
//! a nim-value and whether it is firm; a quotient element), a position's element is the
//! product of its heaps' elements, and that product alone says whether the position is
//! unsafe. A winning move replaces one heap by one of its options so that the product
//! lands among the unsafe elements; [`winning_move`] finds one by keeping the product of
//! the other heaps (prefix times suffix, so no inverse is needed) and trying that heap's
//! options, or asking the theory for the right option directly where it can name it
//! (a nim-value target, a misère Nim heap size), which is what makes huge heaps cheap.
//!
//! Moore's Nim and Wythoff move several heaps at once; their closed forms keep their own
//! movers in [`super::closed`].

use std::ops::ControlFlow;

use crate::game::{child_into, Heap, Ruleset};

/// A theory's value of heaps: an element per heap, combined over the position, deciding
/// the outcome.
pub trait HeapInvariant {
    /// An element of the commutative monoid heaps map to.
    type Element: Copy;

    /// The element of the empty position.
    fn identity(&self) -> Self::Element;

    /// The element of a lone heap of `heap` tokens, or `None` where the theory does not
    /// reach that heap.
    fn element(&self, heap: Heap) -> Option<Self::Element>;

    /// The element of two positions side by side.
    fn combine(&self, a: Self::Element, b: Self::Element) -> Self::Element;

    /// True when a position of this element is unsafe (the player to move loses).
    fn is_unsafe(&self, element: Self::Element) -> bool;

    /// The option of a lone `heap` that leaves, beside the rest of the position (worth
    /// `rest`), an unsafe position, when the theory can name it without trying every
    /// option: `Some(Some(parts))`, or `Some(None)` when no option of `heap` does.
    /// `None` (the default) makes [`winning_move`] try the ruleset's options.
    fn direct_option(&self, _heap: Heap, _rest: Self::Element) -> Option<Option<Vec<Heap>>> {
        None
    }
}

/// A winning move found from a theory: which heap moves, what it leaves, and the position
/// after the move (ascending, no zeros).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapMove {
    /// The heap the move is made in.
    pub heap: Heap,
    /// The heaps it leaves in its place (zeros dropped, ascending).
    pub leaves: Vec<Heap>,
    /// The whole position after the move.
    pub after: Vec<Heap>,
}

/// The outcome of `heaps` under `invariant` (true: the player to move wins), or `None`
/// when a heap lies beyond the theory's reach.
pub fn outcome<I: HeapInvariant + ?Sized>(invariant: &I, heaps: &[Heap]) -> Option<bool> {
    let total = heaps
        .iter()
        .filter(|&&h| h > 0)
        .try_fold(invariant.identity(), |acc, &h| {
            invariant.element(h).map(|e| invariant.combine(acc, e))
        })?;
    Some(!invariant.is_unsafe(total))
}

/// The first winning move of `heaps` (heaps tried in ascending order, each heap's options
/// in the ruleset's order), or `None` when the position is unsafe, has no winning move
/// the theory reaches, or holds a heap beyond the theory's reach. `ruleset` must be the
/// one the invariant describes.
pub fn winning_move<I: HeapInvariant + ?Sized>(
    invariant: &I,
    ruleset: &Ruleset,
    heaps: &[Heap],
) -> Option<HeapMove> {
    let mut sorted: Vec<Heap> = heaps.iter().copied().filter(|&h| h > 0).collect();
    sorted.sort_unstable();
    let elements: Vec<I::Element> = sorted
        .iter()
        .map(|&h| invariant.element(h))
        .collect::<Option<_>>()?;
    // suffix[i] = the product of elements[i..].
    let mut suffix = vec![invariant.identity(); elements.len() + 1];
    for i in (0..elements.len()).rev() {
        suffix[i] = invariant.combine(elements[i], suffix[i + 1]);
    }
    if invariant.is_unsafe(suffix[0]) {
        return None;
    }
    let mut prefix = invariant.identity();
    for i in 0..sorted.len() {
        let rest = invariant.combine(prefix, suffix[i + 1]);
        prefix = invariant.combine(prefix, elements[i]);
        if i > 0 && sorted[i] == sorted[i - 1] {
            // The same heap size leaves the same rest: already tried.
            continue;
        }
        let leaves = match invariant.direct_option(sorted[i], rest) {
            Some(named) => named,
            None => option_leaving_unsafe(invariant, ruleset, sorted[i], rest),
        };
        if let Some(mut leaves) = leaves {
            leaves.retain(|&h| h > 0);
            leaves.sort_unstable();
            let mut after = Vec::with_capacity(sorted.len() + leaves.len());
            child_into(&sorted, &[i], &leaves, &mut after);
            return Some(HeapMove {
                heap: sorted[i],
                leaves,
                after,
            });
        }
    }
    None
}

/// The first option of a lone `heap` whose element, times `rest`, is unsafe.
fn option_leaving_unsafe<I: HeapInvariant + ?Sized>(
    invariant: &I,
    ruleset: &Ruleset,
    heap: Heap,
    rest: I::Element,
) -> Option<Vec<Heap>> {
    let mut found = None;
    let _ = ruleset.for_each_heap_option(heap, |parts| {
        let after = parts.iter().filter(|&&h| h > 0).try_fold(rest, |acc, &h| {
            invariant.element(h).map(|e| invariant.combine(acc, e))
        });
        if after.is_some_and(|e| invariant.is_unsafe(e)) {
            found = Some(parts.to_vec());
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Normal-play Nim by enumeration: the nim-sum with no direct option.
    struct NimSum;

    impl HeapInvariant for NimSum {
        type Element = u64;
        fn identity(&self) -> u64 {
            0
        }
        fn element(&self, heap: Heap) -> Option<u64> {
            Some(heap)
        }
        fn combine(&self, a: u64, b: u64) -> u64 {
            a ^ b
        }
        fn is_unsafe(&self, element: u64) -> bool {
            element == 0
        }
    }

    #[test]
    fn a_winning_move_lands_on_an_unsafe_position() {
        for a in 0..8u64 {
            for b in 0..8u64 {
                for c in 0..8u64 {
                    let heaps = [a, b, c];
                    let win = outcome(&NimSum, &heaps).unwrap();
                    assert_eq!(win, a ^ b ^ c != 0);
                    let found = winning_move(&NimSum, &Ruleset::Nim, &heaps);
                    assert_eq!(found.is_some(), win, "{heaps:?}");
                    if let Some(found) = found {
                        assert_eq!(outcome(&NimSum, &found.after), Some(false));
                        assert!(found.leaves.iter().all(|&l| l < found.heap));
                    }
                }
            }
        }
    }
}

//! A misère quotient as a theory's invariant: a heap's element is its quotient element,
//! products multiply in the quotient, and the P-portion is the unsafe part; winning moves
//! come from the one search in [`crate::theory::invariant`] (the element of the rest of
//! the position times each option's element, never an enumeration of sums).

use std::ops::ControlFlow;

use super::MisereQuotient;
use crate::game::Ruleset;
use crate::theory::invariant::{self, HeapInvariant};

impl HeapInvariant for MisereQuotient {
    type Element = u32;

    fn identity(&self) -> u32 {
        self.identity
    }

    fn element(&self, heap: u64) -> Option<u32> {
        self.heap_element(heap)
    }

    fn combine(&self, a: u32, b: u32) -> u32 {
        self.mul(a, b)
    }

    fn is_unsafe(&self, element: u32) -> bool {
        self.p_portion[element as usize]
    }
}

impl MisereQuotient {
    /// A move from a safe position to an unsafe one, returned as the position after the
    /// move (ascending, no zeros). `None` when the position is unsafe, has no move (a
    /// misère win already), or has a heap beyond `max_heap`. `ruleset` must be the one
    /// the quotient was computed for.
    pub fn winning_move(&self, ruleset: &Ruleset, heaps: &[u64]) -> Option<Vec<u64>> {
        // Beyond the computed heaps of a final quotient, a heap's options are tried one
        // per way of leaving heaps of the same elements, not all of them.
        if self.is_final() && heaps.iter().any(|&h| h > self.max_heap) {
            return self.winning_move_folded(ruleset, heaps);
        }
        invariant::winning_move(self, ruleset, heaps).map(|found| found.after)
    }

    /// [`Self::winning_move`] with each heap beyond `max_heap` trying
    /// [`MisereQuotient::for_each_heap_option`]'s folded options.
    fn winning_move_folded(&self, ruleset: &Ruleset, heaps: &[u64]) -> Option<Vec<u64>> {
        let mut sorted: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        sorted.sort_unstable();
        let elements: Vec<u32> = sorted
            .iter()
            .map(|&h| self.heap_element(h))
            .collect::<Option<_>>()?;
        let total = elements.iter().fold(self.identity, |a, &x| self.mul(a, x));
        if self.p_portion[total as usize] {
            return None;
        }
        // suffix[i] = product of elements[i..].
        let mut suffix = vec![self.identity; elements.len() + 1];
        for i in (0..elements.len()).rev() {
            suffix[i] = self.mul(elements[i], suffix[i + 1]);
        }
        let mut prefix = self.identity;
        for i in 0..sorted.len() {
            let rest = self.mul(prefix, suffix[i + 1]);
            prefix = self.mul(prefix, elements[i]);
            if i > 0 && sorted[i] == sorted[i - 1] {
                continue;
            }
            let mut found = None;
            let _ = self.for_each_heap_option(ruleset, sorted[i], |parts| {
                let x = parts.iter().try_fold(rest, |acc, &h| {
                    self.heap_element(h).map(|e| self.mul(acc, e))
                });
                if x.is_some_and(|x| self.p_portion[x as usize]) {
                    found = Some(parts.to_vec());
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            });
            if let Some(parts) = found {
                let mut after: Vec<u64> = sorted[..i]
                    .iter()
                    .chain(&sorted[i + 1..])
                    .chain(&parts)
                    .copied()
                    .filter(|&h| h > 0)
                    .collect();
                after.sort_unstable();
                return Some(after);
            }
        }
        None
    }
}

//! A misère quotient as a theory's invariant: a heap's element is its quotient element,
//! products multiply in the quotient, and the P-portion is the unsafe part; winning moves
//! come from the one search in [`crate::theory::invariant`] (the element of the rest of
//! the position times each option's element, never an enumeration of sums).

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
        invariant::winning_move(self, ruleset, heaps).map(|found| found.after)
    }
}

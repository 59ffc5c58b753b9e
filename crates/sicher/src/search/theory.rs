//! Exact outcomes from theory: for the remoteness search to order moves and narrow
//! windows by, and for the verdict search to end at the positions they cover.
//!
//! A misère quotient maps every sum of heaps it covers into a small commutative monoid
//! whose P-portion says which sums are unsafe, as nim-values under XOR do in normal
//! play. The search asks it of every child: at a safe position only the unsafe children
//! (the winning moves) can give the fastest win, and a window that asks no more than
//! the outcome is answered without a search. The quotient is built in the answer layer
//! (it is the same one the quotient source answers from) and handed in as
//! [`Outcomes`], its tables copied into the flat form the hot loop reads.

use crate::game::Heap;
use crate::theory::quotient::MisereQuotient;

/// A commutative monoid of heap sums with its unsafe elements: a misère quotient as the
/// search reads it.
#[derive(Clone, Debug)]
pub struct Outcomes {
    identity: u32,
    order: u32,
    /// `table[a * order + b]` is `ab`.
    table: Vec<u32>,
    unsafe_elements: Vec<bool>,
    /// `heaps[h]` is the element of a lone heap of size `h` (`heaps[0]`: the identity).
    heaps: Vec<u32>,
}

impl Outcomes {
    /// The outcomes a misère quotient gives: exact for every sum of heaps up to its
    /// `max_heap`.
    pub fn from_quotient(quotient: &MisereQuotient) -> Self {
        let heaps = std::iter::once(quotient.identity)
            .chain(quotient.heap_elements.iter().copied())
            .collect();
        Outcomes {
            identity: quotient.identity,
            order: quotient.order,
            table: quotient.table.clone(),
            unsafe_elements: quotient.p_portion.clone(),
            heaps,
        }
    }

    /// The largest heap covered.
    pub fn max_heap(&self) -> Heap {
        self.heaps.len() as Heap - 1
    }

    /// The element of the empty sum.
    #[inline]
    pub fn identity(&self) -> u32 {
        self.identity
    }

    /// The element of a lone heap, or `None` beyond the largest heap covered.
    #[inline]
    pub fn heap(&self, h: Heap) -> Option<u32> {
        self.heaps.get(h as usize).copied()
    }

    /// The element of a sum of two positions.
    #[inline]
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.table[a as usize * self.order as usize + b as usize]
    }

    /// True when positions of element `x` are unsafe (the player to move loses).
    #[inline]
    pub fn is_unsafe(&self, x: u32) -> bool {
        self.unsafe_elements[x as usize]
    }

    /// The element of a position (heaps in any order), or `None` when a heap is beyond
    /// the largest covered.
    pub fn element(&self, heaps: &[Heap]) -> Option<u32> {
        self.times(self.identity, heaps)
    }

    /// The element `x` times the heaps', or `None` when a heap is beyond the largest
    /// covered.
    #[inline]
    pub fn times(&self, x: u32, heaps: &[Heap]) -> Option<u32> {
        heaps
            .iter()
            .try_fold(x, |x, &h| Some(self.mul(x, self.heap(h)?)))
    }

    /// True when the player to move wins the position (heaps in any order), or `None`
    /// when a heap is beyond the largest covered.
    #[inline]
    pub fn win(&self, heaps: &[Heap]) -> Option<bool> {
        self.element(heaps).map(|x| !self.is_unsafe(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;
    use crate::theory::quotient::{compute, Budget};

    #[test]
    fn misere_kayles_outcomes_match_the_quotient() {
        let game = resolve("kayles").unwrap();
        let quotient = compute(&game.ruleset, 12, &Budget::default()).unwrap();
        let outcomes = Outcomes::from_quotient(&quotient);
        assert_eq!(outcomes.max_heap(), 12);
        for heaps in [&[][..], &[1], &[1, 1], &[2, 3], &[4, 5, 12], &[1, 1, 1]] {
            let x = outcomes.element(heaps).unwrap();
            assert_eq!(Some(!outcomes.is_unsafe(x)), quotient.outcome(heaps));
        }
        assert_eq!(outcomes.heap(13), None);
    }
}

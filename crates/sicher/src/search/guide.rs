//! Sprague-Grundy guidance for move ordering in one-heap rulesets.
//!
//! In normal play a position is unsafe exactly when the nim-values of its heaps XOR
//! to zero; in misère play of the same rules that is still the right guess for most
//! positions (it is exact for Nim away from the all-small-heaps ending). The solver
//! tries such children first. This is ordering only: answers never depend on it.

use crate::game::{Game, Heap};
use crate::theory::grundy::{MexReference, Sequence};

/// How many option visits the nim-value computation may spend in all.
const WORK_BUDGET: u64 = 40_000_000;
/// Largest heap given a nim-value.
const MAX_HEAP: Heap = 1 << 16;

/// Nim-values of small heaps, grown on demand within a work budget.
pub struct NimGuide {
    /// The plain definition, grown a heap at a time: G(0) from the start.
    values: MexReference,
    exhausted: bool,
}

impl NimGuide {
    /// An empty guide; `None` for rulesets whose moves touch several heaps.
    pub fn new(game: &Game) -> Option<Self> {
        game.ruleset.moves_one_heap().then(|| {
            let mut values = MexReference::new(game.ruleset.clone());
            // A script's heaps are read only as far as the entry point readied them.
            if game.ruleset.is_ready(0) {
                values.push_next();
            }
            NimGuide {
                values,
                exhausted: false,
            }
        })
    }

    /// Extends the values to heaps of size `max` where the budget allows.
    pub fn extend_to(&mut self, max: Heap) {
        let max = max.min(MAX_HEAP);
        while !self.exhausted && (self.values.values().len() as Heap) <= max && self.ruleset_ready()
        {
            self.values.push_next();
            self.exhausted = self.values.options_visited() > WORK_BUDGET;
        }
    }

    /// True when the next heap's options can be read (a script's, once readied).
    fn ruleset_ready(&self) -> bool {
        self.values
            .ruleset()
            .is_ready(self.values.values().len() as Heap)
    }

    /// The nim-value of a heap, when computed.
    #[inline]
    pub fn value(&self, h: Heap) -> Option<u32> {
        self.values.values().get(h as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;

    #[test]
    fn kayles_values_start_as_published() {
        let game = resolve("kayles").unwrap();
        let mut guide = NimGuide::new(&game).unwrap();
        guide.extend_to(12);
        let values: Vec<u32> = (0..=12).map(|h| guide.value(h).unwrap()).collect();
        assert_eq!(values, vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
    }
}

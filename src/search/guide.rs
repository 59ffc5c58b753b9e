//! Sprague-Grundy guidance for move ordering in one-heap rulesets.
//!
//! In normal play a position is unsafe exactly when the nim-values of its heaps XOR
//! to zero; in misère play of the same rules that is still the right guess for most
//! positions (it is exact for Nim away from the all-small-heaps ending). The solver
//! tries such children first. This is ordering only: answers never depend on it.

use std::ops::ControlFlow;

use crate::game::{Game, Heap};

/// How many option visits the nim-value computation may spend in all.
const WORK_BUDGET: u64 = 40_000_000;
/// Largest heap given a nim-value.
const MAX_HEAP: Heap = 1 << 16;

/// Nim-values of small heaps, grown on demand within a work budget.
pub struct NimGuide {
    values: Vec<u32>,
    work: u64,
    exhausted: bool,
}

impl NimGuide {
    /// An empty guide; `None` for rulesets whose moves touch several heaps.
    pub fn new(game: &Game) -> Option<Self> {
        game.ruleset.moves_one_heap().then(|| NimGuide {
            values: vec![0],
            work: 0,
            exhausted: false,
        })
    }

    /// Extends the values to heaps of size `max` where the budget allows.
    pub fn extend_to(&mut self, game: &Game, max: Heap) {
        let max = max.min(MAX_HEAP);
        let mut seen: Vec<u64> = Vec::new();
        while !self.exhausted && (self.values.len() as Heap) <= max {
            let h = self.values.len() as Heap;
            seen.clear();
            let values = &self.values;
            let mut work = 0u64;
            let _ = game.ruleset.for_each_heap_option(h, |parts| {
                work += 1;
                let value = parts.iter().fold(0, |x, &p| x ^ values[p as usize]) as usize;
                if seen.len() <= value / 64 {
                    seen.resize(value / 64 + 1, 0);
                }
                seen[value / 64] |= 1 << (value % 64);
                ControlFlow::Continue(())
            });
            let mex = seen
                .iter()
                .enumerate()
                .find(|(_, &word)| word != u64::MAX)
                .map_or(seen.len() * 64, |(i, &word)| {
                    i * 64 + word.trailing_ones() as usize
                });
            self.values.push(mex as u32);
            self.work += work;
            self.exhausted = self.work > WORK_BUDGET;
        }
    }

    /// The nim-value of a heap, when computed.
    #[inline]
    pub fn value(&self, h: Heap) -> Option<u32> {
        self.values.get(h as usize).copied()
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
        guide.extend_to(&game, 12);
        let values: Vec<u32> = (0..=12).map(|h| guide.value(h).unwrap()).collect();
        assert_eq!(values, vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]);
    }
}

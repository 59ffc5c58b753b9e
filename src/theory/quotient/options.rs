//! The options of every heap up to a bound, as lists of parts, read once from the
//! ruleset's move generator.

use std::ops::ControlFlow;

use crate::game::Ruleset;

/// Options of heaps `1..=max` (index 0 is the empty heap, which has none).
pub(crate) struct HeapOptions {
    /// `options[h]`: each option of a lone heap `h` as its parts, ascending, deduplicated.
    options: Vec<Vec<Vec<u32>>>,
}

impl HeapOptions {
    /// Reads the options of heaps `1..=max`.
    pub fn new(ruleset: &Ruleset, max: u32) -> Self {
        let mut options = vec![Vec::new()];
        for h in 1..=max {
            options.push(Self::of(ruleset, h));
        }
        HeapOptions { options }
    }

    fn of(ruleset: &Ruleset, h: u32) -> Vec<Vec<u32>> {
        let mut out: Vec<Vec<u32>> = Vec::new();
        let _ = ruleset.for_each_heap_option(h as u64, |parts| {
            out.push(parts.iter().map(|&p| p as u32).collect());
            ControlFlow::Continue(())
        });
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The options of heap `h`.
    pub fn of_heap(&self, h: u32) -> &[Vec<u32>] {
        &self.options[h as usize]
    }
}

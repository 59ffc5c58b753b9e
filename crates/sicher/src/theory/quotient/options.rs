//! The quotient construction's view of the game model's option table: each heap's
//! options as lists of parts, the form `construct.rs` and `extend.rs` read.

use crate::game::{OptionTable, Ruleset};

/// Options of heaps `1..=max` (index 0 is the empty heap, which has none).
pub(crate) struct HeapOptions {
    /// `options[h]`: each option of a lone heap `h` as its parts, ascending, deduplicated.
    options: Vec<Vec<Vec<u32>>>,
}

impl HeapOptions {
    /// Reads the options of heaps `1..=max` from the game model's table; `ruleset` must
    /// move one heap at a time (as every quotient needs, and its callers check first).
    pub fn new(ruleset: &Ruleset, max: u32) -> Self {
        let table = OptionTable::new(ruleset, u64::from(max))
            .expect("one-heap rulesets list their options (callers refuse the others)");
        let mut options = vec![Vec::new()];
        for h in 1..=u64::from(max) {
            let mut of: Vec<Vec<u32>> = table
                .of(h)
                .iter()
                .map(|option| option.parts().iter().map(|&p| p as u32).collect())
                .collect();
            of.sort_unstable();
            of.dedup();
            options.push(of);
        }
        HeapOptions { options }
    }

    /// The options of heap `h`.
    pub fn of_heap(&self, h: u32) -> &[Vec<u32>] {
        &self.options[h as usize]
    }
}

//! The plain definition of a nim-value sequence: the reference every faster engine is
//! tested against, and the engine of rulesets no faster one takes.

use std::ops::ControlFlow;

use super::{cap_above, Nimber, Sequence, Values};
use crate::game::Ruleset;
use crate::theory::grundy::MexSet;

/// The plain definition: G(n) is the mex of the XORs of the parts of every option.
#[derive(Clone, Debug)]
pub struct MexReference {
    ruleset: Ruleset,
    values: Vec<Nimber>,
    /// The values the options of the heap being computed reach.
    seen: MexSet,
    cap: u32,
    /// Options visited so far, for callers that grow a sequence within a work budget.
    options_visited: u64,
}

impl MexReference {
    /// An empty sequence for a one-heap ruleset.
    pub fn new(ruleset: Ruleset) -> Self {
        Self::with_storage(ruleset, Vec::new())
    }

    pub(super) fn with_storage(ruleset: Ruleset, mut values: Vec<Nimber>) -> Self {
        values.clear();
        let seen = MexSet::new();
        MexReference {
            ruleset,
            values,
            seen,
            cap: 1,
            options_visited: 0,
        }
    }

    /// The ruleset whose values these are.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// How many options the values computed so far took, in all.
    pub fn options_visited(&self) -> u64 {
        self.options_visited
    }
}

impl Sequence for MexReference {
    fn push_next(&mut self) {
        let n = self.values.len();
        let values = &self.values;
        // Every option's value lies below the cap.
        let mut seen = self.seen.start(u64::from(self.cap));
        let mut visited = 0u64;
        let _ = self.ruleset.for_each_heap_option(n as u64, |parts| {
            visited += 1;
            seen.insert(u64::from(
                parts.iter().fold(0, |acc, &p| acc ^ values[p as usize]),
            ));
            ControlFlow::Continue(())
        });
        let mex = self.seen.mex() as Nimber;
        self.options_visited += visited;
        self.values.push(mex);
        self.cap = cap_above(mex, self.cap);
    }

    fn values(&self) -> Values<'_> {
        Values::Wide(&self.values)
    }

    fn held_bytes(&self) -> usize {
        self.values.capacity() * std::mem::size_of::<Nimber>()
    }

    fn into_values(self: Box<Self>) -> Vec<Nimber> {
        self.values
    }

    fn preload(&mut self, known: &[Nimber]) -> bool {
        if !self.values.is_empty() {
            return false;
        }
        self.values.extend_from_slice(known);
        self.cap = known.iter().fold(1, |cap, &v| cap_above(v, cap));
        true
    }
}

//! The plain definition of a nim-value sequence: the reference every faster engine is
//! tested against, and the engine of rulesets no faster one takes.

use std::ops::ControlFlow;

use super::sparse::Stamps;
use super::{cap_above, Nimber, Sequence};
use crate::game::Ruleset;

/// The plain definition: G(n) is the mex of the XORs of the parts of every option.
#[derive(Clone, Debug)]
pub struct MexReference {
    ruleset: Ruleset,
    values: Vec<Nimber>,
    seen: Stamps,
    cap: u32,
}

impl MexReference {
    /// An empty sequence for a one-heap ruleset.
    pub fn new(ruleset: Ruleset) -> Self {
        Self::with_storage(ruleset, Vec::new())
    }

    pub(super) fn with_storage(ruleset: Ruleset, mut values: Vec<Nimber>) -> Self {
        values.clear();
        let mut seen = Stamps::default();
        seen.ensure(1);
        MexReference {
            ruleset,
            values,
            seen,
            cap: 1,
        }
    }
}

impl Sequence for MexReference {
    fn push_next(&mut self) {
        let n = self.values.len();
        let stamp = n as u32 + 1;
        let values = &self.values;
        let marks = &mut self.seen.marks;
        let _ = self.ruleset.for_each_heap_option(n as u64, |parts| {
            let v = parts.iter().fold(0, |acc, &p| acc ^ values[p as usize]);
            marks[v as usize] = stamp;
            ControlFlow::Continue(())
        });
        let mex = (0..=self.cap)
            .find(|&v| marks[v as usize] != stamp)
            .unwrap_or(self.cap);
        self.values.push(mex);
        self.cap = cap_above(mex, self.cap);
        self.seen.ensure(self.cap);
    }

    fn values(&self) -> &[Nimber] {
        &self.values
    }

    fn into_values(self: Box<Self>) -> Vec<Nimber> {
        self.values
    }
}

//! What is known about partizan heap games without searching every position: one-heap
//! outcome sequences with their periods ([`OutcomeSequence`]) and canonical forms of
//! heaps and their sums ([`HeapForms`], over [`crate::theory::cgt`]).

mod forms;
mod outcomes;

pub use forms::HeapForms;
pub use outcomes::OutcomeSequence;

//! What is known about partizan heap games without searching every position: one-heap
//! outcome sequences with their periods ([`OutcomeSequence`]) and canonical forms of
//! heaps and their sums ([`HeapForms`], over [`crate::theory::cgt`]).
//!
//! # Files
//!
//! - `outcomes.rs`: one-heap outcome sequences for each player to move, with proved or
//!   observed periods.
//! - `forms.rs`: canonical forms of single heaps in normal play and sums of heaps.

mod forms;
mod outcomes;

pub use forms::HeapForms;
pub use outcomes::OutcomeSequence;

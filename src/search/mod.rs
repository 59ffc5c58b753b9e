//! The top-down engine and its parts.
//!
//! [`Solver`] runs the `sicher` recursion as boolean alpha-beta on an explicit stack;
//! [`key`] gives positions compact incremental keys, [`table`] bounds the memory of
//! solved positions, [`ordering`] holds the history and killer heuristics, and
//! [`plain`] is the naive memoised solver kept as a measuring stick.

pub mod guide;
pub mod key;
pub mod ordering;
pub mod plain;
mod solver;
pub mod table;

pub use solver::{ProgressHook, SearchConfig, SearchStats, Solver};

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

use crate::game::Position;

/// Bytes of search stack one ply may take (frame, heaps, candidate moves), as the CLI's
/// memory check counts it.
pub const STACK_BYTES_PER_PLY: u64 = 256;

/// What `check` needs of a top-down engine, so the real one and the baseline are
/// interchangeable.
pub trait TopDown {
    /// `sicher(position)`: true when the player to move wins.
    fn is_win(&mut self, position: &Position) -> bool;
    /// One winning move (the position after it), or `None` when there is none.
    fn winning_move(&mut self, position: &Position) -> Option<Position>;
}

impl TopDown for Solver<'_> {
    fn is_win(&mut self, position: &Position) -> bool {
        Solver::is_win(self, position)
    }

    fn winning_move(&mut self, position: &Position) -> Option<Position> {
        Solver::winning_move(self, position)
    }
}

impl TopDown for plain::PlainSolver<'_> {
    fn is_win(&mut self, position: &Position) -> bool {
        plain::PlainSolver::is_win(self, position)
    }

    fn winning_move(&mut self, position: &Position) -> Option<Position> {
        plain::PlainSolver::winning_move(self, position)
    }
}

//! The top-down engine and its parts.
//!
//! [`Solver`] runs the `sicher` recursion as boolean alpha-beta on an explicit stack;
//! `key.rs` gives positions compact incremental keys, `bounded.rs` is the one bounded
//! transposition-table core (replacement keeps the entries that cost most) under
//! `table.rs` and the remoteness search's table, `ordering.rs` holds the history and
//! killer heuristics, `guide.rs` the nim-value ordering, and [`plain`] is the naive
//! memoised solver kept as a measuring stick.
//!
//! `remoteness/` answers a richer question, the remoteness (how many moves best play
//! takes to the end), by windowed alpha-beta over scores that encode it:
//! [`RemotenessSolver`], with the variants of [`Algorithm`], on one thread or several
//! sharing a table. What it takes from outside: [`Outcomes`] from theory (`theory.rs`)
//! and an [`Endgame`] table (`endgame.rs`) answering small positions.
//!
//! # Files
//!
//! - `solver.rs`: [`Solver`], boolean alpha-beta on an explicit stack.
//! - `key.rs`: compact 128-bit position keys, updated incrementally as moves are made.
//! - `heaps.rs`: heaps as both engines key them (dead heaps dropped) and the nim-sum
//!   guess that orders moves.
//! - `bounded.rs`: the bounded transposition-table core both engines store results in,
//!   keeping the entries that cost most.
//! - `table.rs`: the boolean search's transposition table, on the bounded core.
//! - `ordering.rs`: move-ordering memory: the history table and killer moves.
//! - `guide.rs`: nim-value guidance for move ordering in one-heap rulesets.
//! - `theory.rs`: [`Outcomes`], exact outcomes handed in from theory.
//! - `endgame.rs`: [`Endgame`], exact remotenesses of small positions handed in.
//! - `plain.rs`: [`plain`], the plain memoised solvers kept as a baseline.
//! - `remoteness/`: the remoteness search ([`RemotenessSolver`]).
//! - `partizan.rs`: the partizan search, `sicher(s, p)` top-down with the player to
//!   move in the key.

mod bounded;
mod endgame;
mod guide;
mod heaps;
mod key;
mod ordering;
mod partizan;
pub mod plain;
mod remoteness;
mod solver;
mod table;
mod theory;

pub use endgame::Endgame;
pub use partizan::PartizanSolver;
pub(crate) use partizan::DEFAULT_TABLE_BYTES as PARTIZAN_TABLE_BYTES;
pub use remoteness::{Algorithm, RemotenessSolver, RemotenessStats};
pub use solver::{ProgressHook, SearchConfig, SearchStats, Solver};
pub use theory::Outcomes;

use crate::game::Position;

/// Bytes of search stack one ply may take (frame, heaps, candidate moves), as the
/// memory check before a search counts it.
pub(crate) const STACK_BYTES_PER_PLY: u64 = 256;

/// What the answer layer needs of a top-down engine, so the real one and the baseline
/// are interchangeable.
pub(crate) trait TopDown: Send {
    /// `sicher(position)`: true when the player to move wins.
    fn is_win(&mut self, position: &Position) -> bool;
    /// One winning move (the position after it), or `None` when there is none.
    fn winning_move(&mut self, position: &Position) -> Option<Position>;
    /// Every winning move (the positions after them), in generation order.
    fn winning_moves(&mut self, position: &Position) -> Vec<Position>;
    /// What the engine did so far.
    fn stats(&self) -> SearchStats;
    /// Bytes its memo or transposition table has allocated (0 where not tracked).
    fn table_bytes(&self) -> usize;
    /// Installs a hook called now and then with the statistics (ignored by engines that
    /// keep none).
    fn set_progress(&mut self, hook: ProgressHook);
    /// Takes a misère quotient's exact outcomes for the heaps it covers (ignored by the
    /// plain reference, which must stay independent of theory).
    fn set_outcomes(&mut self, outcomes: Outcomes);
    /// The largest heap the outcomes taken cover (0: none taken).
    fn outcomes_cover(&self) -> u64;
}

impl TopDown for Solver {
    fn is_win(&mut self, position: &Position) -> bool {
        Solver::is_win(self, position)
    }

    fn winning_move(&mut self, position: &Position) -> Option<Position> {
        Solver::winning_move(self, position)
    }

    fn winning_moves(&mut self, position: &Position) -> Vec<Position> {
        Solver::winning_moves(self, position)
    }

    fn stats(&self) -> SearchStats {
        Solver::stats(self)
    }

    fn table_bytes(&self) -> usize {
        Solver::table_bytes(self)
    }

    fn set_progress(&mut self, hook: ProgressHook) {
        Solver::set_progress(self, hook)
    }

    fn set_outcomes(&mut self, outcomes: Outcomes) {
        Solver::set_outcomes(self, outcomes)
    }

    fn outcomes_cover(&self) -> u64 {
        Solver::outcomes_cover(self)
    }
}

impl TopDown for plain::PlainSolver {
    fn is_win(&mut self, position: &Position) -> bool {
        plain::PlainSolver::is_win(self, position)
    }

    fn winning_move(&mut self, position: &Position) -> Option<Position> {
        plain::PlainSolver::winning_move(self, position)
    }

    fn winning_moves(&mut self, position: &Position) -> Vec<Position> {
        plain::PlainSolver::winning_moves(self, position)
    }

    fn stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes(),
            ..SearchStats::default()
        }
    }

    fn table_bytes(&self) -> usize {
        0
    }

    fn set_progress(&mut self, _hook: ProgressHook) {}

    fn set_outcomes(&mut self, _outcomes: Outcomes) {}

    fn outcomes_cover(&self) -> u64 {
        0
    }
}

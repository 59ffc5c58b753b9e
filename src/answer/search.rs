//! Answers by the top-down search: it covers every position it can hold in memory.

use super::{Answer, Engine, Evidence, Oracle, Query, Solution, SourceKind};
use crate::error::{Error, Result};
use crate::game::{Game, Position};
use crate::search::plain::PlainSolver;
use crate::search::{ProgressHook, SearchConfig, Solver, TopDown, STACK_BYTES_PER_PLY};
use crate::value::{Outcome, Value};

/// The top-down search, keeping its transposition table across positions.
pub struct SearchSource {
    game: Game,
    engine: Box<dyn TopDown>,
}

impl SearchSource {
    /// A search of `game` with the given engine and settings.
    pub fn new(game: &Game, engine: Engine, config: SearchConfig) -> Self {
        let engine: Box<dyn TopDown> = match engine {
            Engine::Alphabeta => Box::new(Solver::new(game, config)),
            Engine::Plain => Box::new(PlainSolver::new(game)),
        };
        SearchSource {
            game: game.clone(),
            engine,
        }
    }

    /// Installs a hook the search calls now and then with its statistics.
    pub fn set_progress(&mut self, hook: ProgressHook) {
        self.engine.set_progress(hook);
    }

    /// Refuses a position whose search could not fit: each ply takes at least a token, so
    /// the stack may grow as deep as the position has tokens.
    fn check_fits(&self, position: &Position) -> Result<()> {
        let needed = position
            .total()
            .saturating_mul(u128::from(STACK_BYTES_PER_PLY));
        let Some(available) = crate::memory::available() else {
            return Ok(());
        };
        if needed <= u128::from(available) {
            return Ok(());
        }
        let instead = if crate::grundy::fast_path::applies(&self.game) {
            "; use --method grundy (nim-values) instead"
        } else {
            ""
        };
        Err(Error::input(format!(
            "position {position} has {} tokens: its search could go that many moves deep, about {} MiB of stack against {} MiB available{instead}",
            position.total(),
            needed >> 20,
            available >> 20
        )))
    }
}

impl Oracle for SearchSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Search
    }

    fn answer(&mut self, position: &Position, query: Query) -> Result<Option<Answer>> {
        self.check_fits(position)?;
        let win = self.engine.is_win(position);
        let best_move = if win && query.best_move {
            self.engine.winning_move(position)
        } else {
            None
        };
        Ok(Some(Answer {
            position: position.clone(),
            value: Value::Outcome(Outcome::from_win(win)),
            best_move,
            source: SourceKind::Search,
        }))
    }

    fn solve(&mut self, position: &Position, _query: Query) -> Result<Option<Solution>> {
        self.check_fits(position)?;
        let win = self.engine.is_win(position);
        let mut winning_moves = if win {
            self.engine.winning_moves(position)
        } else {
            Vec::new()
        };
        winning_moves.sort();
        Ok(Some(Solution {
            answer: Answer {
                position: position.clone(),
                value: Value::Outcome(Outcome::from_win(win)),
                best_move: winning_moves.first().cloned(),
                source: SourceKind::Search,
            },
            winning_moves,
            moves: Vec::new(),
            complete: true,
            evidence: Evidence::Search {
                stats: self.engine.stats(),
                table_bytes: self.engine.table_bytes(),
            },
        }))
    }
}

//! The remoteness search with what the answer layer gives it: the misère quotient that
//! orders its moves, and an endgame table it looks small positions up in.
//!
//! Both cost something before they save anything (a quotient that grows wild can take
//! a second to give up; a table is labelled whole), so a position first gets a short
//! search alone: most positions finish within it. One that does not is a long search,
//! and then theory and an endgame table sized to pay for itself are brought in before
//! the search goes on (with what it already proved kept in its table).

use std::sync::Arc;

use super::endgame::{self, Labelled};
use super::theory::Grown;
use crate::domain::Domain;
use crate::game::{Game, Position};
use crate::search::{Algorithm, ProgressHook, RemotenessSolver, RemotenessStats, SearchConfig};
use crate::value::Value;
use crate::Cancel;

/// Nodes a position is searched alone before theory and an endgame table are brought in.
const ALONE_NODES: u64 = 1 << 12;
/// Nodes the search goes on alone between looks at a quotient built beside it.
const BESIDE_NODES: u64 = 1 << 13;
/// An endgame table may take at least this fraction of the memory the search may take
/// (more where the search's tables hold less when it is labelled).
const ENDGAME_SHARE: usize = 2;

/// The remoteness solver and what was handed to it.
pub(super) struct Remote {
    game: Game,
    config: SearchConfig,
    solver: RemotenessSolver,

    theory: Grown,
    /// The domain of the endgame table handed over, if any.
    endgame: Option<Domain>,
    /// Positions labelled for endgame tables so far.
    endgame_positions: u64,
    /// Theory and tables were brought in for the largest heap and the total here.
    prepared_for: (u64, u64),
}

impl Remote {
    pub(super) fn new(game: &Game, config: SearchConfig, algorithm: Algorithm) -> Self {
        let mut solver = RemotenessSolver::new(game, config, algorithm);
        // The short search runs on one thread: threads pay only in long ones.
        solver.set_parallel(false);
        Remote {
            game: game.clone(),
            config,
            solver,
            theory: Grown::default(),
            endgame: None,
            endgame_positions: 0,

            prepared_for: (0, 0),
        }
    }

    pub(super) fn set_progress(&mut self, hook: ProgressHook) {
        self.solver.set_progress(hook);
    }

    pub(super) fn stats(&self) -> RemotenessStats {
        self.solver.stats()
    }

    pub(super) fn table_bytes(&self) -> usize {
        self.solver.table_bytes()
    }

    /// Positions labelled for endgame tables so far.
    pub(super) fn endgame_positions(&self) -> u64 {
        self.endgame_positions
    }

    /// True when theory and tables already cover `position` as far as they will.
    fn prepared(&self, position: &Position) -> bool {
        let largest = position.heaps().last().copied().unwrap_or(0);
        let total = position.total().min(u128::from(u64::MAX)) as u64;
        largest <= self.prepared_for.0 && total <= self.prepared_for.1
    }

    /// Brings in theory, an endgame table and the threads for positions like
    /// `position`, whose short search did not finish, and searches it within `nodes`
    /// more nodes (`u64::MAX`: no limit).
    ///
    /// On several threads a quotient still to be built is built on a thread of its own
    /// while the search goes on alone, and handed over when it is ready: one that grows
    /// wild takes tens of milliseconds to give up (misère Grundy's game), and the
    /// search often finishes first, which then stops the construction.
    fn prepare_and_search(&mut self, position: &Position, nodes: u64) -> Option<Value> {
        let largest = position.heaps().last().copied().unwrap_or(0);
        let beside = self.config.guide
            && self.config.threads > 1
            && self.theory.would_grow(&self.game, largest);
        if !beside {
            if self.config.guide {
                if let Some(outcomes) = self.theory.grow(&self.game, largest, None) {
                    self.solver.set_outcomes(outcomes);
                }
            }
            let nodes = self.prepare_tables(position, nodes);
            return self.search_within(position, nodes);
        }
        let cancel = Cancel::default();
        let (mut grown, game, stop) = (self.theory.clone(), self.game.clone(), cancel.clone());
        std::thread::scope(|scope| {
            let builder = scope.spawn(move || {
                let outcomes = grown.grow(&game, largest, Some(stop));
                (grown, outcomes)
            });
            let nodes = self.prepare_tables(position, nodes);
            self.solver.set_parallel(false);
            let start = self.solver.stats().nodes;
            while !builder.is_finished() {
                let spent = self.solver.stats().nodes - start;
                let found = match nodes.checked_sub(spent) {
                    Some(left) if left > 0 => {
                        self.solver.value_within(position, left.min(BESIDE_NODES))
                    }
                    _ => None,
                };
                let out_of_nodes = self.solver.stats().nodes - start >= nodes;
                if found.is_some() || out_of_nodes {
                    // What the construction learned is dropped with it: a later
                    // position builds the quotient again.
                    cancel.cancel();
                    self.solver.set_parallel(true);
                    return found;
                }
            }
            let (grown, outcomes) = builder
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            self.theory = grown;
            if let Some(outcomes) = outcomes {
                self.solver.set_outcomes(outcomes);
            }
            self.solver.set_parallel(true);
            let spent = self.solver.stats().nodes - start;
            let left = if nodes == u64::MAX {
                u64::MAX
            } else {
                nodes.saturating_sub(spent)
            };
            self.search_within(position, left)
        })
    }

    /// Brings in an endgame table and the threads for positions like `position`, for a
    /// search within `nodes` nodes (`u64::MAX`: no limit), and returns the nodes left:
    /// labelling counts against the budget, as [`endgame::LABELLED_PER_NODE`]
    /// positions for a node, so that a search that may not take long labels no large
    /// table.
    fn prepare_tables(&mut self, position: &Position, nodes: u64) -> u64 {
        let largest = position.heaps().last().copied().unwrap_or(0);
        let total = u64::try_from(position.total()).unwrap_or(u64::MAX);
        let game = &self.game;
        let canonical = Position::new(
            position
                .heaps()
                .iter()
                .copied()
                .filter(|&h| h > 0 && !game.is_dead(h))
                .collect(),
        );
        // Labelling peaks while the search's own tables are still small (only the short
        // search has filled them), so the table may take whatever they do not hold yet.
        let bytes = self
            .config
            .hash_bytes
            .saturating_sub(self.solver.table_bytes())
            .max(self.config.hash_bytes / ENDGAME_SHARE) as u64;
        let threads = self.config.threads.max(1);
        let most_positions = nodes.saturating_mul(endgame::LABELLED_PER_NODE);
        let tiers = self.solver.tiers();
        let has_table = self.endgame.is_some();
        let mut labelled = 0;
        if let Some(domain) = endgame::choose(
            game,
            &canonical,
            tiers,
            bytes,
            threads,
            most_positions,
            has_table,
        ) {
            if self.endgame != Some(domain) {
                if let Ok(table) = Labelled::label(game, domain, Some(threads)) {
                    labelled = table.positions();
                    self.endgame_positions += labelled;
                    self.solver.set_endgame(Arc::new(table));
                    self.endgame = Some(domain);
                }
            }
        }
        self.solver.set_parallel(true);
        // A table the budget kept small is no preparation for a longer search later.
        if most_positions >= endgame::most_positions_on(threads) {
            self.prepared_for = (
                self.prepared_for.0.max(largest),
                self.prepared_for.1.max(total),
            );
        }
        if nodes == u64::MAX {
            nodes
        } else {
            nodes.saturating_sub(labelled / endgame::LABELLED_PER_NODE)
        }
    }

    /// The remoteness of `position` within `nodes` more nodes (`u64::MAX`: no limit).
    fn search_within(&mut self, position: &Position, nodes: u64) -> Option<Value> {
        if nodes == u64::MAX {
            Some(self.solver.value(position))
        } else {
            self.solver.value_within(position, nodes)
        }
    }

    /// The remoteness of `position`.
    pub(super) fn value(&mut self, position: &Position) -> Value {
        if !self.prepared(position) {
            if let Some(value) = self.solver.value_within(position, ALONE_NODES) {
                return value;
            }
            if let Some(value) = self.prepare_and_search(position, u64::MAX) {
                return value;
            }
        }
        self.solver.value(position)
    }

    /// The remoteness of `position` if the search needs at most `nodes` more nodes.
    pub(super) fn value_within(&mut self, position: &Position, nodes: u64) -> Option<Value> {
        let before = self.solver.stats().nodes;
        if !self.prepared(position) {
            if let Some(value) = self.solver.value_within(position, nodes.min(ALONE_NODES)) {
                return Some(value);
            }
            if nodes <= ALONE_NODES {
                return None;
            }
            let spent = self.solver.stats().nodes - before;
            return self.prepare_and_search(position, nodes - spent);
        }
        self.solver.value_within(position, nodes)
    }

    /// Every move with the value it leads to (see [`RemotenessSolver::moves`]).
    pub(super) fn moves(&mut self, position: &Position) -> Vec<(Position, Value)> {
        self.value(position);
        self.solver.moves(position)
    }

    /// The remoteness-optimal move (see [`RemotenessSolver::best_move`]).
    pub(super) fn best_move(&mut self, position: &Position) -> Option<(Position, Value)> {
        self.value(position);
        self.solver.best_move(position)
    }

    /// Positions of the proof tree of `position`'s value (see
    /// [`RemotenessSolver::proof_size`]).
    pub(super) fn proof_size(&mut self, position: &Position) -> u64 {
        self.solver.proof_size(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;

    /// A search on a node budget counts the endgame table it labels against the budget,
    /// and a later search without one still gets the table that pays for it.
    #[test]
    fn labelling_counts_against_a_node_budget() {
        let game = resolve("kayles").unwrap();
        let position = Position::new(vec![10, 11, 12, 13, 14]);
        let config = SearchConfig {
            threads: 1,
            ..SearchConfig::default()
        };
        let mut remote = Remote::new(&game, config, Algorithm::default());
        let budget = 1 << 16;
        assert_eq!(remote.value_within(&position, budget), None);
        let within = remote.endgame_positions();
        assert!(within <= budget * endgame::LABELLED_PER_NODE, "{within}");
        assert_eq!(remote.value(&position), Value::remote(51, game.convention));
        assert!(
            remote.endgame_positions() > within + budget * endgame::LABELLED_PER_NODE,
            "{within} {}",
            remote.endgame_positions()
        );
    }
}

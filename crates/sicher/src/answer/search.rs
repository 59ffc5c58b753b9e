//! Answers by the top-down search: it covers every position it can hold in memory.
//!
//! The verdict comes from the boolean engine, which in misère play ends at the positions
//! a misère quotient lent by the chain covers ([`SearchSource::take_quotient`]); the
//! remoteness from the valued search
//! ([`RemotenessSolver`](crate::search::RemotenessSolver)), to which this layer hands
//! what the search may not import itself (`remoteness.rs`): the misère quotient that
//! orders its moves (`theory.rs`) and endgame tables labelled bottom-up on the fly
//! (`endgame.rs`), both brought in only once a short search alone has not finished.
//! [`Remoteness::Required`] runs the valued search alone; [`Remoteness::IfAvailable`]
//! runs the boolean one, then the valued one within a node budget proportional to the
//! verdict's work (a fixed one after a verdict the quotient's leaves helped; endgame
//! labelling counts against it; the plain baseline: without one), and answers the verdict alone
//! when the budget runs out (the remoteness can cost far more than the verdict, where
//! the boolean search's pair cancelling does not hold).
//!
//! # Files of `search/`
//!
//! - `remoteness.rs`: the remoteness search run short alone first, then with theory and an
//!   endgame table brought in for a long one.
//! - `theory.rs`: the misère quotient the remoteness search orders moves by, built as far
//!   as the positions asked about need.
//! - `endgame.rs`: endgame tables labelled bottom-up on the fly, and the choice of the
//!   domain that pays for itself.

mod endgame;
mod remoteness;
mod theory;

use std::sync::{Arc, Mutex};

use super::{
    sort_moves, winning_moves_among, Answer, Engine, Evidence, Oracle, Query, Remoteness, Solution,
    SourceKind,
};
use crate::error::{Error, Hint, Result};
use crate::game::{Game, Position};
use crate::search::plain::{PlainRemoteness, PlainSolver};
use crate::search::{
    Algorithm, Outcomes, ProgressHook, RemotenessStats, SearchConfig, SearchStats, Solver, TopDown,
    STACK_BYTES_PER_PLY,
};
use crate::theory::quotient::MisereQuotient;
use crate::value::{Outcome, Value};

/// [`Remoteness::IfAvailable`]: the valued search may expand this many nodes per node
/// of the boolean search before the verdict is answered alone (on the benchmark suite
/// the remoteness costs 1 to 4 times the verdict's nodes where the boolean search has
/// no shortcut the valued one lacks, 20 to 270 times where it has)...
pub const REMOTENESS_BUDGET_FACTOR: u64 = 16;
/// ...and at least this many, so that positions the boolean search answers at once
/// still get their remoteness (a fraction of a second on most rulesets).
pub const REMOTENESS_BUDGET_FLOOR: u64 = 1 << 16;

/// [`Remoteness::IfAvailable`] after a verdict a misère quotient helped: the valued
/// search may expand this many nodes (about a second).
pub const REMOTENESS_BUDGET_BEYOND_QUOTIENT: u64 = 1 << 18;

/// The progress hook shared by the boolean and the valued engine.
type SharedHook = Arc<Mutex<Option<ProgressHook>>>;

/// The top-down search, keeping its transposition tables across positions.
pub struct SearchSource {
    game: Game,
    engine: Engine,
    config: SearchConfig,
    algorithm: Algorithm,
    boolean: Box<dyn TopDown>,
    /// Made on the first question about remoteness, so that verdicts alone never
    /// allocate its table.
    valued: Option<Valued>,
    hook: SharedHook,
    /// Memory available, read once: a batch of positions must not read the system's
    /// figures for each.
    available: std::cell::OnceCell<Option<u64>>,
}

/// The engine that answers remoteness.
enum Valued {
    Search(Box<remoteness::Remote>),
    Plain(Box<PlainRemoteness>),
}

impl SearchSource {
    /// A search of `game` with the given engine and settings; remoteness by
    /// [`Algorithm::default`].
    pub fn new(game: &Game, engine: Engine, config: SearchConfig) -> Self {
        Self::with_algorithm(game, engine, config, Algorithm::default())
    }

    /// A search of `game` whose remoteness comes from `algorithm`.
    pub fn with_algorithm(
        game: &Game,
        engine: Engine,
        config: SearchConfig,
        algorithm: Algorithm,
    ) -> Self {
        let boolean: Box<dyn TopDown> = match engine {
            Engine::Alphabeta => Box::new(Solver::new(game, config)),
            Engine::Plain => Box::new(PlainSolver::new(game)),
        };
        SearchSource {
            game: game.clone(),
            engine,
            config,
            algorithm,
            boolean,
            valued: None,
            hook: Arc::default(),
            available: std::cell::OnceCell::new(),
        }
    }

    /// The exact outcomes of `game`'s misère quotient for heaps up to `largest`, as the
    /// remoteness search takes them ([`RemotenessSolver::set_outcomes`](crate::search::RemotenessSolver::set_outcomes)); `None` where
    /// the game has none or it cannot be built in the budget of quotients built while
    /// answering.
    pub fn misere_outcomes(game: &Game, largest: u64) -> Option<crate::search::Outcomes> {
        theory::misere_outcomes(game, largest)
    }

    /// Takes a misère quotient of the game, whole or partial: the verdict search ends at
    /// every position whose heaps it covers (kept when it covers more than the last).
    pub fn take_quotient(&mut self, quotient: &MisereQuotient) {
        if quotient.max_heap > self.boolean.outcomes_cover() {
            self.boolean.set_outcomes(Outcomes::from_quotient(quotient));
        }
    }

    /// Installs a hook the search calls now and then with its statistics.
    pub fn set_progress(&mut self, hook: ProgressHook) {
        if let Ok(mut shared) = self.hook.lock() {
            *shared = Some(hook);
        }
        self.boolean.set_progress(forward(&self.hook));
        if let Some(Valued::Search(solver)) = &mut self.valued {
            solver.set_progress(forward(&self.hook));
        }
    }

    /// What the remoteness search did so far (`None` before it first ran, and for
    /// the plain baseline).
    pub fn remoteness_stats(&self) -> Option<RemotenessStats> {
        match &self.valued {
            Some(Valued::Search(remote)) => Some(remote.stats()),
            _ => None,
        }
    }

    /// Positions the remoteness search had labelled for its endgame tables so far.
    pub fn endgame_positions(&self) -> u64 {
        match &self.valued {
            Some(Valued::Search(remote)) => remote.endgame_positions(),
            _ => 0,
        }
    }

    /// Positions of the proof tree of `position`'s remoteness, as the remoteness search
    /// found it ([`RemotenessSolver::proof_size`](crate::search::RemotenessSolver::proof_size)); `None` for the plain baseline. Runs
    /// searches of its own: read [`Self::remoteness_stats`] first.
    pub fn proof_size(&mut self, position: &Position) -> Option<u64> {
        match self.valued() {
            Valued::Search(remote) => Some(remote.proof_size(position)),
            Valued::Plain(_) => None,
        }
    }

    /// The valued engine, made on first use.
    fn valued(&mut self) -> &mut Valued {
        let SearchSource {
            game,
            engine,
            config,
            algorithm,
            hook,
            ..
        } = self;
        self.valued.get_or_insert_with(|| match engine {
            Engine::Alphabeta => {
                let mut remote = remoteness::Remote::new(game, *config, *algorithm);
                if hook.lock().is_ok_and(|hook| hook.is_some()) {
                    remote.set_progress(forward(hook));
                }
                Valued::Search(Box::new(remote))
            }
            Engine::Plain => Valued::Plain(Box::new(PlainRemoteness::new(game))),
        })
    }

    /// The value of `position` as `wanted`: with its remoteness when required, or when
    /// available within the budget; the verdict alone otherwise.
    fn value(&mut self, position: &Position, wanted: Remoteness) -> Value {
        // The plain baseline has no budget, so it answers what it is asked in full.
        let plain = self.engine == Engine::Plain && wanted == Remoteness::IfAvailable;
        if wanted == Remoteness::Required || plain {
            return match self.valued() {
                Valued::Search(solver) => solver.value(position),
                Valued::Plain(plain) => plain.value(position),
            };
        }
        let before = self.boolean.stats();
        let win = self.boolean.is_win(position);
        let verdict = Value::Outcome(Outcome::from_win(win));
        if wanted == Remoteness::Skip {
            return verdict;
        }
        let after = self.boolean.stats();
        let spent = after.nodes - before.nodes;
        // Positions a misère quotient answered are leaves of the verdict's search but
        // not of the remoteness's, which must play them out: the verdict's nodes then
        // say nothing of what the remoteness costs, and the budget is a fixed one
        // (Dawson's Kayles 50 59: 3 s for the verdict, then over 80 s in vain for 16
        // times its nodes, 1 s for this budget; misère Grundy 60 still gets its
        // remoteness).
        let budget = if after.theory_answers > before.theory_answers {
            REMOTENESS_BUDGET_BEYOND_QUOTIENT
        } else {
            spent
                .saturating_mul(REMOTENESS_BUDGET_FACTOR)
                .max(REMOTENESS_BUDGET_FLOOR)
        };
        let Valued::Search(solver) = self.valued() else {
            return verdict;
        };
        match solver.value_within(position, budget) {
            Some(value) => {
                debug_assert_eq!(value.is_win(), win, "{position}");
                value
            }
            None => verdict,
        }
    }

    /// Every move once with the value it leads to, best first ([`sort_moves`]).
    fn valued_moves(&mut self, position: &Position) -> Vec<(Position, Value)> {
        let mut moves = match self.valued() {
            Valued::Search(solver) => solver.moves(position),
            Valued::Plain(plain) => plain_children(position, plain),
        };
        // Coupled moves can reach one position through different heaps.
        moves.sort_by(|a, b| a.0.cmp(&b.0));
        moves.dedup_by(|a, b| a.0 == b.0);
        sort_moves(&mut moves);
        moves
    }

    /// The fastest winning move of a safe position whose remoteness is known.
    fn fastest_win(&mut self, position: &Position) -> Option<Position> {
        let best = match self.valued() {
            Valued::Search(solver) => solver.best_move(position),
            Valued::Plain(_) => self.valued_moves(position).into_iter().next(),
        };
        best.filter(|(_, child)| !child.is_win()).map(|(to, _)| to)
    }

    /// What both engines did so far, summed.
    fn evidence(&self) -> Evidence {
        let mut stats = self.boolean.stats();
        let mut table_bytes = self.boolean.table_bytes();
        match &self.valued {
            Some(Valued::Search(solver)) => {
                stats = combined(stats, solver.stats().as_search_stats());
                table_bytes += solver.table_bytes();
            }
            Some(Valued::Plain(plain)) => stats.nodes += plain.nodes(),
            None => {}
        }
        Evidence::Search { stats, table_bytes }
    }

    /// Refuses a position whose search could not fit. Each ply takes at least a token, so
    /// the stack may grow as deep as the position has tokens, and every ply on it holds
    /// its position's moves: the estimate counts the plies (frame and heaps) and, for
    /// the moves, the root's moves on half the plies (positions lose moves as they lose
    /// tokens; Kayles 20 000 holds about 10^8 candidate moves at depth).
    fn check_fits(&self, position: &Position) -> Result<()> {
        let Some(available) = *self.available.get_or_init(crate::memory::available) else {
            return Ok(());
        };
        let available = u128::from(available);
        let tokens = position.total();
        let plies = tokens.saturating_mul(u128::from(STACK_BYTES_PER_PLY));
        // The root's moves, counted up to a cap (a heap of 10^18 tokens has as many).
        let half_depth = (tokens / 2).max(1);
        let (mut moves, mut move_bytes) = (0u128, 0u128);
        let counted = self
            .game
            .ruleset
            .for_each_move(position.heaps(), |removed, added| {
                moves += 1;
                move_bytes +=
                    u128::from(STACK_BYTES_PER_MOVE) + 8 * (removed.len() + added.len()) as u128;
                if moves == MOVES_COUNTED {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            });
        let needed = plies.saturating_add(half_depth.saturating_mul(move_bytes));
        if needed <= available {
            return Ok(());
        }
        let (moves, about) = match counted {
            std::ops::ControlFlow::Break(()) => (format!("more than {moves}"), "at least"),
            std::ops::ControlFlow::Continue(()) => (moves.to_string(), "about"),
        };
        let error = Error::resource(format!(
            "position {position} has {tokens} tokens and {moves} moves: its search could go that many moves deep, holding each position's moves on the way: {about} {} MiB against {} MiB available",
            needed >> 20,
            available >> 20
        ));
        Err(if crate::theory::grundy::applies(&self.game) {
            error.with_hint(Hint::UseNimValues)
        } else {
            error
        })
    }
}

/// Moves of the root counted at most, for the estimate.
const MOVES_COUNTED: u128 = 1 << 20;

/// Bytes of one candidate move on the search stack besides its heap operations (8 bytes
/// each): its key, signature, ordering score, nim-sum guess and where its operations lie.
const STACK_BYTES_PER_MOVE: u64 = 48;

/// A hook that hands the statistics on to the shared one.
fn forward(hook: &SharedHook) -> ProgressHook {
    let hook = Arc::clone(hook);
    Box::new(move |stats: &SearchStats| {
        if let Some(hook) = hook.lock().ok().as_mut().and_then(|hook| hook.as_mut()) {
            hook(stats);
        }
    })
}

/// Two engines' statistics as one: counts summed, the deeper depth.
fn combined(a: SearchStats, b: SearchStats) -> SearchStats {
    SearchStats {
        nodes: a.nodes + b.nodes,
        table_hits: a.table_hits + b.table_hits,
        etc_cutoffs: a.etc_cutoffs + b.etc_cutoffs,
        cutoffs: a.cutoffs + b.cutoffs,
        max_depth: a.max_depth.max(b.max_depth),
        table_entries: a.table_entries + b.table_entries,
        evictions: a.evictions + b.evictions,
        theory_answers: a.theory_answers + b.theory_answers,
    }
}

/// Every child of `position` with its value by the plain baseline.
fn plain_children(position: &Position, plain: &mut PlainRemoteness) -> Vec<(Position, Value)> {
    let game = plain.game().clone();
    game.children_prepared(position)
        .into_iter()
        .map(|child| {
            let value = plain.value(&child);
            (child, value)
        })
        .collect()
}

impl Oracle for SearchSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Search
    }

    fn answer(&mut self, position: &Position, query: Query) -> Result<Option<Answer>> {
        self.check_fits(position)?;
        let value = self.value(position, query.remoteness);
        let best_move = match value {
            _ if !(value.is_win() && query.best_move) => None,
            Value::Remoteness { .. } => self.fastest_win(position),
            _ => self.boolean.winning_move(position),
        };
        Ok(Some(Answer {
            position: position.clone(),
            value,
            best_move,
            source: SourceKind::Search,
        }))
    }

    fn solve(&mut self, position: &Position, query: Query) -> Result<Option<Solution>> {
        self.check_fits(position)?;
        if query.remoteness == Remoteness::Required {
            let value = self.value(position, Remoteness::Required);
            let moves = self.valued_moves(position);
            let winning_moves = winning_moves_among(&moves);
            let best_move = moves
                .first()
                .filter(|(_, child)| !child.is_win())
                .map(|(to, _)| to.clone());
            return Ok(Some(Solution {
                answer: Answer {
                    position: position.clone(),
                    value,
                    best_move,
                    source: SourceKind::Search,
                },
                winning_moves,
                moves,
                complete: true,
                evidence: self.evidence(),
            }));
        }
        let value = self.value(position, query.remoteness);
        let mut winning_moves = if value.is_win() {
            self.boolean.winning_moves(position)
        } else {
            Vec::new()
        };
        winning_moves.sort();
        let best_move = match value {
            Value::Remoteness { .. } if value.is_win() => self.fastest_win(position),
            _ => winning_moves.first().cloned(),
        };
        Ok(Some(Solution {
            answer: Answer {
                position: position.clone(),
                value,
                best_move,
                source: SourceKind::Search,
            },
            winning_moves,
            moves: Vec::new(),
            complete: true,
            evidence: self.evidence(),
        }))
    }
}

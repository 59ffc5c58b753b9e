//! Remoteness: how many moves (of both players) best play takes from a position to the
//! end of the game, the winner hurrying and the loser holding out.
//!
//! The search is alpha-beta over [`score`]s that fold the outcome and the remoteness
//! into one integer, as chess engines fold mate distances: `engine.rs` is fail-soft
//! alpha-beta on an explicit stack, `table.rs` the bounded transposition table of
//! lower and upper bounds, `heaps.rs` the exact simplification it allows (dead heaps;
//! not pair cancelling) and the nim-sum guesses that order moves, `proof.rs` measures
//! move ordering against the proof tree. [`RemotenessSolver`] drives the engine with
//! one of four windowed [`Algorithm`]s, all exact; they differ only in work.

mod engine;
mod proof;
pub mod score;
pub mod table;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use serde::Serialize;

use self::engine::Engine;
use self::score::{lift_alpha, lift_beta, unshrink, Score, MAX, MIN};
use crate::error::{Error, Result};
use crate::game::{Game, Position};
use crate::search::endgame::Endgame;
use crate::search::theory::Outcomes;
use crate::search::{ProgressHook, SearchConfig, SearchStats};
use crate::value::Value;

/// How the windows of the remoteness search are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Knuth and Moore's F2: one fail-soft search with the full window.
    AlphaBeta,
    /// The boolean question first ("is it a win?"), then a narrow window around the
    /// bound it proved, widened on failure.
    Aspiration,
    /// Full window for the first child of every position, null-window probes for the
    /// others, a re-search when a probe fails high inside the window (NegaScout/PVS).
    NegaScout,
    /// A sequence of null-window tests "is the score at least g?", each bound moving to
    /// the value the last test returned, starting with "is it a win?".
    MtdF,
}

impl Algorithm {
    /// Every variant, in the order the benchmark lists them.
    pub const ALL: [Algorithm; 4] = [
        Algorithm::AlphaBeta,
        Algorithm::Aspiration,
        Algorithm::NegaScout,
        Algorithm::MtdF,
    ];

    /// The name `--algorithm` takes.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Aspiration => "aspiration",
            Algorithm::NegaScout => "negascout",
            Algorithm::MtdF => "mtdf",
        }
    }
}

impl Default for Algorithm {
    /// The variant that searched fewest nodes on the benchmark suite, in a time tied
    /// with MTD(f)'s (README, "Remoteness search").
    fn default() -> Self {
        Algorithm::AlphaBeta
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        Algorithm::ALL
            .into_iter()
            .find(|algorithm| algorithm.name() == text)
            .ok_or_else(|| {
                Error::input(format!(
                    "unknown remoteness algorithm {}: use alphabeta, aspiration, negascout or mtdf",
                    crate::error::quote(text)
                ))
            })
    }
}

/// What a remoteness search did.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct RemotenessStats {
    /// Positions expanded (their moves generated).
    pub nodes: u64,
    /// Children answered by the transposition table's bounds without a search.
    pub table_hits: u64,
    /// Positions cut off by a child's stored bound before any search (enhanced
    /// transposition cut-offs).
    pub etc_cutoffs: u64,
    /// Positions cut off by a searched child.
    pub cutoffs: u64,
    /// Searches done again: NegaScout probes that failed high inside their window, and
    /// aspiration windows that failed.
    pub re_searches: u64,
    /// Searches started from a root (MTD(f)'s null-window tests, aspiration windows,
    /// one per full-window search).
    pub root_searches: u64,
    /// Deepest ply reached.
    pub max_depth: u64,
    /// Positions in the transposition table.
    pub table_entries: u64,
    /// Table entries dropped by the replacement policy.
    pub evictions: u64,
    /// Positions answered by the endgame table instead of a search.
    pub endgame_hits: u64,
}

impl RemotenessStats {
    /// The same counts in the boolean engine's shape, for progress hooks.
    pub fn as_search_stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes,
            table_hits: self.table_hits + self.endgame_hits,
            etc_cutoffs: self.etc_cutoffs,
            cutoffs: self.cutoffs,
            max_depth: self.max_depth,
            table_entries: self.table_entries,
            evictions: self.evictions,
        }
    }
}

/// Aspiration: half-width of the first window, in score units (one remoteness step
/// of a given outcome is two units), and its growth on each failure.
const ASPIRATION_DELTA: i64 = 4;
const ASPIRATION_GROWTH: i64 = 4;

/// The remoteness solver for one game; keep it to reuse its table across positions.
pub struct RemotenessSolver {
    engine: Engine,
    algorithm: Algorithm,
}

impl RemotenessSolver {
    /// A solver for `game`; `config.hash_bytes` bounds its transposition table.
    pub fn new(game: &Game, config: SearchConfig, algorithm: Algorithm) -> Self {
        RemotenessSolver {
            engine: Engine::new(game, config, algorithm == Algorithm::NegaScout),
            algorithm,
        }
    }

    /// Orders moves and narrows windows by the exact outcomes of a misère quotient of
    /// the game's ruleset (the answer layer builds it), for positions whose heaps it
    /// covers; ignored when the settings switch guidance off.
    pub fn set_outcomes(&mut self, outcomes: Outcomes) {
        self.engine.set_outcomes(outcomes);
    }

    /// Positions expanded so far by their number of tokens: slot `t` counts those of
    /// `t` tokens, the last slot those of at least as many. Where a search spends its
    /// nodes says which endgame table would pay for itself.
    pub fn tiers(&self) -> &[u64] {
        self.engine.tiers()
    }

    /// Looks up the positions `endgame` covers instead of searching them.
    pub fn set_endgame(&mut self, endgame: Arc<dyn Endgame>) {
        self.engine.set_endgame(endgame);
    }

    /// The algorithm this solver runs.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The remoteness of `position`, with the outcome it implies.
    pub fn value(&mut self, position: &Position) -> Value {
        let score = self.score(position);
        score::to_value(score, self.engine.game().convention)
    }

    /// The remoteness of `position` if the search needs at most `nodes` more nodes
    /// for it; `None` when it gives up. What it proved before giving up stays in the
    /// table.
    pub fn value_within(&mut self, position: &Position, nodes: u64) -> Option<Value> {
        let limit = self.engine.stats().nodes.saturating_add(nodes);
        self.engine.set_limit(limit);
        let score = self.score(position);
        let aborted = self.engine.aborted();
        self.engine.set_limit(u64::MAX);
        (!aborted).then(|| score::to_value(score, self.engine.game().convention))
    }

    /// The remoteness-optimal move: the fastest win, or when the position is lost the
    /// move that holds out longest; ties go to the smallest position. With the
    /// position after it and that position's value; `None` when there is no move.
    pub fn best_move(&mut self, position: &Position) -> Option<(Position, Value)> {
        let score = self.score(position);
        let mut children = self.engine.game().children(position);
        children.sort();
        let (child, child_score) = self.best_child(&children, score)?;
        let convention = self.engine.game().convention;
        Some((child.clone(), score::to_value(child_score, convention)))
    }

    /// Every move once, as the position after it with that position's value: winning
    /// moves (to unsafe positions) by increasing remoteness, then the others by
    /// decreasing remoteness; ties by position.
    pub fn moves(&mut self, position: &Position) -> Vec<(Position, Value)> {
        let children = self.engine.game().children(position);
        let mut scored: Vec<(Score, Position)> = children
            .into_iter()
            .map(|child| (self.score(&child), child))
            .collect();
        // Ascending score is exactly that order: losses of the opponent from the
        // fastest, then its wins from the slowest.
        scored.sort();
        let convention = self.engine.game().convention;
        scored
            .into_iter()
            .map(|(score, child)| (child, score::to_value(score, convention)))
            .collect()
    }

    /// The statistics accumulated so far.
    pub fn stats(&self) -> RemotenessStats {
        self.engine.stats()
    }

    /// Installs a hook called every 65 536 nodes (for a spinner).
    pub fn set_progress(&mut self, hook: ProgressHook) {
        self.engine.set_progress(hook);
    }

    /// Bytes the transposition table has allocated.
    pub fn table_bytes(&self) -> usize {
        self.engine.table_bytes()
    }

    /// The score of `position` (see [`score`]), exact.
    pub fn score(&mut self, position: &Position) -> Score {
        let (lower, upper) = self.engine.bounds(position);
        if lower == upper {
            return lower;
        }
        match self.algorithm {
            Algorithm::AlphaBeta | Algorithm::NegaScout => {
                self.engine.stats_mut().root_searches += 1;
                self.engine.search(position, MIN - 1, MAX + 1)
            }
            Algorithm::MtdF => self.mtdf(position, lower, upper),
            Algorithm::Aspiration => self.aspiration(position, lower, upper),
        }
    }

    /// MTD(f): null-window tests until the bounds meet. The first asks whether the
    /// position is a win at all, the boolean question; each fail-soft answer moves a
    /// bound to the value it proved.
    fn mtdf(&mut self, position: &Position, mut lower: Score, mut upper: Score) -> Score {
        let mut guess: Score = 1;
        while lower < upper {
            let gamma = if guess <= lower {
                lower + 1
            } else {
                guess.min(upper)
            };
            self.engine.stats_mut().root_searches += 1;
            guess = self.engine.search(position, gamma - 1, gamma);
            if self.engine.aborted() {
                return guess;
            }
            if guess < gamma {
                upper = guess;
            } else {
                lower = guess;
            }
        }
        lower
    }

    /// Aspiration windows around the bound the boolean question ("is it a win?")
    /// proves, widened fourfold on the side that failed. The boolean test keeps its
    /// threshold at zero whatever the depth; narrow windows far from the truth would
    /// shift with the length of the path to each position, and bounds found under one
    /// seldom decide another.
    fn aspiration(&mut self, position: &Position, lower: Score, upper: Score) -> Score {
        let clamp = |x: i64| x.clamp(i64::from(MIN) - 1, i64::from(MAX) + 1) as Score;
        self.engine.stats_mut().root_searches += 1;
        let guess = self.engine.search(position, 0, 1);
        if self.engine.aborted() {
            return guess;
        }
        let mut delta = ASPIRATION_DELTA;
        let (mut alpha, mut beta) = if guess > 0 {
            (
                guess - 1,
                clamp(i64::from(guess) + delta).min(upper.saturating_add(1)),
            )
        } else {
            (clamp(i64::from(guess) - delta).max(lower - 1), guess + 1)
        };
        loop {
            self.engine.stats_mut().root_searches += 1;
            let score = self.engine.search(position, alpha, beta);
            if self.engine.aborted() {
                return score;
            }
            delta *= ASPIRATION_GROWTH;
            if score <= alpha {
                (alpha, beta) = (clamp(i64::from(score) - delta), score + 1);
            } else if score >= beta {
                (alpha, beta) = (score - 1, clamp(i64::from(score) + delta));
            } else {
                return score;
            }
            self.engine.stats_mut().re_searches += 1;
        }
    }

    /// The first of `children` (sorted) whose score is the one a position scoring
    /// `score` moves to, with that score. Every child scores at least that target, so
    /// the first found at most it is one.
    fn best_child<'a>(
        &mut self,
        children: &'a [Position],
        score: Score,
    ) -> Option<(&'a Position, Score)> {
        let target = -unshrink(score);
        self.first_at_most(children, target)
            .map(|child| (child, target))
    }

    /// The first of `children` that scores at most `target`: stored bounds rule
    /// children in or out, a null-window test decides the others.
    fn first_at_most<'a>(
        &mut self,
        children: &'a [Position],
        target: Score,
    ) -> Option<&'a Position> {
        children.iter().find(|child| {
            let (lower, upper) = self.engine.bounds(child);
            lower <= target
                && (upper <= target || self.engine.search(child, target, target + 1) <= target)
        })
    }
}

/// The window on a child's score that proves `score(parent) >= gamma` (the child must
/// score at most the returned value) and `score(parent) <= gamma` (every child must
/// score at least it).
pub(crate) fn child_thresholds(gamma: Score) -> (Score, Score) {
    (-lift_beta(gamma), -lift_alpha(gamma))
}

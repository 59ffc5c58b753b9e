//! Remoteness: how many moves (of both players) best play takes from a position to the
//! end of the game, the winner hurrying and the loser holding out.
//!
//! The search is alpha-beta over [`score`]s that fold the outcome and the remoteness
//! into one integer, as chess engines fold mate distances: `engine.rs` is fail-soft
//! alpha-beta on an explicit stack, `table.rs` the bounded transposition table of
//! lower and upper bounds, `heaps.rs` the exact simplification it allows (dead heaps;
//! not pair cancelling) and the nim-sum guesses that order moves, `proof.rs` measures
//! move ordering against the proof tree. [`RemotenessSolver`] drives the engine with
//! one of four windowed [`Algorithm`]s, all exact; they differ only in work. On several
//! threads, `split.rs` hands out siblings where theory classifies the moves and
//! `parallel.rs` runs the threads together elsewhere. Each engine keeps its bounds in
//! `tables.rs`: a table of its own while it searches alone, `shared.rs`'s one table
//! while it searches with others.
//!
//! # Files
//!
//! - `engine.rs`: fail-soft alpha-beta over scores on an explicit stack, the one search
//!   every windowed variant drives (its move expansion in `engine/`).
//! - `engine/`: expanding a position: moves generated once, cut-offs, ordering.
//! - `windows.rs`: the four ways to choose windows ([`Algorithm`]): alpha-beta,
//!   NegaScout, MTD(f), aspiration.
//! - `score.rs`: an outcome and its remoteness folded into one integer.
//! - `table.rs`: the transposition table of lower and upper bounds on scores.
//! - `tables.rs`: where one thread's engine keeps its bounds: its own table, or the
//!   shared one.
//! - `shared.rs`: the one lockless table of a parallel search, and the positions each
//!   thread is searching now.
//! - `parallel.rs`: threads searching one position together, sharing one table.
//! - `split.rs`: threads splitting the tree by siblings where theory classifies the
//!   moves.
//! - `proof.rs`: ordering efficiency, nodes searched against the proof tree found.

mod engine;
mod parallel;
mod proof;
pub(crate) mod score;
mod shared;
mod split;
mod table;
mod tables;
mod windows;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde::Serialize;

use self::engine::Engine;
use self::parallel::sum_stats;
use self::score::{lift_alpha, lift_beta, unshrink, Score};
use self::shared::{Placed, SharedTable};
use crate::error::{Error, Result};
use crate::game::{Game, Position};
use crate::search::bounded::overflowing;
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
    /// The variant that searched fewest nodes on the 2026-11-22 benchmark suite, in a
    /// time tied with MTD(f)'s (docs/search.md; NegaScout now expands a few percent
    /// fewer, at no gain in time).
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
    /// Children answered by the table while threads share it (`table_hits` counts
    /// those answered by a table of the thread's own).
    pub shared_hits: u64,
}

impl RemotenessStats {
    /// The same counts in the boolean engine's shape, for progress hooks.
    pub fn as_search_stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes,
            table_hits: self.table_hits + self.endgame_hits + self.shared_hits,
            etc_cutoffs: self.etc_cutoffs,
            cutoffs: self.cutoffs,
            max_depth: self.max_depth,
            table_entries: self.table_entries,
            evictions: self.evictions,
            theory_answers: 0,
        }
    }
}

/// Nodes of the main thread after which a parallel search counts as long, and the
/// table the threads share gets its full share of memory.
const LONG_NODES: u64 = 1 << 20;
/// How much longer each stretch of a long parallel search is than the one before: the
/// helpers retire at the end of the first stretch in which the tables overflowed (see
/// [`overflowing`]), so short steps waste less (Grundy's game 85 on two threads: 19 to
/// 20 s with stretches growing four-fold, 15 to 16 s doubling, on the earlier sweeping
/// tables).
const LONG_GROWTH: u64 = 2;
/// Most bytes the table shared by the threads of a parallel search takes at first.
const SHARED_MAX_BYTES: usize = 8 << 20;
/// Fewest main-thread nodes between two checks of whether the shared table should grow.
const FILL_NODES_MIN: usize = 1 << 12;
/// The share of its slots in use at which a shared table that may still grow doubles.
const GROW_AT_FILL: f64 = 0.5;
/// A shared table grows only into one with at least this many times its slots (the
/// bytes left beside the old one may allow little more).
const GROWTH_MIN: f64 = 1.25;

/// The remoteness solver for one game; keep it to reuse its table across positions.
pub struct RemotenessSolver {
    /// The main thread's engine: its answers are the solver's.
    engine: Engine,
    /// One engine per further thread, once the threads have started.
    helpers: Vec<Engine>,
    /// Set to stop the helpers once the main thread has its answer.
    stop: Arc<AtomicBool>,
    /// The table the threads share, once they have started.
    shared: Option<Arc<SharedTable>>,
    /// The threads the helpers run on, started once: a search splits work between
    /// them at many positions, and starting a thread for each split costs more than
    /// small subtrees take.
    pool: Option<rayon::ThreadPool>,
    game: Game,
    /// The settings of every thread's engine (the memory bound an equal share).
    config: SearchConfig,
    threads: usize,
    /// Searches may start the further threads.
    parallel: bool,
    /// What the helpers are to be handed when they start.
    outcomes: Option<Outcomes>,
    endgame: Option<Arc<dyn Endgame>>,
    algorithm: Algorithm,
    /// Main-thread nodes after which a parallel search is long ([`LONG_NODES`]; tests
    /// shorten it).
    long_nodes: u64,
    /// Most bytes the shared table takes at first ([`SHARED_MAX_BYTES`]; tests shorten
    /// it).
    shared_start_bytes: usize,
    /// The shared table has all the memory it will get: it no longer grows.
    shared_wide: bool,
    /// Evictions (of all threads) when the shared table's filters were last set again.
    evictions_at_remark: u64,
    /// The memory bound of all the tables together, as given.
    hash_bytes: usize,
    /// What the helpers did before the search went on alone.
    retired: Option<RemotenessStats>,
}

/// Runs `main` on the calling thread and `helper` once for each helper engine on the
/// solver's pool (or on threads of their own when it has none), and returns `main`'s
/// result once all have finished. The helpers start with `stop` cleared and no node
/// limit of their own (forgetting an earlier stop).
fn run_threads<R>(
    pool: Option<&rayon::ThreadPool>,
    stop: &AtomicBool,
    engine: &mut Engine,
    helpers: &mut [Engine],
    helper: impl Fn(&mut Engine) + Sync,
    main: impl FnOnce(&mut Engine) -> R,
) -> R {
    stop.store(false, Ordering::Relaxed);
    let helper = |engine: &mut Engine| {
        engine.set_limit(u64::MAX);
        helper(engine);
    };
    match pool {
        Some(pool) => pool.in_place_scope(|scope| {
            for engine in helpers.iter_mut() {
                let helper = &helper;
                scope.spawn(move |_| helper(engine));
            }
            main(engine)
        }),
        None => std::thread::scope(|scope| {
            for engine in helpers.iter_mut() {
                let helper = &helper;
                scope.spawn(move || helper(engine));
            }
            main(engine)
        }),
    }
}

impl RemotenessSolver {
    /// A solver for `game` on `config.threads` threads; `config.hash_bytes` bounds its
    /// tables (with several threads, split in one share more than there are threads:
    /// the main thread's own table, for the short searches before the threads start,
    /// gets one, the table they share the others). The further threads start with the
    /// first search that may use them (see [`RemotenessSolver::set_parallel`]).
    pub fn new(game: &Game, config: SearchConfig, algorithm: Algorithm) -> Self {
        let threads = config.threads.max(1);
        let hash_bytes = config.hash_bytes;
        let config = SearchConfig {
            hash_bytes: if threads == 1 {
                config.hash_bytes
            } else {
                config.hash_bytes / (threads + 1)
            },
            ..config
        };
        RemotenessSolver {
            engine: Engine::new(game, config, algorithm == Algorithm::NegaScout),
            helpers: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            shared: None,
            pool: None,
            game: game.clone(),
            config,
            threads,
            parallel: true,
            outcomes: None,
            endgame: None,
            algorithm,
            long_nodes: LONG_NODES,
            shared_start_bytes: SHARED_MAX_BYTES,
            shared_wide: false,
            evictions_at_remark: 0,
            hash_bytes,
            retired: None,
        }
    }

    /// Threads the solver searches with (when allowed to: see
    /// [`RemotenessSolver::set_parallel`]).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Lets searches use every thread (the default) or the main one alone: a short
    /// search is done before the others would have started. Answers are the same
    /// either way.
    pub fn set_parallel(&mut self, parallel: bool) {
        self.parallel = parallel;
    }

    /// Starts the further threads' engines and the table they share with the main
    /// one, when allowed and not done yet; true when there are several threads.
    fn start_threads(&mut self) -> bool {
        if !self.parallel || self.threads == 1 {
            return false;
        }
        if self.shared.is_none() {
            // The shared table is allocated whole at once (zeroed, its pages mapped as
            // they are first touched), unlike a table of one's own, which grows as it
            // fills: it gets no more than a short search is likely to use, and the
            // threads' shares once the search runs long.
            let bytes = self.config.hash_bytes.min(self.shared_start_bytes);
            let shared = Arc::new(SharedTable::with_bytes(bytes));
            self.engine.join(Arc::clone(&shared), None);
            let negascout = self.algorithm == Algorithm::NegaScout;
            for _ in 1..self.threads {
                let mut helper = Engine::new(&self.game, self.config, negascout);
                helper.join(Arc::clone(&shared), Some(Arc::clone(&self.stop)));
                if let Some(outcomes) = &self.outcomes {
                    helper.set_outcomes(outcomes.clone());
                }
                if let Some(endgame) = &self.endgame {
                    helper.set_endgame(Arc::clone(endgame));
                }
                self.helpers.push(helper);
            }
            self.shared = Some(shared);
            self.shared_wide = false;
            self.evictions_at_remark = 0;
            // A pool that cannot start leaves the helpers to threads of their own.
            self.pool = rayon::ThreadPoolBuilder::new()
                .num_threads(self.threads - 1)
                .thread_name(|i| format!("sicher-search-{}", i + 1))
                .build()
                .ok();
        }
        true
    }

    /// Gives the table the threads share every thread's share of the memory bound, for
    /// a search that has run long (see [`LONG_NODES`]). It starts at most
    /// [`SHARED_MAX_BYTES`], because it is allocated whole and each of its pages costs
    /// when first touched (a search of tens of thousands of nodes touches them all); a
    /// long search proves far more than that holds, and the threads then search again
    /// what another proved (the remoteness of Dawson's Kayles 20 23 26 28 on two
    /// threads, when each also kept a table of its own: 23 to 29 s with the small
    /// shared table, 13 to 16 s widened; one thread took 14 s in the same run). The
    /// small table's entries move into the large one while the threads wait.
    fn widen_shared_table(&mut self) {
        self.grow_shared_table(usize::MAX);
        self.shared_wide = true;
    }

    /// Moves the shared table's entries into a new one of at most `bytes`: at most the
    /// threads' shares, and what the bound leaves beside the old table while they move
    /// (the helpers are idle between stretches). Where that would not give the table
    /// clearly more slots ([`GROWTH_MIN`]), it stays as it is and grows no more.
    fn grow_shared_table(&mut self, bytes: usize) {
        let Some(old) = self.shared.as_ref() else {
            return;
        };
        let beside = self.hash_bytes.saturating_sub(old.allocated_bytes());
        let bytes = bytes.min(self.shared_share()).min(beside);
        let shared = SharedTable::with_bytes(bytes);
        if (shared.capacity() as f64) < GROWTH_MIN * old.capacity() as f64 {
            self.shared_wide = true;
            return;
        }
        let mut filled = 0;
        old.for_each(|key, entry| {
            if shared.insert(key, entry).1 == Placed::Filled {
                filled += 1;
            }
        });
        let shared = Arc::new(shared);
        self.engine.move_table(Arc::clone(&shared), filled);
        for helper in &mut self.helpers {
            helper.move_table(Arc::clone(&shared), 0);
        }
        self.shared = Some(shared);
        self.evictions_at_remark = 0;
    }

    /// Bytes the table the threads share may take in all: every thread's share.
    fn shared_share(&self) -> usize {
        self.config.hash_bytes.saturating_mul(self.threads)
    }

    /// True when the shared table grows no more (or there is none).
    fn shared_is_wide(&self) -> bool {
        self.shared_wide || self.shared.is_none()
    }

    /// True when the shared table may still grow and enough of its slots hold entries
    /// ([`GROW_AT_FILL`]): it should double before the threads go on.
    pub(super) fn shared_should_grow(&self) -> bool {
        !self.shared_is_wide()
            && self
                .shared
                .as_ref()
                .is_some_and(|s| s.fill() >= GROW_AT_FILL)
    }

    /// Doubles the shared table (within the threads' shares).
    pub(super) fn double_shared_table(&mut self) {
        let bytes = self.shared.as_ref().map_or(0, |s| s.doubled_bytes());
        self.grow_shared_table(bytes);
    }

    /// Sets the shared table's filters again once the threads have replaced half as
    /// many entries as it holds since they were last set (between stretches), given
    /// the `evictions` of all threads so far.
    fn remark_shared_filters(&mut self, evictions: u64) {
        let Some(shared) = self.shared.as_ref() else {
            return;
        };
        let stale = evictions.saturating_sub(self.evictions_at_remark);
        if stale.saturating_mul(2) >= shared.capacity() as u64 {
            shared.remark();
            self.evictions_at_remark = evictions;
        }
    }

    /// Main-thread nodes in which the threads could fill half the shared table (each
    /// node stores one entry at most): how often a search checks whether it should grow.
    fn fill_nodes(&self) -> u64 {
        let capacity = self.shared.as_ref().map_or(0, |shared| shared.capacity());
        (capacity / (2 * self.threads)).max(FILL_NODES_MIN) as u64
    }

    /// Orders moves and narrows windows by the exact outcomes of a misère quotient of
    /// the game's ruleset (the answer layer builds it), for positions whose heaps it
    /// covers; ignored when the settings switch guidance off.
    pub fn set_outcomes(&mut self, outcomes: Outcomes) {
        for helper in &mut self.helpers {
            helper.set_outcomes(outcomes.clone());
        }
        self.engine.set_outcomes(outcomes.clone());
        self.outcomes = Some(outcomes);
    }

    /// Positions expanded so far by their number of tokens: slot `t` counts those of
    /// `t` tokens, the last slot those of at least as many. Where a search spends its
    /// nodes says which endgame table would pay for itself.
    pub fn tiers(&self) -> &[u64] {
        self.engine.tiers()
    }

    /// Looks up the positions `endgame` covers instead of searching them.
    pub fn set_endgame(&mut self, endgame: Arc<dyn Endgame>) {
        for helper in &mut self.helpers {
            helper.set_endgame(Arc::clone(&endgame));
        }
        self.engine.set_endgame(Arc::clone(&endgame));
        self.endgame = Some(endgame);
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
        let mut children = self.engine.game().children_prepared(position);
        children.sort();
        let (child, child_score) = self.best_child(&children, score)?;
        let convention = self.engine.game().convention;
        Some((child.clone(), score::to_value(child_score, convention)))
    }

    /// Every move once, as the position after it with that position's value: winning
    /// moves (to unsafe positions) by increasing remoteness, then the others by
    /// decreasing remoteness; ties by position.
    pub fn moves(&mut self, position: &Position) -> Vec<(Position, Value)> {
        let children = self.engine.game().children_prepared(position);
        let scores: Vec<Score> = if self.start_threads() {
            self.scores_together(&children)
        } else {
            children.iter().map(|child| self.score(child)).collect()
        };
        let mut scored: Vec<(Score, Position)> = scores.into_iter().zip(children).collect();
        // Ascending score is exactly that order: losses of the opponent from the
        // fastest, then its wins from the slowest.
        scored.sort();
        let convention = self.engine.game().convention;
        scored
            .into_iter()
            .map(|(score, child)| (child, score::to_value(score, convention)))
            .collect()
    }

    /// The statistics accumulated so far, by all threads together.
    pub fn stats(&self) -> RemotenessStats {
        self.stats_together()
    }

    /// Installs a hook called every 65 536 nodes of the main thread (for a spinner).
    pub fn set_progress(&mut self, hook: ProgressHook) {
        self.engine.set_progress(hook);
    }

    /// Removes the progress hook and hands it back (to install in another solver).
    pub fn take_progress(&mut self) -> Option<ProgressHook> {
        self.engine.take_progress()
    }

    /// Bytes the transposition tables have allocated (every thread's and the shared).
    pub fn table_bytes(&self) -> usize {
        let helpers: usize = self.helpers.iter().map(|helper| helper.table_bytes()).sum();
        let shared = self
            .shared
            .as_ref()
            .map_or(0, |shared| shared.allocated_bytes());
        self.engine.table_bytes() + helpers + shared
    }

    /// The score of `position`, exact (a score folds the outcome and the remoteness into
    /// one integer): by this solver's threads together where it has several.
    pub fn score(&mut self, position: &Position) -> Score {
        // A position the tables already settle needs no threads (starting them clears
        // the shared table: milliseconds where the endgame table answers at once).
        let (lower, upper) = self.engine.bounds(position);
        if lower == upper {
            return lower;
        }
        if self.start_threads() {
            self.score_split_long(position)
        } else {
            windows::score(&mut self.engine, self.algorithm, position)
        }
    }

    /// [`RemotenessSolver::score_split`] in stretches of the main thread's nodes (a
    /// node limit set before still stands), the table the threads share growing as a
    /// map of one's own would:
    /// - while it is small, a stretch ends once the threads could have filled half of
    ///   it, and a table half full doubles (so a search of a few hundred thousand
    ///   nodes is not starved in the first table, nor a short one made to touch the
    ///   pages of a large one);
    /// - after [`LONG_NODES`] it gets the threads' whole shares;
    /// - from then on the stretches grow [`LONG_GROWTH`] times each, and after any in
    ///   which the table has had to replace a share of what it holds (see
    ///   [`overflowing`]), the main thread goes on alone with all the memory.
    ///
    /// A search whose tables overflow grows far faster than its nodes shrink: the
    /// remoteness of Grundy's game 85 took 14 s on one thread in 256 MiB, over 100 s
    /// on two threads splitting it between tables of their own, and 10 s on two
    /// threads with 768 MiB. Where memory, not the cores, limits the search, one thread
    /// with all of it is the faster.
    ///
    /// A stretch that ends early drops only its open frames: what it proved stays in
    /// the table, and the next one walks back down through it.
    fn score_split_long(&mut self, position: &Position) -> Score {
        let limit = self.engine.limit();
        let mut stretch = self.long_nodes;
        let long_at = self.engine.stats().nodes.saturating_add(stretch);
        loop {
            let now = self.engine.stats().nodes;
            if !self.shared_is_wide() && now >= long_at {
                self.widen_shared_table();
                stretch = stretch.saturating_mul(LONG_GROWTH);
            }
            let end = if self.shared_is_wide() {
                now.saturating_add(stretch)
            } else {
                long_at.min(now.saturating_add(self.fill_nodes()))
            };
            if end >= limit {
                return self.score_split(position);
            }
            self.engine.set_limit(end);
            let score = self.score_split(position);
            let long = self.engine.aborted();
            self.engine.set_limit(limit);
            if !long {
                return score;
            }
            if !self.shared_is_wide() {
                if self.shared_should_grow() {
                    self.double_shared_table();
                }
                continue;
            }
            let stats = self.stats_together();
            if overflowing(stats.evictions, stats.table_entries) {
                self.go_alone();
                return windows::score(&mut self.engine, self.algorithm, position);
            }
            self.remark_shared_filters(stats.evictions);
            stretch = stretch.saturating_mul(LONG_GROWTH);
        }
    }

    /// Stops the helpers for good and moves what the shared table holds into a table of
    /// the main thread's own, which may grow to the whole memory bound.
    fn go_alone(&mut self) {
        let retired = self.helpers.iter().map(|helper| helper.stats());
        let retired = retired.fold(self.retired.unwrap_or_default(), sum_stats);
        // The entries they stored are the main thread's table's to count from now on.
        // What was evicted so far stays counted: the main thread's new table starts its
        // count at zero, so its own evictions in the shared table join the helpers'.
        let evicted_by_main = self.engine.stats().evictions;
        self.retired = Some(RemotenessStats {
            table_entries: 0,
            evictions: retired.evictions + evicted_by_main,
            ..retired
        });
        self.helpers.clear();
        self.shared = None;
        self.pool = None;
        self.threads = 1;
        self.engine.go_alone(self.hash_bytes);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;

    fn solver(threads: usize) -> RemotenessSolver {
        solver_within(threads, 48 << 20)
    }

    fn solver_within(threads: usize, hash_bytes: usize) -> RemotenessSolver {
        let game = resolve("dawson-kayles").unwrap();
        let config = SearchConfig {
            threads,
            hash_bytes,
            ..SearchConfig::default()
        };
        RemotenessSolver::new(&game, config, Algorithm::default())
    }

    /// A parallel search whose tables overflow goes on alone with all the memory, and
    /// gives the answer of one thread; the helpers' nodes still count.
    #[test]
    fn a_long_search_whose_tables_overflow_goes_on_alone() {
        for heaps in [vec![9, 11, 14], vec![5, 8, 12, 13], vec![16, 17]] {
            let position = Position::new(heaps);
            let alone = solver(1).value(&position);
            let mut two = solver_within(2, 12 << 10);
            two.long_nodes = 256;
            assert_eq!(two.value(&position), alone, "{position:?}");
            assert_eq!(two.threads(), 1, "{position:?}");
            assert!(two.helpers.is_empty() && two.shared.is_none());
            let retired = two.retired.expect("the helpers' statistics are kept");
            assert_eq!(
                two.stats().nodes,
                two.engine.stats().nodes + retired.nodes,
                "{position:?}"
            );
            // The next search runs on the main thread alone.
            let again = Position::new(vec![7, 9, 13]);
            assert_eq!(two.value(&again), solver(1).value(&again));
            assert!(two.helpers.is_empty());
        }
    }

    /// A shared table that fills doubles as the search goes on, long before the search
    /// counts as long, for a score and for every move's; answers stay those of one
    /// thread.
    #[test]
    fn a_shared_table_that_fills_doubles() {
        let position = Position::new(vec![16, 19, 21]);
        let alone = solver(1).value(&position);
        let start = 160 << 10;
        let first = SharedTable::with_bytes(start).capacity();
        let mut two = solver(2);
        two.shared_start_bytes = start;
        assert_eq!(two.value(&position), alone);
        let grown = two.shared.as_ref().map(|s| s.capacity()).unwrap();
        assert!(grown > 2 * first, "{grown} slots, from {first}");
        assert!(!two.shared_is_wide());
        let bytes = two.shared.as_ref().map(|s| s.allocated_bytes()).unwrap();
        assert!(bytes <= two.shared_share(), "{bytes}");

        let position = Position::new(vec![12, 15, 17]);
        let moves = solver(1).moves(&position);
        let mut two = solver(2);
        two.shared_start_bytes = start;
        assert_eq!(two.moves(&position), moves);
        let grown = two.shared.as_ref().map(|s| s.capacity()).unwrap();
        assert!(grown > 2 * first, "{grown} slots, from {first}");
    }

    /// Where the memory bound leaves a shared table no room to double, it stops growing
    /// (rather than moving its entries back and forth for ever) and the search goes on
    /// to the answer one thread gives, for a score and for every move's.
    #[test]
    fn a_shared_table_without_room_to_double_stops_growing() {
        for hash in [16 << 20, 44 << 20, 3 << 20] {
            for heaps in [vec![16, 19, 21], vec![9, 11, 14]] {
                let position = Position::new(heaps);
                let alone = solver(1).value(&position);
                let mut two = solver_within(2, hash);
                two.long_nodes = 64;
                two.shared_start_bytes = hash / 4;
                assert_eq!(two.value(&position), alone, "{position:?} {hash}");
                let bytes = two.shared.as_ref().map_or(0, |s| s.allocated_bytes());
                assert!(bytes <= two.shared_share().max(256 << 10), "{bytes}");
            }
            let position = Position::new(vec![12, 15, 17]);
            let mut two = solver_within(2, hash);
            two.shared_start_bytes = hash / 4;
            assert_eq!(two.moves(&position), solver(1).moves(&position), "{hash}");
        }
    }

    /// A parallel search that runs long widens the table the threads share, then goes
    /// on to the answer one thread gives; a search on a node limit shorter than the
    /// stretch leaves it as it was.
    #[test]
    fn a_long_parallel_search_widens_the_shared_table() {
        for heaps in [vec![9, 11, 14], vec![5, 8, 12, 13], vec![16, 17]] {
            let position = Position::new(heaps);
            let alone = solver(1).value(&position);
            let mut two = solver(2);
            two.long_nodes = 64;
            assert_eq!(two.value(&position), alone, "{position:?}");
            assert!(two.shared_is_wide(), "{position:?}");
            assert_eq!(two.threads(), 2, "{position:?}");
            assert!(two.stats().nodes > 64, "{position:?}");

            let mut budgeted = solver(2);
            budgeted.long_nodes = 64;
            let _ = budgeted.value_within(&position, 32);
            assert!(!budgeted.shared_is_wide(), "{position:?}");
        }
    }
}

//! Fail-soft alpha-beta over remoteness scores on an explicit stack: the one search
//! every windowed variant drives.
//!
//! `search(position, alpha, beta)` returns a score `v` with the fail-soft guarantees:
//! `v <= alpha` is an upper bound on the true score, `v >= beta` a lower bound, and
//! anything in between is exact. Full-window alpha-beta is one call with the widest
//! window, MTD(f) a sequence of null-window calls, aspiration a few narrow ones; with
//! `negascout` set, every child after the first is first probed with a null window and
//! searched again only when the probe fails high inside the window.
//!
//! As in the boolean engine, one [`Frame`] per ply lives in a vector and three arenas,
//! reused across searches, hold the frames' heaps, candidate moves and move deltas:
//! depth is bounded by memory, and the hot loop never allocates. A null-window search
//! here is the boolean search with a threshold that moves one step per ply, and it
//! keeps the boolean engine's speed-ups: enhanced transposition cut-offs behind a
//! filter of known losses, the history heuristic, and nim-value guidance.
//!
//! # Files of `engine/`
//!
//! - `expand.rs`: expanding a position: its moves generated once, enhanced transposition
//!   cut-offs on the way, then ordered by the table's move, by theory and by history.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::score::{self, lift_alpha, lift_beta, shrink, Score, MAX, MIN};
use super::shared::SharedTable;
use super::table::{BoundTable, Entry};
use super::tables::Tables;
use super::RemotenessStats;
use crate::game::{Game, Heap, Position};
use crate::search::endgame::Endgame;
use crate::search::guide::NimGuide;
use crate::search::heaps::{HeapArena, NimSum};
use crate::search::key::{Combine, Key};
use crate::search::ordering::MoveOrdering;
use crate::search::theory::Outcomes;
use crate::search::{ProgressHook, SearchConfig};

mod expand;

/// How often (in nodes, a power of two) the progress hook runs.
const PROGRESS_EVERY: u64 = 1 << 16;
/// Ordering: the table's move first, then children the nim-values say are unsafe,
/// then history counts.
const HINT_BONUS: u32 = 1 << 31;
const GUIDE_BONUS: u32 = 1 << 30;
const HISTORY_MAX: u32 = (1 << 30) - 1;

/// A move waiting to be searched: 32 bytes, so sorting moves little.
#[derive(Clone, Copy)]
struct Candidate {
    key: Key,
    /// Ordering score in the high half (higher first), `u32::MAX` minus the move's
    /// generation index in the low half (earlier first on ties): one key to sort by.
    rank: u64,
    /// Start of this move's delta in the ops arena: removed indices, then added heaps.
    ops: u32,
    removed: u8,
    added: u8,
    /// What theory says of the child, when it knows exactly.
    known: Known,
    /// Left for later once already, because another thread was searching it.
    deferred: bool,
}

/// A position's outcome as theory knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    Unknown,
    /// The player to move wins: the score is at least [`LEAST_WIN`].
    Win,
    /// The player to move loses: the score is at most [`LEAST_LOSS`].
    Loss,
}

/// Tiers of tokens the histogram of expanded positions tells apart.
pub(crate) const TIER_SLOTS: usize = 256;

/// The lowest score of any won position, and the highest of any lost one.
const LEAST_WIN: Score = 1;
const LEAST_LOSS: Score = -1;

impl Known {
    fn of(win: Option<bool>) -> Known {
        match win {
            Some(true) => Known::Win,
            Some(false) => Known::Loss,
            None => Known::Unknown,
        }
    }

    /// The score the outcome alone gives on the window `(alpha, beta)`, when it decides
    /// it: a win is at least `LEAST_WIN` (a fail-high), a loss at most `LEAST_LOSS`.
    #[inline]
    fn decide(self, alpha: Score, beta: Score) -> Option<Score> {
        match self {
            Known::Win if beta <= LEAST_WIN => Some(LEAST_WIN),
            Known::Loss if alpha >= LEAST_LOSS => Some(LEAST_LOSS),
            _ => None,
        }
    }
}

impl Candidate {
    /// Position of the move in generation order, plus one (what the table stores).
    #[inline]
    fn index(&self) -> u32 {
        u32::MAX - self.rank as u32
    }
}

/// One position on the search stack.
#[derive(Clone, Copy)]
struct Frame {
    key: Key,
    heaps_start: u32,
    heaps_len: u32,
    moves_start: u32,
    moves_end: u32,
    next: u32,
    ops_start: u32,
    /// The window on this position's score (narrowed by its table entry).
    alpha: Score,
    beta: Score,
    /// Best negated child score so far (fail-soft), and the move that gave it.
    best: Score,
    best_move: u32,
    /// The table's move for this position (generation index plus one, 0: none).
    hint: u32,
    /// The child in flight is a NegaScout null-window probe.
    probing: bool,
    /// Some child has been handed a window already.
    started: bool,
    expanded: bool,
    /// This thread marked the position as being searched in the shared table.
    claimed: bool,
    nim: NimSum,
    nodes_at_entry: u64,
}

/// What a finished position proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Decided {
    score: Score,
    bound: Bound,
    best_move: u32,
}

/// What a step of the loop did.
enum Step {
    /// The top frame is finished.
    Decided(Decided),
    /// A child frame was pushed.
    Pushed,
    /// The top frame goes on with its next move.
    Continue,
}

/// Positions deeper than this are neither marked as being searched nor left for later
/// when another thread is searching them: their subtrees are too small to split, and
/// the marks are atomic writes other threads read.
const CLAIM_MAX_PLY: usize = 20;

/// The search: game, settings, table, ordering memory and arenas, kept across
/// searches so the table and history carry over.
pub(super) struct Engine {
    game: Game,
    config: SearchConfig,
    negascout: bool,
    table: Tables,
    ordering: MoveOrdering,
    /// The heaps of the positions on the stack, with their key codes and nim-values.
    arena: HeapArena,
    /// The guide's guesses are exact outcomes (normal play; misère Nim's rule).
    exact_guide: bool,
    /// Exact outcomes from a misère quotient, for the heaps it covers.
    outcomes: Option<Outcomes>,
    /// Scratch for the quotient: the element of a frame's heaps without each one.
    rest: Vec<u32>,
    /// Exact remotenesses of small positions, and the most tokens it covers (0: none).
    endgame: Option<Arc<dyn Endgame>>,
    endgame_total: u64,
    /// Positions expanded by their number of tokens (the last slot: that many or more).
    tiers: Vec<u64>,
    /// Set when this thread's search is no longer wanted (a helper's, once the main
    /// thread has its answer).
    stop: Option<Arc<AtomicBool>>,

    stats: RemotenessStats,
    moves: Vec<Candidate>,
    ops: Vec<Heap>,
    frames: Vec<Frame>,
    progress: Option<ProgressHook>,
    /// Node count at which the search gives up (`u64::MAX`: never).
    limit: u64,
    /// The last search gave up at the limit; its score means nothing.
    aborted: bool,
}

impl Engine {
    pub(super) fn new(game: &Game, config: SearchConfig, negascout: bool) -> Self {
        let game = game.clone();
        let guide = if config.guide {
            NimGuide::new(&game)
        } else {
            None
        };
        Engine {
            // The remoteness search always adds codes: cancelling pairs is exact for the
            // verdict only.
            arena: HeapArena::new(guide, config.simplify, Combine::Sum),
            // Sprague-Grundy values decide normal play; in misère play, Bouton's rule
            // decides Nim, where nim-values are the heap sizes.
            exact_guide: config.guide
                && (!game.terminal_is_win() || game.ruleset.nim_values_are_sizes()),
            game,
            config,
            negascout,
            table: Tables::Own(BoundTable::with_bytes(config.hash_bytes)),
            ordering: MoveOrdering::new(config.history, false),
            outcomes: None,
            rest: Vec::new(),
            endgame: None,
            endgame_total: 0,
            tiers: vec![0; TIER_SLOTS],
            stop: None,
            stats: RemotenessStats::default(),
            moves: Vec::new(),
            ops: Vec::new(),
            frames: Vec::new(),
            progress: None,
            limit: u64::MAX,
            aborted: false,
        }
    }

    /// Takes exact outcomes from a misère quotient of the game's ruleset (ignored unless
    /// the settings ask for guidance by theory).
    pub(super) fn set_outcomes(&mut self, outcomes: Outcomes) {
        if self.config.guide {
            self.outcomes = Some(outcomes);
        }
    }

    /// Positions expanded so far by their number of tokens: slot `t` counts those of
    /// `t` tokens, the last slot those of at least as many.
    pub(super) fn tiers(&self) -> &[u64] {
        &self.tiers
    }

    /// Makes this engine one thread of a parallel search: it keeps its bounds in
    /// `shared` (taking along what its own table holds), leaves for later the moves
    /// another thread is searching, and gives up once `stop` is set.
    pub(super) fn join(&mut self, shared: Arc<SharedTable>, stop: Option<Arc<AtomicBool>>) {
        self.table.share(shared);
        self.stop = stop;
    }

    /// Keeps its bounds in `shared` from now on, a larger table the caller moved the
    /// entries of the one it shared before into (`filled` of them counted as this
    /// thread's).
    pub(super) fn move_table(&mut self, shared: Arc<SharedTable>, filled: u64) {
        self.table.move_to(shared, filled);
    }

    /// Leaves the table the threads shared and searches alone from now on, in a table
    /// of its own within `hash_bytes` that takes along what the shared one holds.
    pub(super) fn go_alone(&mut self, hash_bytes: usize) {
        self.stop = None;
        self.table.go_alone(hash_bytes);
    }

    /// The window `(alpha, beta)` narrowed by what the table knows of `key`, with the
    /// move it suggests; `Err` with the score when it decides the window.
    #[inline]
    fn consult(
        &mut self,
        key: Key,
        alpha: Score,
        beta: Score,
    ) -> Result<(Score, Score, u32), Score> {
        let Some(entry) = self.table.get(key) else {
            return Ok((alpha, beta, 0));
        };
        if let Some(known) = decide(entry.lower, entry.upper, alpha, beta) {
            if self.table.is_shared() {
                self.stats.shared_hits += 1;
            } else {
                self.stats.table_hits += 1;
            }
            return Err(known);
        }
        Ok((alpha.max(entry.lower), beta.min(entry.upper), entry.best))
    }

    /// Looks positions up in `endgame` instead of searching them.
    pub(super) fn set_endgame(&mut self, endgame: Arc<dyn Endgame>) {
        self.endgame_total = endgame.max_total();
        self.endgame = Some(endgame);
    }

    /// The exact score of the canonical heaps in the arena from `start` on, when the
    /// endgame table covers them.
    #[inline]
    fn endgame_score(&self, start: usize) -> Option<Score> {
        let endgame = self.endgame.as_ref()?;
        let heaps = &self.arena.heaps[start..];
        if heaps.iter().sum::<Heap>() > self.endgame_total {
            return None;
        }
        let remoteness = endgame.remoteness(heaps)?;
        Some(score::of_remoteness(remoteness, self.game.convention))
    }

    /// What theory says of the canonical heaps in the arena from `start` on.
    fn known(&self, start: usize, nim: NimSum) -> Known {
        let heaps = &self.arena.heaps[start..];
        if let Some(win) = self.outcomes.as_ref().and_then(|o| o.win(heaps)) {
            return Known::of(Some(win));
        }
        if self.exact_guide && nim != NimSum::UNKNOWN {
            return Known::of(Some(!nim.guess_unsafe(self.game.terminal_is_win())));
        }
        Known::Unknown
    }

    /// Gives up any search once `limit` nodes have been expanded in all (`u64::MAX`:
    /// never), and forgets an earlier give-up.
    pub(super) fn set_limit(&mut self, limit: u64) {
        self.limit = limit;
        self.aborted = false;
    }

    /// The node count at which searches give up (`u64::MAX`: none).
    pub(super) fn limit(&self) -> u64 {
        self.limit
    }

    /// True when a search gave up at the limit since it was last set.
    pub(super) fn aborted(&self) -> bool {
        self.aborted
    }

    pub(super) fn game(&self) -> &Game {
        &self.game
    }

    pub(super) fn set_progress(&mut self, hook: ProgressHook) {
        self.progress = Some(hook);
    }

    pub(super) fn take_progress(&mut self) -> Option<ProgressHook> {
        self.progress.take()
    }

    pub(super) fn stats(&self) -> RemotenessStats {
        RemotenessStats {
            table_entries: self.table.len(),
            evictions: self.table.evictions(),
            ..self.stats
        }
    }

    pub(super) fn stats_mut(&mut self) -> &mut RemotenessStats {
        &mut self.stats
    }

    pub(super) fn table_bytes(&self) -> usize {
        self.table.allocated_bytes()
    }

    /// The score of a position with no move.
    pub(super) fn terminal(&self) -> Score {
        score::terminal(self.game.convention)
    }

    /// The key of a position's canonical form (empty: no move is left).
    pub(super) fn key(&mut self, position: &Position) -> Key {
        self.arena.heaps.clear();
        self.arena.prepare(&self.game, position);
        let key = self
            .arena
            .push_canonical(&self.game, position.heaps().iter().copied());
        self.arena.heaps.clear();
        key
    }

    /// The stored bounds of a position (exact for one with no move), narrowed by
    /// the outcome where theory knows it.
    pub(super) fn bounds(&mut self, position: &Position) -> (Score, Score) {
        let key = self.key(position);
        let (lower, upper) = self.stored(key);
        let (least, most) = self.theory_bounds(position);
        (lower.max(least), upper.min(most))
    }

    /// The bounds a position's score has without a search: exact from the endgame
    /// table, or its outcome where theory knows it.
    pub(super) fn theory_bounds(&mut self, position: &Position) -> (Score, Score) {
        self.arena.heaps.clear();
        self.arena.prepare(&self.game, position);
        let key = self
            .arena
            .push_canonical(&self.game, position.heaps().iter().copied());
        let known = self.known(0, self.arena.nim_sum(0));
        let exact = self.endgame_score(0);
        self.arena.heaps.clear();
        if key.is_empty() {
            return (MIN, MAX);
        }
        if let Some(exact) = exact {
            return (exact, exact);
        }
        match known {
            Known::Win => (LEAST_WIN, MAX),
            Known::Loss => (MIN, LEAST_LOSS),
            Known::Unknown => (MIN, MAX),
        }
    }

    /// The stored bounds of a key (exact for the empty key: no move is left).
    pub(super) fn stored(&self, key: Key) -> (Score, Score) {
        if key.is_empty() {
            let terminal = self.terminal();
            return (terminal, terminal);
        }
        self.table
            .get(key)
            .map_or((MIN, MAX), |entry| (entry.lower, entry.upper))
    }

    /// Visits the moves of the canonical heaps `heaps` (whose key is `key`) with the
    /// key of the child each leads to. Call [`Self::key`] on the position first, so
    /// the key codes are cached.
    pub(super) fn for_each_child<F>(&self, heaps: &[Heap], key: Key, mut visit: F)
    where
        F: FnMut(Key, &[usize], &[Heap]) -> ControlFlow<()>,
    {
        let _ = self.game.ruleset.for_each_move(heaps, |removed, added| {
            let mut child = key;
            for &i in removed {
                child = Combine::Sum.remove(child, self.arena.code(&self.game, heaps[i]));
            }
            for &h in added {
                child = Combine::Sum.add(child, self.arena.code(&self.game, h));
            }
            visit(child, removed, added)
        });
    }

    /// The canonical form of a position: sorted, without the heaps that can never move.
    pub(super) fn canonical(&mut self, position: &Position) -> Position {
        self.arena.prepare(&self.game, position);
        let heaps = position.heaps().iter().copied();
        Position::new(
            heaps
                .filter(|&h| !self.arena.code(&self.game, h).is_empty())
                .collect(),
        )
    }

    /// Fail-soft alpha-beta on the window `(alpha, beta)`, `alpha < beta`.
    pub(super) fn search(&mut self, position: &Position, alpha: Score, beta: Score) -> Score {
        debug_assert!(alpha < beta);
        if let Some(known) = trivial(alpha, beta) {
            return known;
        }
        self.arena.heaps.clear();
        self.moves.clear();
        self.ops.clear();
        self.frames.clear();
        self.arena.prepare(&self.game, position);
        let key = self
            .arena
            .push_canonical(&self.game, position.heaps().iter().copied());
        if key.is_empty() {
            return self.terminal();
        }
        if let Some(exact) = self.endgame_score(0) {
            self.stats.endgame_hits += 1;
            return exact;
        }
        let nim = self.arena.nim_sum(0);
        if let Some(known) = self.known(0, nim).decide(alpha, beta) {
            return known;
        }
        let (alpha, beta, hint) = match self.consult(key, alpha, beta) {
            Ok(narrowed) => narrowed,
            Err(known) => return known,
        };
        self.push_frame(key, 0, nim, alpha, beta, hint);
        self.run()
    }

    fn push_frame(
        &mut self,
        key: Key,
        heaps_start: usize,
        nim: NimSum,
        alpha: Score,
        beta: Score,
        hint: u32,
    ) {
        let at = self.moves.len() as u32;
        let claimed = self.frames.len() < CLAIM_MAX_PLY
            && self.table.shared().is_some_and(|shared| shared.claim(key));
        self.frames.push(Frame {
            key,
            heaps_start: heaps_start as u32,
            heaps_len: (self.arena.heaps.len() - heaps_start) as u32,
            moves_start: at,
            moves_end: at,
            next: at,
            ops_start: self.ops.len() as u32,
            alpha,
            beta,
            best: MIN,
            best_move: 0,
            hint,
            probing: false,
            started: false,
            expanded: false,
            claimed,
            nim,
            nodes_at_entry: self.stats.nodes,
        });
        self.stats.max_depth = self.stats.max_depth.max(self.frames.len() as u64);
    }

    /// The search loop: runs until the root frame is finished, and returns its score.
    fn run(&mut self) -> Score {
        loop {
            let stopped = self
                .stop
                .as_ref()
                .is_some_and(|stop| stop.load(Ordering::Relaxed));
            if self.stats.nodes >= self.limit || stopped {
                // Frames store their bounds only when concluded, so dropping the open
                // ones leaves nothing unproved in the table.
                self.aborted = true;
                if let Some(shared) = self.table.shared() {
                    for frame in self.frames.iter().filter(|frame| frame.claimed) {
                        shared.release(frame.key);
                    }
                }
                self.frames.clear();
                return 0;
            }
            let top = self.frames.len() - 1;
            let step = if self.frames[top].expanded {
                self.descend(top)
            } else {
                match self.expand(top) {
                    Some(decided) => Step::Decided(decided),
                    None => self.descend(top),
                }
            };
            let Step::Decided(mut decided) = step else {
                continue;
            };
            loop {
                let frame = self.frames.pop().expect("a frame is on the stack");
                let (lower, upper) = match decided.bound {
                    Bound::Exact => (decided.score, decided.score),
                    Bound::Lower => (decided.score, MAX),
                    Bound::Upper => (MIN, decided.score),
                };
                let work = self.stats.nodes - frame.nodes_at_entry + 1;
                self.table
                    .insert(frame.key, Entry::new(lower, upper, decided.best_move, work));
                if frame.claimed {
                    if let Some(shared) = self.table.shared() {
                        shared.release(frame.key);
                    }
                }
                self.arena.heaps.truncate(frame.heaps_start as usize);
                self.moves.truncate(frame.moves_start as usize);
                self.ops.truncate(frame.ops_start as usize);
                let Some(parent) = self.frames.len().checked_sub(1) else {
                    return decided.score;
                };
                match self.receive(parent, decided.score) {
                    Step::Decided(next) => decided = next,
                    Step::Pushed | Step::Continue => break,
                }
            }
        }
    }

    /// The verdict of a frame whose moves are all searched, or that was cut off.
    fn conclude(&self, top: usize) -> Decided {
        let frame = &self.frames[top];
        let score = shrink(frame.best);
        // No score lies below MIN or above MAX: a bound there is exact.
        let bound = if frame.best <= lift_alpha(frame.alpha) {
            if frame.best == MIN {
                Bound::Exact
            } else {
                Bound::Upper
            }
        } else if frame.best >= lift_beta(frame.beta) && frame.best != MAX {
            Bound::Lower
        } else {
            Bound::Exact
        };
        Decided {
            score,
            bound,
            best_move: frame.best_move,
        }
    }

    /// Takes a child's score (in the child's own view) into the frame at `parent`.
    fn receive(&mut self, parent: usize, child: Score) -> Step {
        let m = -child;
        let frame = self.frames[parent];
        let a = lift_alpha(frame.alpha).max(frame.best);
        let b = lift_beta(frame.beta);
        let index = frame.next as usize - 1;
        if frame.probing {
            self.frames[parent].probing = false;
            if m > a && m < b {
                // The null window failed high inside the window: find out how high.
                self.stats.re_searches += 1;
                return self.try_child(parent, index, -b, 1 - m);
            }
        }
        if m > frame.best {
            let candidate = self.moves[index];
            self.frames[parent].best = m;
            self.frames[parent].best_move = candidate.index();
            // A contribution of MAX above the window's bottom is exact: nothing beats it.
            if m >= b || (m == MAX && m > a) {
                self.ordering
                    .reward(signature(frame.key, candidate.key), parent);
                self.stats.cutoffs += 1;
                return Step::Decided(self.conclude(parent));
            }
        }
        Step::Continue
    }

    /// Hands the next untried move of the top frame its window; finishes the frame
    /// when no move is left.
    fn descend(&mut self, top: usize) -> Step {
        loop {
            let frame = self.frames[top];
            if frame.next == frame.moves_end {
                return Step::Decided(self.conclude(top));
            }
            if frame.started
                && top + 1 < CLAIM_MAX_PLY
                && self.defer(frame.next as usize, frame.moves_end as usize)
            {
                continue;
            }
            self.frames[top].next += 1;
            let a = lift_alpha(frame.alpha).max(frame.best);
            let b = lift_beta(frame.beta);
            // Once memory limits the table, wide windows cost re-searches the table
            // no longer saves: every full-window search of a position whose children's
            // bounds were dropped searches them all again, which grows exponentially
            // with depth (octal:4.[1] from 7 7 6 with a 4 KiB table: over 100 million
            // nodes, against 2 million with probes). Probes ask the cheap question
            // first, so alpha-beta turns NegaScout when memory runs short.
            let probing = (self.negascout || self.table.overflowing())
                && frame.started
                && i64::from(b) - i64::from(a) > 1;
            self.frames[top].started = true;
            self.frames[top].probing = probing;
            let index = frame.next as usize;
            let step = if probing {
                self.try_child(top, index, -(a + 1), -a)
            } else {
                self.try_child(top, index, -b, -a)
            };
            match step {
                Step::Continue => continue,
                other => return other,
            }
        }
    }

    /// Leaves move `index` of a frame whose moves end at `end` for last when another
    /// thread is searching it and it was not left for later before; true when it did.
    /// The first move of every frame is searched whatever, as in ABDADA.
    #[inline]
    fn defer(&mut self, index: usize, end: usize) -> bool {
        let Some(shared) = self.table.shared() else {
            return false;
        };
        // The child would be pushed at ply `frames.len()`: too deep to be claimed, so
        // its mark is not worth loading (a line the other threads keep writing: 15% of
        // the search's own time on two threads, when every child was looked up).
        if self.frames.len() >= CLAIM_MAX_PLY {
            return false;
        }
        let candidate = self.moves[index];
        if candidate.deferred || index + 1 == end || !shared.is_busy(candidate.key) {
            return false;
        }
        self.moves[index..end].rotate_left(1);
        self.moves[end - 1].deferred = true;
        true
    }

    /// Searches move `index` of the frame at `parent` on the window `(alpha, beta)`
    /// of the child's score: answered from the table when its bounds decide, pushed
    /// otherwise.
    fn try_child(&mut self, parent: usize, index: usize, alpha: Score, beta: Score) -> Step {
        if let Some(known) = trivial(alpha, beta) {
            return self.receive(parent, known);
        }
        let candidate = self.moves[index];
        if let Some(known) = candidate.known.decide(alpha, beta) {
            return self.receive(parent, known);
        }
        let (alpha, beta, hint) = match self.consult(candidate.key, alpha, beta) {
            Ok(narrowed) => narrowed,
            Err(known) => return self.receive(parent, known),
        };
        let frame = self.frames[parent];
        let parent_start = frame.heaps_start as usize;
        let ops_start = candidate.ops as usize;
        let ops_end = ops_start + candidate.removed as usize + candidate.added as usize;
        let child_start = self.arena.push_child(
            &self.game,
            parent_start..parent_start + frame.heaps_len as usize,
            &self.ops[ops_start..ops_end],
            candidate.removed as usize,
        );
        if let Some(exact) = self.endgame_score(child_start) {
            self.arena.heaps.truncate(child_start);
            self.stats.endgame_hits += 1;
            return self.receive(parent, exact);
        }
        let nim = self.arena.nim_sum(child_start);
        self.push_frame(candidate.key, child_start, nim, alpha, beta, hint);
        Step::Pushed
    }
}

/// A move's name in the history table: the change it makes to the key, the same
/// wherever the move is made ("split a 9 into 3 and 4"), so it comes for free.
#[inline]
fn signature(parent: Key, child: Key) -> u64 {
    Combine::Sum.remove(child, parent).digest()
}

/// The answer to a window no score can fail: every score is at least MIN and at most
/// MAX. Frames never get such windows, so their lifted windows never collapse.
#[inline]
fn trivial(alpha: Score, beta: Score) -> Option<Score> {
    if beta <= MIN {
        Some(MIN)
    } else if alpha >= MAX {
        Some(MAX)
    } else {
        None
    }
}

/// The score stored bounds give on the window `(alpha, beta)` without a search, if
/// they decide it.
#[inline]
fn decide(lower: Score, upper: Score, alpha: Score, beta: Score) -> Option<Score> {
    if lower >= beta {
        Some(lower)
    } else if upper <= alpha || lower == upper {
        Some(upper)
    } else {
        None
    }
}

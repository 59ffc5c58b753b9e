//! The top-down engine: the `sicher` recursion, `sicher(p) = ∃ q ∈ moves(p): ¬sicher(q)`,
//! as boolean alpha-beta on an explicit stack.
//!
//! A position is safe as soon as one child is unsafe; it is unsafe once every child
//! is refuted. Knuth and Moore's iterative form of the search keeps one [`Frame`] per
//! ply in a vector, so depth is bounded by memory, not by the thread's stack. Three
//! arenas, reused across the whole search, hold the frames' heaps, candidate moves
//! and move deltas: the hot loop never allocates.

use std::ops::ControlFlow;

use serde::Serialize;

use super::guide::NimGuide;
use super::heaps::{HeapArena, NimSum};
use super::key::{mix64, Combine, Key};
use super::ordering::MoveOrdering;
use super::table::TranspositionTable;
use super::theory::Outcomes;
use crate::game::{Game, Heap, Position};

/// Search settings; every heuristic can be switched off to measure what it buys.
#[derive(Clone, Copy, Debug)]
pub struct SearchConfig {
    /// Memory bound of the transposition table, in bytes.
    pub hash_bytes: usize,
    /// Enhanced transposition cut-off: before searching any child, look all of them up
    /// and stop at once if one is known to be unsafe.
    pub etc: bool,
    /// History heuristic.
    pub history: bool,
    /// Killer moves per ply. Off by default: on the benchmark suite they cost nodes
    /// on almost every position (misère Kayles 10..14: 392k nodes with, 349k without).
    pub killers: bool,
    /// Exact simplifications: drop heaps without moves; in normal play of one-heap
    /// rulesets, cancel pairs of equal heaps.
    pub simplify: bool,
    /// Sprague-Grundy guidance: try first the children that nim-values say are unsafe
    /// (one-heap rulesets only); in the remoteness search, exact outcomes from theory
    /// also drop moves that cannot give a safe position's score.
    pub guide: bool,
    /// Threads of the remoteness search and of the endgame tables it labels (the
    /// boolean search runs on one); answers are the same for any count.
    pub threads: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            hash_bytes: 256 << 20,
            etc: true,
            history: true,
            killers: false,
            simplify: true,
            guide: true,
            threads: 1,
        }
    }
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct SearchStats {
    /// Positions expanded (their moves generated).
    pub nodes: u64,
    /// Children answered by the transposition table on the way down.
    pub table_hits: u64,
    /// Positions proved safe by a child found unsafe in the table before any search
    /// (enhanced transposition cut-offs).
    pub etc_cutoffs: u64,
    /// Positions proved safe by a searched child (alpha-beta cut-offs).
    pub cutoffs: u64,
    /// Deepest ply reached.
    pub max_depth: u64,
    /// Positions in the transposition table at the end.
    pub table_entries: u64,
    /// Table entries dropped by the replacement policy.
    pub evictions: u64,
    /// Positions answered by a misère quotient instead of a search: every heap lies in
    /// the range it covers.
    pub theory_answers: u64,
}

/// A move waiting to be searched.
#[derive(Clone, Copy)]
struct Candidate {
    key: Key,
    signature: u64,
    score: u32,
    /// The child's nim-value guess: XOR of its heaps' values and how many exceed 1.
    nim: NimSum,
    /// Start of this move's delta in the ops arena: removed indices, then added heaps.
    ops: u32,
    removed: u8,
    added: u8,
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
    expanded: bool,
    nim: NimSum,
    nodes_at_entry: u64,
}

/// Called every so many nodes with the statistics so far (from the thread that
/// searches, so it may be handed to one).
pub type ProgressHook = Box<dyn FnMut(&SearchStats) + Send>;

/// How often (in nodes, a power of two) the progress hook runs.
const PROGRESS_EVERY: u64 = 1 << 16;
/// Salt that tells added heaps from removed ones in a move signature.
const ADDED_SALT: u64 = 0x5851_f42d_4c95_7f2d;
/// Ordering bonus of a child that the nim-values say is unsafe: below killers.
const GUIDE_BONUS: u32 = 1 << 29;

/// The top-down solver for one game; keep it to reuse its table across positions.
pub struct Solver {
    game: Game,
    config: SearchConfig,
    table: TranspositionTable,
    ordering: MoveOrdering,
    /// The heaps of the positions on the stack, with their key codes and nim-values.
    arena: HeapArena,
    stats: SearchStats,
    moves: Vec<Candidate>,
    ops: Vec<Heap>,
    frames: Vec<Frame>,
    progress: Option<ProgressHook>,
    /// Exact outcomes of a misère quotient: positions whose heaps it covers are leaves.
    outcomes: Option<Outcomes>,
}

impl Solver {
    /// A solver for `game` with the given settings.
    pub fn new(game: &Game, config: SearchConfig) -> Self {
        let game = game.clone();
        let combine = if config.simplify && game.pairs_cancel() {
            Combine::Xor
        } else {
            Combine::Sum
        };
        let guide = if config.guide {
            NimGuide::new(&game)
        } else {
            None
        };
        Solver {
            arena: HeapArena::new(guide, config.simplify, combine),
            game,
            config,
            table: TranspositionTable::with_bytes(config.hash_bytes),
            ordering: MoveOrdering::new(config.history, config.killers),
            stats: SearchStats::default(),
            moves: Vec::new(),
            ops: Vec::new(),
            frames: Vec::new(),
            progress: None,
            outcomes: None,
        }
    }

    /// Takes the exact outcomes of a misère quotient of the game's ruleset, covering
    /// heaps up to some size: from then on a position whose heaps all lie in that range
    /// is answered by the quotient instead of searched, and a move to an unsafe one wins
    /// at once. Ignored in normal play and for rulesets whose moves change several
    /// heaps (they have no such quotient), and when the settings turn guidance off.
    pub fn set_outcomes(&mut self, outcomes: Outcomes) {
        if self.config.guide && self.game.terminal_is_win() && self.game.ruleset.moves_one_heap() {
            self.outcomes = Some(outcomes);
        }
    }

    /// The largest heap the misère quotient handed over covers (0 without one).
    pub fn outcomes_cover(&self) -> u64 {
        self.outcomes.as_ref().map_or(0, |o| o.max_heap())
    }

    /// Installs a hook called every 65 536 nodes (for a spinner).
    pub fn set_progress(&mut self, hook: ProgressHook) {
        self.progress = Some(hook);
    }

    /// The statistics accumulated so far.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            table_entries: self.table.len() as u64,
            evictions: self.table.evictions(),
            ..self.stats
        }
    }

    /// The settings this solver runs with.
    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// Bytes the transposition table has allocated.
    pub fn table_bytes(&self) -> usize {
        self.table.allocated_bytes()
    }

    /// `sicher(position)`: true when the player to move has a sure win (safe).
    pub fn is_win(&mut self, position: &Position) -> bool {
        self.arena.heaps.clear();
        self.moves.clear();
        self.ops.clear();
        self.frames.clear();
        self.arena.prepare(&self.game, position);
        if let Some(win) = self.outcomes.as_ref().and_then(|o| o.win(position.heaps())) {
            self.stats.theory_answers += 1;
            return win;
        }
        let key = self
            .arena
            .push_canonical(&self.game, position.heaps().iter().copied());
        if let Some(win) = self.known(key) {
            return win;
        }
        let nim = self.arena.nim_sum(0);
        self.push_frame(key, 0, nim);
        self.run()
    }

    /// The outcome if it is known without searching (empty position or table hit).
    pub fn peek(&mut self, position: &Position) -> Option<bool> {
        self.arena.heaps.clear();
        let key = self
            .arena
            .push_canonical(&self.game, position.heaps().iter().copied());
        self.arena.heaps.clear();
        self.known(key)
    }

    /// One winning move (the position after it), or `None` when the position is unsafe.
    pub fn winning_move(&mut self, position: &Position) -> Option<Position> {
        let children = self.game.children_prepared(position);
        if let Some(child) = children.iter().find(|c| self.peek(c) == Some(false)) {
            return Some(child.clone());
        }
        children.into_iter().find(|child| !self.is_win(child))
    }

    /// Every winning move (the positions after them), in generation order.
    pub fn winning_moves(&mut self, position: &Position) -> Vec<Position> {
        let children = self.game.children_prepared(position);
        children
            .into_iter()
            .filter(|child| !self.is_win(child))
            .collect()
    }

    /// Known outcome of a key: the empty position is terminal, others come from the table.
    #[inline]
    fn known(&self, key: Key) -> Option<bool> {
        if key.is_empty() {
            Some(self.game.terminal_is_win())
        } else {
            self.table.get(key)
        }
    }

    fn push_frame(&mut self, key: Key, heaps_start: usize, nim: NimSum) {
        let frame = Frame {
            key,
            heaps_start: heaps_start as u32,
            heaps_len: (self.arena.heaps.len() - heaps_start) as u32,
            moves_start: self.moves.len() as u32,
            moves_end: self.moves.len() as u32,
            next: self.moves.len() as u32,
            ops_start: self.ops.len() as u32,
            expanded: false,
            nim,
            nodes_at_entry: self.stats.nodes,
        };
        self.frames.push(frame);
        self.stats.max_depth = self.stats.max_depth.max(self.frames.len() as u64);
    }

    /// The search loop: runs until the root frame is decided.
    fn run(&mut self) -> bool {
        loop {
            let top = self.frames.len() - 1;
            let decided = if self.frames[top].expanded {
                self.descend(top)
            } else {
                self.expand(top).or_else(|| self.descend(top))
            };
            let Some(mut win) = decided else { continue };
            // Pop decided frames; an unsafe child decides its parent too.
            loop {
                let frame = self.frames.pop().expect("a frame is on the stack");
                let work = self.stats.nodes - frame.nodes_at_entry + 1;
                self.table.insert(frame.key, win, work);
                self.arena.heaps.truncate(frame.heaps_start as usize);
                self.moves.truncate(frame.moves_start as usize);
                self.ops.truncate(frame.ops_start as usize);
                let Some(parent) = self.frames.last() else {
                    return win;
                };
                if win {
                    break;
                }
                let ply = self.frames.len() - 1;
                let signature = self.moves[parent.next as usize - 1].signature;
                self.ordering.reward(signature, ply);
                self.stats.cutoffs += 1;
                win = true;
            }
        }
    }

    /// Generates the moves of the top frame. Decides it at once when it has no move,
    /// or (with ETC) when a child is already known to be unsafe.
    fn expand(&mut self, top: usize) -> Option<bool> {
        self.stats.nodes += 1;
        if self.stats.nodes & (PROGRESS_EVERY - 1) == 0 {
            let stats = self.stats();
            if let Some(hook) = self.progress.as_mut() {
                hook(&stats);
            }
        }
        let frame = self.frames[top];
        self.frames[top].expanded = true;
        if self.config.etc {
            if let Some(win) = self.transposition_cutoff(&frame) {
                return Some(win);
            }
        }
        let Solver {
            game,
            arena,
            moves,
            ops,
            outcomes,
            ..
        } = self;
        let (game, arena) = (&*game, &*arena);
        let combine = arena.combine;
        let guide = arena.guide.as_ref();
        let value = |h: Heap| guide.and_then(|g| g.value(h));
        let start = frame.heaps_start as usize;
        let parent = &arena.heaps[start..start + frame.heaps_len as usize];
        let theory = outcomes
            .as_ref()
            .and_then(|outcomes| LoneBeyond::of(outcomes, parent));
        let mut theory_answers = 0;
        let terminal_win = game.terminal_is_win();
        let mut any_move = false;
        // A child known to be unsafe (terminal, or by the quotient): the move wins.
        let mut unsafe_child = None;
        let _ = game.ruleset.for_each_move(parent, |removed, added| {
            any_move = true;
            let mut key = frame.key;
            let mut signature = 0u64;
            let mut nim = frame.nim;
            for &i in removed {
                key = combine.remove(key, arena.code(game, parent[i]));
                signature = signature.wrapping_add(mix64(parent[i]));
                nim = nim.toggle(value(parent[i]), false);
            }
            for &h in added {
                key = combine.add(key, arena.code(game, h));
                signature = signature.wrapping_add(mix64(h ^ ADDED_SALT));
                nim = nim.toggle(value(h), true);
            }
            if key.is_empty() {
                if terminal_win {
                    // A terminal child wins for the opponent: never worth trying.
                    return ControlFlow::Continue(());
                }
                unsafe_child = Some(signature);
                return ControlFlow::Break(());
            }
            if let Some(child_unsafe) = theory.as_ref().and_then(|t| t.child(removed, added)) {
                theory_answers += 1;
                if child_unsafe {
                    unsafe_child = Some(signature);
                    return ControlFlow::Break(());
                }
                // A safe child wins for the opponent: never worth trying.
                return ControlFlow::Continue(());
            }
            moves.push(Candidate {
                key,
                signature,
                score: 0,
                nim,
                ops: ops.len() as u32,
                removed: removed.len() as u8,
                added: added.len() as u8,
            });
            ops.extend(removed.iter().map(|&i| i as Heap));
            ops.extend_from_slice(added);
            ControlFlow::Continue(())
        });
        self.stats.theory_answers += theory_answers;
        if let Some(signature) = unsafe_child {
            self.ordering.reward(signature, top);
            self.stats.cutoffs += 1;
            return Some(true);
        }
        if !any_move {
            return Some(terminal_win);
        }
        let begin = frame.moves_start as usize;
        let end = self.moves.len();
        self.frames[top].moves_end = end as u32;
        if begin == end {
            return Some(false);
        }
        let guided = self.arena.guide.is_some();
        if self.ordering.is_active() || guided {
            let ordering = &self.ordering;
            let misere = self.game.terminal_is_win();
            for candidate in &mut self.moves[begin..end] {
                candidate.score = ordering.score(candidate.signature, top);
                if guided && candidate.nim.guess_unsafe(misere) {
                    candidate.score += GUIDE_BONUS;
                }
            }
            // Ties keep generation order through the delta offset.
            self.moves[begin..end]
                .sort_unstable_by(|a, b| b.score.cmp(&a.score).then(a.ops.cmp(&b.ops)));
        }
        None
    }

    /// Enhanced transposition cut-off: a lean pass over the moves that only computes
    /// child keys and asks whether one is known to be unsafe (or is a terminal loss
    /// for the opponent). Most safe positions end here, before any candidate is built.
    fn transposition_cutoff(&mut self, frame: &Frame) -> Option<bool> {
        let (game, arena, table) = (&self.game, &self.arena, &self.table);
        let combine = arena.combine;
        let start = frame.heaps_start as usize;
        let parent = &arena.heaps[start..start + frame.heaps_len as usize];
        let terminal_win = game.terminal_is_win();
        let mut refutation = None;
        let mut any_move = false;
        let _ = game.ruleset.for_each_move(parent, |removed, added| {
            any_move = true;
            let mut key = frame.key;
            for &i in removed {
                key = combine.remove(key, arena.code(game, parent[i]));
            }
            for &h in added {
                key = combine.add(key, arena.code(game, h));
            }
            let known_unsafe = if key.is_empty() {
                !terminal_win
            } else {
                table.is_known_unsafe(key)
            };
            if !known_unsafe {
                return ControlFlow::Continue(());
            }
            let removed_sizes = removed.iter().map(|&i| mix64(parent[i]));
            let added_sizes = added.iter().map(|&h| mix64(h ^ ADDED_SALT));
            refutation = Some(
                removed_sizes
                    .chain(added_sizes)
                    .fold(0u64, u64::wrapping_add),
            );
            ControlFlow::Break(())
        });
        if !any_move {
            return Some(terminal_win);
        }
        let signature = refutation?;
        self.ordering.reward(signature, self.frames.len() - 1);
        self.stats.etc_cutoffs += 1;
        Some(true)
    }

    /// Takes the next untried move of the top frame: decides the frame if the move's
    /// child is known unsafe or no move is left, and otherwise pushes the child.
    fn descend(&mut self, top: usize) -> Option<bool> {
        loop {
            let frame = self.frames[top];
            if frame.next == frame.moves_end {
                return Some(false);
            }
            self.frames[top].next += 1;
            let candidate = self.moves[frame.next as usize];
            if let Some(win) = self.known(candidate.key) {
                self.stats.table_hits += 1;
                if !win {
                    self.ordering.reward(candidate.signature, top);
                    self.stats.cutoffs += 1;
                    return Some(true);
                }
                continue;
            }
            let parent_start = frame.heaps_start as usize;
            let ops_start = candidate.ops as usize;
            let ops_end = ops_start + candidate.removed as usize + candidate.added as usize;
            let child_start = self.arena.push_child(
                &self.game,
                parent_start..parent_start + frame.heaps_len as usize,
                &self.ops[ops_start..ops_end],
                candidate.removed as usize,
            );
            let nim = if self.arena.combine == Combine::Xor {
                // Cancelled pairs change nothing in a nim-sum.
                candidate.nim
            } else {
                self.arena.nim_sum(child_start)
            };
            self.push_frame(candidate.key, child_start, nim);
            return None;
        }
    }
}

/// A position with exactly one heap beyond a misère quotient's range: only moves on that
/// heap can reach positions the quotient covers, and the product of the other heaps is
/// computed once for all of them.
struct LoneBeyond<'a> {
    outcomes: &'a Outcomes,
    /// Index of the heap beyond the range.
    beyond: usize,
    /// The element of the other heaps.
    rest: u32,
}

impl<'a> LoneBeyond<'a> {
    /// `None` unless exactly one heap of `heaps` lies beyond the range (none beyond
    /// means the position itself is covered, and is answered before it is expanded).
    fn of(outcomes: &'a Outcomes, heaps: &[Heap]) -> Option<Self> {
        let mut beyond = None;
        let mut rest = outcomes.identity();
        for (i, &h) in heaps.iter().enumerate() {
            match outcomes.heap(h) {
                Some(x) => rest = outcomes.mul(rest, x),
                None if beyond.is_none() => beyond = Some(i),
                None => return None,
            }
        }
        Some(LoneBeyond {
            outcomes,
            beyond: beyond?,
            rest,
        })
    }

    /// The child's outcome (true: unsafe) when the quotient covers it.
    #[inline]
    fn child(&self, removed: &[usize], added: &[Heap]) -> Option<bool> {
        if removed != [self.beyond] {
            return None;
        }
        let x = self.outcomes.times(self.rest, added)?;
        Some(self.outcomes.is_unsafe(x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;

    #[test]
    fn nim_follows_xor() {
        let game = resolve("nim").unwrap();
        let mut solver = Solver::new(&game, SearchConfig::default());
        for a in 0..6u64 {
            for b in 0..6 {
                for c in 0..6 {
                    let position = Position::new(vec![a, b, c]);
                    assert_eq!(solver.is_win(&position), a ^ b ^ c != 0, "{position}");
                }
            }
        }
    }

    #[test]
    fn deep_subtraction_game_needs_no_recursion() {
        let game = resolve("subtraction:1,2").unwrap();
        let mut solver = Solver::new(&game, SearchConfig::default());
        assert!(!solver.is_win(&Position::new(vec![300_000])));
        assert!(solver.is_win(&Position::new(vec![300_001])));
    }
}

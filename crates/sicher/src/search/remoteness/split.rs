//! The remoteness search split between threads at the positions theory classifies
//! (Feldmann's "young brothers wait" over the exact outcomes of nim-values or a misère
//! quotient).
//!
//! Where theory knows the outcome of every child of a position, the position's score is
//! the best of a known set of children: its unsafe children when it has one (the
//! fastest win among them; children that might be unsafe stay in the set), all of them
//! when it has none (the longest resistance). The eldest of that set is scored first,
//! split the same way, so that its score bounds the others; then the younger ones are
//! handed out to the threads one at a time, each asked only whether it beats the best
//! so far, and scored exactly when it does; a thread that finds none left helps with a
//! child another is still scoring. Below the chain of eldest children, or
//! where theory does not classify every child, the threads search together as in
//! `parallel.rs`. The answer is the best score of the set whatever order the threads
//! finish in, so it is the same for any thread count.
//!
//! ABDADA alone splits a tree poorly where the table does the sharing: measured on the
//! remoteness suite with two threads, the main thread expanded only 20 to 40% fewer
//! nodes than one thread alone. Handing out whole siblings gives each thread its own
//! subtree, with the shared table for the transpositions between them.

use std::sync::atomic::{AtomicI32, AtomicU8, AtomicUsize, Ordering};

use super::engine::Engine;
use super::score::{shrink, Score, MAX, MIN};
use super::{run_threads, RemotenessSolver};
use crate::game::Position;

/// Levels of the chain of eldest children that are split; below, the threads search
/// together. Deep in the chain the subtrees are small and a split costs more than it
/// shares out.
const MAX_SPLIT_DEPTH: usize = 24;

/// A younger child not handed out yet.
const WAITING: u8 = 0;
/// A younger child some thread is scoring.
const BUSY: u8 = 1;
/// A younger child scored (or skipped: the best cannot improve).
const SCORED: u8 = 2;

impl RemotenessSolver {
    /// The exact score of `position`, split between the threads where theory knows the
    /// outcomes of its children (meaningless when the main thread gives up at its node
    /// limit).
    pub(super) fn score_split(&mut self, position: &Position) -> Score {
        self.split(position, 0)
    }

    fn split(&mut self, position: &Position, depth: usize) -> Score {
        let (lower, upper) = self.engine.bounds(position);
        if lower == upper {
            return lower;
        }
        if depth >= MAX_SPLIT_DEPTH {
            return self.score_together(position);
        }
        let Some(candidates) = self.candidates(position) else {
            return self.score_together(position);
        };
        let eldest = self.split(&candidates[0], depth + 1);
        if self.engine.aborted() {
            return eldest;
        }
        let best = AtomicI32::new(-eldest);
        if candidates.len() > 1 {
            self.younger(&candidates[1..], &best);
        }
        shrink(best.into_inner())
    }

    /// The children whose best negated score is the position's, eldest first, when
    /// theory classifies them: the unsafe ones and those it cannot tell (fastest wins
    /// first: fewest tokens), or all when every child is safe (longest resistance
    /// first: most tokens); `None` where the position's outcome is not known that way.
    fn candidates(&mut self, position: &Position) -> Option<Vec<Position>> {
        let mut children: Vec<Position> = self
            .engine
            .game()
            .children_prepared(position)
            .iter()
            .map(|child| self.engine.canonical(child))
            .collect();
        children.sort_unstable();
        children.dedup();
        let mut winning = false;
        let mut open = Vec::new();
        for child in &children {
            let (lower, upper) = self.engine.bounds(child);
            if upper < 0 {
                winning = true;
                open.push(child.clone());
            } else if lower < 0 {
                open.push(child.clone());
            }
        }
        let size = |child: &Position| (child.total(), child.heaps().len());
        if winning {
            open.sort_by_key(size);
            Some(open)
        } else if open.is_empty() && !children.is_empty() {
            children.sort_by_key(|child| std::cmp::Reverse(size(child)));
            Some(children)
        } else {
            None
        }
    }

    /// Raises `best` (the best negated score so far) to the best of `children`'s
    /// negated scores, the threads taking the children one at a time. A thread that
    /// finds none left to take helps with one another thread is still scoring (the
    /// shared table and its busy marks split that subtree between them), so that no
    /// thread idles while the last, largest children finish.
    fn younger(&mut self, children: &[Position], best: &AtomicI32) {
        let next = AtomicUsize::new(0);
        let state: Vec<AtomicU8> = children.iter().map(|_| AtomicU8::new(WAITING)).collect();
        // Children handed out and not yet scored (or skipped).
        let open = AtomicUsize::new(children.len());
        let RemotenessSolver {
            engine,
            helpers,
            stop,
            pool,
            ..
        } = self;
        let stop = &*stop;
        // Scores child `at` into `best`; false when the search gave up.
        let score = |engine: &mut Engine, at: usize| -> bool {
            let bar = best.load(Ordering::Relaxed);
            if bar < MAX {
                // The child improves on the best when its score is below `-bar`: a
                // search on the window below that answers exactly there and fails high
                // otherwise.
                let score = engine.search(&children[at], MIN - 1, -bar);
                if engine.aborted() {
                    return false;
                }
                if score < -bar {
                    best.fetch_max(-score, Ordering::Relaxed);
                }
            }
            if state[at].swap(SCORED, Ordering::Relaxed) != SCORED {
                open.fetch_sub(1, Ordering::Relaxed);
            }
            true
        };
        // The child another thread is scoring now, the latest handed out first.
        let busy = || {
            (0..children.len())
                .rev()
                .find(|&at| state[at].load(Ordering::Relaxed) == BUSY)
        };
        let work = |engine: &mut Engine| -> bool {
            loop {
                let at = next.fetch_add(1, Ordering::Relaxed);
                if at >= children.len() {
                    break;
                }
                state[at].store(BUSY, Ordering::Relaxed);
                if !score(engine, at) {
                    return false;
                }
            }
            while let Some(at) = busy() {
                if !score(engine, at) {
                    return false;
                }
            }
            true
        };
        run_threads(
            pool.as_ref(),
            stop,
            engine,
            helpers,
            |helper| {
                work(helper);
            },
            |engine| {
                if work(engine) {
                    // A helper may have taken a child and not marked it yet: wait for it.
                    while open.load(Ordering::Relaxed) > 0 {
                        match busy() {
                            Some(at) => {
                                if !score(engine, at) {
                                    break;
                                }
                            }
                            None => std::hint::spin_loop(),
                        }
                    }
                }
                // Every child is scored (or the main thread gave up at its node limit):
                // the helpers still helping with one need not finish.
                stop.store(true, Ordering::Relaxed);
            },
        );
    }
}

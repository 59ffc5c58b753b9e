//! The remoteness search on several threads, sharing one table ([`SharedTable`]).
//!
//! For one position's score every thread searches the same position with the full
//! window and the same move order, as in Weill's ABDADA: a thread leaves for later any
//! move (but a position's first) that another thread is searching now, so they split
//! the tree instead of repeating it, and what each proves is in the table at once for
//! the others (lookups and enhanced transposition cut-offs alike). The main
//! thread's answer is the answer (exact, so the same for any thread count); the
//! helpers stop when it has it. For every move's value the children are handed out to
//! the threads one at a time: each child's score is a search of its own, and they
//! share most of their positions.
//!
//! Measured on the remoteness suite with two threads (ABDADA over lazy SMP with each
//! helper ordering moves its own way): the main thread expands 23 to 40% fewer nodes
//! than one thread alone (misère Kayles 10..14: 84 000 against 109 000 after the short
//! search; Dawson's Kayles 20 23 26: 102 000 against 169 000); with randomised helper
//! orders it saved nothing on Kayles.

use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::Arc;

use super::engine::Engine;
use super::score::{Score, MAX, MIN};
use super::{run_threads, windows, RemotenessSolver, RemotenessStats, GROW_AT_FILL};
use crate::game::Position;

impl RemotenessSolver {
    /// The exact score of `position`, the helpers searching beside the main thread.
    pub(super) fn score_together(&mut self, position: &Position) -> Score {
        let (lower, upper) = self.engine.bounds(position);
        if lower == upper {
            return lower;
        }
        let (algorithm, stop) = (self.algorithm, Arc::clone(&self.stop));
        self.run_together(
            |helper| {
                helper.stats_mut().root_searches += 1;
                helper.search(position, MIN - 1, MAX + 1);
            },
            |engine| {
                let score = windows::score(engine, algorithm, position);
                stop.store(true, Ordering::Relaxed);
                score
            },
        )
    }

    /// Runs `main` on the main thread's engine and `helper` on every helper's (see
    /// [`run_threads`]).
    fn run_together<R>(
        &mut self,
        helper: impl Fn(&mut Engine) + Sync,
        main: impl FnOnce(&mut Engine) -> R,
    ) -> R {
        run_threads(
            self.pool.as_ref(),
            &self.stop,
            &mut self.engine,
            &mut self.helpers,
            helper,
            main,
        )
    }

    /// The exact score of every one of `positions`, handed out to the threads. A thread
    /// takes no further position once the shared table should grow: when all have
    /// stopped, it doubles, and they go on with the rest.
    pub(super) fn scores_together(&mut self, positions: &[Position]) -> Vec<Score> {
        let next = AtomicUsize::new(0);
        let scores: Vec<AtomicI32> = positions.iter().map(|_| AtomicI32::new(0)).collect();
        while next.load(Ordering::Relaxed) < positions.len() {
            if self.shared_should_grow() {
                self.double_shared_table();
            }
            // The table to watch while it may still double.
            let growing = match self.shared_is_wide() {
                true => None,
                false => self.shared.clone(),
            };
            let algorithm = self.algorithm;
            let work = |engine: &mut Engine| loop {
                if growing
                    .as_ref()
                    .is_some_and(|shared| shared.fill() >= GROW_AT_FILL)
                {
                    break;
                }
                let at = next.fetch_add(1, Ordering::Relaxed);
                let Some(position) = positions.get(at) else {
                    break;
                };
                let score = windows::score(engine, algorithm, position);
                scores[at].store(score, Ordering::Relaxed);
            };
            self.run_together(work, work);
        }
        scores.into_iter().map(AtomicI32::into_inner).collect()
    }

    /// What every thread did, summed (the deepest depth), helpers retired included.
    pub(super) fn stats_together(&self) -> RemotenessStats {
        self.helpers
            .iter()
            .map(|helper| helper.stats())
            .chain(self.retired)
            .fold(self.engine.stats(), sum_stats)
    }
}

/// Two threads' statistics together (the deeper depth).
pub(super) fn sum_stats(a: RemotenessStats, b: RemotenessStats) -> RemotenessStats {
    RemotenessStats {
        nodes: a.nodes + b.nodes,
        table_hits: a.table_hits + b.table_hits,
        etc_cutoffs: a.etc_cutoffs + b.etc_cutoffs,
        cutoffs: a.cutoffs + b.cutoffs,
        re_searches: a.re_searches + b.re_searches,
        root_searches: a.root_searches + b.root_searches,
        max_depth: a.max_depth.max(b.max_depth),
        table_entries: a.table_entries + b.table_entries,
        evictions: a.evictions + b.evictions,
        endgame_hits: a.endgame_hits + b.endgame_hits,
        shared_hits: a.shared_hits + b.shared_hits,
    }
}

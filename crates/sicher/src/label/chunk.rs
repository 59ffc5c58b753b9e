//! Labelling a chunk of a tier: a range of ranks of one tier of a `--total` domain, the
//! unit a cluster shares out ([`super::cluster`]). A chunk only reads labels of lower
//! tiers and writes its own ranks (a pull formulation: outcomes forward, remotenesses
//! from the children's), so ranks labelling chunks of one tier never write into each
//! other's memory and their labels are exactly the single-process labellers'.
//!
//! Moves that keep the total (splits that take nothing) read the tier itself, by heap
//! count; such tiers are never split into chunks: a chunk of them is the whole tier,
//! labelled in heap-count passes as on one machine.

use std::ops::Range;
use std::sync::atomic::{AtomicU32, AtomicU64};

use rayon::prelude::*;

use super::drive::{Reach, TierLabeller};
use super::forward::{scan, Forward};
use super::kernel::{decide, gather_children, pulled_remoteness, safe_by_moves};
use super::options::Options;
use super::tiers::{visit_tier, Scratch, Tiers};
use super::window::{Atom, Window};
use crate::domain::{ChildRanks, Partitions, Ranker, Runs, Strides};
use crate::error::Result;
use crate::game::{Game, Heap};

/// Chunks smaller than this are labelled on the calling thread: a rayon job costs more.
const PARALLEL_MIN: u64 = 4096;
/// Positions per rayon job.
const JOB: u64 = 1024;

/// Labels chunks of tiers, reading only lower tiers (or, for a whole tier, the tier
/// itself as the single-process labellers do).
pub(crate) trait ChunkLabeller<A: Atom>: Sync {
    /// Labels the positions of `ranks` within tier `tier` (all of them, or only part of
    /// a tier no move keeps the total of); returns how many.
    fn label_chunk(
        &self,
        window: &Window<A>,
        tier: u64,
        ranks: Range<u64>,
        scratch: &mut Scratch,
    ) -> u64;

    /// A failure met while labelling the last chunk (a terminal script's, say), which
    /// its labels may not be kept after; most labellers cannot fail.
    fn failure(&self) -> Result<()> {
        Ok(())
    }
}

/// How far a chunk labeller reads: the tiers moves reach below, nothing above.
pub(crate) fn chunk_reach(game: &Game) -> Reach {
    Reach {
        back: game.ruleset.max_take(),
        ahead: Some(0),
    }
}

/// True when a tier may be split into chunks of ranks: no move keeps the total.
pub(crate) fn splittable(game: &Game) -> bool {
    !game.ruleset.splits_without_taking()
}

/// Runs `each(scratch, run)` over `ranks` in runs of [`JOB`] ranks, in parallel when
/// there are enough.
fn over_runs<E>(ranks: Range<u64>, main: &mut Scratch, each: E)
where
    E: Fn(&mut Scratch, Range<u64>) + Sync,
{
    if ranks.end - ranks.start < PARALLEL_MIN {
        each(main, ranks);
        return;
    }
    let jobs = (ranks.end - ranks.start).div_ceil(JOB);
    (0..jobs)
        .into_par_iter()
        .for_each_init(Scratch::default, |scratch, j| {
            let start = ranks.start + j * JOB;
            each(scratch, start..(start + JOB).min(ranks.end));
        });
}

/// Calls `visit(scratch, rank, heaps)` for every rank of `ranks` (all of one tier),
/// unranking only the first of each run and stepping to the next.
pub(crate) fn visit_ranks<F>(
    partitions: &Partitions,
    ranks: Range<u64>,
    main: &mut Scratch,
    visit: F,
) where
    F: Fn(&mut Scratch, u64, &[Heap]) + Sync,
{
    over_runs(ranks, main, |scratch, run| {
        let mut heaps = std::mem::take(&mut scratch.heaps);
        partitions.unrank(run.start, &mut heaps);
        for rank in run.clone() {
            if rank > run.start {
                partitions.advance(&mut heaps);
            }
            visit(scratch, rank, &heaps);
        }
        scratch.heaps = heaps;
    });
}

/// Calls `visit(runs, rank)` for every rank of `ranks` (all of one tier), the position
/// as runs of equal heaps stepped from rank to rank.
pub(crate) fn visit_ranks_runs<F>(
    partitions: &Partitions,
    strides: &Strides,
    ranks: Range<u64>,
    main: &mut Scratch,
    visit: F,
) where
    F: Fn(&mut Runs, u64) + Sync,
{
    over_runs(ranks, main, |scratch, run| {
        partitions.unrank(run.start, &mut scratch.heaps);
        let runs = &mut scratch.runs;
        runs.load(strides, &scratch.heaps);
        for rank in run.clone() {
            if rank > run.start {
                runs.advance(strides);
            }
            visit(runs, rank);
        }
    });
}

/// Outcomes of a chunk, forward: a position is safe when a move reaches an unsafe one.
pub(crate) struct ForwardChunks<'a> {
    game: &'a Game,
    ranker: &'a Ranker,
    partitions: &'a Partitions,
    /// The single-process labeller, for whole tiers.
    whole: Forward<'a>,
    /// One-heap moves: children ranked from the position's runs.
    runs: Option<(Strides, Options)>,
}

impl<'a> ForwardChunks<'a> {
    /// For a `--total` domain (`None` otherwise).
    pub(crate) fn new(game: &'a Game, ranker: &'a Ranker) -> Option<Self> {
        let Ranker::Total(partitions) = ranker else {
            return None;
        };
        Some(ForwardChunks {
            game,
            ranker,
            partitions,
            whole: Forward::new(game, ranker),
            runs: Options::new(&game.ruleset, partitions.total())
                .map(|options| (Strides::new(partitions), options)),
        })
    }
}

impl ChunkLabeller<AtomicU64> for ForwardChunks<'_> {
    fn label_chunk(
        &self,
        bits: &Window<AtomicU64>,
        tier: u64,
        ranks: Range<u64>,
        main: &mut Scratch,
    ) -> u64 {
        let (game, ranker) = (self.game, self.ranker);
        if ranks == self.partitions.tier(tier) {
            return self.whole.label_tier(bits, tier, main);
        }
        let len = ranks.end - ranks.start;
        if let Some((strides, options)) = &self.runs {
            visit_ranks_runs(self.partitions, strides, ranks, main, |runs, rank| {
                if decide(scan(options, runs, strides, bits), game.terminal_is_win()) {
                    bits.set_safe(rank);
                }
            });
            return len;
        }
        visit_ranks(self.partitions, ranks, main, |_, rank, heaps| {
            let total = heaps.iter().sum();
            let safe = safe_by_moves(
                &game.ruleset,
                heaps,
                game.terminal_is_win(),
                |removed, added| bits.is_safe(ranker.rank_after_move(heaps, total, removed, added)),
            );
            if safe {
                bits.set_safe(rank);
            }
        });
        len
    }
}

/// Remotenesses of a chunk, pulled from the children: one more than the smallest
/// remoteness of an unsafe child when there is one (the position is safe), else one more
/// than the largest of any child (unsafe), and 0 without a move. The retrograde labeller
/// finds the same numbers by offers pushed to parents, which a chunk may not write.
pub(crate) struct PullRemoteness<'a> {
    game: &'a Game,
    ranker: &'a Ranker,
    partitions: &'a Partitions,
    children: ChildRanks,
    /// One-heap moves: every heap size's options, listed once.
    options: Option<Options>,
}

impl<'a> PullRemoteness<'a> {
    /// For a `--total` domain (`None` otherwise).
    pub(crate) fn new(game: &'a Game, ranker: &'a Ranker) -> Option<Self> {
        let Ranker::Total(partitions) = ranker else {
            return None;
        };
        Some(PullRemoteness {
            game,
            ranker,
            partitions,
            children: ChildRanks::new(ranker),
            options: Options::new(&game.ruleset, partitions.total()),
        })
    }

    /// Labels the position `heaps` of rank `rank` from its children's remotenesses.
    #[inline]
    fn position(
        &self,
        cells: &Window<AtomicU32>,
        scratch: &mut Scratch,
        rank: u64,
        heaps: &[Heap],
    ) {
        let (game, ranker) = (self.game, self.ranker);
        let ranks = scratch.children.get_or_insert_with(|| self.children.fork());
        let gathered = &mut scratch.ranks;
        gather_children(
            &game.ruleset,
            self.options.as_ref(),
            ranker,
            ranks,
            heaps,
            gathered,
            |child| cells.prefetch(child),
        );
        let remoteness = pulled_remoteness(
            gathered.iter().map(|&child| cells.slot(child).get()),
            game.terminal_is_win(),
        );
        cells.slot(rank).put(remoteness);
    }
}

impl ChunkLabeller<AtomicU32> for PullRemoteness<'_> {
    fn label_chunk(
        &self,
        cells: &Window<AtomicU32>,
        tier: u64,
        ranks: Range<u64>,
        main: &mut Scratch,
    ) -> u64 {
        if ranks == self.partitions.tier(tier) {
            // Whole tiers go by heap count where moves keep the total.
            return visit_tier(
                self.game,
                Tiers::Total(self.partitions),
                tier,
                main,
                |scratch, rank, heaps| self.position(cells, scratch, rank, heaps),
            );
        }
        let len = ranks.end - ranks.start;
        visit_ranks(self.partitions, ranks, main, |scratch, rank, heaps| {
            self.position(cells, scratch, rank, heaps)
        });
        len
    }
}

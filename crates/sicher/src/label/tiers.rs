//! Walks a domain's tiers (equal totals, lowest first), in parallel within a tier.

use std::ops::Range;

use rayon::prelude::*;

use crate::domain::{BoundedTuples, ChildRanks, Partitions, Ranker, Runs, Strides};
use crate::game::{Game, Heap};

/// Per-thread buffers for building children and parents without allocating.
#[derive(Default)]
pub(crate) struct Scratch {
    /// Heap slots a parent is raised from.
    pub(crate) slots: Vec<Heap>,
    /// The position being labelled as runs of equal heaps, for incremental child ranks.
    pub(crate) runs: Runs,
    /// The position being labelled, when stepped from rank to rank.
    pub(crate) heaps: Vec<Heap>,
    /// A `--heaps` position padded with zeros, while a tier is enumerated.
    pub(crate) tuple: Vec<Heap>,
    /// Ranks the children of the position being labelled.
    pub(crate) children: Option<ChildRanks>,
    /// Ranks gathered before their labels are read, so the reads overlap.
    pub(crate) ranks: Vec<u64>,
}

/// Tiers smaller than this are labelled on the calling thread: a rayon job costs more.
const PARALLEL_MIN: usize = 4096;
/// Positions per rayon job.
const CHUNK: usize = 1024;
/// Largest heap sizes per rayon job when a `--heaps` tier is shared out by largest heap.
const TOPS_PER_JOB: usize = 16;

/// The tiers of a domain, in the order they are labelled: every move reaches the same or
/// an earlier tier.
#[derive(Clone, Copy)]
pub(crate) enum Tiers<'a> {
    /// `--total`: tier `t` is the positions of total `t`, one contiguous range of ranks.
    Total(&'a Partitions),
    /// `--heaps K` with `K >= 2`: tiers of equal total, scattered over the ranks.
    Scattered(&'a BoundedTuples),
    /// `--heaps 1`: one tier, labelled in rank order on one thread (every move lowers
    /// the lone heap, so its rank).
    Lone(&'a BoundedTuples),
    /// `--heaps K` labelled backward: blocks of [`BLOCK`] ranks in rank order, on one
    /// thread (moves that only lower heaps lower the rank, so the marks a position needs
    /// come from smaller ranks).
    Blocks(&'a BoundedTuples),
}

/// Ranks per block of [`Tiers::Blocks`].
pub(crate) const BLOCK: u64 = 1 << 20;

impl<'a> Tiers<'a> {
    /// The tiers of `ranker`'s domain; `in_rank_order` (for moves that only lower
    /// heaps) makes `--heaps` domains blocks of ranks.
    pub(crate) fn of(ranker: &'a Ranker, in_rank_order: bool) -> Self {
        match ranker {
            Ranker::Total(p) => Tiers::Total(p),
            Ranker::Heaps(t) if t.heaps() == 1 => Tiers::Lone(t),
            Ranker::Heaps(t) if in_rank_order => Tiers::Blocks(t),
            Ranker::Heaps(t) => Tiers::Scattered(t),
        }
    }

    /// Number of tiers.
    pub(crate) fn count(&self) -> u64 {
        match self {
            Tiers::Total(p) => p.total() + 1,
            Tiers::Scattered(t) => t.heaps() as u64 * t.max() + 1,
            Tiers::Lone(_) => 1,
            Tiers::Blocks(t) => t.count().div_ceil(BLOCK),
        }
    }
}

/// Calls `visit(scratch, rank, heaps)` once for every position of tier `tier` (heaps
/// ascending, no zeros), in parallel where the tier is large; returns how many.
pub(crate) fn visit_tier<F>(
    game: &Game,
    tiers: Tiers<'_>,
    tier: u64,
    main_scratch: &mut Scratch,
    visit: F,
) -> u64
where
    F: Fn(&mut Scratch, u64, &[Heap]) + Sync,
{
    visit_tier_with(
        game.ruleset.splits_without_taking(),
        tiers,
        tier,
        main_scratch,
        visit,
    )
}

/// [`visit_tier`] for any labeller (the partizan one too): `splits` says whether some
/// move splits a heap without taking a token, so a `--total` tier is swept by heap count,
/// most heaps first.
pub(crate) fn visit_tier_with<F>(
    splits: bool,
    tiers: Tiers<'_>,
    tier: u64,
    main_scratch: &mut Scratch,
    visit: F,
) -> u64
where
    F: Fn(&mut Scratch, u64, &[Heap]) + Sync,
{
    match tiers {
        Tiers::Lone(tuples) => {
            visit(main_scratch, 0, &[]);
            for h in 1..=tuples.max() {
                visit(main_scratch, h, &[h]);
            }
            tuples.count()
        }
        Tiers::Scattered(tuples) => scattered_tier(tuples, tier, &visit),
        Tiers::Blocks(tuples) => {
            let mut padded = Vec::new();
            let ranks = tier * BLOCK..tuples.count().min((tier + 1) * BLOCK);
            for rank in ranks.clone() {
                tuples.unrank(rank, &mut padded);
                let start = padded.iter().position(|&h| h != 0).unwrap_or(padded.len());
                visit(main_scratch, rank, &padded[start..]);
            }
            ranks.end - ranks.start
        }
        Tiers::Total(partitions) => {
            // Unranking costs a scan per part; stepping from one rank to the next is far
            // cheaper, so each run of ranks unranks only its first.
            let each = |scratch: &mut Scratch, pass: Option<usize>, run: Range<u64>| {
                let mut heaps = std::mem::take(&mut scratch.heaps);
                partitions.unrank(run.start, &mut heaps);
                match pass {
                    None => {
                        for rank in run.clone() {
                            if rank > run.start {
                                partitions.advance(&mut heaps);
                            }
                            visit(scratch, rank, &heaps);
                        }
                    }
                    Some(count) => {
                        let mut at = Some(run.start).filter(|_| heaps.len() == count);
                        loop {
                            let rank = match at {
                                Some(rank) => rank,
                                None if partitions.advance_to_parts(&mut heaps, count) => {
                                    partitions.rank(&heaps)
                                }
                                None => break,
                            };
                            if rank >= run.end {
                                break;
                            }
                            visit(scratch, rank, &heaps);
                            at = None;
                        }
                    }
                }
                scratch.heaps = heaps;
            };
            total_tier(splits, partitions, tier, main_scratch, each)
        }
    }
}

/// Visits the positions of total `total` in a `--heaps` domain: the jobs share out the
/// largest heap, and each enumerates the smaller ones in place (no list of the tier).
fn scattered_tier<F>(tuples: &BoundedTuples, total: u64, visit: &F) -> u64
where
    F: Fn(&mut Scratch, u64, &[Heap]) + Sync,
{
    let k = tuples.heaps();
    let lowest = total.div_ceil(k as u64);
    let highest = tuples.max().min(total);
    if lowest > highest {
        return 0;
    }
    (lowest as usize..highest as usize + 1)
        .into_par_iter()
        .with_min_len(TOPS_PER_JOB)
        .map_init(Scratch::default, |scratch, top| {
            let top = top as Heap;
            let mut padded = std::mem::take(&mut scratch.tuple);
            padded.clear();
            padded.resize(k, 0);
            padded[k - 1] = top;
            let mut visited = 0;
            fill(&mut padded, k - 1, total - top, top, &mut |padded| {
                let start = padded.iter().position(|&h| h != 0).unwrap_or(k);
                let heaps = &padded[start..];
                visit(scratch, tuples.rank(heaps), heaps);
                visited += 1;
            });
            scratch.tuple = padded;
            visited
        })
        .sum()
}

/// Sets `padded[..slots]` (ascending, each at most `cap`) every way that sums to `rest`,
/// calling `visit` on each whole tuple.
fn fill(padded: &mut [Heap], slots: usize, rest: u64, cap: Heap, visit: &mut dyn FnMut(&[Heap])) {
    if slots == 0 {
        if rest == 0 {
            visit(padded);
        }
        return;
    }
    let lowest = rest.div_ceil(slots as u64);
    let highest = cap.min(rest);
    for v in lowest..=highest {
        padded[slots - 1] = v;
        fill(padded, slots - 1, rest - v, v, visit);
    }
}

/// Calls `visit(runs, rank)` once for every position of tier `total` of a `--total`
/// domain, as runs of equal heaps (see [`visit_tier`]); returns how many.
pub(crate) fn visit_tier_runs<F>(
    game: &Game,
    partitions: &Partitions,
    strides: &Strides,
    total: u64,
    main_scratch: &mut Scratch,
    visit: F,
) -> u64
where
    F: Fn(&mut Runs, u64) + Sync,
{
    visit_tier_runs_with(
        game.ruleset.splits_without_taking(),
        partitions,
        strides,
        total,
        main_scratch,
        visit,
    )
}

/// [`visit_tier_runs`] for any labeller (the partizan one too); `splits` as in
/// [`visit_tier_with`].
pub(crate) fn visit_tier_runs_with<F>(
    splits: bool,
    partitions: &Partitions,
    strides: &Strides,
    total: u64,
    main_scratch: &mut Scratch,
    visit: F,
) -> u64
where
    F: Fn(&mut Runs, u64) + Sync,
{
    let each = |scratch: &mut Scratch, pass: Option<usize>, run: Range<u64>| {
        let heaps = &mut scratch.heaps;
        partitions.unrank(run.start, heaps);
        let runs = &mut scratch.runs;
        match pass {
            None => {
                runs.load(strides, heaps);
                for rank in run.clone() {
                    if rank > run.start {
                        runs.advance(strides);
                    }
                    visit(runs, rank);
                }
            }
            // Walking the whole tier once per heap count cost more than the labelling:
            // jump from one position with that many heaps to the next instead.
            Some(count) => {
                let mut at = Some(run.start).filter(|_| heaps.len() == count);
                loop {
                    let rank = match at {
                        Some(rank) => rank,
                        None if partitions.advance_to_parts(heaps, count) => partitions.rank(heaps),
                        None => break,
                    };
                    if rank >= run.end {
                        break;
                    }
                    runs.load(strides, heaps);
                    visit(runs, rank);
                    at = None;
                }
            }
        }
    };
    total_tier(splits, partitions, total, main_scratch, each)
}

/// Runs `each(scratch, pass, ranks)` over tier `total` of a `--total` domain, splitting a
/// large tier into parallel chunks; `pass`, when given, restricts a sweep of the tier to
/// positions with that many heaps. Returns the tier's size.
fn total_tier<E>(
    splits: bool,
    partitions: &Partitions,
    total: u64,
    main_scratch: &mut Scratch,
    each: E,
) -> u64
where
    E: Fn(&mut Scratch, Option<usize>, Range<u64>) + Sync,
{
    // A split lowers the rank, so one thread in rank order gets it right, but threads
    // sharing a tier would read unfinished labels.
    let by_heap_count = splits;
    let ranks = partitions.tier(total);
    // Splitting without taking keeps the total but adds heaps: label the positions with
    // more heaps first.
    let passes: Vec<Option<usize>> = if by_heap_count {
        (0..=total as usize).rev().map(Some).collect()
    } else {
        vec![None]
    };
    for pass in passes {
        if ((ranks.end - ranks.start) as usize) < PARALLEL_MIN {
            each(main_scratch, pass, ranks.clone());
        } else {
            let chunks = (ranks.end - ranks.start).div_ceil(CHUNK as u64);
            (0..chunks)
                .into_par_iter()
                .for_each_init(Scratch::default, |scratch, c| {
                    let start = ranks.start + c * CHUNK as u64;
                    each(scratch, pass, start..(start + CHUNK as u64).min(ranks.end))
                });
        }
    }
    ranks.end - ranks.start
}

/// True when the position has at least one move.
#[inline]
pub(crate) fn has_move(game: &Game, heaps: &[Heap]) -> bool {
    game.ruleset
        .for_each_move(heaps, |_, _| std::ops::ControlFlow::Break(()))
        .is_break()
}

//! Walks a domain tier by tier (equal totals, lowest first), in parallel within a tier.

use std::ops::Range;

use rayon::prelude::*;

use crate::domain::{ChildRanks, Partitions, Ranker, Runs, Strides};
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
    /// Ranks the children of the position being labelled.
    pub(crate) children: Option<ChildRanks>,
}

/// Tiers smaller than this are labelled on the calling thread: a rayon job costs more.
const PARALLEL_MIN: usize = 4096;
/// Positions per rayon job.
const CHUNK: usize = 1024;
/// Positions between two progress reports.
const PROGRESS_STEP: u64 = 1 << 16;

/// Calls `visit(scratch, rank, heaps)` once for every position of the domain (heaps
/// ascending, no zeros), finishing every tier before the next one starts.
pub(crate) fn for_each_position<F>(
    game: &Game,
    ranker: &Ranker,
    progress: &(dyn Fn(u64) + Sync),
    visit: F,
) where
    F: Fn(&mut Scratch, u64, &[Heap]) + Sync,
{
    let mut pending = 0u64;
    let mut report = |done: u64| {
        pending += done;
        if pending >= PROGRESS_STEP {
            progress(pending);
            pending = 0;
        }
    };
    let mut main_scratch = Scratch::default();
    match ranker {
        Ranker::Heaps(tuples) if tuples.heaps() == 1 => {
            // One position per tier: nothing to share out, so skip building tiers.
            visit(&mut main_scratch, 0, &[]);
            for h in 1..=tuples.max() {
                visit(&mut main_scratch, h, &[h]);
                report(1);
            }
            report(1);
        }
        Ranker::Heaps(tuples) => {
            let k = tuples.heaps();
            let mut tier = Vec::new();
            let mut tuple = Vec::new();
            for total in 0..=ranker.max_total() {
                tier.clear();
                tuples.push_with_total(total, &mut tuple, &mut tier);
                let each = |scratch: &mut Scratch, padded: &[Heap]| {
                    let start = padded.iter().position(|&h| h != 0).unwrap_or(k);
                    let heaps = &padded[start..];
                    visit(scratch, ranker.rank_unchecked(heaps), heaps);
                };
                if tier.len() / k < PARALLEL_MIN {
                    tier.chunks(k).for_each(|t| each(&mut main_scratch, t));
                } else {
                    tier.par_chunks(k * CHUNK)
                        .for_each_init(Scratch::default, |scratch, chunk| {
                            chunk.chunks(k).for_each(|t| each(scratch, t))
                        });
                }
                report((tier.len() / k) as u64);
            }
        }
        Ranker::Total(partitions) => {
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
            total_tiers(game, partitions, &mut main_scratch, &mut report, each);
        }
    }
    if pending > 0 {
        progress(pending);
    }
}

/// Calls `visit(scratch, rank, runs)` once for every position of a `--total` domain, as
/// runs of equal heaps (see [`for_each_position`]).
pub(crate) fn for_each_runs_position<F>(
    game: &Game,
    partitions: &Partitions,
    strides: &Strides,
    progress: &(dyn Fn(u64) + Sync),
    visit: F,
) where
    F: Fn(&mut Runs, u64) + Sync,
{
    let mut pending = 0u64;
    let mut report = |done: u64| {
        pending += done;
        if pending >= PROGRESS_STEP {
            progress(pending);
            pending = 0;
        }
    };
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
    total_tiers(game, partitions, &mut Scratch::default(), &mut report, each);
    if pending > 0 {
        progress(pending);
    }
}

/// Runs `each(scratch, pass, ranks)` over every tier of a `--total` domain in order,
/// splitting large tiers into parallel chunks; `pass`, when given, restricts a sweep of
/// the tier to positions with that many heaps.
fn total_tiers<E>(
    game: &Game,
    partitions: &Partitions,
    main_scratch: &mut Scratch,
    report: &mut impl FnMut(u64),
    each: E,
) where
    E: Fn(&mut Scratch, Option<usize>, Range<u64>) + Sync,
{
    // A split lowers the rank, so one thread in rank order gets it right, but threads
    // sharing a tier would read unfinished labels.
    let by_heap_count = game.ruleset.splits_without_taking();
    for total in 0..=partitions.total() {
        let ranks = partitions.tier(total);
        // Splitting without taking keeps the total but adds heaps: label the positions
        // with more heaps first.
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
        report(ranks.end - ranks.start);
    }
}

/// Builds, in `out`, the ascending zero-free position `heaps` becomes after a move that
/// removes the heaps at `removed` (ascending indices) and adds `added`.
#[inline]
pub fn child_into(heaps: &[Heap], removed: &[usize], added: &[Heap], out: &mut Vec<Heap>) {
    out.clear();
    let mut skip = removed.iter().peekable();
    for (i, &h) in heaps.iter().enumerate() {
        if skip.peek() == Some(&&i) {
            skip.next();
        } else {
            out.push(h);
        }
    }
    for &a in added {
        if a != 0 {
            let at = out.partition_point(|&h| h < a);
            out.insert(at, a);
        }
    }
}

/// True when the position has at least one move.
#[inline]
pub(crate) fn has_move(game: &Game, heaps: &[Heap]) -> bool {
    game.ruleset
        .for_each_move(heaps, |_, _| std::ops::ControlFlow::Break(()))
        .is_break()
}

//! Normal play of rules whose moves change one heap: by the Sprague-Grundy theorem a
//! position is unsafe exactly when the XOR of its heaps' nim-values is 0, so each label
//! follows from the position alone and no child is read.
//!
//! The nim-values of every heap size in the domain come from [`crate::grundy`]; the
//! domain is walked in rank order, each job filling its own words.

use rayon::prelude::*;

use super::bits::{out_of_memory, Labels};
use crate::domain::{Ranker, Runs, Strides};
use crate::error::Result;
use crate::game::{Convention, Game};
use crate::grundy::{nim_values, Method, Nimber};

/// Words per rayon job.
const JOB_WORDS: usize = 1024;

/// True when the theorem decides every position of the game.
pub(crate) fn applies(game: &Game) -> bool {
    game.convention == Convention::Normal && game.ruleset.moves_one_heap()
}

/// Bytes the labelling holds beyond the labels: the nim-values, and the stride sums of
/// a `--total` domain.
pub(crate) fn table_bytes(ranker: &Ranker) -> u64 {
    match ranker {
        Ranker::Heaps(t) => (t.max() + 1) * 4,
        Ranker::Total(p) => {
            let width = p.total() + 1;
            width * 4 + (width * width + width) * 8
        }
    }
}

/// Labels every position of the domain from the nim-values of its heaps.
pub(crate) fn label(
    game: &Game,
    ranker: &Ranker,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Labels> {
    let largest = match ranker {
        Ranker::Heaps(t) => t.max(),
        Ranker::Total(p) => p.total(),
    };
    // Nim's nim-values are the sizes themselves: no table of them.
    let values: Vec<Nimber> = if game.ruleset.nim_values_are_sizes() {
        Vec::new()
    } else {
        nim_values(&game.ruleset, Method::Fast, largest + 1)?
    };
    let value = |h: u64| -> u64 {
        match values.get(h as usize) {
            Some(&v) => u64::from(v),
            None => h,
        }
    };
    let count = ranker.count();
    let len = usize::try_from(count.div_ceil(64)).unwrap_or(usize::MAX);
    let mut words: Vec<u64> = Vec::new();
    words
        .try_reserve_exact(len)
        .map_err(|_| out_of_memory("the labels", count))?;
    words.resize(len, 0);
    let jobs = words.par_chunks_mut(JOB_WORDS).enumerate();
    let span = |job: usize, chunk: &[u64]| {
        let start = (job * JOB_WORDS) as u64 * 64;
        (start, (start + chunk.len() as u64 * 64).min(count))
    };
    match ranker {
        Ranker::Heaps(tuples) => jobs.for_each(|(job, chunk)| {
            let (start, end) = span(job, chunk);
            let mut padded = Vec::new();
            tuples.unrank(start, &mut padded);
            for rank in start..end {
                if rank > start {
                    tuples.advance(&mut padded);
                }
                let x = padded.iter().fold(0, |x, &h| x ^ value(h));
                let bit = rank - start;
                chunk[(bit / 64) as usize] |= u64::from(x != 0) << (bit % 64);
            }
            progress(end - start);
        }),
        Ranker::Total(partitions) => {
            let strides = Strides::new(partitions);
            jobs.for_each(|(job, chunk)| {
                let (start, end) = span(job, chunk);
                let mut heaps = Vec::new();
                let mut runs = Runs::default();
                let mut tier_end = 0;
                for rank in start..end {
                    if rank == start || rank == tier_end {
                        // Stepping stays within a tier: each tier's first position is unranked.
                        partitions.unrank(rank, &mut heaps);
                        runs.load(&strides, &heaps);
                        tier_end = partitions.tier(heaps.iter().sum()).end;
                    } else {
                        runs.advance(&strides);
                    }
                    let mut x = 0;
                    for i in 0..runs.len() {
                        if runs.count(i) % 2 == 1 {
                            x ^= value(runs.value(i));
                        }
                    }
                    let bit = rank - start;
                    chunk[(bit / 64) as usize] |= u64::from(x != 0) << (bit % 64);
                }
                progress(end - start);
            });
        }
    }
    Ok(Labels::from_words(words, count))
}

//! Normal play of rules whose moves change one heap: by the Sprague-Grundy theorem a
//! position is unsafe exactly when the XOR of its heaps' nim-values is 0, so each label
//! follows from the position alone and no child is read.
//!
//! The nim-values of every heap size in the domain come from [`crate::theory::grundy`]; the
//! domain is walked in rank order, each job filling its own words.

use rayon::prelude::*;

use super::bits::{out_of_memory, Labels};
use crate::domain::Ranker;
use crate::error::Result;
use crate::game::{Convention, Game};
use crate::theory::grundy::{nim_values, Method, Nimber};

/// Words per rayon job.
const JOB_WORDS: usize = 1024;

/// A position as runs of equal heaps (largest first) with the XOR of its nim-values,
/// stepped from rank to rank within a tier as [`Partitions::advance`] steps.
///
/// [`Partitions::advance`]: crate::domain::Partitions::advance
#[derive(Default)]
struct XorRuns {
    /// `(heap size, count)`, sizes descending.
    runs: Vec<(u64, u64)>,
    xor: u64,
}

impl XorRuns {
    fn load(&mut self, heaps: &[u64], value: &impl Fn(u64) -> u64) {
        self.runs.clear();
        self.xor = 0;
        for run in heaps.chunk_by(|a, b| a == b).rev() {
            self.push(run[0], run.len() as u64, value);
        }
    }

    #[inline]
    fn push(&mut self, size: u64, count: u64, value: &impl Fn(u64) -> u64) {
        if count % 2 == 1 {
            self.xor ^= value(size);
        }
        self.runs.push((size, count));
    }

    #[inline]
    fn pop(&mut self, value: &impl Fn(u64) -> u64) -> (u64, u64) {
        let (size, count) = self.runs.pop().expect("not the last position of its tier");
        if count % 2 == 1 {
            self.xor ^= value(size);
        }
        (size, count)
    }

    /// The next partition of the same total: the smallest part that can grow (the last
    /// of its run, with something below it to pay) grows by one, and ones fill the rest.
    #[inline]
    fn advance(&mut self, value: &impl Fn(u64) -> u64) {
        let (size, count) = self.pop(value);
        let (raised, freed) = if count >= 2 {
            (size, size * count)
        } else {
            let (next, next_count) = self.pop(value);
            (next, size + next * next_count)
        };
        let ones = freed - raised - 1;
        match self.runs.last() {
            Some(&(above, _)) if above == raised + 1 => {
                let (above, above_count) = self.pop(value);
                self.push(above, above_count + 1, value);
            }
            _ => self.push(raised + 1, 1, value),
        }
        if ones > 0 {
            self.push(1, ones, value);
        }
    }
}

/// True when the theorem decides every position of the game.
pub(crate) fn applies(game: &Game) -> bool {
    game.convention == Convention::Normal && game.ruleset.moves_one_heap()
}

/// Bytes the labelling holds beyond the labels: the nim-values.
pub(crate) fn table_bytes(ranker: &Ranker) -> u64 {
    match ranker {
        Ranker::Heaps(t) => (t.max() + 1) * 4,
        Ranker::Total(p) => (p.total() + 1) * 4,
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
            let mut word = 0u64;
            for rank in start..end {
                if rank > start {
                    tuples.advance(&mut padded);
                }
                let x = padded.iter().fold(0, |x, &h| x ^ value(h));
                let bit = rank - start;
                word |= u64::from(x != 0) << (bit % 64);
                if bit % 64 == 63 || rank + 1 == end {
                    chunk[(bit / 64) as usize] = word;
                    word = 0;
                }
            }
            progress(end - start);
        }),
        Ranker::Total(partitions) => jobs.for_each(|(job, chunk)| {
            let (start, end) = span(job, chunk);
            let mut heaps = Vec::new();
            let mut runs = XorRuns::default();
            let mut tier_end = 0;
            let mut word = 0u64;
            for rank in start..end {
                if rank == start || rank == tier_end {
                    // Stepping stays within a tier: each tier's first position is unranked.
                    partitions.unrank(rank, &mut heaps);
                    runs.load(&heaps, &value);
                    tier_end = partitions.tier(heaps.iter().sum()).end;
                } else {
                    runs.advance(&value);
                }
                let bit = rank - start;
                word |= u64::from(runs.xor != 0) << (bit % 64);
                if bit % 64 == 63 || rank + 1 == end {
                    chunk[(bit / 64) as usize] = word;
                    word = 0;
                }
            }
            progress(end - start);
        }),
    }
    Ok(Labels::from_words(words, count))
}

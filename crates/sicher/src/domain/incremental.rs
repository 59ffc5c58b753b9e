//! Ranking the children of one `--total` position incrementally.
//!
//! Read ascending, a part `v` whose running sum (itself and every smaller part) is `x`
//! adds `P(x, v - 1)` to the rank (see [`partitions`](super::partitions)). Summed along a
//! stride, `S_v(x) = P(x, v - 1) + S_v(x - v)`, a run of `c` equal parts `v` starting
//! after running sum `s` adds `S_v(s + c v) - S_v(s)`: one subtraction per run of equal
//! heaps instead of one lookup per heap.
//!
//! A one-heap move takes a copy of `v_i` and puts back at most three smaller parts.
//! Runs at most the smallest part put back keep their running sums, so their share of
//! the rank is a prefix sum of the parent's; runs above `v_i` see every running sum
//! lowered by the tokens taken, `t`, and runs between the largest part and `v_i` see it
//! raised by `v_i - t`, so both shares depend only on `(i, t)` and are cached; only the
//! runs between the parts are walked per child.

use super::partitions::Partitions;
use crate::game::Heap;

/// Most parts a move may put back for the incremental path (octal and hex codes: three).
pub const MAX_PUT_BACK: usize = 3;

/// Stride sums `S_v(x)` of the partition counts, for every `v, x <= T`.
#[derive(Clone, Debug)]
pub struct Strides {
    width: usize,
    /// `sums[v * width + x] = S_v(x)`.
    sums: Vec<u64>,
    /// `offsets[t]`: rank of the first position of total `t`.
    offsets: Vec<u64>,
}

impl Strides {
    /// Builds the stride sums for the ranker's domain.
    pub fn new(partitions: &Partitions) -> Self {
        let total = partitions.total();
        let width = total as usize + 1;
        let mut sums = vec![0u64; width * width];
        for v in 1..width {
            for x in v..width {
                // Domains of at most 2^48 positions keep P below 2^48, so no overflow.
                sums[v * width + x] =
                    partitions.at_most(x as u64, v as u64 - 1) + sums[v * width + x - v];
            }
        }
        let offsets = (0..=total).map(|t| partitions.tier(t).start).collect();
        Strides {
            width,
            sums,
            offsets,
        }
    }

    /// The rank share of `count` parts `value` placed after running sum `start`.
    #[inline]
    fn run(&self, value: Heap, start: u64, count: u64) -> u64 {
        let row = value as usize * self.width;
        self.sums[row + (start + count * value) as usize] - self.sums[row + start as usize]
    }
}

/// One run of equal heaps of the loaded position.
#[derive(Clone, Copy, Debug)]
struct Run {
    value: Heap,
    count: u64,
    /// Running sum of the smaller runs.
    start: u64,
    /// Rank share of this run and every larger one.
    from: u64,
}

/// One parent position as runs of equal heaps, ready to rank its children.
///
/// Runs are stored largest first: stepping to the next rank only rewrites the smallest
/// runs, and the larger ones keep their running sums and shares.
#[derive(Clone, Debug, Default)]
pub struct Runs {
    runs: Vec<Run>,
    total: u64,
    heaps: u64,
    /// Row `t`, entry `i`: rank share of the runs larger than run `i` once `t` tokens
    /// are gone below them.
    above: PrefixRows,
    /// Prefix sums for [`Runs::below`], and the `(generation, run, taken)` they are for.
    below: Vec<u64>,
    below_key: (u32, u32, u64),
    /// Row `t`, entry `i`: rank share of the `i` largest runs once `t` tokens more lie
    /// below them.
    raised: PrefixRows,

    generation: u32,
}

/// Rows of prefix sums over the runs, one row per token shift `t`, each extended only as
/// far as asked: `sums[t * stride + i]`; `rows[t] = (stamp, filled)` says entries
/// `..=filled` are valid when `stamp` is the current generation.
#[derive(Clone, Debug, Default)]
struct PrefixRows {
    sums: Vec<u64>,
    rows: Vec<(u32, u32)>,
}

impl PrefixRows {
    /// Makes room for rows `0..rows` of `stride` entries (before a position's lookups,
    /// so that lookups never grow the buffers).
    #[inline]
    fn reserve(&mut self, rows: usize, stride: usize) {
        if self.rows.len() < rows {
            self.rows.resize(rows, (0, 0));
        }
        if self.sums.len() < rows * stride {
            self.sums.resize(rows * stride, 0);
        }
    }

    /// Entry `upto` of row `t`, extending the row with `share(k)` for runs `k` not summed
    /// yet in this generation; room for the row must be reserved.
    #[inline(always)]
    fn prefix(
        &mut self,
        t: usize,
        stride: usize,
        generation: u32,
        upto: usize,
        mut share: impl FnMut(usize) -> u64,
    ) -> u64 {
        let row = &mut self.sums[t * stride..(t + 1) * stride];
        let (stamp, filled) = &mut self.rows[t];
        if *stamp != generation {
            *stamp = generation;
            *filled = 0;
            row[0] = 0;
        }
        // Extended only as far as asked: most positions stop at an early move.
        let mut k = *filled as usize;
        while k < upto {
            row[k + 1] = row[k] + share(k);
            k += 1;
        }
        *filled = (*filled).max(upto as u32);
        row[upto]
    }

    /// Entry `upto` of row `t`, already summed that far in this generation.
    #[inline(always)]
    fn summed(&self, t: usize, stride: usize, upto: usize) -> u64 {
        debug_assert!(self.rows[t].1 as usize >= upto);
        self.sums[t * stride + upto]
    }

    /// Forgets every row (when the generation counter wraps around).
    fn reset(&mut self) {
        self.rows.fill((0, 0));
    }
}

impl Runs {
    /// Loads the ascending zero-free `heaps` (a position of the strides' domain).
    pub fn load(&mut self, strides: &Strides, heaps: &[Heap]) {
        self.runs.clear();
        self.total = heaps.iter().sum();
        self.heaps = heaps.len() as u64;
        let mut start = self.total;
        for run in heaps.chunk_by(|a, b| a == b).rev() {
            let (value, count) = (run[0], run.len() as u64);
            start -= value * count;
            self.push(strides, value, count, start);
        }
        self.touch(strides.width);
    }

    /// Steps to the position of the next rank, which must have the same total (the
    /// loaded position is not the last of its tier); see [`Partitions::advance`].
    pub fn advance(&mut self, strides: &Strides) {
        let low = self.runs.pop().expect("not the last of its tier");
        let (raised, freed, gone) = if low.count >= 2 {
            (low.value, low.value * low.count, low.count)
        } else {
            let next = self.runs.pop().expect("not the last of its tier");
            (
                next.value,
                low.value + next.value * next.count,
                1 + next.count,
            )
        };
        let ones = freed - raised - 1;
        match self.runs.last() {
            Some(&run) if run.value == raised + 1 => {
                self.runs.pop();
                self.push(strides, run.value, run.count + 1, ones);
            }
            _ => self.push(strides, raised + 1, 1, ones),
        }
        if ones > 0 {
            self.push(strides, 1, ones, 0);
        }
        self.heaps = self.heaps - gone + 1 + ones;
        self.touch(strides.width);
    }

    /// Appends the next smaller run.
    #[inline]
    fn push(&mut self, strides: &Strides, value: Heap, count: u64, start: u64) {
        let larger = self.runs.last().map_or(0, |r| r.from);
        self.runs.push(Run {
            value,
            count,
            start,
            from: larger + strides.run(value, start, count),
        });
    }

    /// Invalidates the shares cached for the previous position, and makes room for the
    /// new one's: token shifts up to `width - 1` (tokens moved within the domain), one
    /// entry per run and one more.
    #[inline]
    fn touch(&mut self, width: usize) {
        let stride = self.runs.len() + 1;
        self.above.reserve(width, stride);
        self.raised.reserve(width, stride);
        // Stamps instead of clearing: most positions read only a few values of `t`.
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.above.reset();
            self.raised.reset();
            self.below_key = (0, 0, 0);
            self.generation = 1;
        }
    }

    /// Number of runs of equal heaps.
    #[inline]
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// Number of heaps.
    #[inline]
    pub fn heaps(&self) -> u64 {
        self.heaps
    }

    /// Number of heaps in run `i`.
    #[inline]
    pub fn count(&self, i: usize) -> u64 {
        self.runs[i].count
    }

    /// The heap size of run `i` (runs descend).
    #[inline]
    pub fn value(&self, i: usize) -> Heap {
        self.runs[i].value
    }

    /// The rank share of the whole position.
    #[inline]
    fn share(&self) -> u64 {
        self.runs.last().map_or(0, |r| r.from)
    }

    /// Rank of the loaded position (the tests' check of the incremental ranks).
    #[cfg(test)]
    pub fn rank(&self, strides: &Strides) -> u64 {
        strides.offsets[self.total as usize] + self.share()
    }

    /// Rank of the child left by taking the heap at index `removed` of `heaps` (the
    /// loaded position) and putting back `added` (any order, zeros allowed); `None` unless
    /// the parts put back are at most [`MAX_PUT_BACK`], each smaller than the heap taken.
    pub fn child_rank(
        &mut self,
        strides: &Strides,
        heaps: &[Heap],
        removed: usize,
        added: &[Heap],
    ) -> Option<u64> {
        let value = heaps[removed];
        let mut parts = [0; MAX_PUT_BACK];
        let mut len = 0;
        for &a in added.iter().filter(|&&a| a != 0) {
            if len == MAX_PUT_BACK || a >= value {
                return None;
            }
            parts[len] = a;
            len += 1;
        }
        let parts = &mut parts[..len];
        parts.sort_unstable();
        let taken = value - parts.iter().sum::<Heap>();
        let run = self.runs.partition_point(|r| r.value > value);
        Some(self.replace(strides, run, taken, parts))
    }

    /// Rank of the child left by taking one heap of run `i` and putting back `parts`:
    /// ascending, non-zero, each smaller than the heap, `taken` tokens fewer in all.
    #[inline]
    pub fn replace(&mut self, strides: &Strides, i: usize, taken: u64, parts: &[Heap]) -> u64 {
        let top = self.runs[i];
        debug_assert!(parts.is_sorted() && parts.iter().all(|&p| p > 0 && p < top.value));
        debug_assert_eq!(parts.iter().sum::<Heap>() + taken, top.value);
        // A run's running sum grows by the parts put back below it (a part equal to a
        // run's heaps counts as above it): the sum of them all for the runs above the
        // largest part, down to nothing for the runs at most the smallest.
        let mut shift = top.value - taken;
        let mut share = self.above(strides, i, taken)
            + strides.run(top.value, top.start + shift, top.count - 1);
        let len = self.runs.len();
        let largest = parts.last().copied().unwrap_or(0);
        let mut j = i + 1;
        while j < len && self.runs[j].value > largest {
            j += 1;
        }
        share += self.below(strides, i, taken, j);
        for k in (0..parts.len()).rev() {
            let part = parts[k];
            shift -= part;
            // The part comes after every heap at most its size and the smaller parts.
            share += strides.run(part, self.runs[j - 1].start + shift, 1);
            if k > 0 {
                let lower = parts[k - 1];
                while j < len && self.runs[j].value > lower {
                    let run = self.runs[j];
                    share += strides.run(run.value, run.start + shift, run.count);
                    j += 1;
                }
            }
        }
        // The runs at most the smallest part keep their running sums and shares.
        share += self.share() - self.runs[j - 1].from;
        strides.offsets[(self.total - taken) as usize] + share
    }

    /// Rank of the parent made by merging heaps `removed` (ascending sizes, each a heap of
    /// the loaded position) and `added` tokens into one heap of their sum, which must be
    /// larger than each of them (a split, a take-and-break move or a one-heap move undone;
    /// with no heaps removed, a heap of `added` tokens put in): [`Runs::merge_runs_rank`]
    /// once each heap's run is found.
    pub fn merge_rank(&mut self, strides: &Strides, removed: &[Heap], added: u64) -> u64 {
        debug_assert!(removed.len() <= MAX_PUT_BACK);
        let mut from = [0usize; MAX_PUT_BACK];
        for (run, &x) in from.iter_mut().zip(removed) {
            *run = self.runs.partition_point(|r| r.value > x);
        }
        self.merge_runs_rank(strides, &from[..removed.len()], added)
    }

    /// Rank of the parent made by merging one heap of each run in `from` (run indices,
    /// largest index first, so ascending heap sizes; an index repeats once per heap taken
    /// from its run) and `added` tokens into one heap larger than each of them.
    ///
    /// The parent of [`Runs::merge_rank`], given the merged heaps' runs: the runs larger
    /// than the new heap come from the cached raised row, the smaller ones keep their
    /// shares, and only the runs between the new heap and the smallest merged one are
    /// walked.
    pub fn merge_runs_rank(&mut self, strides: &Strides, from: &[usize], added: u64) -> u64 {
        let merged: Heap = from.iter().map(|&i| self.runs[i].value).sum();
        debug_assert!(from.is_sorted_by(|a, b| a >= b));
        debug_assert!(from.iter().all(|&i| self.runs[i].value < merged + added));
        // Runs larger than the new heap lie before every merged run.
        let mut above = from.last().map_or(self.runs.len(), |&i| i);
        self.raised(strides, above, added);
        let (mut share, mut next) = self.joined_share(strides, &mut above, merged, added);
        // Walk the merged runs from the largest down; `gone` is the merged tokens below
        // the runs walked so far.
        let mut gone = merged;
        let mut k = from.len();
        while k > 0 {
            let i = from[k - 1];
            let mut taken = 0;
            while k > 0 && from[k - 1] == i {
                taken += 1;
                k -= 1;
            }
            share += self.lowered(strides, next..i, gone);
            let run = self.runs[i];
            gone -= taken * run.value;
            if run.count > taken {
                share += strides.run(run.value, run.start - gone, run.count - taken);
            }
            next = i + 1;
        }
        // Runs smaller than every merged heap keep their running sums and shares.
        share += match next {
            0 => self.share(),
            _ => self.share() - self.runs[next - 1].from,
        };
        strides.offsets[(self.total + added) as usize] + share
    }

    /// Calls `visit(rank)` for every parent that merges two heaps of the loaded position
    /// and `added` tokens into one heap of at most `cap` (once per pair of runs, both
    /// heaps from one run when it holds two; `unequal`: heaps of different sizes only).
    ///
    /// The same ranks as [`Runs::merge_runs_rank`] for each pair, computed along the
    /// pairs: with the smaller heap fixed, the runs between the two merged heaps are
    /// summed as the larger one grows, and the new heap's place only moves up.
    pub fn pair_merge_ranks(
        &mut self,
        strides: &Strides,
        added: u64,
        unequal: bool,
        cap: Heap,
        mut visit: impl FnMut(u64),
    ) {
        let len = self.runs.len();
        let offset = strides.offsets[(self.total + added) as usize];
        let whole = self.share();
        // Every run may end up above the new heap: sum the whole raised row once.
        self.raised(strides, len, added);
        for a in (0..len).rev() {
            let low = self.runs[a];
            // The runs smaller than the smaller heap keep their shares.
            let kept = whole - low.from;
            // Runs before `above` are larger than the new heap; it only moves up.
            let mut above = a;
            // Both heaps from the smaller heap's run.
            if !unequal && low.count >= 2 && 2 * low.value + added <= cap {
                let gone = 2 * low.value;
                let (share, next) = self.joined_share(strides, &mut above, gone, added);
                let mut rank = offset + share + kept;
                rank += self.lowered(strides, next..a, gone);
                if low.count > 2 {
                    rank += strides.run(low.value, low.start, low.count - 2);
                }
                visit(rank);
            }
            let low_rest = match low.count {
                1 => 0,
                c => strides.run(low.value, low.start, c - 1),
            };
            // Runs strictly between the two heaps, each with the smaller heap gone below.
            let mut between = 0;
            for b in (0..a).rev() {
                if b + 1 < a {
                    let run = self.runs[b + 1];
                    between += strides.run(run.value, run.start - low.value, run.count);
                }
                let high = self.runs[b];
                let gone = low.value + high.value;
                if gone + added > cap {
                    break;
                }
                above = above.min(b);
                let (share, next) = self.joined_share(strides, &mut above, gone, added);
                let mut rank = offset + share + between + low_rest + kept;
                rank += self.lowered(strides, next..b, gone);
                if high.count > 1 {
                    rank += strides.run(high.value, high.start - low.value, high.count - 1);
                }
                visit(rank);
            }
        }
    }

    /// The rank share, in the parent that merges `gone` tokens of heaps below run
    /// `above` and `added` more into one new heap, of the runs larger than the new heap
    /// (whose raised row must be summed) and of the new heap's run; with the index of
    /// the first run below the new heap. Moves `above` up to the first run not larger
    /// than the new heap.
    #[inline(always)]
    fn joined_share(
        &mut self,
        strides: &Strides,
        above: &mut usize,
        gone: u64,
        added: u64,
    ) -> (u64, usize) {
        let joined = gone + added;
        while *above > 0 && self.runs[*above - 1].value <= joined {
            *above -= 1;
        }
        let above = *above;
        let mut share = self
            .raised
            .summed(added as usize, self.runs.len() + 1, above);
        match self.runs.get(above) {
            Some(run) if run.value == joined => {
                share += strides.run(joined, run.start - gone, run.count + 1);
                (share, above + 1)
            }
            _ => {
                let below = match above {
                    0 => self.total,
                    _ => self.runs[above - 1].start,
                };
                share += strides.run(joined, below - gone, 1);
                (share, above)
            }
        }
    }

    /// The rank share of the runs `range` once `gone` tokens are gone below them, walked:
    /// the runs between two merged heaps are few, and a cached row of every share
    /// lowered by `gone` would be summed from the largest run for each new `gone`.
    #[inline(always)]
    fn lowered(&self, strides: &Strides, range: std::ops::Range<usize>, gone: u64) -> u64 {
        self.runs[range]
            .iter()
            .map(|run| strides.run(run.value, run.start - gone, run.count))
            .sum()
    }

    /// The rank share of the `j` largest runs once `added` tokens more lie below them.
    #[inline]
    fn raised(&mut self, strides: &Strides, j: usize, added: u64) -> u64 {
        let runs = &self.runs;
        self.raised
            .prefix(added as usize, runs.len() + 1, self.generation, j, |k| {
                let run = runs[k];
                strides.run(run.value, run.start + added, run.count)
            })
    }

    /// The rank share of runs `i + 1 .. j`, each with `value(i) - taken` tokens more below
    /// it, cached for the last `(i, taken)`: the options of one heap come grouped by
    /// tokens taken, and ask for `j` growing as their largest part shrinks.
    #[inline]
    fn below(&mut self, strides: &Strides, i: usize, taken: u64, j: usize) -> u64 {
        let key = (self.generation, i as u32, taken);
        if self.below_key != key {
            self.below_key = key;
            self.below.clear();
            self.below.push(0);
        }
        let shift = self.runs[i].value - taken;
        while i + self.below.len() < j {
            let run = self.runs[i + self.below.len()];
            let last = *self.below.last().expect("starts with 0");
            self.below
                .push(last + strides.run(run.value, run.start + shift, run.count));
        }
        self.below[j - i - 1]
    }

    /// The rank share of the runs larger than run `i` once `taken` tokens are gone below.
    #[inline]
    fn above(&mut self, strides: &Strides, i: usize, taken: u64) -> u64 {
        let runs = &self.runs;
        self.above
            .prefix(taken as usize, runs.len() + 1, self.generation, i, |j| {
                let run = runs[j];
                debug_assert!(run.start >= taken);
                strides.run(run.value, run.start - taken, run.count)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Ranker;
    use crate::game::resolve;
    use proptest::prelude::*;

    /// Checks every move of every position against full ranking; returns moves checked.
    fn check_every_move(game: &str, total: u64) -> u64 {
        let ruleset = resolve(game).unwrap().ruleset;
        let partitions = Partitions::new(total).unwrap();
        let ranker = Ranker::Total(partitions.clone());
        let strides = Strides::new(&partitions);
        let mut runs = Runs::default();
        let mut heaps = Vec::new();
        let mut checked = 0;
        for rank in 0..partitions.count() {
            partitions.unrank(rank, &mut heaps);
            runs.load(&strides, &heaps);
            assert_eq!(runs.rank(&strides), rank, "{heaps:?}");
            let parent_total = heaps.iter().sum();
            let _ = ruleset.for_each_move(&heaps, |removed, added| {
                let full = ranker.rank_after_move(&heaps, parent_total, removed, added);
                let fast = runs.child_rank(&strides, &heaps, removed[0], added);
                assert_eq!(
                    fast,
                    Some(full),
                    "{game}: {heaps:?} - {removed:?} + {added:?}"
                );
                checked += 1;
                std::ops::ControlFlow::Continue(())
            });
        }
        checked
    }

    /// Calls `check(ranker, strides, runs, heaps)` with every position of total at most
    /// `total` loaded into `runs`.
    fn each_loaded(total: u64, mut check: impl FnMut(&Ranker, &Strides, &mut Runs, &[u64])) {
        let partitions = Partitions::new(total).unwrap();
        let ranker = Ranker::Total(partitions.clone());
        let strides = Strides::new(&partitions);
        let mut runs = Runs::default();
        let mut heaps = Vec::new();
        for rank in 0..partitions.count() {
            partitions.unrank(rank, &mut heaps);
            runs.load(&strides, &heaps);
            check(&ranker, &strides, &mut runs, &heaps);
        }
    }

    /// Checks every merge of every position (up to three heaps and `0..=3` tokens, within
    /// the domain) against full ranking.
    fn check_every_merge(total: u64) -> u64 {
        let mut checked = 0;
        each_loaded(total, |ranker, strides, runs, heaps| {
            let sum: u64 = heaps.iter().sum();
            let n = heaps.len();
            let mut picks: Vec<Vec<usize>> = vec![vec![]];
            picks.extend((0..n).map(|i| vec![i]));
            picks.extend((0..n).flat_map(|i| (i + 1..n).map(move |j| vec![i, j])));
            picks.extend((0..n).flat_map(|i| {
                (i + 1..n).flat_map(move |j| (j + 1..n).map(move |k| vec![i, j, k]))
            }));
            for removed in picks {
                let values: Vec<u64> = removed.iter().map(|&i| heaps[i]).collect();
                for added in 0..=3u64 {
                    let joined = values.iter().sum::<u64>() + added;
                    if joined == 0 || sum + added > total || values.iter().any(|&x| x >= joined) {
                        continue;
                    }
                    let full = ranker.rank_after_move(heaps, sum, &removed, &[joined]);
                    let fast = runs.merge_rank(strides, &values, added);
                    assert_eq!(fast, full, "{heaps:?} merge {values:?} + {added}");
                    // Run indices count the distinct sizes above each merged heap.
                    let from: Vec<usize> = values
                        .iter()
                        .map(|&x| (0..runs.len()).filter(|&r| runs.value(r) > x).count())
                        .collect();
                    let by_runs = runs.merge_runs_rank(strides, &from, added);
                    assert_eq!(by_runs, full, "{heaps:?} merge runs {from:?} + {added}");
                    checked += 1;
                }
            }
        });
        checked
    }

    /// Checks the ranks of every pair merge, listed along the runs, against full ranking
    /// of every pair of heaps (one per pair of sizes).
    fn check_every_pair_merge(total: u64) -> u64 {
        let mut checked = 0;
        each_loaded(total, |ranker, strides, runs, heaps| {
            let sum: u64 = heaps.iter().sum();
            for added in 0..=(total - sum).min(3) {
                for unequal in [false, true] {
                    let cap = total - 2;
                    let mut fast = Vec::new();
                    runs.pair_merge_ranks(strides, added, unequal, cap, |r| fast.push(r));
                    let mut full = Vec::new();
                    for i in 0..heaps.len() {
                        for j in i + 1..heaps.len() {
                            let first_of_sizes = (i == 0 || heaps[i - 1] != heaps[i])
                                && (j == i + 1 || heaps[j - 1] != heaps[j]);
                            let joined = heaps[i] + heaps[j] + added;
                            if !first_of_sizes || joined > cap || (unequal && heaps[i] == heaps[j])
                            {
                                continue;
                            }
                            full.push(ranker.rank_after_move(heaps, sum, &[i, j], &[joined]));
                        }
                    }
                    fast.sort_unstable();
                    full.sort_unstable();
                    assert_eq!(fast, full, "{heaps:?} + {added}, unequal {unequal}");
                    checked += full.len() as u64;
                }
            }
        });
        checked
    }

    #[test]
    fn every_pair_merge_ranks_as_in_full() {
        assert!(check_every_pair_merge(18) > 10_000);
    }

    #[test]
    fn every_merge_ranks_as_in_full() {
        assert!(check_every_merge(16) > 10_000);
    }

    #[test]
    fn every_child_ranks_as_in_full() {
        for game in [
            "kayles",
            "dawson-kayles",
            "grundy",
            "nim",
            "subtraction-1-3-4",
            "octal:0.137",
            "octal:4.07",
            "hex:0.F",
            "octal:0.007",
        ] {
            assert!(check_every_move(game, 18) > 1000, "{game}");
        }
    }

    #[test]
    fn advancing_runs_follows_the_ranks() {
        let partitions = Partitions::new(22).unwrap();
        let strides = Strides::new(&partitions);
        let mut runs = Runs::default();
        let mut heaps = Vec::new();
        for total in 0..=22 {
            let tier = partitions.tier(total);
            partitions.unrank(tier.start, &mut heaps);
            runs.load(&strides, &heaps);
            for rank in tier {
                if rank > partitions.tier(total).start {
                    runs.advance(&strides);
                    partitions.advance(&mut heaps);
                }
                assert_eq!(runs.rank(&strides), rank, "{heaps:?}");
                assert_eq!(runs.heaps(), heaps.len() as u64);
                let expanded: Vec<u64> = (0..runs.len())
                    .rev()
                    .flat_map(|i| std::iter::repeat_n(runs.value(i), runs.runs[i].count as usize))
                    .collect();
                assert_eq!(expanded, heaps);
                // A child ranked after stepping must not read shares of the previous one.
                if let Some(&h) = heaps.last() {
                    if h >= 2 {
                        let full = Ranker::Total(partitions.clone()).rank_after_move(
                            &heaps,
                            total,
                            &[heaps.len() - 1],
                            &[h - 2],
                        );
                        let fast = runs.child_rank(&strides, &heaps, heaps.len() - 1, &[h - 2]);
                        assert_eq!(fast, Some(full));
                    }
                }
            }
        }
    }

    #[test]
    fn other_shapes_are_declined() {
        let partitions = Partitions::new(20).unwrap();
        let strides = Strides::new(&partitions);
        let mut runs = Runs::default();
        let heaps = [2, 3, 5];
        runs.load(&strides, &heaps);
        assert_eq!(runs.child_rank(&strides, &heaps, 2, &[1, 1, 1, 1]), None);
        assert_eq!(runs.child_rank(&strides, &heaps, 2, &[3, 5]), None);
        assert_eq!(runs.child_rank(&strides, &heaps, 0, &[2]), None);
        assert!(runs.child_rank(&strides, &heaps, 2, &[0, 1, 1]).is_some());
    }

    proptest! {
        #[test]
        fn any_replacement_ranks_as_in_full(
            mut heaps in proptest::collection::vec(1u64..25, 1..10),
            pick in any::<prop::sample::Index>(),
            fractions in proptest::collection::vec(0u64..100, 0..=3),
        ) {
            heaps.sort();
            let total: u64 = heaps.iter().sum();
            let partitions = Partitions::new(total).unwrap();
            let ranker = Ranker::Total(partitions.clone());
            let strides = Strides::new(&partitions);
            let mut runs = Runs::default();
            runs.load(&strides, &heaps);
            prop_assert_eq!(runs.rank(&strides), ranker.rank_unchecked(&heaps));
            let removed = pick.index(heaps.len());
            let h = heaps[removed];
            let mut added: Vec<u64> = fractions.iter().map(|f| f * (h - 1) / 100).collect();
            // Keep the parts within the heap taken: each below it, their sum at most it.
            while added.iter().sum::<u64>() > h {
                let top = added.iter_mut().max().unwrap();
                *top -= 1;
            }
            let full = ranker.rank_after_move(&heaps, total, &[removed], &added);
            prop_assert_eq!(runs.child_rank(&strides, &heaps, removed, &added), Some(full));
        }
    }
}

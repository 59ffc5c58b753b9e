//! Ranking the children of one `--total` position incrementally.
//!
//! Read ascending, a part `v` whose running sum (itself and every smaller part) is `x`
//! adds `P(x, v - 1)` to the rank (see [`partitions`](super::partitions)). Summed along a
//! stride, `S_v(x) = P(x, v - 1) + S_v(x - v)`, a run of `c` equal parts `v` starting
//! after running sum `s` adds `S_v(s + c v) - S_v(s)`: one subtraction per run of equal
//! heaps instead of one lookup per heap.
//!
//! A one-heap move takes a copy of `v_i` and puts back at most three smaller parts.
//! Runs below the smallest part put back keep their running sums, so their share of the
//! rank is a prefix sum of the parent's; runs above `v_i` see every running sum lowered
//! by the tokens taken, `t`, so their share depends only on `(i, t)` and is cached; only
//! the runs in between are walked per child.

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

    /// Bytes the stride sums take.
    pub fn table_bytes(&self) -> u64 {
        (self.sums.len() + self.offsets.len()) as u64 * 8
    }

    /// The rank share of `count` parts `value` placed after running sum `start`.
    #[inline]
    fn run(&self, value: Heap, start: u64, count: u64) -> u64 {
        let row = value as usize * self.width;
        self.sums[row + (start + count * value) as usize] - self.sums[row + start as usize]
    }
}

/// One parent position as runs of equal heaps, ready to rank its children.
#[derive(Clone, Debug, Default)]
pub struct Runs {
    values: Vec<Heap>,
    counts: Vec<u64>,
    /// `ends[j]`: the running sum after run `j`.
    ends: Vec<u64>,
    /// `before[j]`: the rank share of the runs below `j` (one more entry: the whole).
    before: Vec<u64>,
    /// Index of the run each heap belongs to.
    run_of: Vec<u32>,
    total: u64,
    /// The last `(run, taken, share of the runs above)` computed.
    above: Option<(usize, u64, u64)>,
}

impl Runs {
    /// Loads the ascending zero-free `heaps` (a position of the strides' domain).
    pub fn load(&mut self, strides: &Strides, heaps: &[Heap]) {
        self.values.clear();
        self.counts.clear();
        self.ends.clear();
        self.before.clear();
        self.run_of.clear();
        self.above = None;
        let mut sum = 0;
        let mut share = 0;
        for &h in heaps {
            if self.values.last() == Some(&h) {
                *self.counts.last_mut().expect("a run is open") += 1;
            } else {
                if let Some(&v) = self.values.last() {
                    let c = *self.counts.last().expect("a run is open");
                    share += strides.run(v, sum, c);
                    sum += v * c;
                    self.ends.push(sum);
                }
                self.before.push(share);
                self.values.push(h);
                self.counts.push(1);
            }
            self.run_of.push(self.values.len() as u32 - 1);
        }
        if let Some(&v) = self.values.last() {
            let c = *self.counts.last().expect("a run is open");
            share += strides.run(v, sum, c);
            sum += v * c;
            self.ends.push(sum);
        }
        self.before.push(share);
        self.total = sum;
    }

    /// Rank of the loaded position.
    pub fn rank(&self, strides: &Strides) -> u64 {
        strides.offsets[self.total as usize] + self.before[self.values.len()]
    }

    /// Rank of the child left by taking the heap at index `removed` and putting back
    /// `added` (ascending, zeros allowed, each smaller than the heap taken, at most
    /// [`MAX_PUT_BACK`]); `None` when the move does not have that shape.
    #[inline]
    pub fn child_rank(&mut self, strides: &Strides, removed: usize, added: &[Heap]) -> Option<u64> {
        let i = self.run_of[removed] as usize;
        let taken_heap = self.values[i];
        let added = &added[added.partition_point(|&a| a == 0)..];
        if added.len() > MAX_PUT_BACK
            || !added.is_sorted()
            || added.last().is_some_and(|&a| a >= taken_heap)
        {
            return None;
        }
        let put_back: Heap = added.iter().sum();
        let taken = taken_heap - put_back;
        let smallest = added.first().copied().unwrap_or(taken_heap);
        // First run the move can touch: runs below keep their running sums.
        let mut j = i;
        while j > 0 && self.values[j - 1] >= smallest {
            j -= 1;
        }
        let mut share = self.before[j];
        let mut sum = if j == 0 { 0 } else { self.ends[j - 1] };
        let mut k = 0;
        while j <= i {
            let v = self.values[j];
            while k < added.len() && added[k] < v {
                let a = added[k];
                let mut c = 1;
                k += 1;
                while k < added.len() && added[k] == a {
                    c += 1;
                    k += 1;
                }
                share += strides.run(a, sum, c);
                sum += a * c;
            }
            let mut c = self.counts[j] - u64::from(j == i);
            while k < added.len() && added[k] == v {
                c += 1;
                k += 1;
            }
            if c > 0 {
                share += strides.run(v, sum, c);
                sum += v * c;
            }
            j += 1;
        }
        debug_assert_eq!(sum + taken, self.ends[i]);
        share += self.above(strides, i, taken);
        Some(strides.offsets[(self.total - taken) as usize] + share)
    }

    /// The rank share of the runs above run `i` once `taken` tokens are gone below them.
    #[inline]
    fn above(&mut self, strides: &Strides, i: usize, taken: u64) -> u64 {
        if let Some((ci, ct, share)) = self.above {
            if ci == i && ct == taken {
                return share;
            }
        }
        let share = (i + 1..self.values.len())
            .map(|j| strides.run(self.values[j], self.ends[j - 1] - taken, self.counts[j]))
            .sum();
        self.above = Some((i, taken, share));
        share
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
                let fast = runs.child_rank(&strides, removed[0], added);
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
    fn other_shapes_are_declined() {
        let partitions = Partitions::new(20).unwrap();
        let strides = Strides::new(&partitions);
        let mut runs = Runs::default();
        runs.load(&strides, &[2, 3, 5]);
        assert_eq!(runs.child_rank(&strides, 2, &[1, 1, 1, 1]), None);
        assert_eq!(runs.child_rank(&strides, 2, &[3, 1]), None);
        assert_eq!(runs.child_rank(&strides, 0, &[2]), None);
        assert!(runs.child_rank(&strides, 2, &[0, 1, 1]).is_some());
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
            added.sort();
            let full = ranker.rank_after_move(&heaps, total, &[removed], &added);
            prop_assert_eq!(runs.child_rank(&strides, removed, &added), Some(full));
        }
    }
}

//! Multisets of positive heaps with at most `T` tokens in all: the `--total T` domain.
//!
//! Positions are ordered by total, then (parts written largest first) lexicographically.
//! With `P(n, m)` the number of partitions of `n` into parts at most `m`, the rank is the
//! tier offset plus `sum P(rest_j, part_j - 1)`: a bijection with no gaps, and every tier
//! of equal total is one contiguous range of ranks.

use super::tuples::MAX_ENTRIES;
use crate::error::{Error, Result};
use crate::game::Heap;

/// Ranking bijection for partitions of every total up to `T`.
#[derive(Clone, Debug)]
pub struct Partitions {
    total: u64,
    /// `at_most[n * (T + 1) + m] = P(n, m)`.
    at_most: Vec<u64>,
    /// `offsets[t]`: the rank of the first position of total `t`; `offsets[T + 1]` is the count.
    offsets: Vec<u64>,
}

impl Partitions {
    /// Builds the ranker, refusing domains with more than 2^48 positions.
    pub fn new(total: u64) -> Result<Self> {
        let too_large = || {
            Error::resource(format!(
                "the domain --total {total} has more than 2^48 positions; no table can hold it"
            ))
        };
        if total > 2000 {
            return Err(too_large());
        }
        let width = total as usize + 1;
        let mut at_most = vec![0u64; width * width];
        // P(0, m) = 1: the empty partition.
        at_most[..width].fill(1);
        for n in 1..width {
            for m in 1..width {
                let without_m = at_most[n * width + m - 1];
                let with_m = if m <= n {
                    at_most[(n - m) * width + m]
                } else {
                    0
                };
                at_most[n * width + m] = without_m.saturating_add(with_m).min(MAX_ENTRIES + 1);
            }
        }
        let mut offsets = Vec::with_capacity(width + 1);
        let mut sum = 0u64;
        for t in 0..width {
            offsets.push(sum);
            sum = sum.saturating_add(at_most[t * width + t]);
        }
        offsets.push(sum);
        if sum > MAX_ENTRIES {
            return Err(too_large());
        }
        Ok(Partitions {
            total,
            at_most,
            offsets,
        })
    }

    /// The largest total `T`.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Number of positions, `p(0) + ... + p(T)`.
    pub fn count(&self) -> u64 {
        self.offsets[self.total as usize + 1]
    }

    /// The ranks of the positions with exactly `t` tokens (`t <= T`; callers holding a
    /// tier number read from outside check it first, see [`Partitions::tier_of`]).
    pub fn tier(&self, t: u64) -> std::ops::Range<u64> {
        self.offsets[t as usize]..self.offsets[t as usize + 1]
    }

    /// The tier (total) holding rank `rank`, or `None` when the rank lies outside the
    /// domain: for checking rank ranges read from files before using them.
    pub fn tier_of(&self, rank: u64) -> Option<u64> {
        (rank < self.count()).then(|| self.offsets.partition_point(|&o| o <= rank) as u64 - 1)
    }

    /// Bytes the ranking tables take.
    pub fn table_bytes(&self) -> u64 {
        (self.at_most.len() + self.offsets.len()) as u64 * 8
    }

    /// `P(n, m)`: the partitions of `n` into parts at most `m` (`n, m <= T`).
    #[inline]
    pub fn at_most(&self, n: u64, m: u64) -> u64 {
        self.p(n, m)
    }

    #[inline]
    fn p(&self, n: u64, m: u64) -> u64 {
        self.at_most[n as usize * (self.total as usize + 1) + m as usize]
    }

    /// True when the ascending heaps lie in the domain.
    pub fn contains(&self, heaps: &[Heap]) -> bool {
        heaps.iter().map(|&h| h as u128).sum::<u128>() <= self.total as u128
    }

    /// Rank of ascending heaps already known to lie in the domain (zeros allowed).
    #[inline]
    pub fn rank(&self, heaps: &[Heap]) -> u64 {
        let total: u64 = heaps.iter().sum();
        let mut rank = self.offsets[total as usize];
        let mut rest = total;
        for &part in heaps.iter().rev() {
            if part == 0 {
                break;
            }
            rank += self.p(rest, part - 1);
            rest -= part;
        }
        rank
    }

    /// Rank of heaps with `total` tokens given one by one, largest first.
    #[inline]
    pub fn rank_descending(&self, total: u64, parts: impl Iterator<Item = Heap>) -> u64 {
        let mut rank = self.offsets[total as usize];
        let mut rest = total;
        for part in parts.take_while(|&p| p != 0) {
            rank += self.p(rest, part - 1);
            rest -= part;
        }
        rank
    }

    /// Steps ascending zero-free `heaps` to the position of the next rank, which must have
    /// the same total (so `heaps` is not the last of its tier): cheaper than unranking.
    pub fn advance(&self, heaps: &mut Vec<Heap>) {
        // Largest parts first, the next partition raises the smallest part that can grow
        // (the last of its run, with something below it to pay) and leaves only ones below.
        let k = heaps.len();
        let mut m = 1;
        while m + 1 < k && heaps[m] == heaps[m + 1] {
            m += 1;
        }
        debug_assert!(m < k, "{heaps:?} is the last of its tier");
        let ones = (heaps[..m].iter().sum::<Heap>() - 1) as usize;
        let raised = heaps[m] + 1;
        // The first `m + 1` parts become `ones` ones and the raised part; the larger parts
        // move to follow them (in place: this runs once per position labelled).
        let (old, new) = (m + 1, ones + 1);
        if new > old {
            heaps.resize(k - old + new, 0);
            heaps.copy_within(old..k, new);
        } else if new < old {
            heaps.copy_within(old..k, new);
            heaps.truncate(k - old + new);
        }
        heaps[..ones].fill(1);
        heaps[ones] = raised;
    }

    /// Steps ascending zero-free `heaps` to the next position in rank order with the same
    /// total and exactly `parts` heaps; false, leaving `heaps` unspecified, when none is left.
    pub fn advance_to_parts(&self, heaps: &mut Vec<Heap>, parts: usize) -> bool {
        // Largest parts first (`d[j] = heaps[k - 1 - j]`), the next such partition keeps
        // the longest prefix it can and raises the part after it by as little as still
        // lets the rest fill in as `parts` parts, spread as evenly as they go.
        let k = heaps.len();
        let d = |j: usize| heaps[k - 1 - j];
        let total: Heap = heaps.iter().sum();
        let mut before: Heap = (0..parts.min(k)).map(d).sum();
        for j in (0..parts.min(k)).rev() {
            before -= d(j);
            let rest = total - before;
            let after = (parts - j - 1) as Heap;
            let cap = if j == 0 { total } else { d(j - 1) };
            let least = (d(j) + 1).max(rest.div_ceil(after + 1));
            if rest < after + least || least > cap {
                continue;
            }
            let fill = rest - least;
            let share = fill.checked_div(after).unwrap_or(0);
            let extra = fill.checked_rem(after).unwrap_or(0);
            let spread = (0..after).map(|i| share + Heap::from(i >= after - extra));
            heaps.splice(..k - j, spread.chain(std::iter::once(least)));
            return true;
        }
        false
    }

    /// The ascending heaps of rank `rank` (`rank < count`), written into `out`.
    pub fn unrank(&self, rank: u64, out: &mut Vec<Heap>) {
        out.clear();
        let total = self.offsets.partition_point(|&o| o <= rank) as u64 - 1;
        let mut rank = rank - self.offsets[total as usize];
        let mut rest = total;
        let mut cap = total;
        while rest > 0 {
            // The largest part is the smallest `m` with P(rest, m) > rank.
            let mut part = 1;
            while self.p(rest, part.min(cap)) <= rank {
                part += 1;
            }
            rank -= self.p(rest, part - 1);
            out.push(part);
            rest -= part;
            cap = part;
        }
        out.reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_lies_in_its_tier() {
        let p = Partitions::new(30).unwrap();
        for t in 0..=30 {
            for rank in p.tier(t) {
                assert_eq!(p.tier_of(rank), Some(t));
            }
        }
        assert_eq!(p.tier_of(p.count()), None);
        assert_eq!(p.tier_of(u64::MAX), None);
    }

    #[test]
    fn counts_are_the_summed_partition_numbers() {
        // p(0..=10) = 1 1 2 3 5 7 11 15 22 30 42; p(60) = 966467.
        let domain = Partitions::new(10).unwrap();
        assert_eq!(
            domain.count(),
            1 + 1 + 2 + 3 + 5 + 7 + 11 + 15 + 22 + 30 + 42
        );
        let sixty = Partitions::new(60).unwrap();
        assert_eq!(sixty.tier(60).end - sixty.tier(60).start, 966_467);
        assert!(Partitions::new(1000).is_err());
    }

    #[test]
    fn rank_and_unrank_are_inverse_in_order() {
        let domain = Partitions::new(14).unwrap();
        let mut heaps = Vec::new();
        let mut previous: Option<Vec<u64>> = None;
        for rank in 0..domain.count() {
            domain.unrank(rank, &mut heaps);
            assert_eq!(domain.rank(&heaps), rank);
            let total: u64 = heaps.iter().sum();
            assert!(domain.tier(total).contains(&rank));
            assert!(heaps.windows(2).all(|w| w[0] <= w[1]) && heaps.iter().all(|&h| h > 0));
            if let Some(prev) = previous {
                assert_ne!(prev, heaps);
            }
            previous = Some(heaps.clone());
        }
    }

    #[test]
    fn advance_to_parts_skips_to_the_next_rank_with_that_many_heaps() {
        let domain = Partitions::new(15).unwrap();
        let mut heaps = Vec::new();
        let mut expected = Vec::new();
        for total in 0..=15 {
            let tier = domain.tier(total);
            for rank in tier.clone() {
                for parts in 0..=total as usize + 1 {
                    domain.unrank(rank, &mut heaps);
                    let found = domain.advance_to_parts(&mut heaps, parts);
                    let next = (rank + 1..tier.end).find(|&r| {
                        domain.unrank(r, &mut expected);
                        expected.len() == parts
                    });
                    assert_eq!(found, next.is_some(), "rank {rank}, {parts} parts");
                    if next.is_some() {
                        assert_eq!(heaps, expected, "rank {rank}, {parts} parts");
                    }
                }
            }
        }
    }

    #[test]
    fn advance_steps_to_the_next_rank_within_a_tier() {
        let domain = Partitions::new(16).unwrap();
        let mut heaps = Vec::new();
        let mut expected = Vec::new();
        for total in 0..=16 {
            let tier = domain.tier(total);
            domain.unrank(tier.start, &mut heaps);
            for rank in tier.start + 1..tier.end {
                domain.advance(&mut heaps);
                domain.unrank(rank, &mut expected);
                assert_eq!(heaps, expected, "rank {rank}");
            }
        }
    }
}

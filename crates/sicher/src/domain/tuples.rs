//! Sorted tuples of at most `K` heaps, each at most `N`: the `--heaps K --max N` domain.
//!
//! A position is padded with zeros to exactly `K` ascending entries `a_0 <= ... <= a_{K-1}`;
//! `b_i = a_i + i` is then a `K`-subset of `0..N+K`, ranked by the combinatorial number
//! system `sum C(b_i, i + 1)`. That is a bijection onto `0..C(N+K, K)` with no gaps, and it
//! grows strictly when any entry grows, so lowering moves always reach smaller ranks.

use crate::error::{Error, Result};
use crate::game::Heap;

/// Most bytes of binomial rows a `--heaps` ranker may build.
const MAX_RANKING_BYTES: u128 = 1 << 30;
/// Ranking bijection for sorted `K`-tuples bounded by `N`.
#[derive(Clone, Debug)]
pub struct BoundedTuples {
    heaps: usize,
    max: Heap,
    count: u64,
    /// `rows[r - 3][x] = C(x, r)` for `3 <= r <= K`, `x < N + K`; smaller `r` use closed forms.
    rows: Vec<Vec<u64>>,
}

/// Largest number of entries any domain may have; beyond this no table can be indexed or held.
pub const MAX_ENTRIES: u64 = 1 << 48;

/// `C(n, k)` exactly, or `None` when it exceeds `limit`.
pub fn binomial_within(n: u64, k: u64, limit: u64) -> Option<u64> {
    let k = k.min(n.saturating_sub(k));
    let mut value: u128 = 1;
    for i in 0..k {
        value = value * (n - i) as u128 / (i + 1) as u128;
        if value > limit as u128 {
            return None;
        }
    }
    Some(value as u64)
}

impl BoundedTuples {
    /// Builds the ranker, refusing domains with more than [`MAX_ENTRIES`] positions.
    pub fn new(heaps: u32, max: Heap) -> Result<Self> {
        if heaps == 0 {
            return Err(Error::input("a domain holds positions of at least 1 heap"));
        }
        let k = heaps as u64;
        let count = max
            .checked_add(k)
            .and_then(|n| binomial_within(n, k, MAX_ENTRIES))
            .ok_or_else(|| {
                Error::resource(format!(
                    "the domain --heaps {heaps} --max {max} has more than 2^48 positions; no table can hold it"
                ))
            })?;
        let width = (max + k) as usize;
        let rows_bytes = (k.saturating_sub(2) as u128) * (width as u128) * 8;
        if rows_bytes > MAX_RANKING_BYTES {
            return Err(Error::resource(format!(
                "--heaps {heaps} --max {max}: ranking its positions needs {} MiB of binomial tables (at most {} MiB); use fewer heaps",
                rows_bytes >> 20,
                MAX_RANKING_BYTES >> 20
            )));
        }
        let mut rows: Vec<Vec<u64>> = Vec::new();
        if k >= 3 {
            // Pascal's rule from C(x, 2); every value used is at most the domain count.
            let mut previous: Vec<u64> = (0..width as u64)
                .map(|x| x * x.saturating_sub(1) / 2)
                .collect();
            for _ in 3..=k {
                let mut row = vec![0u64; width];
                for x in 1..width {
                    row[x] = row[x - 1].saturating_add(previous[x - 1]);
                }
                rows.push(row.clone());
                previous = row;
            }
        }
        Ok(BoundedTuples {
            heaps: heaps as usize,
            max,
            count,
            rows,
        })
    }

    /// Number of heaps `K` (the padded tuple length).
    pub fn heaps(&self) -> usize {
        self.heaps
    }

    /// Largest heap size `N`.
    pub fn max(&self) -> Heap {
        self.max
    }

    /// Number of positions, `C(N+K, K)`.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Bytes the ranking tables take.
    pub fn table_bytes(&self) -> u64 {
        self.rows.iter().map(|r| r.len() as u64 * 8).sum()
    }

    #[inline]
    fn binom(&self, x: u64, r: usize) -> u64 {
        match r {
            0 => 1,
            1 => x,
            2 => x * x.saturating_sub(1) / 2,
            _ => self.rows[r - 3][x as usize],
        }
    }

    /// True when the ascending, zero-free `heaps` lie in the domain.
    pub fn contains(&self, heaps: &[Heap]) -> bool {
        heaps.len() <= self.heaps && heaps.last().is_none_or(|&h| h <= self.max)
    }

    /// Rank of at most `K` ascending heaps already known to lie in the domain (zeros allowed).
    #[inline]
    pub fn rank(&self, heaps: &[Heap]) -> u64 {
        debug_assert!(heaps.len() <= self.heaps);
        let pad = self.heaps - heaps.len();
        let mut rank = 0;
        for (j, &h) in heaps.iter().enumerate() {
            if h != 0 {
                let i = pad + j;
                rank += self.binom(h + i as u64, i + 1);
            }
        }
        rank
    }

    /// Rank of `len` (at most `K`) ascending heaps given one by one (zeros allowed).
    #[inline]
    pub fn rank_ascending(&self, len: usize, heaps: impl Iterator<Item = Heap>) -> u64 {
        let pad = self.heaps - len;
        let mut rank = 0;
        for (j, h) in heaps.enumerate() {
            if h != 0 {
                let i = pad + j;
                rank += self.binom(h + i as u64, i + 1);
            }
        }
        rank
    }

    /// The zero-padded `K`-tuple of rank `rank` (`rank < count`), written into `out`.
    pub fn unrank(&self, mut rank: u64, out: &mut Vec<Heap>) {
        out.clear();
        out.resize(self.heaps, 0);
        let top = self.max + self.heaps as u64 - 1;
        for i in (1..=self.heaps).rev() {
            // Largest b in [i-1, top] with C(b, i) <= rank.
            let (mut lo, mut hi) = (i as u64 - 1, top);
            while lo < hi {
                let mid = lo + (hi - lo).div_ceil(2);
                if self.binom(mid, i) <= rank {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            rank -= self.binom(lo, i);
            out[i - 1] = lo - (i as u64 - 1);
        }
    }

    /// Steps a zero-padded tuple to the next rank; false after the last one.
    pub fn advance(&self, tuple: &mut [Heap]) -> bool {
        let k = tuple.len();
        for i in 0..k {
            let can_grow = if i + 1 < k {
                tuple[i] < tuple[i + 1]
            } else {
                tuple[i] < self.max
            };
            if can_grow {
                tuple[i] += 1;
                tuple[..i].iter_mut().for_each(|a| *a = 0);
                return true;
            }
        }
        false
    }

    /// Appends every zero-padded tuple whose entries sum to `total` to `out`, `K` values
    /// each; `tuple` is scratch space.
    pub fn push_with_total(&self, total: u64, tuple: &mut Vec<Heap>, out: &mut Vec<Heap>) {
        tuple.clear();
        tuple.resize(self.heaps, 0);
        self.fill(self.heaps, total, self.max, tuple, out);
    }

    fn fill(&self, slots: usize, rest: u64, cap: Heap, tuple: &mut [Heap], out: &mut Vec<Heap>) {
        if slots == 0 {
            if rest == 0 {
                out.extend_from_slice(tuple);
            }
            return;
        }
        let lowest = rest.div_ceil(slots as u64);
        let highest = cap.min(rest);
        if lowest > highest {
            return;
        }
        for v in lowest..=highest {
            tuple[slots - 1] = v;
            self.fill(slots - 1, rest - v, v, tuple, out);
        }
    }
}

/// One position of a `--heaps` domain, ready to rank the children that lower one heap.
///
/// Lowering the entry at padded index `p` to `x` takes it out and slots `x` in at index
/// `q <= p`; the entries from `q` to `p - 1` move up one index, each changing its term
/// from `C(a + i, i + 1)` to `C(a + i + 1, i + 2)`. Prefix sums of those changes make
/// every child's rank a handful of lookups instead of a pass over all `K` entries.
#[derive(Clone, Debug, Default)]
pub struct TupleChildren {
    /// The position padded with zeros in front to `K` entries.
    padded: Vec<Heap>,
    /// `shifted[i]`: what moving entries `0..i` up one index adds to the rank.
    shifted: Vec<u64>,
    /// Zeros in front of the heaps.
    pad: usize,
    rank: u64,
}

impl TupleChildren {
    /// Loads at most `K` ascending zero-free heaps of the domain.
    pub fn load(&mut self, tuples: &BoundedTuples, heaps: &[Heap]) {
        let pad = tuples.heaps - heaps.len();
        self.pad = pad;
        self.padded.clear();
        self.padded.resize(pad, 0);
        self.padded.extend_from_slice(heaps);
        self.shifted.clear();
        self.shifted.push(0);
        let mut sum = 0u64;
        // Only entries below the top one ever move up, so `C(.., K + 1)` is never read.
        for (i, &a) in self.padded[..tuples.heaps - 1].iter().enumerate() {
            let x = a + i as u64;
            sum = sum.wrapping_add(
                tuples
                    .binom(x + 1, i + 2)
                    .wrapping_sub(tuples.binom(x, i + 1)),
            );
            self.shifted.push(sum);
        }
        self.rank = tuples.rank(heaps);
    }

    /// Rank of the child left by moving `heaps[removed]` (of the loaded heaps) down to
    /// `added` (one heap at most, zeros allowed); `None` for any other shape of move.
    #[inline(always)]
    pub fn child_rank(
        &self,
        tuples: &BoundedTuples,
        removed: &[usize],
        added: &[Heap],
    ) -> Option<u64> {
        let &[removed] = removed else { return None };
        let x = match added {
            [] => 0,
            &[x] => x,
            _ => return None,
        };
        let p = self.pad + removed;
        let h = self.padded[p];
        if x >= h {
            return None;
        }
        let q = self.padded[..p].partition_point(|&a| a < x);
        let rank = self
            .rank
            .wrapping_sub(tuples.binom(h + p as u64, p + 1))
            .wrapping_add(tuples.binom(x + q as u64, q + 1))
            .wrapping_add(self.shifted[p].wrapping_sub(self.shifted[q]));
        Some(rank)
    }
}

/// One position of a `--heaps` domain, ready to rank the parents that raise one heap
/// (moves that lower one heap, undone).
///
/// Raising the entry at padded index `p` to `v` takes it out and slots `v` in at index
/// `q >= p`; the entries from `p + 1` to `q` move down one index, each changing its term
/// from `C(a + i, i + 1)` to `C(a + i - 1, i)`. Prefix sums of those changes make every
/// parent's rank a handful of lookups.
#[derive(Clone, Debug, Default)]
pub struct TupleParents {
    /// The position padded with zeros in front to `K` entries.
    padded: Vec<Heap>,
    /// `down[i]`: what moving entries `1..=i` down one index adds to the rank.
    down: Vec<u64>,
    /// Zeros in front of the heaps.
    pad: usize,
    rank: u64,
}

impl TupleParents {
    /// Loads at most `K` ascending zero-free heaps of the domain.
    pub fn load(&mut self, tuples: &BoundedTuples, heaps: &[Heap]) {
        let pad = tuples.heaps - heaps.len();
        self.pad = pad;
        self.padded.clear();
        self.padded.resize(pad, 0);
        self.padded.extend_from_slice(heaps);
        self.down.clear();
        self.down.push(0);
        let mut sum = 0u64;
        for (i, &a) in self.padded.iter().enumerate().skip(1) {
            let x = a + i as u64;
            sum = sum.wrapping_add(tuples.binom(x - 1, i).wrapping_sub(tuples.binom(x, i + 1)));
            self.down.push(sum);
        }
        self.rank = tuples.rank(heaps);
    }

    /// Rank of the parent that raises the loaded heap at `removed` (or, with none
    /// removed, an empty slot) to `added`, which must lie in the domain; `None` for any
    /// other shape.
    #[inline(always)]
    pub fn parent_rank(
        &self,
        tuples: &BoundedTuples,
        removed: &[usize],
        added: &[Heap],
    ) -> Option<u64> {
        let &[v] = added else { return None };
        let p = match removed {
            [] if self.pad > 0 => self.pad - 1,
            &[i] => self.pad + i,
            _ => return None,
        };
        let a = self.padded[p];
        if v <= a {
            return None;
        }
        let q = p + self.padded[p + 1..].partition_point(|&x| x < v);
        let rank = self
            .rank
            .wrapping_sub(tuples.binom(a + p as u64, p + 1))
            .wrapping_add(tuples.binom(v + q as u64, q + 1))
            .wrapping_add(self.down[q].wrapping_sub(self.down[p]));
        Some(rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;
    use proptest::prelude::*;

    #[test]
    fn count_is_the_closed_form() {
        assert_eq!(
            BoundedTuples::new(3, 255).unwrap().count(),
            258 * 257 * 256 / 6
        );
        assert_eq!(
            BoundedTuples::new(1, 100_000_000).unwrap().count(),
            100_000_001
        );
        assert_eq!(
            BoundedTuples::new(2, 4000).unwrap().count(),
            4002 * 4001 / 2
        );
        assert!(BoundedTuples::new(4, u64::MAX).is_err());
        assert!(BoundedTuples::new(0, 3).is_err());
    }

    #[test]
    fn advance_walks_ranks_in_order_and_unrank_inverts() {
        for (k, n) in [(1, 9), (2, 7), (3, 5), (4, 4), (5, 3)] {
            let domain = BoundedTuples::new(k, n).unwrap();
            let mut tuple = vec![0; k as usize];
            let mut scratch = Vec::new();
            let mut rank = 0;
            loop {
                assert_eq!(domain.rank(&tuple), rank);
                domain.unrank(rank, &mut scratch);
                assert_eq!(scratch, tuple);
                rank += 1;
                if !domain.advance(&mut tuple) {
                    break;
                }
            }
            assert_eq!(rank, domain.count());
        }
    }

    #[test]
    fn totals_partition_the_domain() {
        let domain = BoundedTuples::new(3, 6).unwrap();
        let mut seen = vec![false; domain.count() as usize];
        for total in 0..=18 {
            let mut out = Vec::new();
            domain.push_with_total(total, &mut Vec::new(), &mut out);
            for tuple in out.chunks(3) {
                assert_eq!(tuple.iter().sum::<u64>(), total);
                let r = domain.rank(tuple) as usize;
                assert!(!seen[r]);
                seen[r] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn lowered_children_rank_as_in_full() {
        for (game, k, n) in [
            ("nim", 3, 12),
            ("nim", 4, 7),
            ("nim", 1, 9),
            ("subtraction-1-3-4", 3, 10),
            ("wythoff", 3, 8),
        ] {
            let ruleset = resolve(game).unwrap().ruleset;
            let domain = BoundedTuples::new(k, n).unwrap();
            let ranker = crate::domain::Ranker::Heaps(domain.clone());
            let mut children = TupleChildren::default();
            let mut padded = Vec::new();
            let mut checked = 0;
            for rank in 0..domain.count() {
                domain.unrank(rank, &mut padded);
                let heaps: Vec<u64> = padded.iter().copied().filter(|&h| h != 0).collect();
                children.load(&domain, &heaps);
                let total = heaps.iter().sum();
                let _ = ruleset.for_each_move(&heaps, |removed, added| {
                    let full = ranker.rank_after_move(&heaps, total, removed, added);
                    if let Some(fast) = children.child_rank(&domain, removed, added) {
                        assert_eq!(fast, full, "{game}: {heaps:?} - {removed:?} + {added:?}");
                        checked += 1;
                    } else {
                        assert!(
                            removed.len() > 1,
                            "{game}: {heaps:?} - {removed:?} + {added:?}"
                        );
                    }
                    std::ops::ControlFlow::Continue(())
                });
            }
            assert!(checked > 30, "{game}");
        }
    }

    proptest! {
        #[test]
        fn any_raising_ranks_as_in_full(
            k in 1u32..7,
            mut heaps in proptest::collection::vec(1u64..40, 0..7),
            pick in any::<prop::sample::Index>(),
            fraction in 1u64..100,
        ) {
            heaps.truncate(k as usize);
            heaps.sort();
            let domain = BoundedTuples::new(k, 60).unwrap();
            let ranker = crate::domain::Ranker::Heaps(domain.clone());
            let mut parents = TupleParents::default();
            parents.load(&domain, &heaps);
            let slots = heaps.len() + usize::from(heaps.len() < k as usize);
            let slot = pick.index(slots);
            // The last slot past the heaps is an empty one.
            let (removed, from) = if slot < heaps.len() {
                (vec![slot], heaps[slot])
            } else {
                (vec![], 0)
            };
            let v = from + 1 + fraction * (59 - from) / 100;
            let full = ranker.rank_after_move(&heaps, heaps.iter().sum(), &removed, &[v]);
            prop_assert_eq!(parents.parent_rank(&domain, &removed, &[v]), Some(full));
        }

        #[test]
        fn any_lowering_ranks_as_in_full(
            k in 1u32..7,
            mut heaps in proptest::collection::vec(1u64..40, 1..7),
            pick in any::<prop::sample::Index>(),
            fraction in 0u64..100,
        ) {
            heaps.truncate(k as usize);
            heaps.sort();
            let domain = BoundedTuples::new(k, 40).unwrap();
            let ranker = crate::domain::Ranker::Heaps(domain.clone());
            let mut children = TupleChildren::default();
            children.load(&domain, &heaps);
            let removed = pick.index(heaps.len());
            let x = fraction * heaps[removed] / 100;
            let full = ranker.rank_after_move(&heaps, heaps.iter().sum(), &[removed], &[x]);
            prop_assert_eq!(children.child_rank(&domain, &[removed], &[x]), Some(full));
        }
    }
}

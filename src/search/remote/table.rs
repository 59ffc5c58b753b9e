//! The transposition table of the remoteness search: a lower and an upper bound on each
//! stored position's score, valid for any window, with the move that gave the bound
//! and the work it took, within a user-set memory bound.
//!
//! Bounds come from fail-soft searches: a search that fails low proves an upper bound,
//! one that fails high a lower bound, one inside its window both. Storing both sides
//! separately lets a later search with another window (the next MTD(f) test, a
//! NegaScout re-search) use whichever side it needs. There is no search horizon, so a
//! bound is true whatever the depth it was found at; the work (nodes spent) takes the
//! place of chess's draft in replacement: when the table is full, the cheapest half is
//! dropped in one sweep, as in the boolean engine's table.
//!
//! It sits on hashbrown like the boolean table. A chess-style table (three 20-byte
//! slots to a cache line, replacement within the bucket) was measured against it on
//! misère Kayles 10..14 and took 1.14 to 1.40 times the CPU time: hashbrown's control
//! bytes stay in cache, so a probe already costs about one miss, and its denser
//! buckets spare TLB misses.
//!
//! Two bit filters sit in front of it for enhanced transposition cut-offs: keys stored
//! with a negative upper bound (known losses, what a position that wants to win looks
//! for among its children) and keys with any useful upper bound. A set bit is a hint
//! the table confirms; stale bits cost a probe, never a wrong answer.

use hashbrown::HashMap;

use super::score::{Score, MAX};
use crate::search::key::{BuildKeyHasher, Key};

/// What the table knows of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The score is at least this.
    pub lower: Score,
    /// The score is at most this.
    pub upper: Score,
    /// Nodes the search behind the bounds took (saturating): the replacement priority.
    work: u32,
    /// Generation index of the move that gave the last bound, plus one (0: none).
    pub best: u32,
}

/// Bytes one bucket takes: the (key, entry) pair plus hashbrown's control byte.
const BUCKET_BYTES: usize = std::mem::size_of::<(Key, Entry)>() + 1;
/// Buckets allocated before the first growth: small queries stay small.
const INITIAL_BUCKETS: usize = 1 << 10;
/// Growth doubles until the table holds this fraction of its bound, then jumps to it.
const LAST_JUMP_DIVISOR: usize = 4;
/// Bits of each filter per bucket of the table.
const FILTER_BITS_PER_ENTRY: usize = 2;
const FILTER_MIN_BITS: usize = 1 << 12;
/// Upper bounds below this say something about a position that has a move (every
/// such position scores at most a win in one).
const USEFUL_UPPER: Score = MAX - 1;

/// A bit filter over key digests.
struct Filter {
    bits: Vec<u64>,
    mask: u64,
}

impl Filter {
    fn sized(bits: usize) -> Self {
        Filter {
            bits: vec![0; bits / 64],
            mask: bits as u64 - 1,
        }
    }

    #[inline]
    fn set(&mut self, key: Key) {
        let bit = key.digest() & self.mask;
        self.bits[(bit / 64) as usize] |= 1 << (bit % 64);
    }

    #[inline]
    fn test(&self, key: Key) -> bool {
        let bit = key.digest() & self.mask;
        self.bits[(bit / 64) as usize] & (1 << (bit % 64)) != 0
    }
}

/// Which upper bounds a probe is after, so it can ask the smaller filter first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// Upper bounds below zero: the position is known lost.
    Loss,
    /// Any upper bound below a win in one.
    Upper,
}

/// Score bounds of searched positions, bounded in memory.
pub struct BoundTable {
    map: HashMap<Key, Entry, BuildKeyHasher>,
    max_entries: usize,
    losses: Filter,
    uppers: Filter,
    /// The allocation the filters were sized for; they are rebuilt when that changes.
    filters_sized_for: usize,
    /// Set once the entries have their final allocation: from then on a full table is
    /// swept, never grown.
    at_bound: bool,
    evictions: u64,
}

impl BoundTable {
    /// A table whose memory (entries and filters) stays within `bytes`, at least a few
    /// kilobytes.
    pub fn with_bytes(bytes: usize) -> Self {
        let peak_per_bucket =
            BUCKET_BYTES + BUCKET_BYTES / LAST_JUMP_DIVISOR + 2 * FILTER_BITS_PER_ENTRY / 8 + 1;
        let mut max_buckets = 64;
        while max_buckets * 2 * peak_per_bucket <= bytes {
            max_buckets *= 2;
        }
        let max_entries = max_buckets / 8 * 7;
        // Start at most a quarter of the bound, so the last growth is a jump of at most
        // a quarter plus the whole, as the per-bucket budget above assumes.
        let initial = INITIAL_BUCKETS.min(max_buckets / LAST_JUMP_DIVISOR) / 8 * 7;
        let mut table = BoundTable {
            map: HashMap::with_capacity_and_hasher(initial, BuildKeyHasher),
            max_entries,
            losses: Filter::sized(FILTER_MIN_BITS),
            uppers: Filter::sized(FILTER_MIN_BITS),
            filters_sized_for: 0,
            at_bound: false,
            evictions: 0,
        };
        table.rebuild_filters();
        table
    }

    /// Sizes the filters to the table's capacity and refills them from the entries.
    fn rebuild_filters(&mut self) {
        let buckets = self.map.allocation_size() / BUCKET_BYTES;
        let bits = (buckets * FILTER_BITS_PER_ENTRY)
            .next_power_of_two()
            .max(FILTER_MIN_BITS);
        self.losses = Filter::sized(bits);
        self.uppers = Filter::sized(bits);
        self.filters_sized_for = self.map.allocation_size();
        for (&key, entry) in self.map.iter() {
            mark(&mut self.losses, &mut self.uppers, key, entry.upper);
        }
    }

    /// The stored bounds of `key`.
    #[inline]
    pub fn get(&self, key: Key) -> Option<Entry> {
        self.map.get(&key).copied()
    }

    /// The stored upper bound of `key` when the filter for `wanted` lets it through.
    #[inline]
    pub fn upper(&self, key: Key, wanted: Wanted) -> Option<Score> {
        let hint = match wanted {
            Wanted::Loss => self.losses.test(key),
            Wanted::Upper => self.uppers.test(key),
        };
        if hint {
            self.map.get(&key).map(|entry| entry.upper)
        } else {
            None
        }
    }

    /// Records bounds found for `key` (merged with what is stored: the tighter of each),
    /// the move they came from (0: none) and the nodes they took.
    pub fn insert(&mut self, key: Key, lower: Score, upper: Score, best: u32, work: u64) {
        let work = work.min(u64::from(u32::MAX)) as u32;
        if let Some(entry) = self.map.get_mut(&key) {
            entry.lower = entry.lower.max(lower);
            entry.upper = entry.upper.min(upper);
            entry.work = entry.work.max(work);
            if best != 0 {
                entry.best = best;
            }
            let upper = entry.upper;
            mark(&mut self.losses, &mut self.uppers, key, upper);
            return;
        }
        // No room left without reallocating (deleted slots count as used until hashbrown
        // rehashes, which it does in place once at most half the slots are live).
        if self.map.len() >= self.map.capacity() {
            if self.at_bound {
                self.sweep();
            } else if self.map.capacity() * LAST_JUMP_DIVISOR >= self.max_entries {
                // The last growth goes straight to the bound, never past it.
                self.map.reserve(self.max_entries - self.map.len());
                self.at_bound = true;
            }
            // Otherwise hashbrown doubles the table as the insert needs.
        }
        self.map.insert(
            key,
            Entry {
                lower,
                upper,
                work,
                best,
            },
        );
        if self.map.allocation_size() != self.filters_sized_for {
            self.rebuild_filters();
        } else {
            mark(&mut self.losses, &mut self.uppers, key, upper);
        }
    }

    /// Drops strictly more than half of the entries, those that cost least to find
    /// again, so that hashbrown can clear its deleted slots in place.
    fn sweep(&mut self) {
        let level = |work: u32| 32 - work.leading_zeros();
        let mut histogram = [0usize; 33];
        for entry in self.map.values() {
            histogram[level(entry.work) as usize] += 1;
        }
        let target = self.map.len() / 2 + 1;
        let mut dropped = 0;
        let mut cut = 0;
        for (l, &count) in histogram.iter().enumerate() {
            dropped += count;
            cut = l as u32;
            if dropped >= target {
                break;
            }
        }
        let before = self.map.len();
        self.map.retain(|_, entry| level(entry.work) > cut);
        self.evictions += (before - self.map.len()) as u64;
        self.rebuild_filters();
    }

    /// Number of stored positions.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Most positions the table will hold.
    pub fn max_entries(&self) -> usize {
        self.max_entries
    }

    /// Bytes currently allocated for entries and filters.
    pub fn allocated_bytes(&self) -> usize {
        self.map.allocation_size() + (self.losses.bits.len() + self.uppers.bits.len()) * 8
    }

    /// Entries dropped by replacement so far.
    pub fn evictions(&self) -> u64 {
        self.evictions
    }
}

/// Sets the filter bits an upper bound calls for.
#[inline]
fn mark(losses: &mut Filter, uppers: &mut Filter, key: Key, upper: Score) {
    if upper < 0 {
        losses.set(key);
    }
    if upper < USEFUL_UPPER {
        uppers.set(key);
    }
}

#[cfg(test)]
mod tests {
    use super::super::score::{loss, win, MIN};
    use super::*;
    use crate::search::key::heap_code;

    #[test]
    fn merges_bounds_and_stays_within_its_bound() {
        let mut table = BoundTable::with_bytes(64 * 1024);
        let key = heap_code(7);
        table.insert(key, win(9), MAX, 3, 100);
        table.insert(key, MIN, win(5), 0, 10);
        let entry = table.get(key).unwrap();
        assert_eq!((entry.lower, entry.upper, entry.best), (win(9), win(5), 3));
        assert_eq!(table.upper(key, Wanted::Upper), Some(win(5)));
        assert_eq!(table.upper(key, Wanted::Loss), None);
        let max = table.max_entries();
        for h in 0..(10 * max as u64) {
            table.insert(heap_code(h << 8), loss(3), loss(3), 0, h % 7);
        }
        table.insert(heap_code(u64::MAX), loss(1), loss(1), 0, 1 << 40);
        assert!(table.len() <= max);
        assert!(
            table.allocated_bytes() <= 64 * 1024,
            "{}",
            table.allocated_bytes()
        );
        assert!(table.evictions() > 0);
        assert_eq!(
            table.upper(heap_code(u64::MAX), Wanted::Loss),
            Some(loss(1))
        );
    }
}

//! The transposition table: solved positions by key, within a user-set memory bound.
//!
//! Each entry keeps the outcome and how many nodes solving it took. When the table
//! is full, the cheapest half (the entries that are quickest to solve again) is
//! dropped in one sweep, so the bound holds and the expensive results survive.
//!
//! The table doubles as it fills, so small searches stay small and cache-friendly;
//! its bound is chosen so that even the last growth, when old and new bucket arrays
//! live side by side for a moment, stays within the user's budget.
//!
//! In front of it sits a bit filter of the keys stored as unsafe. Enhanced
//! transposition cut-offs ask of every child "is it known to be unsafe?", and unsafe
//! positions are the rare ones: the filter, small enough to stay in cache, answers
//! "no" without touching the big table. A set bit is only a hint, confirmed by the
//! table, so bits left behind by evicted entries cost a probe, never a wrong answer.

use hashbrown::HashMap;

use super::key::{BuildKeyHasher, Key};

/// Bytes one bucket takes: the (key, value) pair plus hashbrown's control byte.
const BUCKET_BYTES: usize = std::mem::size_of::<(Key, u32)>() + 1;
/// Buckets allocated before the first growth: small queries stay small.
const INITIAL_BUCKETS: usize = 1 << 10;
/// Growth doubles until the table holds this fraction of its bound, then jumps to the
/// bound; the transient of that jump (old plus new arrays) is at most 1 + 1/4 of it.
const LAST_JUMP_DIVISOR: usize = 4;
/// Bits of the unsafe filter per entry the table can currently hold: it grows with
/// the table, so it stays as small (and as cache-resident) as the search allows.
const FILTER_BITS_PER_ENTRY: usize = 2;
const FILTER_MIN_BITS: usize = 1 << 12;

/// Outcomes of solved positions, bounded in memory.
pub struct TranspositionTable {
    map: HashMap<Key, u32, BuildKeyHasher>,
    max_entries: usize,
    unsafe_filter: Vec<u64>,
    filter_mask: u64,
    /// The allocation the filter was sized for; it is resized when that changes.
    filter_sized_for: usize,
    /// Set once the entries have their final allocation: from then on a full table is
    /// swept, never grown.
    at_bound: bool,
    evictions: u64,
    sweeps: u64,
}

impl TranspositionTable {
    /// A table whose memory (entries and filter) stays within `bytes`, at least a few
    /// kilobytes.
    pub fn with_bytes(bytes: usize) -> Self {
        let peak_per_bucket =
            BUCKET_BYTES + BUCKET_BYTES / LAST_JUMP_DIVISOR + FILTER_BITS_PER_ENTRY / 8 + 1;
        let mut max_buckets = 64;
        while max_buckets * 2 * peak_per_bucket <= bytes {
            max_buckets *= 2;
        }
        let max_entries = max_buckets / 8 * 7;
        // Start at most a quarter of the bound, so the last growth is a jump of at most
        // a quarter plus the whole, as the per-bucket budget above assumes.
        let initial = INITIAL_BUCKETS.min(max_buckets / LAST_JUMP_DIVISOR) / 8 * 7;
        let mut table = TranspositionTable {
            map: HashMap::with_capacity_and_hasher(initial, BuildKeyHasher),
            max_entries,
            unsafe_filter: Vec::new(),
            filter_mask: 0,
            filter_sized_for: 0,
            at_bound: false,
            evictions: 0,
            sweeps: 0,
        };
        table.rebuild_filter();
        table
    }

    /// Sizes the unsafe filter to the table's capacity and refills it from the entries.
    fn rebuild_filter(&mut self) {
        let buckets = self.map.allocation_size() / BUCKET_BYTES;
        let bits = (buckets * FILTER_BITS_PER_ENTRY)
            .next_power_of_two()
            .max(FILTER_MIN_BITS);
        self.unsafe_filter.clear();
        self.unsafe_filter.resize(bits / 64, 0);
        self.filter_mask = bits as u64 - 1;
        self.filter_sized_for = self.map.allocation_size();
        for (key, value) in self.map.iter() {
            if value & 1 == 0 {
                let bit = key.digest() & self.filter_mask;
                self.unsafe_filter[(bit / 64) as usize] |= 1 << (bit % 64);
            }
        }
    }

    /// The stored outcome for `key` (true: the player to move wins).
    #[inline]
    pub fn get(&self, key: Key) -> Option<bool> {
        self.map.get(&key).map(|&value| value & 1 != 0)
    }

    /// True when `key` may be stored as unsafe; false means it certainly is not.
    #[inline]
    pub fn may_be_unsafe(&self, key: Key) -> bool {
        let bit = key.digest() & self.filter_mask;
        self.unsafe_filter[(bit / 64) as usize] & (1 << (bit % 64)) != 0
    }

    /// True when `key` is stored as unsafe (the filter first, then the table).
    #[inline]
    pub fn is_known_unsafe(&self, key: Key) -> bool {
        self.may_be_unsafe(key) && self.get(key) == Some(false)
    }

    /// Stores an outcome with the number of nodes it took to find.
    pub fn insert(&mut self, key: Key, win: bool, work: u64) {
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
        if !win {
            let bit = key.digest() & self.filter_mask;
            self.unsafe_filter[(bit / 64) as usize] |= 1 << (bit % 64);
        }
        let work = work.min(u64::from(u32::MAX >> 1)) as u32;
        self.map.insert(key, (work << 1) | u32::from(win));
        if self.map.allocation_size() != self.filter_sized_for {
            self.rebuild_filter();
        }
    }

    /// Drops at least half of the entries, those that cost the least to recompute, so
    /// that hashbrown can clear its deleted slots in place.
    fn sweep(&mut self) {
        let level = |value: u32| 32 - (value >> 1).leading_zeros();
        let mut histogram = [0usize; 33];
        for &value in self.map.values() {
            histogram[level(value) as usize] += 1;
        }
        // Strictly more than half: hashbrown rehashes in place only while at most half
        // of its slots hold entries.
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
        self.map.retain(|_, value| level(*value) > cut);
        self.evictions += (before - self.map.len()) as u64;
        self.sweeps += 1;
        // Stale filter bits would only cost probes; clearing them keeps probes rare.
        self.rebuild_filter();
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

    /// Bytes currently allocated for entries and the filter.
    pub fn allocated_bytes(&self) -> usize {
        self.map.allocation_size() + self.unsafe_filter.len() * 8
    }

    /// Entries dropped by replacement so far.
    pub fn evictions(&self) -> u64 {
        self.evictions
    }
}

#[cfg(test)]
mod tests {
    use super::super::key::heap_code;
    use super::*;

    #[test]
    fn stays_within_its_bound_and_keeps_expensive_entries() {
        let mut table = TranspositionTable::with_bytes(64 * 1024);
        let max = table.max_entries();
        for h in 0..(10 * max as u64) {
            table.insert(heap_code(h), h % 2 == 0, h % 7);
        }
        table.insert(heap_code(u64::MAX), true, 1 << 40);
        assert!(table.len() <= max);
        assert!(
            table.allocated_bytes() <= 64 * 1024,
            "{}",
            table.allocated_bytes()
        );
        for h in 0..1000u64 {
            let key = heap_code(h << 20);
            table.insert(key, false, 1 << 10);
            assert!(table.is_known_unsafe(key));
        }
        assert!(table.evictions() > 0);
        assert!(
            table.allocated_bytes() <= 64 * 1024,
            "{}",
            table.allocated_bytes()
        );
        assert_eq!(table.get(heap_code(u64::MAX)), Some(true));
    }
}

//! The bounded transposition-table core both engines store their results in: entries by
//! key within a user-set memory bound, a sweep that drops the cheapest half when full,
//! and bit filters in front for the probes that usually miss.
//!
//! The table doubles as it fills, so small searches stay small and cache-friendly; its
//! bound is chosen so that even the last growth, when old and new bucket arrays live
//! side by side for a moment, stays within the user's budget. When it is full, the
//! entries that cost least to find again (by the work each records) are dropped in one
//! sweep, strictly more than half of them, so that hashbrown can clear its deleted
//! slots in place: the bound holds and the expensive results survive.
//!
//! Enhanced transposition cut-offs ask of every child whether it is known to be of some
//! rare kind (unsafe, or with a useful upper bound). Each entry type names the filters
//! it wants and which of them each entry sets: a filter small enough to stay in cache
//! answers "no" without touching the big table. A set bit is only a hint the table
//! confirms, so bits left behind by evicted entries cost a probe, never a wrong answer.
//!
//! The two engines differ only in their [`Slot`]s: the boolean engine's outcome and
//! work, the remoteness engine's score bounds, move and work, merged on a second store.

use hashbrown::HashMap;

use super::key::{BuildKeyHasher, Key};

/// Buckets allocated before the first growth: small queries stay small.
const INITIAL_BUCKETS: usize = 1 << 10;
/// Growth doubles until the table holds this fraction of its bound, then jumps to the
/// bound; the transient of that jump (old plus new arrays) is at most 1 + 1/4 of it.
const LAST_JUMP_DIVISOR: usize = 4;
/// Bits of each filter per bucket of the table: they grow with the table, so they stay
/// as small (and as cache-resident) as the search allows.
const FILTER_BITS_PER_ENTRY: usize = 2;
const FILTER_MIN_BITS: usize = 1 << 12;

/// What the table needs to know of the entries it stores.
pub trait Slot: Copy {
    /// Filters kept in front of the table (at most 8).
    const FILTERS: usize;

    /// The nodes it took to find this entry: the cheapest are dropped first.
    fn work(&self) -> u32;

    /// Bit `i` set: filter `i` lets this entry's key through.
    fn marks(&self) -> u8;

    /// Folds what a later store found for the same key into this entry.
    fn merge(&mut self, newer: Self);
}

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

/// Entries by key, bounded in memory, with the filters their type asks for.
pub struct BoundedTable<E: Slot> {
    map: HashMap<Key, E, BuildKeyHasher>,
    max_entries: usize,
    filters: Vec<Filter>,
    /// The allocation the filters were sized for; they are rebuilt when that changes.
    filters_sized_for: usize,
    /// Set once the entries have their final allocation: from then on a full table is
    /// swept, never grown.
    at_bound: bool,
    evictions: u64,
}

impl<E: Slot> BoundedTable<E> {
    /// Bytes one bucket takes: the (key, entry) pair plus hashbrown's control byte.
    const BUCKET_BYTES: usize = std::mem::size_of::<(Key, E)>() + 1;

    /// A table whose memory (entries and filters) stays within `bytes`, at least a few
    /// kilobytes.
    pub fn with_bytes(bytes: usize) -> Self {
        let max_entries = Self::max_entries_within(bytes);
        let max_buckets = max_entries / 7 * 8;
        // Start at most a quarter of the bound, so the last growth is a jump of at most
        // a quarter plus the whole, as the per-bucket budget below assumes.
        let initial = INITIAL_BUCKETS.min(max_buckets / LAST_JUMP_DIVISOR) / 8 * 7;
        let mut table = BoundedTable {
            map: HashMap::with_capacity_and_hasher(initial, BuildKeyHasher),
            max_entries,
            filters: Vec::new(),
            filters_sized_for: 0,
            at_bound: false,
            evictions: 0,
        };
        table.rebuild_filters();
        table
    }

    /// Most entries a table within `bytes` holds: a power of two of buckets, 7 in 8 of
    /// them filled, with room for the last growth's old and new arrays side by side.
    fn max_entries_within(bytes: usize) -> usize {
        let peak_per_bucket = Self::BUCKET_BYTES
            + Self::BUCKET_BYTES / LAST_JUMP_DIVISOR
            + E::FILTERS * FILTER_BITS_PER_ENTRY / 8
            + 1;
        let mut max_buckets = 64;
        while max_buckets * 2 * peak_per_bucket <= bytes {
            max_buckets *= 2;
        }
        max_buckets / 8 * 7
    }

    /// Lets the table grow within `bytes` from now on (a smaller bound than its own is
    /// ignored): its current array and the largest it grows to fit side by side, as
    /// they are while hashbrown moves the entries over.
    pub fn raise_bound(&mut self, bytes: usize) {
        let held = self.allocated_bytes();
        let mut max_entries = Self::max_entries_within(bytes);
        while max_entries > self.max_entries
            && held + max_entries / 7 * 8 * Self::BUCKET_BYTES > bytes
        {
            max_entries /= 2;
        }
        if max_entries > self.max_entries {
            self.max_entries = max_entries;
            self.at_bound = false;
        }
    }

    /// Sizes the filters to the table's capacity and refills them from the entries.
    fn rebuild_filters(&mut self) {
        let buckets = self.map.allocation_size() / Self::BUCKET_BYTES;
        let bits = (buckets * FILTER_BITS_PER_ENTRY)
            .next_power_of_two()
            .max(FILTER_MIN_BITS);
        self.filters.clear();
        self.filters
            .extend((0..E::FILTERS).map(|_| Filter::sized(bits)));
        self.filters_sized_for = self.map.allocation_size();
        for (&key, entry) in self.map.iter() {
            mark(&mut self.filters, key, entry.marks());
        }
    }

    /// The stored entry of `key`.
    #[inline]
    pub fn get(&self, key: Key) -> Option<E> {
        self.map.get(&key).copied()
    }

    /// True when filter `filter` lets `key` through; false means no entry of `key`
    /// sets it.
    #[inline]
    pub fn may_hold(&self, filter: usize, key: Key) -> bool {
        self.filters[filter].test(key)
    }

    /// The stored entry of `key` when filter `filter` lets it through.
    #[inline]
    pub fn get_filtered(&self, filter: usize, key: Key) -> Option<E> {
        if self.may_hold(filter, key) {
            self.get(key)
        } else {
            None
        }
    }

    /// Stores `entry` for `key`, merged into what is stored for it, and returns what is
    /// stored now.
    pub fn insert(&mut self, key: Key, entry: E) -> E {
        if let Some(stored) = self.map.get_mut(&key) {
            stored.merge(entry);
            let marks = stored.marks();
            mark(&mut self.filters, key, marks);
            return *stored;
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
        self.map.insert(key, entry);
        if self.map.allocation_size() != self.filters_sized_for {
            self.rebuild_filters();
        } else {
            mark(&mut self.filters, key, entry.marks());
        }
        entry
    }

    /// Drops strictly more than half of the entries, those that cost least to find
    /// again, so that hashbrown can clear its deleted slots in place.
    fn sweep(&mut self) {
        let level = |entry: &E| 32 - entry.work().leading_zeros();
        let mut histogram = [0usize; 33];
        for entry in self.map.values() {
            histogram[level(entry) as usize] += 1;
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
        self.map.retain(|_, entry| level(entry) > cut);
        self.evictions += (before - self.map.len()) as u64;
        // Stale filter bits would only cost probes; clearing them keeps probes rare.
        self.rebuild_filters();
    }

    /// Number of stored positions.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Most positions the table will hold.
    #[cfg(test)]
    pub fn max_entries(&self) -> usize {
        self.max_entries
    }

    /// Bytes currently allocated for entries and filters.
    pub fn allocated_bytes(&self) -> usize {
        self.map.allocation_size() + self.filters.iter().map(|f| f.bits.len() * 8).sum::<usize>()
    }

    /// Entries dropped by replacement so far.
    pub fn evictions(&self) -> u64 {
        self.evictions
    }
}

/// Sets the filter bits `marks` calls for.
#[inline]
fn mark(filters: &mut [Filter], key: Key, marks: u8) {
    for (i, filter) in filters.iter_mut().enumerate() {
        if marks & (1 << i) != 0 {
            filter.set(key);
        }
    }
}

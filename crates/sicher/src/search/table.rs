//! The transposition table of the boolean search: solved positions by key, within a
//! user-set memory bound, on the bounded core (`bounded.rs`).
//!
//! Each entry keeps the outcome and how many nodes solving it took; once the table is
//! at its bound, a new entry replaces the cheapest of its bucket (the one quickest to
//! solve again).
//! In front of it sits a bit filter of the keys stored as unsafe. Enhanced
//! transposition cut-offs ask of every child "is it known to be unsafe?", and unsafe
//! positions are the rare ones: the filter answers "no" without touching the table.

use super::bounded::{BoundedTable, Slot};
use super::key::Key;

/// The filter of keys stored as unsafe.
const UNSAFE: usize = 0;

/// One solved position: the nodes it took in the high 31 bits, the outcome (1: the
/// player to move wins) in the lowest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Solved(u32);

impl Slot for Solved {
    const FILTERS: usize = 1;

    #[inline]
    fn work(&self) -> u32 {
        self.0 >> 1
    }

    #[inline]
    fn marks(&self) -> u8 {
        u8::from(self.0 & 1 == 0) << UNSAFE
    }

    #[inline]
    fn merge(&mut self, newer: Self) {
        // An outcome is exact: the later one is as good, and its work is what it cost now.
        *self = newer;
    }
}

/// Outcomes of solved positions, bounded in memory.
pub struct TranspositionTable {
    table: BoundedTable<Solved>,
}

impl TranspositionTable {
    /// A table whose memory (entries and filter) stays within `bytes`, at least a few
    /// kilobytes.
    pub fn with_bytes(bytes: usize) -> Self {
        TranspositionTable {
            table: BoundedTable::with_bytes(bytes),
        }
    }

    /// The stored outcome for `key` (true: the player to move wins).
    #[inline]
    pub fn get(&self, key: Key) -> Option<bool> {
        self.table.get(key).map(|solved| solved.0 & 1 != 0)
    }

    /// True when `key` may be stored as unsafe; false means it certainly is not.
    #[inline]
    pub fn may_be_unsafe(&self, key: Key) -> bool {
        self.table.may_hold(UNSAFE, key)
    }

    /// True when `key` is stored as unsafe (the filter first, then the table).
    #[inline]
    pub fn is_known_unsafe(&self, key: Key) -> bool {
        self.may_be_unsafe(key) && self.get(key) == Some(false)
    }

    /// Stores an outcome with the number of nodes it took to find.
    pub fn insert(&mut self, key: Key, win: bool, work: u64) {
        let work = work.min(u64::from(u32::MAX >> 1)) as u32;
        self.table.insert(key, Solved((work << 1) | u32::from(win)));
    }

    /// Number of stored positions.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Most positions the table will hold.
    #[cfg(test)]
    pub fn max_entries(&self) -> usize {
        self.table.max_entries()
    }

    /// Bytes currently allocated for entries and the filter.
    pub fn allocated_bytes(&self) -> usize {
        self.table.allocated_bytes()
    }

    /// Entries dropped by replacement so far.
    pub fn evictions(&self) -> u64 {
        self.table.evictions()
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

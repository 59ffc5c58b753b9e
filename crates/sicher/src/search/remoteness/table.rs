//! The transposition table of the remoteness search: a lower and an upper bound on each
//! stored position's score, valid for any window, with the move that gave the bound
//! and the work it took, within a user-set memory bound.
//!
//! Bounds come from fail-soft searches: a search that fails low proves an upper bound,
//! one that fails high a lower bound, one inside its window both. Storing both sides
//! separately lets a later search with another window (the next MTD(f) test, a
//! NegaScout re-search) use whichever side it needs. There is no search horizon, so a
//! bound is true whatever the depth it was found at; the work (nodes spent) takes the
//! place of chess's draft in replacement: once the table is at its bound, a new entry
//! replaces the cheapest of its bucket, as in the boolean engine's table.
//!
//! It sits on the bounded core (`bounded.rs`) like the boolean table: a hashbrown map
//! while it grows, a fixed array of four-slot buckets at its bound. A chess-style table
//! from the start (three 20-byte slots to a cache line) was measured against hashbrown
//! on misère Kayles 10..14 and took 1.14 to 1.40 times the CPU time: hashbrown's
//! control bytes stay in cache, so a probe already costs about one miss, and its
//! denser buckets spare TLB misses. That is why small searches keep the map.
//!
//! Two bit filters sit in front of it for enhanced transposition cut-offs: keys stored
//! with a negative upper bound (known losses, what a position that wants to win looks
//! for among its children) and keys with any useful upper bound. A set bit is a hint
//! the table confirms; stale bits cost a probe, never a wrong answer.

use super::score::{Score, MAX};
use crate::search::bounded::{BoundedTable, Slot};
use crate::search::key::Key;

/// What the table knows of one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

/// Upper bounds below this say something about a position that has a move (every
/// such position scores at most a win in one).
const USEFUL_UPPER: Score = MAX - 1;
/// The filter of keys stored with a negative upper bound (known losses).
const LOSSES: usize = 0;
/// The filter of keys stored with any useful upper bound.
const UPPERS: usize = 1;

impl Entry {
    /// Bounds on a position's score, the move that gave them (generation index plus
    /// one, 0: none) and the nodes they took (saturating).
    pub fn new(lower: Score, upper: Score, best: u32, work: u64) -> Self {
        Entry {
            lower,
            upper,
            work: work.min(u64::from(u32::MAX)) as u32,
            best,
        }
    }
}

impl Slot for Entry {
    const FILTERS: usize = 2;

    #[inline]
    fn work(&self) -> u32 {
        self.work
    }

    #[inline]
    fn marks(&self) -> u8 {
        (u8::from(self.upper < 0) << LOSSES) | (u8::from(self.upper < USEFUL_UPPER) << UPPERS)
    }

    /// Bounds only tighten: the higher lower bound, the lower upper bound, the larger
    /// work; the newer move where there is one.
    #[inline]
    fn merge(&mut self, newer: Self) {
        self.lower = self.lower.max(newer.lower);
        self.upper = self.upper.min(newer.upper);
        self.work = self.work.max(newer.work);
        if newer.best != 0 {
            self.best = newer.best;
        }
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

impl Wanted {
    /// The filter that lets through the keys this probe is after.
    #[inline]
    pub(super) fn filter(self) -> usize {
        match self {
            Wanted::Loss => LOSSES,
            Wanted::Upper => UPPERS,
        }
    }
}

/// Score bounds of searched positions, bounded in memory.
pub struct BoundTable {
    table: BoundedTable<Entry>,
}

impl BoundTable {
    /// A table whose memory (entries and filters) stays within `bytes`, at least a few
    /// kilobytes.
    pub fn with_bytes(bytes: usize) -> Self {
        BoundTable {
            table: BoundedTable::with_bytes(bytes),
        }
    }

    /// The stored bounds of `key`.
    #[inline]
    pub fn get(&self, key: Key) -> Option<Entry> {
        self.table.get(key)
    }

    /// The stored upper bound of `key` when the filter for `wanted` lets it through.
    #[inline]
    pub fn upper(&self, key: Key, wanted: Wanted) -> Option<Score> {
        self.table
            .get_filtered(wanted.filter(), key)
            .map(|entry| entry.upper)
    }

    /// Records bounds found for `key` (merged with what is stored: the tighter of each),
    /// the move they came from (0: none) and the nodes they took.
    pub fn insert(&mut self, key: Key, entry: Entry) {
        self.table.insert(key, entry);
    }

    /// Calls `visit` with every stored key and entry.
    pub fn for_each(&self, visit: impl FnMut(Key, Entry)) {
        self.table.for_each(visit);
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

    /// Bytes currently allocated for entries and filters.
    pub fn allocated_bytes(&self) -> usize {
        self.table.allocated_bytes()
    }

    /// Entries dropped by replacement so far.
    pub fn evictions(&self) -> u64 {
        self.table.evictions()
    }

    /// True once memory limits the table (see [`BoundedTable::overflowing`]).
    #[inline]
    pub fn overflowing(&self) -> bool {
        self.table.overflowing()
    }

    /// Lets the table grow to `bytes` (see [`BoundedTable::raise_bound`]).
    pub fn raise_bound(&mut self, bytes: usize) {
        self.table.raise_bound(bytes);
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
        table.insert(key, Entry::new(win(9), MAX, 3, 100));
        table.insert(key, Entry::new(MIN, win(5), 0, 10));
        let entry = table.get(key).unwrap();
        assert_eq!((entry.lower, entry.upper, entry.best), (win(9), win(5), 3));
        assert_eq!(table.upper(key, Wanted::Upper), Some(win(5)));
        assert_eq!(table.upper(key, Wanted::Loss), None);
        let max = table.max_entries();
        for h in 0..(10 * max as u64) {
            table.insert(heap_code(h << 8), Entry::new(loss(3), loss(3), 0, h % 7));
        }
        table.insert(
            heap_code(u64::MAX),
            Entry::new(loss(1), loss(1), 0, 1 << 40),
        );
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

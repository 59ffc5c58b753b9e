//! Where one thread's engine keeps its bounds: a table of its own while it searches
//! alone, the one table of every thread ([`SharedTable`]) while it searches with
//! others. The engine asks and stores the same way in both.

use std::sync::Arc;

use super::score::Score;
use super::shared::{Placed, SharedTable};
use super::table::{BoundTable, Entry, Wanted};
use crate::search::bounded::overflowing;
use crate::search::key::Key;

/// A thread's bounds: its own table, or the shared one with what this thread did to it.
pub(super) enum Tables {
    /// A table of its own (hashbrown while it grows: the fastest while small).
    Own(BoundTable),
    /// The table every thread shares.
    Shared {
        table: Arc<SharedTable>,
        /// Free slots this thread filled and entries it replaced: summed over the
        /// threads, the table's entries and evictions.
        filled: u64,
        evictions: u64,
    },
}

impl Tables {
    /// The stored bounds of `key`.
    #[inline]
    pub(super) fn get(&self, key: Key) -> Option<Entry> {
        match self {
            Tables::Own(table) => table.get(key),
            Tables::Shared { table, .. } => table.get(key),
        }
    }

    /// The stored upper bound of `key` when the filter for `wanted` lets it through.
    #[inline]
    pub(super) fn upper(&self, key: Key, wanted: Wanted) -> Option<Score> {
        match self {
            Tables::Own(table) => table.upper(key, wanted),
            Tables::Shared { table, .. } => table.upper(key, wanted),
        }
    }

    /// Records bounds found for `key`, merged with what is stored.
    #[inline]
    pub(super) fn insert(&mut self, key: Key, entry: Entry) {
        match self {
            Tables::Own(table) => table.insert(key, entry),
            Tables::Shared {
                table,
                filled,
                evictions,
            } => match table.insert(key, entry).1 {
                Placed::Merged => {}
                Placed::Filled => *filled += 1,
                Placed::Replaced => *evictions += 1,
            },
        }
    }

    /// True when the table is shared with other threads.
    #[inline]
    pub(super) fn is_shared(&self) -> bool {
        matches!(self, Tables::Shared { .. })
    }

    /// The shared table, while there is one.
    #[inline]
    pub(super) fn shared(&self) -> Option<&SharedTable> {
        match self {
            Tables::Own(_) => None,
            Tables::Shared { table, .. } => Some(table),
        }
    }

    /// Entries stored (by this thread, in a shared table).
    pub(super) fn len(&self) -> u64 {
        match self {
            Tables::Own(table) => table.len() as u64,
            Tables::Shared { filled, .. } => *filled,
        }
    }

    /// Entries dropped by replacement (by this thread's stores, in a shared table).
    pub(super) fn evictions(&self) -> u64 {
        match self {
            Tables::Own(table) => table.evictions(),
            Tables::Shared { evictions, .. } => *evictions,
        }
    }

    /// Bytes of this thread's own table (a shared one is counted once, by the solver).
    pub(super) fn allocated_bytes(&self) -> usize {
        match self {
            Tables::Own(table) => table.allocated_bytes(),
            Tables::Shared { .. } => 0,
        }
    }

    /// True once memory limits the table (see [`overflowing`]).
    #[inline]
    pub(super) fn overflowing(&self) -> bool {
        match self {
            Tables::Own(table) => table.overflowing(),
            Tables::Shared {
                filled, evictions, ..
            } => overflowing(*evictions, *filled),
        }
    }

    /// Moves to `shared`, taking along what this thread's table holds.
    pub(super) fn share(&mut self, shared: Arc<SharedTable>) {
        let mut tables = Tables::Shared {
            table: shared,
            filled: 0,
            evictions: 0,
        };
        self.for_each(|key, entry| tables.insert(key, entry));
        *self = tables;
    }

    /// Moves from one shared table to `shared`, into which the caller moved the
    /// entries; this thread's counts start again from `filled` slots.
    pub(super) fn move_to(&mut self, shared: Arc<SharedTable>, filled: u64) {
        *self = Tables::Shared {
            table: shared,
            filled,
            evictions: 0,
        };
    }

    /// Moves to a table of its own within `bytes`, taking along what the shared one
    /// holds (while no other thread writes to it).
    pub(super) fn go_alone(&mut self, bytes: usize) {
        if let Tables::Own(table) = self {
            table.raise_bound(bytes);
            return;
        }
        // The new table grows beside the shared one (freed once this thread, the last
        // to hold it, lets go) within what the bound leaves, then takes all of it.
        let spare = bytes.saturating_sub(self.shared().map_or(0, |s| s.allocated_bytes()));
        let mut own = BoundTable::with_bytes(spare);
        self.for_each(|key, entry| own.insert(key, entry));
        *self = Tables::Own(own);
        if let Tables::Own(own) = self {
            own.raise_bound(bytes);
        }
    }

    /// Calls `visit` with every stored key and entry.
    fn for_each(&self, visit: impl FnMut(Key, Entry)) {
        match self {
            Tables::Own(table) => table.for_each(visit),
            Tables::Shared { table, .. } => table.for_each(visit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::score::{loss, win, MAX};
    use super::*;
    use crate::search::key::heap_code;

    /// Joining the threads and going alone again keep what the table held.
    #[test]
    fn entries_move_with_the_thread() {
        let mut tables = Tables::Own(BoundTable::with_bytes(1 << 20));
        let keys: Vec<Key> = (1..=500).map(|h| heap_code(h * 31)).collect();
        for (i, &key) in keys.iter().enumerate() {
            tables.insert(key, Entry::new(loss(i as u32 % 7 + 1), win(9), 1, i as u64));
        }
        let expect: Vec<Option<Entry>> = keys.iter().map(|&key| tables.get(key)).collect();
        tables.share(Arc::new(SharedTable::with_bytes(1 << 20)));
        assert!(tables.is_shared() && tables.len() == 500);
        assert_eq!(
            keys.iter().map(|&k| tables.get(k)).collect::<Vec<_>>(),
            expect
        );
        tables.insert(keys[0], Entry::new(loss(1), loss(1), 2, 10));
        assert_eq!(tables.upper(keys[0], Wanted::Loss), Some(loss(1)));
        // The bound holds the shared table and the new one together while entries move.
        tables.go_alone(4 << 20);
        assert!(!tables.is_shared() && tables.len() == 500);
        assert_eq!(
            tables.get(keys[0]).map(|e| (e.lower, e.upper)),
            Some((loss(1), loss(1)))
        );
        assert_eq!(tables.get(keys[1]), expect[1]);
        assert_eq!(
            tables.get(heap_code(7)).map(|e| e.upper).unwrap_or(MAX),
            MAX
        );
    }
}

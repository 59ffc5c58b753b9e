//! The bounded transposition-table core both engines store their results in: entries by
//! key within a user-set memory bound, in two stages, and bit filters in front for the
//! probes that usually miss.
//!
//! **Growing.** A table starts as a hashbrown map and doubles as it fills, so small
//! searches stay small and cache-friendly: hashbrown's control bytes stay in cache and
//! a probe costs about one miss. It grows while its allocation stays within a quarter
//! of the bound.
//!
//! **At the bound.** When the next doubling would pass that quarter, the entries move
//! to a fixed array of buckets of [`WAYS`] slots each, as large as the bound allows
//! beside the map (three quarters of it or more, whatever the size: a bucket is picked
//! by multiplying the key into the bucket count, so it need not be a power of two);
//! then the map is freed. Beside the buckets sits a byte of tag per slot, read first,
//! so that a probe for a key the table does not hold seldom leaves the cache. From then
//! on every store goes in: it replaces the entry of its bucket that cost least to find
//! (by the work each records), among equally cheap ones the one placed first. So a
//! table too small for the search loses its cheapest results one at a time, each
//! bucket keeps its expensive ones, and the search slows gracefully instead of falling
//! off a cliff. (The earlier design swept the cheapest half of a full hashbrown map,
//! which dropped far more than half at a time and, with power-of-two sizes, used as
//! little as 40% of the bound: one thread on Grundy's game at 85 took 13 s with 192
//! MiB and over two minutes with 128.)
//!
//! Enhanced transposition cut-offs ask of every child whether it is known to be of some
//! rare kind (unsafe, or with a useful upper bound). Each entry type names the filters
//! it wants and which of them each entry sets: a filter small enough to stay in cache
//! answers "no" without touching the big table. A set bit is only a hint the table
//! confirms, so bits left behind by replaced entries cost a probe, never a wrong
//! answer; the filters are rebuilt from the entries once replacements have made enough
//! of them stale.
//!
//! The two engines differ only in their [`Slot`]s: the boolean engine's outcome and
//! work, the remoteness engine's score bounds, move and work, merged on a second store.

use hashbrown::HashMap;

use super::key::{BuildKeyHasher, Key};

/// Buckets allocated before the first growth: small queries stay small.
const INITIAL_BUCKETS: usize = 1 << 10;
/// The growing map's allocation stays within this fraction of the bound, so the fixed
/// array it moves into gets the rest (at least three quarters, less the filters).
const GROWING_SHARE_DIVISOR: usize = 4;
/// Bits of each filter per entry the table can hold: they grow with the table, so they
/// stay as small (and as cache-resident) as the search allows.
const FILTER_BITS_PER_ENTRY: usize = 2;
const FILTER_MIN_BITS: usize = 1 << 12;
/// Slots per bucket of the fixed array: a store replaces the cheapest of these.
pub const WAYS: usize = 4;

/// What the table needs to know of the entries it stores.
pub trait Slot: Copy + Default {
    /// Filters kept in front of the table (at most 8).
    const FILTERS: usize;

    /// The nodes it took to find this entry: the cheapest are replaced first.
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

/// Bits of each filter of a table sized for `entries` entries.
pub(crate) fn filter_bits(entries: usize) -> usize {
    (entries * FILTER_BITS_PER_ENTRY)
        .next_power_of_two()
        .max(FILTER_MIN_BITS)
}

/// Bytes the filters of an entry type take when sized for `entries` entries.
fn filter_bytes<E: Slot>(entries: usize) -> usize {
    E::FILTERS * filter_bits(entries) / 8
}

/// One bucket of the fixed array. Aligned to 32 bytes, so that neither engine's slots
/// need padding and a remoteness slot (32 bytes) never straddles two cache lines: a
/// probe that its tag lets through touches one slot.
#[derive(Clone, Copy)]
#[repr(align(32))]
struct Bucket<E>([(Key, E); WAYS]);

/// The tags of one bucket's slots: 0 for a free slot, else [`tag_of`] its key. A probe
/// reads them first, from an array a thirtieth of the buckets' size that stays mostly
/// in cache (as hashbrown's control bytes do), and touches a slot only when its tag
/// matches: a probe for a key the table does not hold rarely costs a memory access.
type Tags = [u8; WAYS];

/// The tag of `key`: the high bit set, and seven bits of the key's check word (the
/// bucket comes from its digest).
#[inline]
pub(crate) fn tag_of(key: Key) -> u8 {
    0x80 | (key.check() >> 57) as u8
}

/// The bucket of `key` among `count`: the key's mixed low word scaled to the count (so
/// the count need not be a power of two).
#[inline]
pub(crate) fn bucket_of(key: Key, count: usize) -> usize {
    ((u128::from(key.digest()) * count as u128) >> 64) as usize
}

/// Where the entries live.
enum Store<E> {
    /// A hashbrown map that doubles while it is small.
    Growing(HashMap<Key, E, BuildKeyHasher>),
    /// A fixed array of buckets, with their tags.
    Fixed {
        buckets: Vec<Bucket<E>>,
        tags: Vec<Tags>,
    },
}

/// Entries by key, bounded in memory, with the filters their type asks for.
pub struct BoundedTable<E: Slot> {
    store: Store<E>,
    /// The memory bound: entries, filters, and both arrays while entries move.
    bytes: usize,
    /// Stored entries.
    len: usize,
    filters: Vec<Filter>,
    /// The entry count the filters were sized for; they are rebuilt when that changes.
    filters_sized_for: usize,
    evictions: u64,
    /// Replacements since the filters were last rebuilt.
    stale_marks: usize,
}

impl<E: Slot> BoundedTable<E> {
    /// Bytes one bucket of the growing map takes: the (key, entry) pair plus
    /// hashbrown's control byte.
    const MAP_BUCKET_BYTES: usize = std::mem::size_of::<(Key, E)>() + 1;
    /// Bytes one bucket of the fixed array takes, with its tags.
    const FIXED_BUCKET_BYTES: usize = std::mem::size_of::<Bucket<E>>() + WAYS;

    /// A table whose memory (entries and filters) stays within `bytes`, at least a
    /// kilobyte or two.
    pub fn with_bytes(bytes: usize) -> Self {
        let bytes = bytes.max(4 * Self::FIXED_BUCKET_BYTES + filter_bytes::<E>(0));
        let max_map_buckets = (bytes / GROWING_SHARE_DIVISOR / Self::MAP_BUCKET_BYTES).max(1);
        let mut table = BoundedTable {
            store: Store::Growing(HashMap::with_hasher(BuildKeyHasher)),
            bytes,
            len: 0,
            filters: Vec::new(),
            filters_sized_for: 0,
            evictions: 0,
            stale_marks: 0,
        };
        if max_map_buckets < INITIAL_BUCKETS {
            // Too small a bound to grow in: the whole of it goes to the fixed array.
            table.move_to_fixed();
        } else {
            let map = HashMap::with_capacity_and_hasher(INITIAL_BUCKETS / 8 * 7, BuildKeyHasher);
            table.size_filters(map.capacity());
            table.store = Store::Growing(map);
        }
        table
    }

    /// Lets the table grow within `bytes` from now on (a smaller bound than its own is
    /// ignored). A table at its bound moves into a larger array; the old array, the
    /// new one and the filters fit within `bytes` together while it does.
    pub fn raise_bound(&mut self, bytes: usize) {
        if bytes <= self.bytes {
            return;
        }
        self.bytes = bytes;
        if let Store::Fixed { buckets, .. } = &self.store {
            // Moving costs a pass over the table and a few entries whose new bucket
            // overflows: worth it only for a clearly larger array.
            if self.room_beside_current() * 4 >= buckets.len() * 5 {
                self.move_to_fixed();
            }
        }
    }

    /// Buckets of the largest fixed array that fits within the bound beside the
    /// current store and filters, with filters of its own.
    fn room_beside_current(&self) -> usize {
        Self::fixed_buckets_within(self.bytes.saturating_sub(self.allocated_bytes()))
    }

    /// Buckets of a fixed array that fits in `bytes` with its filters.
    fn fixed_buckets_within(bytes: usize) -> usize {
        let bucket = Self::FIXED_BUCKET_BYTES;
        let mut count = bytes / bucket;
        while count > 1 && count * bucket + filter_bytes::<E>(count * WAYS) > bytes {
            count -= count / 16 + 1;
        }
        count.max(1)
    }

    /// Moves the entries into a new fixed array that takes what the bound leaves beside
    /// the current store and filters, then frees the old store. An entry whose new
    /// bucket is already full replaces the cheapest there, as any store does.
    fn move_to_fixed(&mut self) {
        let count = self.room_beside_current();
        let free = Bucket([(Key::default(), E::default()); WAYS]);
        let old = std::mem::replace(
            &mut self.store,
            Store::Fixed {
                buckets: vec![free; count],
                tags: vec![[0; WAYS]; count],
            },
        );
        self.size_filters(count * WAYS);
        self.len = 0;
        each_entry(&old, |key, entry| {
            self.insert_fixed(key, entry);
        });
    }

    /// The stored entry of `key`.
    #[inline]
    pub fn get(&self, key: Key) -> Option<E> {
        match &self.store {
            Store::Growing(map) => map.get(&key).copied(),
            Store::Fixed { buckets, tags } => {
                let at = bucket_of(key, buckets.len());
                let (tag, tags) = (tag_of(key), tags[at]);
                let slots = &buckets[at].0;
                (0..WAYS)
                    .find(|&way| tags[way] == tag && slots[way].0 == key)
                    .map(|way| slots[way].1)
            }
        }
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
        let Store::Growing(map) = &mut self.store else {
            return self.insert_fixed(key, entry);
        };
        if let Some(stored) = map.get_mut(&key) {
            stored.merge(entry);
            let stored = *stored;
            mark(&mut self.filters, key, stored.marks());
            return stored;
        }
        let full = map.len() >= map.capacity();
        if full && self.fixed_is_due() {
            self.move_to_fixed();
            return self.insert_fixed(key, entry);
        }
        let Store::Growing(map) = &mut self.store else {
            unreachable!("still growing")
        };
        // Otherwise hashbrown doubles the map as the insert needs.
        map.insert(key, entry);
        self.len += 1;
        let capacity = map.capacity();
        if capacity == self.filters_sized_for {
            mark(&mut self.filters, key, entry.marks());
        } else {
            self.size_filters(capacity);
            self.remark();
        }
        entry
    }

    /// True when the full growing map's next doubling would pass its share of the bound.
    fn fixed_is_due(&self) -> bool {
        self.store_bytes() * 2 > self.bytes / GROWING_SHARE_DIVISOR
    }

    /// Stores into the fixed array: merged into the key's slot, else into a free slot of
    /// its bucket, else in place of the bucket's cheapest entry.
    fn insert_fixed(&mut self, key: Key, entry: E) -> E {
        let Store::Fixed { buckets, tags } = &mut self.store else {
            unreachable!("called at the bound")
        };
        let at = bucket_of(key, buckets.len());
        let tag = tag_of(key);
        let (slots, tags) = (&mut buckets[at].0, &mut tags[at]);
        let held = (0..WAYS).find(|&way| tags[way] == tag && slots[way].0 == key);
        let stored = if let Some(way) = held {
            slots[way].1.merge(entry);
            slots[way].1
        } else {
            // Slots fill in order and stay in the order they were filled.
            match tags.iter().position(|&tag| tag == 0) {
                Some(free) => {
                    self.len += 1;
                    slots[free] = (key, entry);
                    tags[free] = tag;
                }
                None => {
                    // Among equally cheap entries the oldest goes: the newest moves in
                    // last.
                    let cheapest = (0..WAYS)
                        .min_by_key(|&way| slots[way].1.work())
                        .expect("buckets have slots");
                    slots.copy_within(cheapest + 1.., cheapest);
                    tags.copy_within(cheapest + 1.., cheapest);
                    slots[WAYS - 1] = (key, entry);
                    tags[WAYS - 1] = tag;
                    self.evictions += 1;
                    self.stale_marks += 1;
                }
            }
            entry
        };
        if self.stale_marks > self.filters_sized_for / 2 {
            self.remark();
        } else {
            mark(&mut self.filters, key, stored.marks());
        }
        stored
    }

    /// Replaces the filters with empty ones sized for `entries` entries (the old ones
    /// freed first, so the two never share the bound).
    fn size_filters(&mut self, entries: usize) {
        self.filters = Vec::new();
        let bits = filter_bits(entries);
        self.filters = (0..E::FILTERS).map(|_| Filter::sized(bits)).collect();
        self.filters_sized_for = entries;
        self.stale_marks = 0;
    }

    /// Clears the filters and sets them again from the entries, so bits of replaced
    /// entries stop costing probes.
    fn remark(&mut self) {
        for filter in &mut self.filters {
            filter.bits.fill(0);
        }
        let filters = &mut self.filters;
        each_entry(&self.store, |key, entry| mark(filters, key, entry.marks()));
        self.stale_marks = 0;
    }

    /// Number of stored positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Calls `visit` with every stored key and entry (to move them into another table).
    pub fn for_each(&self, visit: impl FnMut(Key, E)) {
        each_entry(&self.store, visit);
    }

    /// Most positions the table will hold: what its bound has room for.
    #[cfg(test)]
    pub fn max_entries(&self) -> usize {
        self.bytes / std::mem::size_of::<(Key, E)>()
    }

    /// Bytes the entries take now.
    fn store_bytes(&self) -> usize {
        match &self.store {
            Store::Growing(map) => map.allocation_size(),
            Store::Fixed { buckets, .. } => buckets.len() * Self::FIXED_BUCKET_BYTES,
        }
    }

    /// Bytes the filters take now.
    fn filter_bytes_now(&self) -> usize {
        self.filters.iter().map(|f| f.bits.len() * 8).sum()
    }

    /// Bytes currently allocated for entries and filters.
    pub fn allocated_bytes(&self) -> usize {
        self.store_bytes() + self.filter_bytes_now()
    }

    /// Entries dropped by replacement so far.
    pub fn evictions(&self) -> u64 {
        self.evictions
    }

    /// True once memory limits the table: it has replaced at least one in
    /// [`OVERFLOW_DIVISOR`] of as many entries as it holds.
    #[inline]
    pub fn overflowing(&self) -> bool {
        overflowing(self.evictions, self.len as u64)
    }
}

/// A table at its bound replaces an entry as soon as one bucket is full, while most
/// buckets still have room (even moving into the fixed array overflows a few); it
/// counts as overflowing, memory limiting the search, once it has replaced at least
/// one in this many of as many entries as it holds.
pub const OVERFLOW_DIVISOR: u64 = 2;

/// True when `evictions` replacements among tables holding `entries` entries say that
/// memory limits the search (see [`OVERFLOW_DIVISOR`]).
#[inline]
pub fn overflowing(evictions: u64, entries: u64) -> bool {
    evictions > 0 && evictions.saturating_mul(OVERFLOW_DIVISOR) >= entries
}

/// Calls `visit` with every key and entry `store` holds.
fn each_entry<E: Slot>(store: &Store<E>, mut visit: impl FnMut(Key, E)) {
    match store {
        Store::Growing(map) => map.iter().for_each(|(&key, &entry)| visit(key, entry)),
        Store::Fixed { buckets, tags } => {
            for (bucket, tags) in buckets.iter().zip(tags) {
                for (&(key, entry), &tag) in bucket.0.iter().zip(tags) {
                    if tag != 0 {
                        visit(key, entry);
                    }
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::super::key::heap_code;
    use super::*;

    /// A slot that keeps the newest value, marked in its one filter when odd.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    struct Newest {
        work: u32,
        value: u32,
    }

    impl Slot for Newest {
        const FILTERS: usize = 1;

        fn work(&self) -> u32 {
            self.work
        }

        fn marks(&self) -> u8 {
            (self.value & 1) as u8
        }

        fn merge(&mut self, newer: Self) {
            *self = newer;
        }
    }

    fn entry(work: u32, value: u32) -> Newest {
        Newest { work, value }
    }

    /// Checks every key the table holds against the value last stored for it, and its
    /// filter against its marks.
    fn check_held(table: &BoundedTable<Newest>, last: &[(Key, Newest)]) -> usize {
        let mut held = 0;
        for &(key, newest) in last {
            if let Some(stored) = table.get(key) {
                assert_eq!(stored, newest);
                if newest.marks() != 0 {
                    assert!(table.may_hold(0, key));
                }
                held += 1;
            }
        }
        held
    }

    #[test]
    fn fills_most_of_any_bound_and_never_passes_it() {
        for bytes in [64 * 1024, 1 << 20, 3_000_017] {
            let mut table = BoundedTable::<Newest>::with_bytes(bytes);
            let slot_room = bytes / std::mem::size_of::<Bucket<Newest>>() * WAYS;
            let mut last = Vec::new();
            for h in 0..(4 * slot_room as u64) {
                let key = heap_code(h);
                let stored = table.insert(key, entry((h % 13) as u32, h as u32));
                assert_eq!(stored, entry((h % 13) as u32, h as u32));
                last.push((key, stored));
                assert!(table.allocated_bytes() <= bytes, "{bytes}");
            }
            // Every key went in once: each is held or was counted as replaced.
            assert_eq!(table.len() as u64 + table.evictions(), last.len() as u64);
            assert_eq!(check_held(&table, &last), table.len());
            // Three quarters of the bound go to the fixed array, nearly all of it full.
            assert!(
                table.len() * 10 >= slot_room * 7,
                "{bytes}: {}",
                table.len()
            );
        }
    }

    #[test]
    fn expensive_entries_survive_a_flood_the_empty_position_among_them() {
        let mut table = BoundedTable::<Newest>::with_bytes(256 * 1024);
        let expensive: Vec<Key> = (0..100).map(|h| heap_code(1 << 40 | h)).collect();
        for &key in &expensive {
            table.insert(key, entry(1 << 20, 3));
        }
        table.insert(Key::default(), entry(1 << 20, 1));
        for h in 0..200_000u64 {
            table.insert(heap_code(h), entry((h % 1000) as u32, 0));
        }
        assert!(table.evictions() > 100_000);
        for &key in &expensive {
            assert_eq!(table.get(key), Some(entry(1 << 20, 3)));
            assert!(table.may_hold(0, key));
        }
        assert_eq!(table.get(Key::default()), Some(entry(1 << 20, 1)));
        // A later store for a held key replaces it in place (this slot merges so).
        table.insert(expensive[0], entry(5, 4));
        assert_eq!(table.get(expensive[0]), Some(entry(5, 4)));
    }

    #[test]
    fn a_raised_bound_keeps_what_the_table_held() {
        let mut table = BoundedTable::<Newest>::with_bytes(64 * 1024);
        let mut last = Vec::new();
        for h in 0..20_000u64 {
            let key = heap_code(h);
            last.push((key, table.insert(key, entry(h as u32, h as u32))));
        }
        let (held, evicted) = (table.len(), table.evictions());
        let before = table.allocated_bytes();
        table.raise_bound(1 << 20);
        assert!(table.allocated_bytes() > 4 * before);
        assert!(table.allocated_bytes() <= 1 << 20);
        // The move loses at most the few entries whose new bucket overflows.
        assert_eq!(
            table.len() as u64 + table.evictions(),
            held as u64 + evicted
        );
        assert!(table.len() * 50 >= held * 49, "{} of {held}", table.len());
        assert_eq!(check_held(&table, &last), table.len());
        // A smaller bound than the table's own changes nothing.
        let now = table.allocated_bytes();
        table.raise_bound(1024);
        assert_eq!(table.allocated_bytes(), now);
    }

    #[test]
    fn filters_are_rebuilt_as_replacements_make_them_stale() {
        let mut table = BoundedTable::<Newest>::with_bytes(64 * 1024);
        // Odd values set the filter; flood with them, then with even values.
        for h in 0..50_000u64 {
            table.insert(heap_code(h), entry(1, 1));
        }
        for h in 50_000..200_000u64 {
            table.insert(heap_code(h), entry(1, 0));
        }
        let passing = (200_000..210_000u64)
            .filter(|&h| table.may_hold(0, heap_code(h)))
            .count();
        // Nearly every slot now holds an even value: few bits are left set.
        assert!(passing < 500, "{passing}");
    }
}

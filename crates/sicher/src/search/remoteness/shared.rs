//! The one table every thread of a parallel remoteness search keeps its bounds in, and
//! the positions each is searching now, all read and written without locks.
//!
//! Each thread used to keep a table of its own and publish to a second one the others
//! consulted where their own did not decide: every miss of a thread's own table was then
//! followed by a second random miss into the shared one, every store by a second store,
//! and on Dawson's Kayles 20 23 26 the main thread spent 1.44 µs a node on two threads
//! against 1.16 on one. One table makes that one probe and one store, and a thread's
//! enhanced transposition cut-offs see what every thread proved.
//!
//! It is laid out as the bounded core's fixed stage (`bounded.rs`): buckets of
//! [`WAYS`] slots picked by multiplying the key into the bucket count, a tag byte per
//! slot read first from a small array, a store replacing the bucket's cheapest entry,
//! and bit filters in front for the cut-off probes. What makes it safe to share:
//! - **Slots** are four words written with relaxed atomics, the key's two words each
//!   XORed with one of the entry's two words (Hyatt and Mann's lockless hashing). A
//!   slot torn by writers of other keys fails the check and reads as empty; one that
//!   passes holds, word by word, what writes of that very key stored (each entry word
//!   is checked against a key word of its own: checking both against their XOR would
//!   let one key's bounds through under another's key when the XORs agree, and scores,
//!   moves and work are small numbers). So a reader only ever sees bounds some thread
//!   proved for that key.
//! - **Merging** reads the slot, tightens, and writes it back; two threads merging at
//!   once may lose one's tightening, never make a bound wrong (each writes bounds proved
//!   for the key).
//! - **Tags and filter bits** are hints: a tag lost to a concurrent write to the same
//!   bucket hides an entry (as a replacement would), a filter bit lost costs a cut-off,
//!   a stale one a probe. Neither is written with a locked instruction, which would wait
//!   for the slot stores before it, which miss the cache, to drain.
//!
//! The table never grows while the threads search: the solver moves the entries into a
//! larger one between stretches of a long search ([`SharedTable::for_each`]).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use super::table::{Entry, Wanted};
use crate::search::bounded::{bucket_of, filter_bits, tag_of, Slot, WAYS};
use crate::search::key::Key;

/// Bytes one slot takes: the key's two words and the entry's two, a half cache line.
const SLOT_BYTES: usize = std::mem::size_of::<Words>();
/// Bytes of a bucket's slots and tags.
const BUCKET_BYTES: usize = WAYS * SLOT_BYTES + WAYS;
/// Slots of the set of positions some thread is searching (a power of two, small
/// enough to stay in cache).
const BUSY_SLOTS: usize = 1 << 14;
/// The ETC filters kept (as the thread's own table keeps them: see `table.rs`).
const FILTERS: usize = <Entry as Slot>::FILTERS;
/// Buckets whose tags [`SharedTable::fill`] reads, spread over the table.
const FILL_SAMPLE: usize = 1 << 10;

/// `n` atomic words (or arrays of them), all zero, allocated zeroed rather than written:
/// the system maps a large zeroed allocation to pages it zeroes on first touch, so the
/// threads pay for the pages they use, while they search, instead of the main thread
/// for all of them before the search starts (misère Kayles 10..14 on two threads:
/// 4.5 ms for the table, whose first touches cost about 6 µs a page on these virtual
/// machines).
fn zeroed<T: AllZeroValid>(n: usize) -> Vec<T> {
    let slots = Box::<[T]>::new_zeroed_slice(n);
    // SAFETY: every bit pattern of zeros is a valid `T` (see `AllZeroValid`).
    unsafe { slots.assume_init() }.into_vec()
}

/// Types for which all-zero bytes are a valid value.
///
/// # Safety
/// Implement only for types whose every all-zero bit pattern is a valid value.
unsafe trait AllZeroValid {}

// SAFETY: `AtomicU64` and `AtomicU32` have the bit validity of `u64` and `u32` (their
// documentation says so), for which zero is valid; an array of them is zero wherever
// each element is.
unsafe impl AllZeroValid for AtomicU64 {}
// SAFETY: as above.
unsafe impl AllZeroValid for AtomicU32 {}
// SAFETY: as above, element by element (the alignment adds no padding: 32 bytes).
unsafe impl AllZeroValid for Words {}

/// One slot's words, aligned so that a slot never straddles two cache lines.
#[repr(align(32))]
struct Words([AtomicU64; 4]);

/// The tag of way `way` among a bucket's `tags`.
#[inline]
fn tag_in(tags: u32, way: usize) -> u8 {
    (tags >> (8 * way)) as u8
}

/// What a store did to the table, for the thread's counts of entries and replacements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placed {
    /// Merged into the key's entry.
    Merged,
    /// Into a free slot.
    Filled,
    /// In place of another key's entry.
    Replaced,
}

/// An entry as two words.
fn entry_words(entry: Entry) -> [u64; 2] {
    [
        u64::from(entry.lower as u32) | (u64::from(entry.upper as u32) << 32),
        u64::from(entry.best) | (u64::from(entry.work()) << 32),
    ]
}

/// The entry of two words.
fn entry_of(words: [u64; 2]) -> Entry {
    Entry::new(
        words[0] as u32 as i32,
        (words[0] >> 32) as u32 as i32,
        words[1] as u32,
        words[1] >> 32,
    )
}

/// Score bounds of every thread, in a fixed array of buckets.
pub struct SharedTable {
    /// `WAYS` slots a bucket: the key's words each XORed with one of the entry's, then
    /// the entry's.
    slots: Vec<Words>,
    /// A bucket's tags, a byte a slot (0: free; else [`tag_of`] its key).
    tags: Vec<AtomicU32>,
    /// Bit filters over key digests, one per [`Wanted`] (as `table.rs` keeps them).
    filters: [Vec<AtomicU64>; FILTERS],
    filter_mask: u64,
    /// Check words of positions a thread is searching now, by digest: another thread
    /// that meets one among the moves it has yet to try leaves it for later (Weill's
    /// ABDADA), so the threads split the work instead of repeating it. A position
    /// whose slot is taken is simply not marked: the set is a hint.
    busy: Vec<AtomicU64>,
}

impl SharedTable {
    /// A table of at most `bytes`, or of one bucket beside the busy set (128 KiB) where
    /// `bytes` does not hold more.
    pub fn with_bytes(bytes: usize) -> Self {
        let room = bytes.saturating_sub(BUSY_SLOTS * 8);
        let mut buckets = (room / BUCKET_BYTES).max(1);
        while buckets > 1 && buckets * BUCKET_BYTES + Self::filter_bytes(buckets) > room {
            buckets -= buckets / 16 + 1;
        }
        let bits = filter_bits(buckets * WAYS);
        SharedTable {
            slots: zeroed(buckets * WAYS),
            tags: zeroed(buckets),
            filters: [zeroed(bits / 64), zeroed(bits / 64)],
            filter_mask: bits as u64 - 1,
            busy: zeroed(BUSY_SLOTS),
        }
    }

    /// Bytes the filters of a table of `buckets` buckets take.
    fn filter_bytes(buckets: usize) -> usize {
        FILTERS * filter_bits(buckets * WAYS) / 8
    }

    /// Bytes the table takes.
    pub fn allocated_bytes(&self) -> usize {
        let filters: usize = self.filters.iter().map(|f| f.len() * 8).sum();
        self.tags.len() * BUCKET_BYTES + filters + self.busy.len() * 8
    }

    /// Bytes of a table with twice the slots (and the same busy set).
    pub fn doubled_bytes(&self) -> usize {
        2 * self.allocated_bytes() - self.busy.len() * 8
    }

    /// Most entries the table holds.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// About what share of the slots hold an entry: the tags of [`FILL_SAMPLE`]
    /// buckets spread over the table (all of a smaller one), so that threads can tell
    /// without counting every store in one place.
    pub fn fill(&self) -> f64 {
        let buckets = self.tags.len();
        let sample = buckets.min(FILL_SAMPLE);
        let used: u32 = (0..sample)
            .map(|i| {
                let tags = self.tags[i * buckets / sample].load(Ordering::Relaxed);
                (0..WAYS)
                    .map(|way| u32::from(tag_in(tags, way) != 0))
                    .sum::<u32>()
            })
            .sum();
        f64::from(used) / (sample * WAYS) as f64
    }

    /// The bucket of `key`.
    #[inline]
    fn bucket_of(&self, key: Key) -> usize {
        bucket_of(key, self.tags.len())
    }

    /// The key slot `at` holds and its entry's words (a key no position has where
    /// writers of different keys tore the slot).
    #[inline]
    fn load(&self, at: usize) -> (Key, [u64; 2]) {
        let slot = &self.slots[at].0;
        let words = [
            slot[2].load(Ordering::Relaxed),
            slot[3].load(Ordering::Relaxed),
        ];
        let key = Key::of_words([
            slot[0].load(Ordering::Relaxed) ^ words[0],
            slot[1].load(Ordering::Relaxed) ^ words[1],
        ]);
        (key, words)
    }

    /// Writes `key` and `entry` into slot `at`.
    #[inline]
    fn write(&self, at: usize, key: Key, entry: Entry) {
        let words = entry_words(entry);
        let [lo, hi] = key.words();
        let slot = &self.slots[at].0;
        slot[2].store(words[0], Ordering::Relaxed);
        slot[3].store(words[1], Ordering::Relaxed);
        slot[0].store(lo ^ words[0], Ordering::Relaxed);
        slot[1].store(hi ^ words[1], Ordering::Relaxed);
    }

    /// The way of `bucket` that holds `key`, with its entry.
    #[inline]
    fn find(&self, bucket: usize, tags: u32, key: Key) -> Option<(usize, Entry)> {
        let tag = tag_of(key);
        (0..WAYS)
            .filter(|&way| tag_in(tags, way) == tag)
            .find_map(|way| {
                let (held, words) = self.load(bucket * WAYS + way);
                (held == key).then(|| (way, entry_of(words)))
            })
    }

    /// What is stored for `key`.
    #[inline]
    pub fn get(&self, key: Key) -> Option<Entry> {
        let bucket = self.bucket_of(key);
        let tags = self.tags[bucket].load(Ordering::Relaxed);
        self.find(bucket, tags, key).map(|(_, entry)| entry)
    }

    /// The stored upper bound of `key` when the filter for `wanted` lets it through.
    #[inline]
    pub fn upper(&self, key: Key, wanted: Wanted) -> Option<i32> {
        let (word, bit) = self.filter_bit(key);
        if self.filters[wanted.filter()][word].load(Ordering::Relaxed) & bit == 0 {
            return None;
        }
        self.get(key).map(|entry| entry.upper)
    }

    /// The filter word and bit of `key`.
    #[inline]
    fn filter_bit(&self, key: Key) -> (usize, u64) {
        let bit = key.digest() & self.filter_mask;
        ((bit / 64) as usize, 1 << (bit % 64))
    }

    /// Stores `entry` for `key`, merged into what is stored for it; returns what is
    /// stored now and what the store did. A new key goes into a free slot of its
    /// bucket, else in place of the entry that cost least to find (by its work).
    pub fn insert(&self, key: Key, entry: Entry) -> (Entry, Placed) {
        let bucket = self.bucket_of(key);
        let tags = self.tags[bucket].load(Ordering::Relaxed);
        let (stored, placed) = match self.find(bucket, tags, key) {
            Some((way, mut stored)) => {
                stored.merge(entry);
                self.write(bucket * WAYS + way, key, stored);
                (stored, Placed::Merged)
            }
            None => {
                let free = (0..WAYS).find(|&way| tag_in(tags, way) == 0);
                let (way, placed) = match free {
                    Some(way) => (way, Placed::Filled),
                    None => (self.cheapest(bucket, key), Placed::Replaced),
                };
                self.write(bucket * WAYS + way, key, entry);
                let shift = 8 * way;
                let tags = (tags & !(0xff << shift)) | (u32::from(tag_of(key)) << shift);
                self.tags[bucket].store(tags, Ordering::Relaxed);
                (entry, placed)
            }
        };
        self.mark(key, stored.marks());
        (stored, placed)
    }

    /// The way of a full `bucket` to replace for `key`: the least work; among equally
    /// cheap ones the first from a way the key picks, so that ties (most entries cost
    /// one node) do not always fall on the same slot.
    fn cheapest(&self, bucket: usize, key: Key) -> usize {
        let start = (key.check() >> 32) as usize % WAYS;
        (0..WAYS)
            .map(|i| (start + i) % WAYS)
            .min_by_key(|&way| self.slots[bucket * WAYS + way].0[3].load(Ordering::Relaxed) >> 32)
            .expect("buckets have slots")
    }

    /// Sets the filter bits `marks` calls for (a plain store: see the module doc).
    #[inline]
    fn mark(&self, key: Key, marks: u8) {
        if marks == 0 {
            return;
        }
        let (word, bit) = self.filter_bit(key);
        for (i, filter) in self.filters.iter().enumerate() {
            if marks & (1 << i) != 0 {
                let bits = filter[word].load(Ordering::Relaxed);
                if bits & bit == 0 {
                    filter[word].store(bits | bit, Ordering::Relaxed);
                }
            }
        }
    }

    /// Calls `visit` with every stored key and entry (while no thread writes: to move
    /// them into another table).
    pub fn for_each(&self, mut visit: impl FnMut(Key, Entry)) {
        for (bucket, tags) in self.tags.iter().enumerate() {
            let tags = tags.load(Ordering::Relaxed);
            for way in (0..WAYS).filter(|&way| tag_in(tags, way) != 0) {
                let (key, words) = self.load(bucket * WAYS + way);
                // A slot writers of different keys tore holds a key no position has
                // (harmless, but not worth moving): it seldom belongs in this bucket
                // with this tag.
                if tag_of(key) == tag_in(tags, way) && self.bucket_of(key) == bucket {
                    visit(key, entry_of(words));
                }
            }
        }
    }

    /// Clears the filters and sets them again from the entries (while no thread
    /// writes), so that bits of replaced entries stop costing probes.
    pub fn remark(&self) {
        for filter in &self.filters {
            filter
                .iter()
                .for_each(|word| word.store(0, Ordering::Relaxed));
        }
        self.for_each(|key, entry| self.mark(key, entry.marks()));
    }

    /// The word that identifies `key` in the busy set: never zero (a free slot reads as
    /// zero).
    #[inline]
    fn check(key: Key) -> u64 {
        key.check() | 1
    }

    #[inline]
    fn busy_slot(&self, key: Key) -> &AtomicU64 {
        &self.busy[key.digest().rotate_right(16) as usize & (BUSY_SLOTS - 1)]
    }

    /// Marks `key` as being searched; false when its slot holds a position already.
    ///
    /// Plain loads and stores, no locked instructions: each would wait for the stores
    /// before it to drain. Two threads may both take an empty slot at once, and the
    /// later mark stands; a thread clears only a mark that is still its own, so no mark
    /// outlives its search. The marks are hints either way.
    #[inline]
    pub fn claim(&self, key: Key) -> bool {
        let slot = self.busy_slot(key);
        if slot.load(Ordering::Relaxed) != 0 {
            return false;
        }
        slot.store(Self::check(key), Ordering::Relaxed);
        true
    }

    /// Unmarks `key`, claimed before, when the mark is still this thread's.
    #[inline]
    pub fn release(&self, key: Key) {
        let slot = self.busy_slot(key);
        if slot.load(Ordering::Relaxed) == Self::check(key) {
            slot.store(0, Ordering::Relaxed);
        }
    }

    /// True when some thread is searching `key` now (or, rarely, another position of
    /// the same digest and check).
    #[inline]
    pub fn is_busy(&self, key: Key) -> bool {
        self.busy_slot(key).load(Ordering::Relaxed) == Self::check(key)
    }
}

#[cfg(test)]
mod tests {
    use super::super::score::{loss, win, MAX, MIN};
    use super::*;
    use crate::search::key::heap_code;

    #[test]
    fn merges_replaces_and_filters() {
        let table = SharedTable::with_bytes(256 * 1024);
        assert!(table.allocated_bytes() <= 256 * 1024);
        let key = heap_code(7);
        assert_eq!(table.get(key), None);
        assert_eq!(table.upper(key, Wanted::Upper), None);
        assert_eq!(table.fill(), 0.0);
        let (_, placed) = table.insert(key, Entry::new(win(9), MAX, 3, 100));
        assert_eq!(placed, Placed::Filled);
        let (merged, placed) = table.insert(key, Entry::new(MIN, win(5), 0, 10));
        assert_eq!(placed, Placed::Merged);
        assert_eq!(
            (merged.lower, merged.upper, merged.best),
            (win(9), win(5), 3)
        );
        assert_eq!(table.get(key), Some(merged));
        assert_eq!(table.upper(key, Wanted::Upper), Some(win(5)));
        assert_eq!(table.upper(key, Wanted::Loss), None);
        // Far more keys than slots: every store goes in, the expensive entry stays.
        let (mut filled, mut replaced) = (0, 0);
        for h in 0..(4 * table.capacity() as u64) {
            match table
                .insert(heap_code(h << 8), Entry::new(loss(3), loss(3), 0, 1))
                .1
            {
                Placed::Filled => filled += 1,
                Placed::Replaced => replaced += 1,
                Placed::Merged => panic!("new keys"),
            }
            assert_eq!(table.get(heap_code(h << 8)).map(|e| e.upper), Some(loss(3)));
        }
        assert!(filled <= table.capacity() && replaced > 0);
        // Four keys a slot: a bucket missing a key of its four is rare.
        assert!(table.fill() > 0.99, "{}", table.fill());
        assert_eq!(table.get(key), Some(merged));
        let mut moved = 0;
        table.for_each(|k, e| {
            moved += 1;
            assert_eq!(table.get(k), Some(e));
        });
        assert_eq!(moved, filled + 1);
    }

    #[test]
    fn threads_writing_at_once_leave_only_true_entries() {
        // Every thread stores, for the same few keys, bounds that are true of them (a
        // key's score is its number): whatever the interleaving, a read sees true bounds.
        let table = SharedTable::with_bytes(4096 + BUSY_SLOTS * 8);
        let keys: Vec<Key> = (0..64).map(|h| heap_code(h * 977)).collect();
        std::thread::scope(|scope| {
            for thread in 0..4u32 {
                let (table, keys) = (&table, &keys);
                scope.spawn(move || {
                    for round in 0..20_000u32 {
                        let i = (round * 7 + thread) as usize % keys.len();
                        let score = i as i32;
                        let slack = ((round + thread) % 5) as i32;
                        let entry =
                            Entry::new(score - slack, score + slack, thread, u64::from(round));
                        table.insert(keys[i], entry);
                        let j = (round * 13 + thread) as usize % keys.len();
                        if let Some(seen) = table.get(keys[j]) {
                            assert!(seen.lower <= j as i32 && j as i32 <= seen.upper);
                        }
                    }
                });
            }
        });
        // Every test key that survives the races holds true bounds (a slot torn by
        // writers of two keys may, rarely, read as a key no position has).
        table.for_each(|key, entry| {
            if let Some(i) = keys.iter().position(|&k| k == key) {
                assert!(
                    entry.lower <= i as i32 && i as i32 <= entry.upper,
                    "{entry:?}"
                );
            }
        });
    }

    #[test]
    fn claims_and_releases() {
        let table = SharedTable::with_bytes(1 << 20);
        let key = heap_code(7);
        assert!(table.claim(key) && table.is_busy(key) && !table.claim(key));
        table.release(key);
        assert!(!table.is_busy(key));
    }
}

//! What the threads of a parallel remoteness search share: the score bounds each
//! publishes, the positions each is searching now, and a filter per thread of the keys
//! it published, all read and written without locks.
//!
//! Each thread keeps its own bounds table (hashbrown, fast, with the filters that make
//! enhanced transposition cut-offs cheap) and asks this one only where its own does not
//! decide a child, and then only when another thread's filter says it may have
//! published the key: most positions a thread searches no other has touched, and a
//! cache-resident bit answers that. Publishing writes a thread's own merged entry to
//! one slot chosen by the key, without reading it first: the newest entry of a key
//! is its tightest, and a store costs no wait.
//!
//! Slots are three words written with relaxed atomics, the first the XOR of the key's
//! check word with the other two (Hyatt and Mann's lockless hashing): a slot torn by
//! two writers fails the check and reads as empty, so a reader only ever sees bounds
//! some thread proved for that key.

use std::sync::atomic::{AtomicU64, Ordering};

use super::score::Score;
use crate::search::key::Key;

/// Bytes one slot takes.
const SLOT_BYTES: usize = 3 * 8;
/// Slots of the set of positions some thread is searching (a power of two, small
/// enough to stay in cache).
const BUSY_SLOTS: usize = 1 << 14;
/// Bits of each thread's filter per slot of the table.
const FILTER_BITS_PER_SLOT: usize = 2;

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

// SAFETY: `AtomicU64` has the bit validity of `u64` (its documentation says so), for
// which zero is valid; an array of them is zero wherever each element is.
unsafe impl AllZeroValid for AtomicU64 {}
// SAFETY: as above, element by element.
unsafe impl AllZeroValid for [AtomicU64; 3] {}

/// What the shared table holds of one position (as a thread's own table does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shared {
    /// The score is at least this.
    pub lower: Score,
    /// The score is at most this.
    pub upper: Score,
    /// Generation index of the move that gave the last bound, plus one (0: none).
    pub best: u32,
    /// Nodes the search behind the bounds took (saturating).
    pub work: u32,
}

impl Shared {
    fn words(self) -> (u64, u64) {
        (
            u64::from(self.lower as u32) | (u64::from(self.upper as u32) << 32),
            u64::from(self.best) | (u64::from(self.work) << 32),
        )
    }

    fn of_words(bounds: u64, rest: u64) -> Self {
        Shared {
            lower: bounds as u32 as Score,
            upper: (bounds >> 32) as u32 as Score,
            best: rest as u32,
            work: (rest >> 32) as u32,
        }
    }
}

/// Score bounds shared between threads, in a fixed array of slots.
pub struct SharedTable {
    slots: Vec<[AtomicU64; 3]>,
    /// Slots minus one (their count is a power of two).
    mask: usize,
    /// Per thread, a bit per slot-sized share of key digests it published.
    filters: Vec<Vec<AtomicU64>>,
    filter_mask: u64,
    /// Check words of positions a thread is searching now, by digest: another thread
    /// that meets one among the moves it has yet to try leaves it for later (Weill's
    /// ABDADA), so the threads split the work instead of repeating it. A position
    /// whose slot is taken is simply not marked: the set is a hint.
    busy: Vec<AtomicU64>,
}

impl SharedTable {
    /// A table of at most `bytes` of slots (at least one), for `threads` threads.
    pub fn with_bytes(bytes: usize, threads: usize) -> Self {
        let mut slots = 1usize;
        while slots * 2 * SLOT_BYTES <= bytes {
            slots *= 2;
        }
        let bits = (slots * FILTER_BITS_PER_SLOT).max(64);
        SharedTable {
            slots: zeroed(slots),
            mask: slots - 1,
            filters: (0..threads).map(|_| zeroed(bits / 64)).collect(),
            filter_mask: bits as u64 - 1,
            busy: zeroed(BUSY_SLOTS),
        }
    }

    /// Bytes the table takes.
    pub fn allocated_bytes(&self) -> usize {
        let filters: usize = self.filters.iter().map(|f| f.len() * 8).sum();
        self.slots.len() * SLOT_BYTES + filters + self.busy.len() * 8
    }

    /// The word that identifies `key` in its slot: never zero (an empty slot reads as
    /// zero).
    #[inline]
    fn check(key: Key) -> u64 {
        key.check() | 1
    }

    #[inline]
    fn slot(&self, key: Key) -> &[AtomicU64; 3] {
        &self.slots[key.digest() as usize & self.mask]
    }

    /// True when some thread but `thread` may have published `key`.
    #[inline]
    pub fn published_by_others(&self, thread: usize, key: Key) -> bool {
        let bit = key.digest().rotate_right(32) & self.filter_mask;
        let (word, bit) = ((bit / 64) as usize, 1u64 << (bit % 64));
        self.filters
            .iter()
            .enumerate()
            .any(|(t, filter)| t != thread && filter[word].load(Ordering::Relaxed) & bit != 0)
    }

    /// What is stored for `key`.
    #[inline]
    pub fn get(&self, key: Key) -> Option<Shared> {
        let slot = self.slot(key);
        let tag = slot[0].load(Ordering::Relaxed);
        let bounds = slot[1].load(Ordering::Relaxed);
        let rest = slot[2].load(Ordering::Relaxed);
        (tag ^ bounds ^ rest == Self::check(key)).then(|| Shared::of_words(bounds, rest))
    }

    /// Publishes what thread `thread` knows of `key` (its own merged entry), in place
    /// of whatever the slot held.
    #[inline]
    pub fn publish(&self, thread: usize, key: Key, entry: Shared) {
        let (bounds, rest) = entry.words();
        let slot = self.slot(key);
        slot[1].store(bounds, Ordering::Relaxed);
        slot[2].store(rest, Ordering::Relaxed);
        slot[0].store(Self::check(key) ^ bounds ^ rest, Ordering::Relaxed);
        let bit = key.digest().rotate_right(32) & self.filter_mask;
        let word = &self.filters[thread][(bit / 64) as usize];
        let bit = 1u64 << (bit % 64);
        // Only this thread writes its filter, so a plain store sets the bit: a locked
        // read-modify-write would wait for the stores above, which miss the cache, to
        // drain (a quarter of the search's own time on two threads).
        let bits = word.load(Ordering::Relaxed);
        if bits & bit == 0 {
            word.store(bits | bit, Ordering::Relaxed);
        }
    }

    #[inline]
    fn busy_slot(&self, key: Key) -> &AtomicU64 {
        &self.busy[key.digest().rotate_right(16) as usize & (BUSY_SLOTS - 1)]
    }

    /// Marks `key` as being searched; false when its slot holds a position already.
    ///
    /// Plain loads and stores, no locked instructions: each would wait for the
    /// publishing stores before it to drain. Two threads may both take an empty slot
    /// at once, and the later mark stands; a thread clears only a mark that is still its
    /// own, so no mark outlives its search. The marks are hints either way.
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
    use super::super::score::{loss, win};
    use super::*;
    use crate::search::key::heap_code;

    #[test]
    fn publishes_claims_and_filters() {
        let table = SharedTable::with_bytes(4096, 2);
        let key = heap_code(7);
        let entry = Shared {
            lower: win(9),
            upper: win(5),
            best: 3,
            work: 100,
        };
        assert_eq!(table.get(key), None);
        assert!(!table.published_by_others(1, key));
        table.publish(0, key, entry);
        assert_eq!(table.get(key), Some(entry));
        assert!(table.published_by_others(1, key));
        assert!(!table.published_by_others(0, key));
        let other = Shared {
            lower: loss(3),
            upper: loss(3),
            best: 0,
            work: 1,
        };
        for h in 0..10_000u64 {
            table.publish(1, heap_code(h << 8), other);
        }
        assert!(table.get(heap_code(1 << 40)).is_none_or(|e| e == other));
        assert!(table.claim(key) && table.is_busy(key) && !table.claim(key));
        table.release(key);
        assert!(!table.is_busy(key));
    }
}

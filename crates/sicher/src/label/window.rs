//! The labels being built, held for a window of ranks: the tiers that moves from the tier
//! being labelled can reach, not the whole domain.
//!
//! A window is one contiguous range of ranks (every tier of a `--total` domain is one), so
//! a rank finds its slot with one subtraction. It only moves forward: sliding it copies the
//! kept slots to the front of a buffer allocated once at the largest width, so the memory
//! estimate is what is allocated.

use std::ops::Range;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};

use super::bits::out_of_memory;
use crate::error::Result;

/// One slot of a window: 64 outcome bits, or one remoteness.
pub(crate) trait Atom: Sync + Send + Sized {
    /// Positions one slot holds.
    const PER: u64;
    /// Bits one position takes in files.
    const WIDTH: u32;
    /// What the labeller knows of a position before anything reached it.
    fn fresh() -> Self;
    /// The slot's value.
    fn get(&self) -> u64;
    /// Replaces the slot's value.
    fn put(&self, value: u64);
}

impl Atom for AtomicU64 {
    const PER: u64 = 64;
    const WIDTH: u32 = 1;
    fn fresh() -> Self {
        AtomicU64::new(0)
    }
    #[inline]
    fn get(&self) -> u64 {
        self.load(Ordering::Relaxed)
    }
    #[inline]
    fn put(&self, value: u64) {
        self.store(value, Ordering::Relaxed)
    }
}

/// A remoteness not yet reached by any offer.
pub(crate) const UNKNOWN: u32 = u32::MAX;

impl Atom for AtomicU32 {
    const PER: u64 = 1;
    const WIDTH: u32 = 32;
    fn fresh() -> Self {
        AtomicU32::new(UNKNOWN)
    }
    #[inline]
    fn get(&self) -> u64 {
        u64::from(self.load(Ordering::Relaxed))
    }
    #[inline]
    fn put(&self, value: u64) {
        self.store(value as u32, Ordering::Relaxed)
    }
}

/// One remoteness in a byte, for domains labelled in memory whose remotenesses all stay
/// small (see [`super::label_remoteness_narrow`]).
impl Atom for AtomicU8 {
    const PER: u64 = 1;
    const WIDTH: u32 = 8;
    fn fresh() -> Self {
        AtomicU8::new(u8::MAX)
    }
    #[inline]
    fn get(&self) -> u64 {
        u64::from(self.load(Ordering::Relaxed))
    }
    #[inline]
    fn put(&self, value: u64) {
        self.store(value as u8, Ordering::Relaxed)
    }
}

/// A slot the remoteness labeller reads, sets and offers smaller values to.
pub(crate) trait RemotenessCell: Atom {
    /// What a slot no offer has reached holds ([`UNKNOWN`] in four bytes, 255 in one,
    /// as [`Atom::fresh`] makes it); every remoteness stored is below it.
    const UNKNOWN: u32;
    /// Lowers the slot's remoteness to `offer` (below [`RemotenessCell::UNKNOWN`]) when
    /// that is smaller.
    fn offer(&self, offer: u32);
    /// The slot's remoteness ([`RemotenessCell::UNKNOWN`] when none yet).
    #[inline]
    fn remoteness(&self) -> u32 {
        self.get() as u32
    }
    /// Sets the slot's remoteness (below [`RemotenessCell::UNKNOWN`]).
    #[inline]
    fn set_remoteness(&self, remoteness: u32) {
        debug_assert!(remoteness < Self::UNKNOWN);
        self.put(u64::from(remoteness))
    }
}

impl RemotenessCell for AtomicU32 {
    const UNKNOWN: u32 = UNKNOWN;
    #[inline]
    fn offer(&self, offer: u32) {
        // Most slots already hold a smaller offer: read before paying for the atomic
        // read-modify-write.
        if offer < self.load(Ordering::Relaxed) {
            self.fetch_min(offer, Ordering::Relaxed);
        }
    }
}

impl RemotenessCell for AtomicU8 {
    const UNKNOWN: u32 = u8::MAX as u32;
    #[inline]
    fn offer(&self, offer: u32) {
        debug_assert!(offer < Self::UNKNOWN);
        let offer = offer as u8;
        if offer < self.load(Ordering::Relaxed) {
            self.fetch_min(offer, Ordering::Relaxed);
        }
    }
}

/// Slots for the ranks `lo..hi` of a domain of `entries` positions.
pub(crate) struct Window<A> {
    slots: Vec<A>,
    /// Rank of the first position of slot 0 (a multiple of `A::PER`).
    base: u64,
    lo: u64,
    hi: u64,
    entries: u64,
}

/// Slots needed to hold `positions` ranks starting anywhere.
pub(crate) fn slots_for<A: Atom>(positions: u64) -> u64 {
    positions.div_ceil(A::PER) + u64::from(A::PER > 1)
}

impl<A: Atom> Window<A> {
    /// An empty window able to hold any `capacity` consecutive ranks; the allocation is
    /// made now, and a refusal is an error.
    pub(crate) fn new(entries: u64, capacity: u64) -> Result<Self> {
        let len = usize::try_from(slots_for::<A>(capacity.min(entries))).unwrap_or(usize::MAX);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(len)
            .map_err(|_| out_of_memory("the labels", entries))?;
        Ok(Window {
            slots,
            base: 0,
            lo: 0,
            hi: 0,
            entries,
        })
    }

    /// The ranks held.
    pub(crate) fn range(&self) -> Range<u64> {
        self.lo..self.hi
    }

    /// True when the window holds the whole domain.
    pub(crate) fn holds_all(&self) -> bool {
        self.lo == 0 && self.hi == self.entries
    }

    /// Moves the window to `lo..hi` (neither end moving back): slots of ranks still
    /// held keep their values, new ranks start fresh.
    pub(crate) fn cover(&mut self, lo: u64, hi: u64) {
        debug_assert!(lo >= self.lo && hi >= self.hi && lo <= hi);
        let base = lo / A::PER * A::PER;
        let drop = ((base - self.base) / A::PER) as usize;
        if drop > 0 {
            let kept = self.slots.len().saturating_sub(drop);
            if kept > 0 {
                // Slots are plain integers behind their atomics; moving them is a copy.
                let values: &mut [A] = &mut self.slots;
                values.rotate_left(drop.min(values.len()));
            }
            self.slots.truncate(kept);
        }
        let need = slots_for::<A>(hi - base).min((self.entries - base).div_ceil(A::PER)) as usize;
        let need = need.max(self.slots.len());
        debug_assert!(need <= self.slots.capacity(), "window wider than planned");
        self.slots.resize_with(need, A::fresh);
        self.base = base;
        self.lo = lo;
        self.hi = hi;
    }

    /// The slot holding `rank`.
    #[inline]
    pub(crate) fn slot(&self, rank: u64) -> &A {
        debug_assert!(
            self.lo <= rank && rank < self.hi,
            "{rank} outside {}..{}",
            self.lo,
            self.hi
        );
        &self.slots[((rank - self.base) / A::PER) as usize]
    }

    /// Asks the processor to start loading the slot of `rank` (held) into the cache, so
    /// that a read issued later finds it there.
    #[inline(always)]
    pub(crate) fn prefetch(&self, rank: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const A = self.slot(rank);
            // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault, and SSE
            // is part of every x86_64 target.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast())
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = rank;
    }

    /// Hands the values of `ranks` (held) to `out` as `(value, bits)` fields, `A::WIDTH`
    /// bits per position, up to 64 at a time.
    pub(crate) fn export(
        &self,
        ranks: Range<u64>,
        out: &mut dyn FnMut(u64, u32) -> Result<()>,
    ) -> Result<()> {
        debug_assert!(self.lo <= ranks.start && ranks.end <= self.hi);
        if A::PER == 1 {
            for rank in ranks {
                out(self.slot(rank).get(), A::WIDTH)?;
            }
            return Ok(());
        }
        let mut at = ranks.start;
        while at < ranks.end {
            let n = (ranks.end - at).min(64) as u32;
            out(self.bits_at(at, n), n)?;
            at += u64::from(n);
        }
        Ok(())
    }

    /// `n <= 64` bits from rank `at` (outcome windows).
    fn bits_at(&self, at: u64, n: u32) -> u64 {
        let offset = at - self.base;
        let (i, r) = ((offset / 64) as usize, (offset % 64) as u32);
        let mut value = self.slots[i].get() >> r;
        if r > 0 && r + n > 64 {
            value |= self.slots[i + 1].get() << (64 - r);
        }
        if n < 64 {
            value &= (1 << n) - 1;
        }
        value
    }

    /// Loads the values of `ranks` (held, fresh) from `input`, which hands over the next
    /// fields of the given number of bits, as [`Window::export`] wrote them.
    pub(crate) fn import(
        &mut self,
        ranks: Range<u64>,
        input: &mut dyn FnMut(u32) -> Result<u64>,
    ) -> Result<()> {
        debug_assert!(self.lo <= ranks.start && ranks.end <= self.hi);
        if A::PER == 1 {
            for rank in ranks {
                let value = input(A::WIDTH)?;
                self.slot(rank).put(value);
            }
            return Ok(());
        }
        let mut at = ranks.start;
        while at < ranks.end {
            let n = (ranks.end - at).min(64) as u32;
            let value = input(n)?;
            let offset = at - self.base;
            let (i, r) = ((offset / 64) as usize, (offset % 64) as u32);
            let slot = &self.slots[i];
            slot.put(slot.get() | value << r);
            if r > 0 && r + n > 64 {
                let next = &self.slots[i + 1];
                next.put(next.get() | value >> (64 - r));
            }
            at += u64::from(n);
        }
        Ok(())
    }

    /// The slots, when the window holds the whole domain.
    pub(crate) fn into_slots(self) -> Vec<A> {
        debug_assert!(self.holds_all());
        self.slots
    }
}

impl Window<AtomicU64> {
    /// True when the position of `rank` (held) is marked safe.
    // Relaxed is enough: tiers are separated by rayon joins, which order all accesses.
    #[inline]
    pub(crate) fn is_safe(&self, rank: u64) -> bool {
        self.slot(rank).load(Ordering::Relaxed) >> (rank % 64) & 1 == 1
    }

    /// The 64 marks of the aligned word holding `rank` (held): bit `rank % 64` is its.
    #[inline]
    pub(crate) fn word(&self, rank: u64) -> u64 {
        self.slot(rank).load(Ordering::Relaxed)
    }

    /// Marks the position of `rank` (held) safe, no other thread writing meanwhile.
    #[inline]
    pub(crate) fn set_safe_alone(&self, rank: u64) {
        let slot = self.slot(rank);
        slot.store(
            slot.load(Ordering::Relaxed) | 1 << (rank % 64),
            Ordering::Relaxed,
        );
    }

    /// Marks the position of `rank` (held) safe.
    #[inline]
    pub(crate) fn set_safe(&self, rank: u64) {
        let slot = self.slot(rank);
        let bit = 1 << (rank % 64);
        // A position reached by several unsafe children is marked once: reading first
        // spares the others the atomic read-modify-write.
        if slot.load(Ordering::Relaxed) & bit == 0 {
            slot.fetch_or(bit, Ordering::Relaxed);
        }
    }
}

/// Packs fields of 1 to 64 bits into little-endian 64-bit words.
#[derive(Default)]
pub(crate) struct Packer {
    word: u64,
    used: u32,
}

impl Packer {
    /// Appends the low `n` bits of `value` (the rest must be 0); returns the word this
    /// completes, if any.
    #[inline]
    pub(crate) fn push(&mut self, value: u64, n: u32) -> Option<u64> {
        debug_assert!(n <= 64 && (n == 64 || value >> n == 0));
        if n == 0 {
            return None;
        }
        self.word |= value << self.used;
        if self.used + n < 64 {
            self.used += n;
            return None;
        }
        let full = self.word;
        self.word = if self.used == 0 {
            0
        } else {
            value >> (64 - self.used)
        };
        self.used = self.used + n - 64;
        Some(full)
    }

    /// The last partial word, zero-padded, if any bits are in it.
    pub(crate) fn finish(self) -> Option<u64> {
        (self.used > 0).then_some(self.word)
    }
}

/// Reads fields back from words packed by a [`Packer`].
#[derive(Default)]
pub(crate) struct Unpacker {
    word: u64,
    left: u32,
}

impl Unpacker {
    /// The next `n` (1 to 64) bits, pulling words from `source` as needed.
    #[inline]
    pub(crate) fn pull(&mut self, n: u32, source: &mut impl FnMut() -> Result<u64>) -> Result<u64> {
        debug_assert!((1..=64).contains(&n));
        let mask = |bits: u32| if bits == 64 { !0 } else { (1u64 << bits) - 1 };
        if n <= self.left {
            let value = self.word & mask(n);
            self.word = if n == 64 { 0 } else { self.word >> n };
            self.left -= n;
            return Ok(value);
        }
        let (low, have) = (self.word, self.left);
        let next = source()?;
        let want = n - have;
        let high = next & mask(want);
        let value = if have == 0 { high } else { low | high << have };
        self.word = if want == 64 { 0 } else { next >> want };
        self.left = 64 - want;
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(fields: impl Iterator<Item = (u64, u32)>) -> Vec<u64> {
        let mut packer = Packer::default();
        let mut words: Vec<u64> = fields.filter_map(|(v, n)| packer.push(v, n)).collect();
        words.extend(packer.finish());
        words
    }

    #[test]
    fn packed_fields_come_back_in_order() {
        let fields: Vec<(u64, u32)> = (0..500u64)
            .map(|i| {
                let n = (i * 7 % 64 + 1) as u32;
                let mask = if n == 64 { !0 } else { (1 << n) - 1 };
                (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & mask, n)
            })
            .collect();
        let words = pack(fields.iter().copied());
        let mut next = words.into_iter();
        let mut source = || Ok(next.next().unwrap());
        let mut unpacker = Unpacker::default();
        for &(v, n) in &fields {
            assert_eq!(unpacker.pull(n, &mut source).unwrap(), v, "{n}");
        }
    }

    #[test]
    fn windows_slide_keeping_what_they_hold() {
        let mut window: Window<AtomicU64> = Window::new(1000, 300).unwrap();
        window.cover(0, 200);
        for r in (0..200).step_by(3) {
            window.set_safe(r);
        }
        window.cover(130, 400);
        for r in 130..400 {
            assert_eq!(window.is_safe(r), r < 200 && r % 3 == 0);
        }
        let mut fields = Vec::new();
        window
            .export(131..199, &mut |v, n| {
                fields.push((v, n));
                Ok(())
            })
            .unwrap();
        let words = pack(fields.into_iter());
        let mut copy: Window<AtomicU64> = Window::new(1000, 1000).unwrap();
        copy.cover(0, 1000);
        let mut next = words.into_iter();
        let mut source = || Ok(next.next().unwrap());
        let mut unpacker = Unpacker::default();
        copy.import(131..199, &mut |n| unpacker.pull(n, &mut source))
            .unwrap();
        for r in 0..1000 {
            let expected = (131..199).contains(&r) && r % 3 == 0;
            assert_eq!(copy.is_safe(r), expected, "{r}");
        }
        let mut cells: Window<AtomicU32> = Window::new(50, 10).unwrap();
        cells.cover(0, 10);
        cells.slot(7).put(3);
        cells.cover(5, 15);
        assert_eq!(cells.slot(7).get(), 3);
        assert_eq!(cells.slot(12).get(), u64::from(UNKNOWN));
    }
}

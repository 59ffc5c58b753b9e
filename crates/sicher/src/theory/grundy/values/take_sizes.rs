//! The fast engines of infinite subtraction sets ([`SubtractionFamily`]).
//!
//! [`TakeSizes`] keeps the set's sizes up to the heap as a list of `u32` and marks the
//! value of each option in a stamp array (one load and one store an option, no closure,
//! no slice per option): the sets named by a rule have few sizes up to `n` (about `√n`
//! squares), and every one is an option, so the work is the options themselves, done
//! tightly. [`AllBut`] needs no work per option at all: a heap `n` of an all-but game
//! reaches every heap below `n - t` (`t` the largest size left out), so the values of
//! those are kept as a growing "present" set, and only the `t` heaps of the window are
//! looked at one by one.

use super::{Nimber, Sequence, Values};
use crate::game::SubtractionFamily;
use std::ops::ControlFlow;

/// Subtraction by the sizes of a set named by a rule, all but the all-but sets.
pub struct TakeSizes {
    family: SubtractionFamily,
    /// The set's sizes up to `listed_to`, ascending.
    sizes: Vec<u32>,
    listed_to: u64,
    values: Vec<Nimber>,
    /// `stamps[v] == stamp`: value `v` is reached by an option of the heap being computed.
    stamps: Vec<u32>,
    stamp: u32,
    /// A block's option values, a byte per value per heap (kept between blocks).
    marks: Vec<u8>,
    /// The values again, a byte each, while every value fits one (a quarter of the
    /// memory traffic in the block's runs); emptied for good once one does not.
    bytes: Vec<u8>,
    /// The largest value so far.
    largest: usize,
}

impl TakeSizes {
    /// The engine of `family` (not all-but, which [`AllBut`] computes), on `values`' storage.
    pub fn new(family: SubtractionFamily, mut values: Vec<Nimber>) -> Self {
        values.clear();
        TakeSizes {
            family,
            sizes: Vec::new(),
            listed_to: 0,
            values,
            stamps: vec![0; 64],
            stamp: 0,
            marks: Vec::new(),
            bytes: Vec::new(),
            largest: 0,
        }
    }

    /// Lists the sizes up to at least `n` (twice as far as asked, so listing is rare).
    fn list_to(&mut self, n: u64) {
        if n <= self.listed_to && !self.sizes.is_empty() {
            return;
        }
        let to = n.saturating_mul(2).max(64).min(u64::from(u32::MAX));
        self.sizes.clear();
        let sizes = &mut self.sizes;
        let _ = self.family.for_each_size(to, |s| {
            sizes.push(s as u32);
            ControlFlow::Continue(())
        });
        self.listed_to = to;
    }
}

/// Heaps computed together by [`TakeSizes::push_block`].
const BLOCK: usize = 64;

impl TakeSizes {
    /// Computes the next [`BLOCK`] values at once. Sizes of at least `BLOCK` reach only
    /// heaps below the block, so they are applied size by size across the block: each
    /// reads a run of consecutive values and sets one bit in each heap's set of option
    /// values (in cache, where a heap at a time would read `√n` scattered values). The
    /// few smaller sizes, whose options lie in the block, follow heap by heap.
    fn push_block(&mut self) {
        let b = self.values.len();
        self.list_to((b + BLOCK) as u64);
        let largest = self.largest;
        // A value in the block is at most one more than the largest before it; a byte a
        // value per heap (stores only, no read-modify-write), rounded up to whole words
        // for the mex scan.
        let width = (largest + BLOCK + 2).next_multiple_of(8);
        let marks = &mut self.marks;
        marks.clear();
        marks.resize(BLOCK * width, 0);
        let bytes = &self.bytes;
        // Sizes that reach every heap of the block (`BLOCK <= s <= b`), two at a time
        // (two runs read, two marks a row, one pass over the rows); then the sizes that
        // reach only its top part.
        let lo = self.sizes.partition_point(|&s| (s as usize) < BLOCK);
        let whole = self.sizes.partition_point(|&s| s as usize <= b);
        let reach = self.sizes.partition_point(|&s| (s as usize) < b + BLOCK);
        let both = &self.sizes[lo..whole.max(lo)];
        let mut pairs = both.chunks_exact(2);
        for pair in &mut pairs {
            let (x, y) = (b - pair[0] as usize, b - pair[1] as usize);
            let runs = bytes[x..x + BLOCK].iter().zip(&bytes[y..y + BLOCK]);
            for (row, (&u, &v)) in marks.chunks_exact_mut(width).zip(runs) {
                row[u as usize] = 1;
                row[v as usize] = 1;
            }
        }
        let rest = pairs
            .remainder()
            .iter()
            .chain(&self.sizes[whole.max(lo)..reach.max(lo)]);
        for &s in rest {
            let s = s as usize;
            let first = s.saturating_sub(b);
            let start = b + first - s;
            let rows = marks[first * width..].chunks_exact_mut(width);
            for (row, &v) in rows.zip(&bytes[start..start + BLOCK - first]) {
                row[v as usize] = 1;
            }
        }
        for i in 0..BLOCK {
            let n = b + i;
            let set = &mut marks[i * width..(i + 1) * width];
            for &s in &self.sizes {
                let s = s as usize;
                if s >= BLOCK || s > n {
                    break;
                }
                set[self.values[n - s] as usize] = 1;
            }
            let mut mex = 0usize;
            for chunk in set.chunks_exact(8) {
                let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
                let ones = (word ^ 0x0101_0101_0101_0101).trailing_zeros() as usize / 8;
                mex += ones;
                if ones < 8 {
                    break;
                }
            }
            if mex + 1 >= self.stamps.len() {
                self.stamps.resize((mex + 2).next_power_of_two(), 0);
            }
            self.values.push(mex as Nimber);
            self.bytes.push(mex as u8);
            self.largest = self.largest.max(mex);
        }
    }
}

impl Sequence for TakeSizes {
    fn extend_to(&mut self, len: usize) {
        // Blocks while every value fits a byte (their marks are a byte per value, too).
        while self.values.len() + BLOCK <= len
            && self.bytes.len() == self.values.len()
            && self.largest + BLOCK + 2 <= 256
        {
            self.push_block();
        }
        while self.values.len() < len {
            self.push_next();
        }
    }

    fn push_next(&mut self) {
        let n = self.values.len();
        self.list_to(n as u64);
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let reach = self.sizes.partition_point(|&s| s as usize <= n);
        let values = &self.values;
        let stamps = &mut self.stamps;
        for &s in &self.sizes[..reach] {
            // Every value is below stamps.len() (kept above the largest value so far).
            stamps[values[n - s as usize] as usize] = stamp;
        }
        let mut mex = 0usize;
        while stamps[mex] == stamp {
            mex += 1;
        }
        if mex + 1 >= stamps.len() {
            stamps.resize((mex + 2).next_power_of_two(), 0);
        }
        if self.bytes.len() == self.values.len() && mex < 256 {
            self.bytes.push(mex as u8);
        }
        self.values.push(mex as Nimber);
        self.largest = self.largest.max(mex);
    }

    fn values(&self) -> Values<'_> {
        Values::Wide(&self.values)
    }

    fn held_bytes(&self) -> usize {
        self.values.capacity() * std::mem::size_of::<Nimber>()
    }

    fn into_values(self: Box<Self>) -> Vec<Nimber> {
        self.values
    }
}

/// Subtraction of every positive size but a finite list.
pub struct AllBut {
    /// The sizes left out, ascending; `t` is the last.
    excluded: Vec<u64>,
    values: Vec<Nimber>,
    /// `present[v]`: some heap below `n - t` has value `v`.
    present: Vec<bool>,
    /// Heaps `0..added` are in `present`.
    added: usize,
    /// No value below this is absent from `present`.
    absent_from: usize,
    stamps: Vec<u32>,
    stamp: u32,
}

impl AllBut {
    /// The engine of the all-but set leaving out `excluded` (ascending, non-empty).
    pub fn new(excluded: Vec<u64>, mut values: Vec<Nimber>) -> Self {
        values.clear();
        AllBut {
            excluded,
            values,
            present: vec![false; 64],
            added: 0,
            absent_from: 0,
            stamps: vec![0; 64],
            stamp: 0,
        }
    }
}

impl Sequence for AllBut {
    fn push_next(&mut self) {
        let n = self.values.len();
        let t = self.excluded.last().copied().unwrap_or(0) as usize;
        // Every heap below n - t is an option: its value joins `present` for good.
        while self.added + t < n {
            let v = self.values[self.added] as usize;
            self.present[v] = true;
            self.added += 1;
        }
        while self.present[self.absent_from] {
            self.absent_from += 1;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.fill(0);
            self.stamp = 1;
        }
        // The window: heaps n - t ..= n - 1 that a size not left out reaches.
        for m in n.saturating_sub(t)..n {
            if self.excluded.binary_search(&((n - m) as u64)).is_err() {
                self.stamps[self.values[m] as usize] = self.stamp;
            }
        }
        let mut mex = self.absent_from;
        while self.present[mex] || self.stamps[mex] == self.stamp {
            mex += 1;
        }
        if mex + 1 >= self.present.len() {
            let len = (mex + 2).next_power_of_two();
            self.present.resize(len, false);
            self.stamps.resize(len, 0);
        }
        self.values.push(mex as Nimber);
    }

    fn values(&self) -> Values<'_> {
        Values::Wide(&self.values)
    }

    fn held_bytes(&self) -> usize {
        self.values.capacity() * std::mem::size_of::<Nimber>()
    }

    fn into_values(self: Box<Self>) -> Vec<Nimber> {
        self.values
    }
}

#[cfg(test)]
mod tests {
    use super::super::MexReference;
    use super::*;
    use crate::game::Ruleset;

    #[test]
    fn equal_the_reference() {
        for text in [
            "squares",
            "primes",
            "powers:2",
            "powers:5",
            "fibonacci",
            "triangular",
            "all-but:1",
            "all-but:1,2",
            "all-but:2,3,7",
            "all-but:1,4,5,9,30",
        ] {
            let family = SubtractionFamily::parse(text).unwrap().unwrap();
            let ruleset = Ruleset::InfiniteSubtraction(family.clone());
            let mut reference = MexReference::new(ruleset);
            reference.extend_to(3000);
            let mut fast: Box<dyn Sequence> = match family {
                SubtractionFamily::AllBut(excluded) => Box::new(AllBut::new(excluded, Vec::new())),
                family => Box::new(TakeSizes::new(family, Vec::new())),
            };
            fast.extend_to(3000);
            assert_eq!(fast.values(), reference.values(), "{text}");
        }
    }
}

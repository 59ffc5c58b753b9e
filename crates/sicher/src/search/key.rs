//! Compact 128-bit position keys, updated incrementally as moves are made.
//!
//! A key is the sum (or, where pairs of equal heaps cancel, the XOR) of a fixed
//! pseudo-random 128-bit code per heap size. Both operations are order-free, so a
//! multiset of heaps needs no sorting to be keyed, and a move changes the key by the
//! codes of the heaps it removes and adds: a child's key costs a handful of
//! instructions and no allocation. XOR makes two equal heaps vanish exactly as the
//! pair-cancelling simplification does; dead heaps get the code zero for the same
//! reason. Distinct positions share a key with probability about 2^-128 per pair.

use std::hash::{BuildHasher, Hash, Hasher};

/// A position's key; the empty position has key zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Key {
    lo: u64,
    hi: u64,
}

impl Hash for Key {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Already uniformly mixed: hand the table one word as is.
        state.write_u64(self.lo);
    }
}

/// The SplitMix64 finaliser: a bijective mix with good avalanche.
#[inline]
pub(crate) fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The random code of one heap size.
#[inline]
pub(crate) fn heap_code(h: u64) -> Key {
    Key {
        lo: mix64(h ^ 0x243f_6a88_85a3_08d3),
        hi: mix64(h.wrapping_add(0x1319_8a2e_0370_7344).rotate_left(29)),
    }
}

/// How heap codes combine into a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// Wrapping addition: a faithful multiset key.
    Sum,
    /// XOR: equal heaps cancel in pairs (normal play of one-heap rulesets only).
    Xor,
}

impl Combine {
    /// Adds one heap's code to a key.
    #[inline]
    pub fn add(self, key: Key, code: Key) -> Key {
        match self {
            Combine::Sum => Key {
                lo: key.lo.wrapping_add(code.lo),
                hi: key.hi.wrapping_add(code.hi),
            },
            Combine::Xor => Key {
                lo: key.lo ^ code.lo,
                hi: key.hi ^ code.hi,
            },
        }
    }

    /// Removes one heap's code from a key.
    #[inline]
    pub fn remove(self, key: Key, code: Key) -> Key {
        match self {
            Combine::Sum => Key {
                lo: key.lo.wrapping_sub(code.lo),
                hi: key.hi.wrapping_sub(code.hi),
            },
            Combine::Xor => Key {
                lo: key.lo ^ code.lo,
                hi: key.hi ^ code.hi,
            },
        }
    }
}

impl Key {
    /// True for the key of the empty position.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.lo == 0 && self.hi == 0
    }

    /// A 64-bit digest, for signatures.
    #[inline]
    pub fn digest(self) -> u64 {
        self.lo ^ self.hi.rotate_left(32)
    }

    /// A second 64-bit word, independent of the [`Key::digest`]'s low bits: what a table
    /// indexed by the digest compares to tell keys apart.
    #[inline]
    pub fn check(self) -> u64 {
        self.hi ^ self.lo.rotate_left(29)
    }

    /// The key's two words, for a table that stores them in words of its own.
    #[inline]
    pub fn words(self) -> [u64; 2] {
        [self.lo, self.hi]
    }

    /// The key whose [`Key::words`] are `words`.
    #[inline]
    pub fn of_words(words: [u64; 2]) -> Self {
        Key {
            lo: words[0],
            hi: words[1],
        }
    }
}

/// A hasher that passes a [`Key`]'s already-mixed word straight through.
#[derive(Clone, Copy, Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix64(self.0 ^ u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.0 = word;
    }
}

/// Builds [`KeyHasher`]s for hashbrown.
#[derive(Clone, Copy, Default)]
pub struct BuildKeyHasher;

impl BuildHasher for BuildKeyHasher {
    type Hasher = KeyHasher;

    fn build_hasher(&self) -> KeyHasher {
        KeyHasher::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_keys_are_order_free_and_xor_cancels_pairs() {
        let key = |combine: Combine, heaps: &[u64]| {
            heaps
                .iter()
                .fold(Key::default(), |k, &h| combine.add(k, heap_code(h)))
        };
        assert_eq!(key(Combine::Sum, &[3, 5, 5]), key(Combine::Sum, &[5, 3, 5]));
        assert_ne!(key(Combine::Sum, &[3, 5, 5]), key(Combine::Sum, &[3]));
        assert_eq!(key(Combine::Xor, &[3, 5, 5]), key(Combine::Xor, &[3]));
        assert!(key(Combine::Xor, &[7, 7]).is_empty());
    }
}

//! The 64-bit checksum every file sicher writes carries (tables, work directories): a
//! bijective mixing step per little-endian word, so any single changed word changes the
//! result. Storage of any kind uses it; it knows nothing of what the bytes mean.

/// A 64-bit checksum over little-endian words (the tail zero-padded), seeded with the
/// length. Each step is a bijection of the running state, so any single changed word
/// changes the result.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut state = Checksum::new(bytes.len() as u64);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        state.add(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    if !chunks.remainder().is_empty() {
        state.add(u64::from_le_bytes(tail));
    }
    state.finish()
}

/// Running state of [`checksum`], fed one word at a time.
pub struct Checksum {
    state: u64,
    version_2: bool,
}

impl Checksum {
    /// Starts a checksum over `len` bytes.
    pub fn new(len: u64) -> Self {
        Checksum {
            state: 0x9E37_79B9_7F4A_7C15 ^ len,
            version_2: false,
        }
    }

    /// Starts a checksum as table format version 2 computed it, to read its tables.
    pub fn version_2(len: u64) -> Self {
        Checksum {
            version_2: true,
            ..Checksum::new(len)
        }
    }

    /// Mixes in the next word. Multiply, fold the high half down, multiply again: a
    /// change in any bit of a word reaches every bit of the state, so a few flipped bits
    /// of the next word cannot cancel it.
    #[inline]
    pub fn add(&mut self, word: u64) {
        let x = (self.state ^ word).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        self.state = if self.version_2 {
            x.rotate_left(29)
        } else {
            (x ^ (x >> 32)).wrapping_mul(0xC4CE_B9FE_1A85_EC53)
        };
    }

    /// The final value.
    pub fn finish(&self) -> u64 {
        let mut h = self.state;
        h ^= h >> 33;
        h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^ (h >> 33)
    }
}

//! The table header: a fixed prefix, a bincode-encoded description, and a checksum.
//!
//! ```text
//! 0        8 magic "SICHRTBL"
//! 8       12 format version, u32 little-endian
//! 12      16 header length H, u32 little-endian
//! 16    16+H header, bincode (standard configuration)
//! 16+H  24+H checksum of bytes 0..16+H, u64 little-endian
//! ...        zero padding up to the body offset, a multiple of 64
//! body       ceil(entries / 64) little-endian u64 words; bit r % 64 of word r / 64 is 1
//!            when the position of rank r is safe
//! ```

use bincode::{Decode, Encode};

use crate::domain::Domain;
use crate::error::{Error, Result};

/// The first eight bytes of every table.
pub const MAGIC: [u8; 8] = *b"SICHRTBL";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the encoded header: magic, version, header length.
pub const PREFIX_LEN: usize = 16;
/// The body starts at a multiple of this, so it can be memory-mapped as words.
pub const BODY_ALIGN: u64 = 64;
/// Encoded headers longer than this are corrupt: the fields are a few short strings.
const MAX_HEADER_LEN: u32 = 1 << 16;

/// The domain as stored in a header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
enum StoredDomain {
    Heaps { heaps: u32, max: u64 },
    Total { total: u64 },
}

/// Everything a table says about itself.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
struct Stored {
    game: String,
    convention: String,
    domain: StoredDomain,
    entries: u64,
    unsafe_count: u64,
    body_offset: u64,
    body_checksum: u64,
    sicher_version: String,
}

/// A table's header, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The ruleset's canonical spec, e.g. `octal:0.77`.
    pub game: String,
    /// `normal` or `misere`.
    pub convention: String,
    /// The positions covered.
    pub domain: Domain,
    /// Number of positions (one bit each).
    pub entries: u64,
    /// How many of them are unsafe.
    pub unsafe_count: u64,
    /// Byte offset of the body.
    pub body_offset: u64,
    /// [`checksum`] of the body bytes.
    pub body_checksum: u64,
    /// The sicher version that wrote the table.
    pub sicher_version: String,
}

impl Header {
    /// Builds a header for a body of `entries` bits; the body offset is filled in here.
    pub fn new(
        game: String,
        convention: String,
        domain: Domain,
        entries: u64,
        unsafe_count: u64,
        body_checksum: u64,
    ) -> Self {
        let mut header = Header {
            game,
            convention,
            domain,
            entries,
            unsafe_count,
            body_offset: 0,
            body_checksum,
            sicher_version: env!("CARGO_PKG_VERSION").to_string(),
        };
        // The offset is a fixed-width field, so its value does not change the length.
        let len = header.encode_body().len() as u64;
        header.body_offset = (PREFIX_LEN as u64 + len + 8).next_multiple_of(BODY_ALIGN);
        header
    }

    /// Bytes in the body.
    pub fn body_len(&self) -> u64 {
        self.entries.div_ceil(64) * 8
    }

    /// The canonical game and convention, as in `octal:0.77 misere`.
    pub fn canonical(&self) -> String {
        format!("{} {}", self.game, self.convention)
    }

    fn config() -> impl bincode::config::Config {
        bincode::config::standard().with_fixed_int_encoding()
    }

    fn encode_body(&self) -> Vec<u8> {
        let stored = Stored {
            game: self.game.clone(),
            convention: self.convention.clone(),
            domain: match self.domain {
                Domain::Heaps { heaps, max } => StoredDomain::Heaps { heaps, max },
                Domain::Total { total } => StoredDomain::Total { total },
            },
            entries: self.entries,
            unsafe_count: self.unsafe_count,
            body_offset: self.body_offset,
            body_checksum: self.body_checksum,
            sicher_version: self.sicher_version.clone(),
        };
        // Encoding plain strings and integers into a Vec cannot fail.
        bincode::encode_to_vec(&stored, Self::config()).unwrap_or_default()
    }

    /// Everything before the body: prefix, header, checksum and padding.
    pub fn encode(&self) -> Vec<u8> {
        let body = self.encode_body();
        let mut out = Vec::with_capacity(self.body_offset as usize);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&body);
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out.resize(self.body_offset as usize, 0);
        out
    }

    /// Decodes and checks the header at the start of `bytes` (the whole file or more of
    /// it); `origin` names the file in errors.
    pub fn decode(bytes: &[u8], origin: &str) -> Result<Self> {
        let bad = |why: &str| Error::input(format!("{origin}: {why}"));
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(bad("not a sicher table (bad magic)"));
        }
        if bytes.len() < PREFIX_LEN {
            return Err(bad("truncated table (the header is cut short)"));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]));
        let version = word(8);
        if version != FORMAT_VERSION {
            return Err(bad(&format!(
                "table format version {version} is not supported (this sicher reads version {FORMAT_VERSION})"
            )));
        }
        let len = word(12);
        if len > MAX_HEADER_LEN {
            return Err(bad("corrupted table header (impossible header length)"));
        }
        let end = PREFIX_LEN + len as usize;
        if bytes.len() < end + 8 {
            return Err(bad("truncated table (the header is cut short)"));
        }
        let stored_sum = u64::from_le_bytes(bytes[end..end + 8].try_into().unwrap_or([0; 8]));
        if checksum(&bytes[..end]) != stored_sum {
            return Err(bad("corrupted table header (header checksum mismatch)"));
        }
        let (stored, used): (Stored, usize) =
            bincode::decode_from_slice(&bytes[PREFIX_LEN..end], Self::config())
                .map_err(|_| bad("corrupted table header (cannot decode it)"))?;
        if used != len as usize {
            return Err(bad("corrupted table header (trailing bytes)"));
        }
        let header = Header {
            game: stored.game,
            convention: stored.convention,
            domain: match stored.domain {
                StoredDomain::Heaps { heaps, max } => Domain::Heaps { heaps, max },
                StoredDomain::Total { total } => Domain::Total { total },
            },
            entries: stored.entries,
            unsafe_count: stored.unsafe_count,
            body_offset: stored.body_offset,
            body_checksum: stored.body_checksum,
            sicher_version: stored.sicher_version,
        };
        if !header.body_offset.is_multiple_of(BODY_ALIGN) || header.body_offset < (end + 8) as u64 {
            return Err(bad("corrupted table header (bad body offset)"));
        }
        if header.unsafe_count > header.entries {
            return Err(bad(
                "corrupted table header (more unsafe positions than entries)",
            ));
        }
        Ok(header)
    }
}

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
pub struct Checksum(u64);

impl Checksum {
    /// Starts a checksum over `len` bytes.
    pub fn new(len: u64) -> Self {
        Checksum(0x9E37_79B9_7F4A_7C15 ^ len)
    }

    /// Mixes in the next word.
    #[inline]
    pub fn add(&mut self, word: u64) {
        self.0 = (self.0 ^ word)
            .wrapping_mul(0xFF51_AFD7_ED55_8CCD)
            .rotate_left(29);
    }

    /// The final value.
    pub fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^ (h >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Header {
        Header::new(
            "octal:0.77".into(),
            "misere".into(),
            Domain::Total { total: 60 },
            1234,
            99,
            42,
        )
    }

    #[test]
    fn roundtrip_and_alignment() {
        let header = sample();
        let bytes = header.encode();
        assert_eq!(bytes.len() as u64, header.body_offset);
        assert_eq!(header.body_offset % 64, 0);
        assert_eq!(Header::decode(&bytes, "t").unwrap(), header);
    }

    #[test]
    fn every_flipped_byte_is_caught() {
        let bytes = sample().encode();
        let header_end = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize + 24;
        for at in 0..header_end {
            let mut broken = bytes.clone();
            broken[at] ^= 0x10;
            let err = Header::decode(&broken, "t").unwrap_err().to_string();
            assert!(err.starts_with("t: "), "{err}");
        }
        for len in 0..header_end {
            assert!(Header::decode(&bytes[..len], "t").is_err());
        }
    }
}

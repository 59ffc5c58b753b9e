//! Compressed blocks: how one block of body words is stored, and its entry in the index.
//!
//! A block decodes to at most 64 KiB of little-endian words. It is stored as nothing
//! (every word zero: the usual residual of an exact prediction), as one zstd frame, or
//! as its bytes unchanged when zstd does not make them shorter. Its index entry holds the
//! end of its bytes in the stored body, the encoding, a checksum of the stored bytes
//! (checked before anything decodes them) and a checksum of the decoded words.

use super::format::{block_checksum, checksum};

/// The stored bytes are absent: every word is zero.
pub const ZERO: u8 = 0;
/// The stored bytes are one zstd frame.
pub const ZSTD: u8 = 1;
/// The stored bytes are the words as they are.
pub const RAW: u8 = 2;
/// Flag: the words are a residual against the header's prediction.
pub const PREDICTED: u64 = 1 << 8;

/// zstd frames may not ask for a window larger than this (2^17 bytes covers a block),
/// so hostile frames cannot make the decoder allocate more.
const WINDOW_LOG_MAX: u32 = 17;

/// One block's entry in the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Offset in the stored body just past this block's bytes.
    pub end: u64,
    /// The encoding in the low byte, [`PREDICTED`] when the words are a residual.
    pub info: u64,
    /// Checksum of the stored bytes, seeded with `info`.
    pub stored_sum: u64,
    /// Checksum of the decoded words.
    pub words_sum: u64,
}

impl Entry {
    /// The entry as stored: four little-endian words.
    pub fn to_bytes(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (i, w) in [self.end, self.info, self.stored_sum, self.words_sum]
            .into_iter()
            .enumerate()
        {
            out[i * 8..i * 8 + 8].copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Reads an entry from 32 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Entry {
        let word =
            |i: usize| u64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().unwrap_or([0; 8]));
        Entry {
            end: word(0),
            info: word(1),
            stored_sum: word(2),
            words_sum: word(3),
        }
    }

    /// The encoding: [`ZERO`], [`ZSTD`] or [`RAW`].
    pub fn encoding(&self) -> u8 {
        self.info as u8
    }

    /// True when the words are a residual against the prediction.
    pub fn predicted(&self) -> bool {
        self.info & PREDICTED != 0
    }

    /// True when the fields could have been written: a known encoding and no other bits.
    pub fn well_formed(&self) -> bool {
        self.info & !(PREDICTED | 0xFF) == 0 && self.encoding() <= RAW
    }
}

/// The checksum of a block's stored bytes under its `info`.
pub fn stored_checksum(info: u64, bytes: &[u8]) -> u64 {
    checksum(bytes) ^ info.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Encodes one block of words (`info` flags besides the encoding given): returns the
/// encoding and the stored bytes.
pub fn encode(words: &[u64], level: i32, scratch: &mut Vec<u8>) -> (u8, Vec<u8>) {
    if words.iter().all(|&w| w == 0) {
        return (ZERO, Vec::new());
    }
    scratch.clear();
    words
        .iter()
        .for_each(|w| scratch.extend_from_slice(&w.to_le_bytes()));
    match zstd::bulk::compress(scratch, level) {
        Ok(frame) if frame.len() < scratch.len() => (ZSTD, frame),
        _ => (RAW, scratch.clone()),
    }
}

/// Builds the index entry of an encoded block ending at `end` (the tests forge entries
/// with it).
#[cfg(test)]
pub fn entry(end: u64, encoding: u8, predicted: bool, stored: &[u8], words: &[u64]) -> Entry {
    let info = u64::from(encoding) | if predicted { PREDICTED } else { 0 };
    Entry {
        end,
        info,
        stored_sum: stored_checksum(info, stored),
        words_sum: block_checksum(words.iter().copied()),
    }
}

/// Why a block could not be decoded.
#[derive(Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The stored bytes do not match their checksum.
    StoredChecksum,
    /// The bytes did not decode to exactly the block's words.
    Malformed,
    /// The decoded words do not match their checksum.
    WordsChecksum,
}

/// Decodes a block of `words.len()` words from its stored bytes into `words`, checking
/// the stored bytes before decoding them and the words after. Never panics and never
/// allocates more than the decoder's fixed state, whatever the bytes.
pub fn decode(
    entry: &Entry,
    stored: &[u8],
    words: &mut [u64],
    scratch: &mut Vec<u8>,
) -> Result<(), DecodeError> {
    if stored_checksum(entry.info, stored) != entry.stored_sum {
        return Err(DecodeError::StoredChecksum);
    }
    let raw_len = words.len() * 8;
    match entry.encoding() {
        ZERO if stored.is_empty() => words.fill(0),
        RAW if stored.len() == raw_len => fill_words(words, stored),
        ZSTD => {
            scratch.clear();
            scratch.resize(raw_len, 0);
            let mut decoder =
                zstd::bulk::Decompressor::new().map_err(|_| DecodeError::Malformed)?;
            decoder
                .set_parameter(zstd::zstd_safe::DParameter::WindowLogMax(WINDOW_LOG_MAX))
                .map_err(|_| DecodeError::Malformed)?;
            match decoder.decompress_to_buffer(stored, scratch.as_mut_slice()) {
                Ok(n) if n == raw_len => fill_words(words, scratch),
                _ => return Err(DecodeError::Malformed),
            }
        }
        _ => return Err(DecodeError::Malformed),
    }
    if block_checksum(words.iter().copied()) != entry.words_sum {
        return Err(DecodeError::WordsChecksum);
    }
    Ok(())
}

fn fill_words(words: &mut [u64], bytes: &[u8]) {
    for (w, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
        *w = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_trip_in_every_encoding() {
        let mut scratch = Vec::new();
        let zero = vec![0u64; 100];
        let sparse: Vec<u64> = (0..8192)
            .map(|i| u64::from(i % 97 == 0) << (i % 64))
            .collect();
        let noise: Vec<u64> = (0..300u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17) ^ i)
            .collect();
        for (words, expected) in [(&zero, ZERO), (&sparse, ZSTD), (&noise, RAW)] {
            let (encoding, stored) = encode(words, 3, &mut scratch);
            assert_eq!(encoding, expected);
            let entry = entry(stored.len() as u64, encoding, true, &stored, words);
            let mut out = vec![1u64; words.len()];
            decode(&entry, &stored, &mut out, &mut scratch).unwrap();
            assert_eq!(&out, words);
            assert_eq!(Entry::from_bytes(&entry.to_bytes()), entry);
        }
    }

    #[test]
    fn hostile_bytes_are_refused_without_panicking() {
        let mut scratch = Vec::new();
        let words: Vec<u64> = (0..8192).map(|i| u64::from(i % 31 == 0)).collect();
        let (encoding, stored) = encode(&words, 3, &mut scratch);
        let mut out = vec![0u64; words.len()];
        // Damaged bytes under a checksum recomputed to match: zstd must refuse them,
        // or the words' checksum must.
        for at in 0..stored.len() {
            for flip in [0x01u8, 0x80, 0xFF] {
                let mut bad = stored.clone();
                bad[at] ^= flip;
                let mut forged = entry(0, encoding, false, &bad, &words);
                forged.words_sum = block_checksum(words.iter().copied());
                let result = decode(&forged, &bad, &mut out, &mut scratch);
                assert!(result.is_err() || out == words, "flip at {at}");
            }
        }
        let honest = entry(0, encoding, false, &stored, &words);
        let mut truncated = honest;
        truncated.stored_sum = stored_checksum(honest.info, &stored[..stored.len() / 2]);
        assert!(decode(
            &truncated,
            &stored[..stored.len() / 2],
            &mut out,
            &mut scratch
        )
        .is_err());
        let mut wrong = stored.clone();
        wrong[stored.len() / 2] ^= 4;
        assert_eq!(
            decode(&honest, &wrong, &mut out, &mut scratch),
            Err(DecodeError::StoredChecksum)
        );
    }
}

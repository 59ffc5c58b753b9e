//! The table container on disk: one layout for every body kind. bincode is used here and
//! nowhere else.
//!
//! ```text
//! 0          8  magic "SICHRTBL"
//! 8         12  format version, u32 little-endian (3, or 4 for tables that carry
//!               rules or hold partizan labels; versions 2 and 3 are read too)
//! 12        16  header length H, u32 little-endian
//! 16      16+H  header, bincode (standard configuration, fixed-width integers)
//! 16+H    24+H  checksum of bytes 0..16+H, u64 little-endian
//! ...           zero padding up to the index offset, a multiple of 64
//! index         flat bodies: one u64 checksum per body block; compressed bodies: four
//!               u64 per block (end offset in the stored body, encoding, checksum of
//!               the stored bytes, checksum of the decoded words); little-endian; the
//!               header holds the index's own checksum
//! ...           zero padding up to the body offset, a multiple of 64
//! body          flat: ceil(entries * width / 64) little-endian u64 words: entry r is
//!               the `width`-bit field (1 to 32 bits) at bit r * width, low bits in the
//!               lower word where a field straddles two, read as the header's body kind
//!               says. Compressed: the stored blocks one after another, each the
//!               encoding of 64 KiB of such words (the last block shorter): nothing
//!               (all zero), a zstd frame, or the bytes as they are
//! ```
//!
//! The words of an outcome body may be a residual: the outcome XOR what the header's
//! prediction says of the position ([`super::predict`]), per block as the index says.
//!
//! The body is checked block by block (64 KiB of words each) the first time a probe
//! touches a block, so a damaged table is refused before it answers, at the cost of one
//! pass over each block actually used.

use bincode::{Decode, Encode};
use std::fmt;

pub use crate::checksum::{checksum, Checksum};
use crate::domain::Domain;
use crate::game::Convention;
use crate::theory::grundy::Periodicity;
pub use crate::theory::quotient::learn::QuotientModel;
use crate::value::{Outcome, Value};

/// The first eight bytes of every table.
pub const MAGIC: [u8; 8] = *b"SICHRTBL";
/// The first eight bytes of the nim-value tables of format 1.
pub(super) const OLD_NIM_MAGIC: [u8; 8] = *b"SICHRNIM";
/// The format version this build writes (it reads this and `OLD_FORMAT_VERSION`).
/// Version 3: compressed bodies, and a checksum step that folds and multiplies twice
/// (version 2's one multiply and rotation let a flip of bit 63 of one word be undone by
/// a flip of bit 28 of the next).
pub const FORMAT_VERSION: u32 = 3;
/// The older format version this build still reads: flat bodies, the old checksum.
pub const OLD_FORMAT_VERSION: u32 = 2;
/// The format version of tables that need more than version 3 says: version 3's header
/// followed by what the table carries ([`Carried`]: the option lists of custom rules, a
/// partizan game's players and terminal script). Tables that need none of it are still
/// written as version 3, byte for byte as before.
pub const CARRYING_FORMAT_VERSION: u32 = 4;
/// Bytes before the encoded header: magic, version, header length.
pub const PREFIX_LEN: usize = 16;
/// Sections start at multiples of this, so the body can be memory-mapped as words.
pub const ALIGN: u64 = 64;
/// Body bytes per checked block.
pub const BLOCK_BYTES: u64 = 1 << 16;
/// Encoded headers longer than this are corrupt: a few short strings and, with a learned
/// prediction, a model of at most 255 x 255 products and a few thousand heap sizes.
pub(super) const MAX_HEADER_LEN: u32 = 1 << 20;
/// Encoded headers of version 4 longer than this are corrupt: they may carry option lists
/// of custom rules (four bytes a part).
pub(super) const MAX_CARRYING_HEADER_LEN: u32 = 1 << 28;
/// Bytes of one block's entry in the index of a compressed body.
pub const COMPRESSED_ENTRY_BYTES: u64 = 32;

/// How the body is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// The packed words as they are, memory-mapped for probing.
    Flat,
    /// Each block compressed on its own with zstd at this level.
    Zstd {
        /// The compression level the writer used.
        level: i32,
    },
}

impl Codec {
    /// The codec's name, as `info` prints it.
    pub fn name(&self) -> String {
        match self {
            Codec::Flat => "none (flat, memory-mapped)".into(),
            Codec::Zstd { level } => format!("zstd level {level}, blocks of 64 KiB"),
        }
    }
}

/// What an outcome body's residual is taken against (see `table/predict.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prediction {
    /// Nothing: the words are the outcomes.
    None,
    /// Sprague-Grundy: unsafe exactly when the nim-sum is 0 (normal play, one-heap rules).
    NimSum,
    /// The misère rule of tame games (misère play, one-heap rules).
    TameMisere,
    /// Moore's rule for Moore's Nim_k, in either convention.
    Moore,
    /// A misère quotient learned from the small positions, stored here.
    Quotient(QuotientModel),
}

impl Prediction {
    /// The prediction's name, as `info` prints it.
    pub fn name(&self) -> String {
        match self {
            Prediction::None => "none".into(),
            Prediction::NimSum => "nim-sum (Sprague-Grundy, exact)".into(),
            Prediction::TameMisere => "tame misère rule".into(),
            Prediction::Moore => "Moore's rule (exact)".into(),
            Prediction::Quotient(model) => format!(
                "misère quotient of {} elements learned from the positions of at most {} tokens",
                model.elements(),
                model.learned_total
            ),
        }
    }
}

/// What a table's entries hold, with what the writer counted of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// One bit per position of the domain: 1 when safe.
    Outcomes {
        /// How many positions are unsafe.
        unsafe_count: u64,
    },
    /// The nim-value of each heap size `0..entries` of a one-heap ruleset (normal play;
    /// the domain is `--heaps 1`), with the proved period that extends them, if any.
    NimValues {
        /// The ultimate period proved from the stored values.
        period: Option<Periodicity>,
    },
    /// The remoteness of each position of the domain; the outcome follows from its
    /// parity and the convention.
    Remoteness {
        /// The largest remoteness stored.
        rmax: u32,
    },
    /// A misère quotient: the entries are its multiplication table, one per unordered
    /// pair of elements (the domain `--heaps 2 --max order-1` ranks the pairs), and the
    /// header's [`QuotientMeta`] holds the rest.
    Quotient {
        /// Number of elements.
        order: u32,
    },
    /// Two bits per position of a partizan game's domain: bit 0 set when Left, to move,
    /// wins; bit 1 when Right, to move, wins (format 4).
    Partizan {
        /// Positions of each outcome class, in the order L, R, N, P.
        classes: [u64; 4],
    },
}

/// Bit of a partizan entry set when Left, to move, wins.
pub const LEFT_WINS: u64 = 1;
/// Bit of a partizan entry set when Right, to move, wins.
pub const RIGHT_WINS: u64 = 2;

/// What a table carries so that it stands alone (format 4): whatever its header's game
/// spec cannot rebuild by itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carried {
    /// The option lists of the custom rulesets the game names (a script's, a caller's
    /// function's), for every heap size the table's domain uses.
    pub rules: Vec<crate::game::OptionLists>,
    /// Partizan tables: Left's and Right's impartial specs.
    pub sides: Option<(String, String)>,
    /// Partizan tables: the text of the script whose `terminal(heaps, player)` ends
    /// play, when one does.
    pub terminal: Option<String>,
}

impl Carried {
    /// True when there is nothing to carry (the table is written as format 3).
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.sides.is_none() && self.terminal.is_none()
    }
}

/// What a quotient table keeps beside its multiplication table.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
pub struct QuotientMeta {
    /// Heaps `1..=max_heap` are covered.
    pub max_heap: u64,
    /// The element of the empty position.
    pub identity: u32,
    /// `p_portion[x]`: positions of element `x` are P-positions.
    pub p_portion: Vec<bool>,
    /// `heap_elements[h - 1]`: the element of a lone heap of size `h`.
    pub heap_elements: Vec<u32>,
    /// Heaps whose elements are the generators.
    pub generator_heaps: Vec<u64>,
    /// The presentation's relations.
    pub relations: Vec<String>,
    /// Every element's normal form.
    pub normal_forms: Vec<String>,
    /// Heaps at which the presentation changed.
    pub changes: Vec<u64>,
    /// Heaps that needed recalibration.
    pub recalibrations: Vec<u64>,
}

impl BodyKind {
    /// Reads one stored field as a value under `convention`.
    #[inline]
    pub fn value(&self, field: u64, convention: Convention) -> Value {
        match self {
            BodyKind::Outcomes { .. } => Value::Outcome(Outcome::from_win(field != 0)),
            BodyKind::NimValues { .. } => Value::Nimber(field),
            BodyKind::Remoteness { .. } => Value::remote(field as u32, convention),
            // A product of two elements; quotient tables are read whole, by
            // `table::read_quotient`, never probed position by position.
            BodyKind::Quotient { .. } => Value::Nimber(field),
            // Both players' bits; `Table::sides_at` reads them as such.
            BodyKind::Partizan { .. } => Value::Nimber(field),
        }
    }

    /// The kind's name, as `info` prints it.
    pub fn name(&self) -> &'static str {
        match self {
            BodyKind::Outcomes { .. } => "outcomes",
            BodyKind::NimValues { .. } => "nim-values",
            BodyKind::Remoteness { .. } => "remoteness",
            BodyKind::Quotient { .. } => "misère quotient",
            BodyKind::Partizan { .. } => "partizan outcomes",
        }
    }

    /// True when the entries are positions of the domain (not heap sizes), so a
    /// position's children are in the table too.
    pub fn holds_positions(&self) -> bool {
        match self {
            BodyKind::Outcomes { .. } | BodyKind::Remoteness { .. } | BodyKind::Partizan { .. } => {
                true
            }
            BodyKind::NimValues { .. } | BodyKind::Quotient { .. } => false,
        }
    }
}

/// The fewest bits that hold every value up to `largest` (at least one).
pub fn bits_for(largest: u64) -> u8 {
    (64 - largest.leading_zeros()).max(1) as u8
}

/// Everything a table says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// What the entries hold.
    pub kind: BodyKind,
    /// The ruleset's canonical inline spec, e.g. `octal:0.77`.
    pub game: String,
    /// Normal or misère play.
    pub convention: Convention,
    /// The positions covered, one entry each in rank order.
    pub domain: Domain,
    /// Number of entries.
    pub entries: u64,
    /// Bits per entry, 1 to 32.
    pub width: u8,
    /// Remoteness tables: how many positions have each remoteness `0..=rmax`, when
    /// `rmax` is small enough to keep the list in the header.
    pub histogram: Option<Vec<u64>>,
    /// Byte offset of the block checksums.
    pub index_offset: u64,
    /// Byte offset of the body.
    pub body_offset: u64,
    /// Checksum of the block checksums, so of the whole body.
    pub index_checksum: u64,
    /// The sicher version that wrote the table.
    pub sicher_version: String,
    /// How the body is stored.
    pub codec: Codec,
    /// What outcome residuals are taken against.
    pub prediction: Prediction,
    /// Checksum of the tables behind the prediction (nim-values, model).
    pub prediction_check: u64,
    /// Bytes of the body as stored (the packed length when flat).
    pub stored_len: u64,
    /// The format version read (the one written, for new headers).
    pub version: u32,
    /// Quotient tables: everything but the multiplication table.
    pub quotient: Option<QuotientMeta>,
    /// How the writer decided the entries of an outcome table.
    pub provenance: Provenance,
    /// What the table carries so that it stands alone (format 4; empty for format 3).
    pub carried: Carried,
}

/// How a table's outcomes were decided; every way is exact, only the work differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Provenance {
    /// Not recorded (nim-value and quotient tables, tables of format 2).
    #[default]
    Unrecorded,
    /// Every position from its moves (or its parents'), tier by tier.
    Retrograde,
    /// Lone heaps decided 64 at a time from earlier words of outcomes.
    Words,
    /// Lone heaps decided word by word until the periodicity theorem proved this period
    /// of their outcomes; every later heap copied from one period earlier.
    Period(Periodicity),
    /// Unsafe exactly when the XOR of the heaps' nim-values is 0 (Sprague-Grundy).
    NimValues,
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Provenance::Unrecorded => f.write_str("not recorded"),
            Provenance::Retrograde => f.write_str("retrograde labelling of every position"),
            Provenance::Words => f.write_str("lone heaps 64 at a time from their options"),
            Provenance::Period(p) => write!(
                f,
                "lone heaps until the periodicity theorem proved period {} from n = {}{}, then copied",
                p.period,
                p.preperiod,
                p.proved_at.map_or(String::new(), |k| format!(" (proof with heaps up to {k})"))
            ),
            Provenance::NimValues => f.write_str("XOR of nim-values (Sprague-Grundy)"),
        }
    }
}

impl Header {
    /// A header for `entries` fields of `width` bits; offsets and the index checksum
    /// are filled in by [`Header::lay_out`].
    pub fn new(
        kind: BodyKind,
        game: String,
        convention: Convention,
        domain: Domain,
        entries: u64,
        width: u8,
    ) -> Self {
        Header {
            kind,
            game,
            convention,
            domain,
            entries,
            width,
            histogram: None,
            index_offset: 0,
            body_offset: 0,
            index_checksum: 0,
            sicher_version: env!("CARGO_PKG_VERSION").to_string(),
            codec: Codec::Flat,
            prediction: Prediction::None,
            prediction_check: 0,
            stored_len: body_len(entries, width),
            quotient: None,
            provenance: Provenance::Unrecorded,
            version: FORMAT_VERSION,
            carried: Carried::default(),
        }
    }

    /// The format version this header is written as: 4 when it carries anything or holds
    /// partizan labels, else 3.
    pub fn written_version(&self) -> u32 {
        if self.carried.is_empty() && !matches!(self.kind, BodyKind::Partizan { .. }) {
            FORMAT_VERSION
        } else {
            CARRYING_FORMAT_VERSION
        }
    }

    /// The canonical game and convention, as in `octal:0.77 misere`.
    pub fn canonical(&self) -> String {
        format!("{} {}", self.game, self.convention)
    }

    /// Bytes of the body: whole words of packed fields.
    pub fn body_len(&self) -> u64 {
        body_len(self.entries, self.width)
    }

    /// Number of checked blocks of the body.
    pub fn blocks(&self) -> u64 {
        self.body_len().div_ceil(BLOCK_BYTES)
    }

    /// Bytes of the body as its blocks decode: the packed words.
    pub fn raw_block_len(&self, block: u64) -> u64 {
        (self.body_len() - block * BLOCK_BYTES).min(BLOCK_BYTES)
    }

    /// Bytes of one block's entry in the index.
    pub fn index_entry_bytes(&self) -> u64 {
        match self.codec {
            Codec::Flat => 8,
            Codec::Zstd { .. } => COMPRESSED_ENTRY_BYTES,
        }
    }

    /// Bytes of the block index.
    pub fn index_len(&self) -> u64 {
        self.blocks() * self.index_entry_bytes()
    }

    /// Bytes of the whole file.
    pub fn file_len(&self) -> u64 {
        // Saturating: a forged offset must not wrap around to the real length.
        self.body_offset.saturating_add(self.stored_len)
    }

    /// Fixes the offsets of the index and the body for this header's fields.
    pub fn lay_out(&mut self, index_checksum: u64) {
        self.index_checksum = index_checksum;
        self.version = self.written_version();
        // Fixed-width integers: the offsets' values do not change the encoded length.
        let header_end = (PREFIX_LEN + self.encode_fields().len() + 8) as u64;
        self.index_offset = header_end.next_multiple_of(ALIGN);
        self.body_offset = (self.index_offset + self.index_len()).next_multiple_of(ALIGN);
    }
}

/// Bytes of a body of `entries` fields of `width` bits: whole 64-bit words.
pub fn body_len(entries: u64, width: u8) -> u64 {
    entries.saturating_mul(u64::from(width)).div_ceil(64) * 8
}

/// [`checksum`] as tables of format `version` computed it (version 2 had a weaker step).
pub fn checksum_of_version(version: u32, bytes: &[u8]) -> u64 {
    if version != OLD_FORMAT_VERSION {
        return checksum(bytes);
    }
    let mut state = Checksum::version_2(bytes.len() as u64);
    for chunk in bytes.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        state.add(u64::from_le_bytes(word));
    }
    state.finish()
}

/// The checksum of one block of body words.
pub fn block_checksum(words: impl ExactSizeIterator<Item = u64>) -> u64 {
    block_checksum_of_version(FORMAT_VERSION, words)
}

/// [`block_checksum`] as tables of format `version` computed it.
pub fn block_checksum_of_version(version: u32, words: impl ExactSizeIterator<Item = u64>) -> u64 {
    let len = words.len() as u64 * 8;
    let mut sum = if version == OLD_FORMAT_VERSION {
        Checksum::version_2(len)
    } else {
        Checksum::new(len)
    };
    words.for_each(|w| sum.add(w));
    sum.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Header {
        let mut header = Header::new(
            BodyKind::Outcomes { unsafe_count: 99 },
            "octal:0.77".into(),
            Convention::Misere,
            Domain::Total { total: 60 },
            1234,
            1,
        );
        header.lay_out(42);
        header
    }

    #[test]
    fn roundtrip_and_alignment() {
        let header = sample();
        let bytes = header.encode();
        assert_eq!(bytes.len() as u64, header.index_offset);
        assert_eq!(header.index_offset % 64, 0);
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

    #[test]
    fn two_bit_flips_in_neighbouring_words_change_the_checksum() {
        // Every pair of one flipped bit in word 0 and one in word 1 (version 2's
        // checksum missed bit 63 with bit 28, and bit 62 with bit 27).
        let words: Vec<u64> = vec![0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210, 42];
        let sum = block_checksum(words.iter().copied());
        for a in 0..64 {
            for b in 0..64 {
                let mut damaged = words.clone();
                damaged[0] ^= 1 << a;
                damaged[1] ^= 1 << b;
                assert_ne!(
                    block_checksum(damaged.iter().copied()),
                    sum,
                    "bits {a}, {b}"
                );
            }
        }
    }

    #[test]
    fn old_formats_get_a_clear_message() {
        let mut bytes = sample().encode();
        bytes[8] = 1;
        let err = Header::decode(&bytes, "t").unwrap_err().to_string();
        assert!(err.contains("version 1") && err.contains("older"), "{err}");
        let mut old_nim = b"SICHRNIM".to_vec();
        old_nim.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]);
        let err = Header::decode(&old_nim, "t").unwrap_err().to_string();
        assert!(err.contains("nim-values"), "{err}");
    }
}

//! The table container on disk: one layout for every body kind. bincode is used here and
//! nowhere else.
//!
//! ```text
//! 0          8  magic "SICHRTBL"
//! 8         12  format version, u32 little-endian (3; version 2 is read too)
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
use crate::error::{Error, Hint, Result, TableKind};
use crate::game::Convention;
use crate::theory::grundy::Periodicity;
pub use crate::theory::quotient::learn::QuotientModel;
use crate::value::{Outcome, Value};

/// The first eight bytes of every table.
pub const MAGIC: [u8; 8] = *b"SICHRTBL";
/// The first eight bytes of the nim-value tables of format 1.
const OLD_NIM_MAGIC: [u8; 8] = *b"SICHRNIM";
/// The format version this build writes (it reads this and [`OLD_FORMAT_VERSION`]).
/// Version 3: compressed bodies, and a checksum step that folds and multiplies twice
/// (version 2's one multiply and rotation let a flip of bit 63 of one word be undone by
/// a flip of bit 28 of the next).
pub const FORMAT_VERSION: u32 = 3;
/// The older format version this build still reads: flat bodies, the old checksum.
pub const OLD_FORMAT_VERSION: u32 = 2;
/// Bytes before the encoded header: magic, version, header length.
pub const PREFIX_LEN: usize = 16;
/// Sections start at multiples of this, so the body can be memory-mapped as words.
pub const ALIGN: u64 = 64;
/// Body bytes per checked block.
pub const BLOCK_BYTES: u64 = 1 << 16;
/// Encoded headers longer than this are corrupt: a few short strings and, with a learned
/// prediction, a model of at most 255 x 255 products and a few thousand heap sizes.
const MAX_HEADER_LEN: u32 = 1 << 20;
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

/// What an outcome body's residual is taken against (see [`super::predict`]).
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
        }
    }

    /// The kind's name, as `info` prints it.
    pub fn name(&self) -> &'static str {
        match self {
            BodyKind::Outcomes { .. } => "outcomes",
            BodyKind::NimValues { .. } => "nim-values",
            BodyKind::Remoteness { .. } => "remoteness",
            BodyKind::Quotient { .. } => "misère quotient",
        }
    }

    /// True when the entries are positions of the domain (not heap sizes), so a
    /// position's children are in the table too.
    pub fn holds_positions(&self) -> bool {
        match self {
            BodyKind::Outcomes { .. } | BodyKind::Remoteness { .. } => true,
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

/// The provenance as stored: a fixed size whatever the way, so a streaming writer may set
/// it after laying the header out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
struct StoredProvenance {
    /// 0 unrecorded, 1 retrograde, 2 words, 3 period, 4 nim-values.
    way: u8,
    preperiod: u64,
    period: u64,
    proved_at: u64,
}

impl StoredProvenance {
    fn of(provenance: Provenance) -> Self {
        let mut stored = StoredProvenance {
            way: 0,
            preperiod: 0,
            period: 0,
            proved_at: u64::MAX,
        };
        stored.way = match provenance {
            Provenance::Unrecorded => 0,
            Provenance::Retrograde => 1,
            Provenance::Words => 2,
            Provenance::Period(p) => {
                stored.preperiod = p.preperiod;
                stored.period = p.period;
                stored.proved_at = p.proved_at.unwrap_or(u64::MAX);
                3
            }
            Provenance::NimValues => 4,
        };
        stored
    }

    fn provenance(self) -> Option<Provenance> {
        Some(match self.way {
            0 => Provenance::Unrecorded,
            1 => Provenance::Retrograde,
            2 => Provenance::Words,
            3 if self.period > 0 => Provenance::Period(Periodicity {
                preperiod: self.preperiod,
                period: self.period,
                proved_at: (self.proved_at != u64::MAX).then_some(self.proved_at),
            }),
            4 => Provenance::NimValues,
            _ => return None,
        })
    }
}

/// The domain as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
enum StoredDomain {
    Heaps { heaps: u32, max: u64 },
    Total { total: u64 },
}

/// The body kind as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
enum StoredKind {
    Outcomes {
        unsafe_count: u64,
    },
    NimValues {
        /// `(preperiod, period, proved_at)`.
        period: Option<(u64, u64, u64)>,
    },
    Remoteness {
        rmax: u32,
    },
    Quotient {
        order: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
enum StoredCodec {
    Flat,
    Zstd { level: i32 },
}

#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
enum StoredPrediction {
    None,
    NimSum,
    TameMisere,
    Moore,
    Quotient {
        learned_total: u64,
        phi: Vec<u8>,
        mul: Vec<u8>,
        unsafe_bits: Vec<u8>,
    },
}

/// The header of format 3: format 2's fields, then how the body is stored.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
struct Stored {
    old: StoredV2,
    codec: StoredCodec,
    prediction: StoredPrediction,
    prediction_check: u64,
    stored_len: u64,
    quotient: Option<QuotientMeta>,
    provenance: StoredProvenance,
}

/// The header of format 2.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
struct StoredV2 {
    kind: StoredKind,
    game: String,
    misere: bool,
    domain: StoredDomain,
    entries: u64,
    width: u8,
    histogram: Option<Vec<u64>>,
    index_offset: u64,
    body_offset: u64,
    index_checksum: u64,
    sicher_version: String,
}

fn config() -> impl bincode::config::Config {
    // The limit (decoding only) stops a length prefix in a header whose checksum was
    // forged to match from asking for exabytes before a byte is read.
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_limit::<{ 2 * MAX_HEADER_LEN as usize }>()
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
        // Fixed-width integers: the offsets' values do not change the encoded length.
        let header_end = (PREFIX_LEN + self.encode_fields().len() + 8) as u64;
        self.index_offset = header_end.next_multiple_of(ALIGN);
        self.body_offset = (self.index_offset + self.index_len()).next_multiple_of(ALIGN);
    }

    fn encode_fields(&self) -> Vec<u8> {
        let old = StoredV2 {
            kind: match self.kind {
                BodyKind::Outcomes { unsafe_count } => StoredKind::Outcomes { unsafe_count },
                BodyKind::NimValues { period } => StoredKind::NimValues {
                    period: period.and_then(|p| p.proved_at.map(|at| (p.preperiod, p.period, at))),
                },
                BodyKind::Remoteness { rmax } => StoredKind::Remoteness { rmax },
                BodyKind::Quotient { order } => StoredKind::Quotient { order },
            },
            game: self.game.clone(),
            misere: self.convention == Convention::Misere,
            domain: match self.domain {
                Domain::Heaps { heaps, max } => StoredDomain::Heaps { heaps, max },
                Domain::Total { total } => StoredDomain::Total { total },
            },
            entries: self.entries,
            width: self.width,
            histogram: self.histogram.clone(),
            index_offset: self.index_offset,
            body_offset: self.body_offset,
            index_checksum: self.index_checksum,
            sicher_version: self.sicher_version.clone(),
        };
        let stored = Stored {
            old,
            codec: match self.codec {
                Codec::Flat => StoredCodec::Flat,
                Codec::Zstd { level } => StoredCodec::Zstd { level },
            },
            prediction: match &self.prediction {
                Prediction::None => StoredPrediction::None,
                Prediction::NimSum => StoredPrediction::NimSum,
                Prediction::TameMisere => StoredPrediction::TameMisere,
                Prediction::Moore => StoredPrediction::Moore,
                Prediction::Quotient(m) => StoredPrediction::Quotient {
                    learned_total: m.learned_total,
                    phi: m.phi.clone(),
                    mul: m.mul.clone(),
                    unsafe_bits: m.unsafe_bits.clone(),
                },
            },
            prediction_check: self.prediction_check,
            stored_len: self.stored_len,
            quotient: self.quotient.clone(),
            provenance: StoredProvenance::of(self.provenance),
        };
        // Encoding plain strings and integers into a Vec cannot fail.
        bincode::encode_to_vec(&stored, config()).unwrap_or_default()
    }

    /// Everything before the index: prefix, header, checksum and padding.
    pub fn encode(&self) -> Vec<u8> {
        let fields = self.encode_fields();
        let mut out = Vec::with_capacity(self.index_offset as usize);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(fields.len() as u32).to_le_bytes());
        out.extend_from_slice(&fields);
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out.resize(self.index_offset as usize, 0);
        out
    }

    /// Decodes and checks the header at the start of `bytes` (the whole file or more of
    /// it); `origin` names the file in errors.
    pub fn decode(bytes: &[u8], origin: &str) -> Result<Self> {
        let bad = |why: &str| Error::damaged(format!("{origin}: {why}"));
        if bytes.len() >= 8 && bytes[..8] == OLD_NIM_MAGIC {
            return Err(bad(
                "a nim-value table of format version 1, which this sicher no longer reads (it reads version 2)",
            )
            .with_hint(Hint::WriteAgain(TableKind::NimValues)));
        }
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(bad("not a sicher table (bad magic)"));
        }
        if bytes.len() < PREFIX_LEN {
            return Err(bad("truncated table (the header is cut short)"));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]));
        let version = word(8);
        if version != FORMAT_VERSION && version != OLD_FORMAT_VERSION {
            let error = bad(&format!(
                "table format version {version} is not supported (this sicher reads versions {OLD_FORMAT_VERSION} and {FORMAT_VERSION}); it was written by {} sicher",
                if version < FORMAT_VERSION { "an older" } else { "a newer" }
            ));
            return Err(if version < FORMAT_VERSION {
                error.with_hint(Hint::WriteAgain(TableKind::Positions))
            } else {
                error
            });
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
        if checksum_of_version(version, &bytes[..end]) != stored_sum {
            return Err(bad("corrupted table header (header checksum mismatch)"));
        }
        let fields = &bytes[PREFIX_LEN..end];
        let cannot = |_| bad("corrupted table header (cannot decode it)");
        let (stored, used): (Stored, usize) = if version == OLD_FORMAT_VERSION {
            let (old, used): (StoredV2, usize) =
                bincode::decode_from_slice(fields, config()).map_err(cannot)?;
            let stored_len = body_len(old.entries, old.width);
            let stored = Stored {
                old,
                codec: StoredCodec::Flat,
                prediction: StoredPrediction::None,
                prediction_check: 0,
                stored_len,
                quotient: None,
                provenance: StoredProvenance::of(Provenance::Unrecorded),
            };
            (stored, used)
        } else {
            bincode::decode_from_slice(fields, config()).map_err(cannot)?
        };
        if used != len as usize {
            return Err(bad("corrupted table header (trailing bytes)"));
        }
        let Stored {
            old: stored,
            codec,
            prediction,
            prediction_check,
            stored_len,
            quotient,
            provenance,
        } = stored;
        let Some(provenance) = provenance.provenance() else {
            return Err(bad("corrupted table header (unknown provenance)"));
        };
        let kind = match stored.kind {
            StoredKind::Outcomes { unsafe_count } => BodyKind::Outcomes { unsafe_count },
            StoredKind::NimValues { period } => BodyKind::NimValues {
                period: period.map(|(preperiod, period, proved_at)| Periodicity {
                    preperiod,
                    period,
                    proved_at: Some(proved_at),
                }),
            },
            StoredKind::Remoteness { rmax } => BodyKind::Remoteness { rmax },
            StoredKind::Quotient { order } => BodyKind::Quotient { order },
        };
        let header = Header {
            kind,
            game: stored.game,
            convention: if stored.misere {
                Convention::Misere
            } else {
                Convention::Normal
            },
            domain: match stored.domain {
                StoredDomain::Heaps { heaps, max } => Domain::Heaps { heaps, max },
                StoredDomain::Total { total } => Domain::Total { total },
            },
            entries: stored.entries,
            width: stored.width,
            histogram: stored.histogram,
            index_offset: stored.index_offset,
            body_offset: stored.body_offset,
            index_checksum: stored.index_checksum,
            sicher_version: stored.sicher_version,
            codec: match codec {
                StoredCodec::Flat => Codec::Flat,
                StoredCodec::Zstd { level } => Codec::Zstd { level },
            },
            prediction: match prediction {
                StoredPrediction::None => Prediction::None,
                StoredPrediction::NimSum => Prediction::NimSum,
                StoredPrediction::TameMisere => Prediction::TameMisere,
                StoredPrediction::Moore => Prediction::Moore,
                StoredPrediction::Quotient {
                    learned_total,
                    phi,
                    mul,
                    unsafe_bits,
                } => Prediction::Quotient(QuotientModel {
                    learned_total,
                    phi,
                    mul,
                    unsafe_bits,
                }),
            },
            prediction_check,
            stored_len,
            version,
            quotient,
            provenance,
        };
        header
            .check_consistency(end as u64 + 8)
            .map_err(|why| bad(&why))?;
        Ok(header)
    }

    /// Refuses fields that contradict each other (a checksum only proves the writer
    /// meant them).
    fn check_consistency(&self, header_end: u64) -> std::result::Result<(), String> {
        let corrupted = |why: &str| Err(format!("corrupted table header ({why})"));
        if !(1..=32).contains(&self.width) {
            return corrupted("impossible entry width");
        }
        if self.entries == 0 || self.entries > crate::domain::MAX_ENTRIES {
            return corrupted("impossible number of entries");
        }
        let index_ok = self.index_offset.is_multiple_of(ALIGN) && self.index_offset >= header_end;
        let body_ok = self.body_offset.is_multiple_of(ALIGN)
            && self.body_offset >= self.index_offset.saturating_add(self.index_len());
        if !index_ok || !body_ok {
            return corrupted("bad body offset");
        }
        match self.codec {
            Codec::Flat => {
                if self.stored_len != self.body_len() {
                    return corrupted("flat body of the wrong length");
                }
                if self.prediction != Prediction::None {
                    return corrupted("a flat body predicts nothing");
                }
            }
            Codec::Zstd { level } => {
                if !(1..=22).contains(&level) {
                    return corrupted("impossible compression level");
                }
                // Stored blocks are never longer than the words they hold.
                if self.stored_len > self.body_len() {
                    return corrupted("stored body longer than its words");
                }
            }
        }
        if self.prediction != Prediction::None && !matches!(self.kind, BodyKind::Outcomes { .. }) {
            return corrupted("only outcomes are predicted");
        }
        if let Prediction::Quotient(model) = &self.prediction {
            if model.elements() == 0 {
                return corrupted("impossible quotient");
            }
        }
        match self.kind {
            BodyKind::Outcomes { unsafe_count } => {
                if self.width != 1 {
                    return corrupted("outcomes take one bit");
                }
                if unsafe_count > self.entries {
                    return corrupted("more unsafe positions than entries");
                }
            }
            BodyKind::NimValues { period } => {
                if !matches!(self.domain, Domain::Heaps { heaps: 1, .. })
                    || self.convention != Convention::Normal
                {
                    return corrupted("nim-values cover one heap in normal play");
                }
                if let Some(p) = period {
                    let proved_at = p.proved_at.unwrap_or(u64::MAX);
                    if p.period == 0
                        || proved_at >= self.entries
                        || p.preperiod.saturating_add(p.period) > self.entries
                    {
                        return corrupted("impossible period");
                    }
                }
            }
            BodyKind::Remoteness { rmax } => {
                if self.width != bits_for(u64::from(rmax)) {
                    return corrupted("remoteness width does not fit its largest value");
                }
                if let Some(histogram) = &self.histogram {
                    let counted: u64 = histogram.iter().fold(0u64, |a, &c| a.saturating_add(c));
                    if histogram.len() as u64 != u64::from(rmax) + 1 || counted != self.entries {
                        return corrupted("remoteness histogram does not add up");
                    }
                }
            }
            BodyKind::Quotient { order } => {
                let Some(meta) = &self.quotient else {
                    return corrupted("a quotient without its elements");
                };
                let pairs = u64::from(order) * (u64::from(order) + 1) / 2;
                let in_range = |x: &u32| *x < order;
                if order == 0
                    || self.domain
                        != (Domain::Heaps {
                            heaps: 2,
                            max: u64::from(order) - 1,
                        })
                    || self.entries != pairs
                    || self.width != bits_for(u64::from(order) - 1)
                    || self.convention != Convention::Misere
                    || meta.p_portion.len() != order as usize
                    || meta.heap_elements.len() as u64 != meta.max_heap
                    || !in_range(&meta.identity)
                    || !meta.heap_elements.iter().all(in_range)
                {
                    return corrupted("impossible quotient");
                }
            }
        }
        // Printed by `info`: a version that is not short and printable was not written
        // by sicher.
        if self.sicher_version.len() > 64 || self.sicher_version.chars().any(char::is_control) {
            return corrupted("impossible sicher version");
        }
        if self.histogram.is_some() && !matches!(self.kind, BodyKind::Remoteness { .. }) {
            return corrupted("a histogram belongs to remoteness tables");
        }
        if self.provenance != Provenance::Unrecorded && !self.kind.holds_positions() {
            return corrupted("a provenance belongs to tables of positions");
        }
        if self.quotient.is_some() && !matches!(self.kind, BodyKind::Quotient { .. }) {
            return corrupted("quotient elements belong to quotient tables");
        }
        Ok(())
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

//! The header as bincode stores it: fixed-size, versioned types apart from the
//! [`Header`] the rest of sicher reads, and the encoding and decoding between the two
//! (format 3, and format 2 read as it was).

use bincode::{Decode, Encode};

use super::format::*;
use crate::domain::Domain;
use crate::error::{Error, Hint, Result, TableKind};
use crate::game::Convention;
use crate::theory::grundy::Periodicity;

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
                saltus: 0,
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
    /// Format 4 only (after the others, so their encodings stay).
    Partizan {
        classes: [u64; 4],
    },
}

/// One custom ruleset's option lists as stored (see [`crate::game::OptionLists`]).
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
struct StoredLists {
    spec: String,
    per_heap: Vec<u32>,
    parts: Vec<u32>,
}

/// The header of format 4: format 3's, then what the table carries.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
struct StoredV4 {
    v3: Stored,
    rules: Vec<StoredLists>,
    sides: Option<(String, String)>,
    terminal: Option<String>,
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

/// [`config`] for the headers of format 4, which may carry option lists.
fn carrying_config() -> impl bincode::config::Config {
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_limit::<{ 2 * MAX_CARRYING_HEADER_LEN as usize }>()
}

impl Header {
    pub(super) fn encode_fields(&self) -> Vec<u8> {
        let old = StoredV2 {
            kind: match self.kind {
                BodyKind::Outcomes { unsafe_count } => StoredKind::Outcomes { unsafe_count },
                BodyKind::NimValues { period } => StoredKind::NimValues {
                    period: period.and_then(|p| p.proved_at.map(|at| (p.preperiod, p.period, at))),
                },
                BodyKind::Remoteness { rmax } => StoredKind::Remoteness { rmax },
                BodyKind::Quotient { order } => StoredKind::Quotient { order },
                BodyKind::Partizan { classes } => StoredKind::Partizan { classes },
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
        if self.written_version() == FORMAT_VERSION {
            // Encoding plain strings and integers into a Vec cannot fail.
            return bincode::encode_to_vec(&stored, config()).unwrap_or_default();
        }
        let carried = StoredV4 {
            v3: stored,
            rules: self
                .carried
                .rules
                .iter()
                .map(|r| StoredLists {
                    spec: r.spec.clone(),
                    per_heap: r.per_heap.clone(),
                    parts: r.parts.clone(),
                })
                .collect(),
            sides: self.carried.sides.clone(),
            terminal: self.carried.terminal.clone(),
        };
        bincode::encode_to_vec(&carried, carrying_config()).unwrap_or_default()
    }

    /// Everything before the index: prefix, header, checksum and padding.
    pub fn encode(&self) -> Vec<u8> {
        let fields = self.encode_fields();
        let mut out = Vec::with_capacity(self.index_offset as usize);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&self.written_version().to_le_bytes());
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
        if !(OLD_FORMAT_VERSION..=CARRYING_FORMAT_VERSION).contains(&version) {
            let error = bad(&format!(
                "table format version {version} is not supported (this sicher reads versions {OLD_FORMAT_VERSION} to {CARRYING_FORMAT_VERSION}); it was written by {} sicher",
                if version < FORMAT_VERSION { "an older" } else { "a newer" }
            ));
            return Err(if version < FORMAT_VERSION {
                error.with_hint(Hint::WriteAgain(TableKind::Positions))
            } else {
                error
            });
        }
        let len = word(12);
        let most = if version == CARRYING_FORMAT_VERSION {
            MAX_CARRYING_HEADER_LEN
        } else {
            MAX_HEADER_LEN
        };
        if len > most {
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
        let mut carried = Carried::default();
        let (stored, used): (Stored, usize) = if version == CARRYING_FORMAT_VERSION {
            let (v4, used): (StoredV4, usize) =
                bincode::decode_from_slice(fields, carrying_config()).map_err(cannot)?;
            carried = Carried {
                rules: v4
                    .rules
                    .into_iter()
                    .map(|r| crate::game::OptionLists {
                        spec: r.spec,
                        per_heap: r.per_heap,
                        parts: r.parts,
                    })
                    .collect(),
                sides: v4.sides,
                terminal: v4.terminal,
            };
            (v4.v3, used)
        } else if version == OLD_FORMAT_VERSION {
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
                    saltus: 0,
                    proved_at: Some(proved_at),
                }),
            },
            StoredKind::Remoteness { rmax } => BodyKind::Remoteness { rmax },
            StoredKind::Quotient { order } => BodyKind::Quotient { order },
            StoredKind::Partizan { classes } => BodyKind::Partizan { classes },
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
            carried,
        };
        if (header.written_version() == CARRYING_FORMAT_VERSION)
            != (version == CARRYING_FORMAT_VERSION)
        {
            return Err(bad(
                "corrupted table header (its format version does not fit what it holds)",
            ));
        }
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
            BodyKind::Partizan { classes } => {
                if self.width != 2 {
                    return corrupted("partizan outcomes take two bits");
                }
                if classes.iter().fold(0u64, |a, &c| a.saturating_add(c)) != self.entries {
                    return corrupted("partizan classes do not add up");
                }
                if self.carried.sides.is_none() {
                    return corrupted("a partizan table without its players' rules");
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
        let partizan = matches!(self.kind, BodyKind::Partizan { .. });
        if !partizan && (self.carried.sides.is_some() || self.carried.terminal.is_some()) {
            return corrupted("players' rules belong to partizan tables");
        }
        if self.carried.terminal.is_some() && self.convention != Convention::Normal {
            return corrupted("a terminal script with a convention");
        }
        Ok(())
    }
}

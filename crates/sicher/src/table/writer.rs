//! Writing a table: [`TableWriter`] takes the body as a stream of words in rank order,
//! encodes blocks in parallel (residuals against the header's prediction, zstd) and
//! writes the header and index last, so the file appears whole or not at all.

use std::path::Path;

use rayon::prelude::*;

use super::format::{self, BodyKind, Codec, Header, Prediction, Provenance, BLOCK_BYTES};
use super::predict::{self, Predictor};
use super::{codec, Storage, ZSTD_LEVEL};
use crate::atomic_file::{AtomicFile, Replace};
use crate::checksum::checksum;
use crate::domain::{Positions, Ranker};
use crate::error::{Error, Result};
use crate::game::Game;

/// Words per checked block.
pub(crate) const BLOCK_WORDS: usize = (BLOCK_BYTES / 8) as usize;
/// Blocks encoded in parallel at a time.
const BATCH_BLOCKS: usize = 16;
/// Bytes a [`TableWriter`] holds besides its prediction's tables: a batch of blocks,
/// their residuals and their encodings.
pub const WRITER_BYTES: u64 = 3 * BATCH_BLOCKS as u64 * BLOCK_BYTES;

/// Writes a table from its body words, given in order in pieces of any length: the
/// body is never held whole. Outcome counts in the header are filled in from the words.
pub struct TableWriter {
    file: AtomicFile,
    header: Header,
    game: Game,
    ranker: Ranker,
    predictor: Predictor,
    level: Option<i32>,
    /// Words of the blocks not yet written.
    pending: Vec<u64>,
    /// Words received so far.
    received: u64,
    /// Blocks written so far.
    written: u64,
    /// The index as written so far.
    index: Vec<u8>,
    /// Set bits counted in the words (safe positions of an outcome body).
    ones: u64,
}

impl TableWriter {
    /// Starts writing a table of `header.entries` fields of `header.width` bits; the
    /// file appears complete at [`finish`](Self::finish) or not at all. A compressed
    /// outcome body is stored as its residual against `header.prediction`, or, when that
    /// is none, against the exact theory of the game where there is one.
    pub fn create(
        path: &Path,
        mut header: Header,
        storage: Storage,
        replace: Replace,
    ) -> Result<Self> {
        // A partizan table's game spec names both players; Left's rules stand for the
        // game here (its body is predicted by nothing).
        let game = match &header.carried.sides {
            Some((left, _)) => crate::game::parse_spec(left)?,
            None => crate::game::parse_spec(&header.game)?,
        }
        .with_convention(header.convention);
        carry_rules(&mut header)?;
        let ranker = Ranker::new(header.domain)?;
        if ranker.count() != header.entries {
            return Err(Error::internal(format!(
                "{} entries for a domain of {}",
                header.entries,
                ranker.count()
            )));
        }
        header.codec = match storage {
            Storage::Flat => Codec::Flat,
            Storage::Compressed => Codec::Zstd { level: ZSTD_LEVEL },
        };
        // The caller may give a prediction (a learned misère quotient); otherwise a
        // compressed outcome body takes the exact theory there is.
        header.prediction = match (storage, header.kind, header.prediction) {
            (Storage::Compressed, BodyKind::Outcomes { .. }, Prediction::None) => {
                predict::choose(&game, header.domain)
            }
            (Storage::Compressed, BodyKind::Outcomes { .. }, given) => given,
            _ => Prediction::None,
        };
        let predictor =
            Predictor::build(&header.prediction, &game, header.domain).map_err(Error::internal)?;
        header.prediction_check = predictor.check();
        header.stored_len = 0;
        header.lay_out(0);
        let mut file = AtomicFile::create(path, replace)?;
        // A placeholder of the final length: the header and index are written last.
        file.write_all(&vec![0u8; header.body_offset as usize])?;
        Ok(TableWriter {
            file,
            level: match header.codec {
                Codec::Flat => None,
                Codec::Zstd { level } => Some(level),
            },
            header,
            game,
            ranker,
            predictor,
            pending: Vec::with_capacity(BLOCK_WORDS * BATCH_BLOCKS),
            received: 0,
            written: 0,
            index: Vec::new(),
            ones: 0,
        })
    }

    /// The game the table is written for (Left's rules, for a partizan table).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Records how the entries were decided (the header's size does not change).
    pub fn set_provenance(&mut self, provenance: Provenance) {
        self.header.provenance = provenance;
    }

    /// Appends body words (the next in order).
    pub fn push(&mut self, words: &[u64]) -> Result<()> {
        let expected = self.header.body_len() / 8;
        self.received += words.len() as u64;
        if self.received > expected {
            return Err(Error::internal(format!(
                "more than {expected} body words for {} entries of {} bits",
                self.header.entries, self.header.width
            )));
        }
        let mut rest = words;
        while !rest.is_empty() {
            let room = BLOCK_WORDS * BATCH_BLOCKS - self.pending.len();
            let (now, later) = rest.split_at(room.min(rest.len()));
            self.pending.extend_from_slice(now);
            rest = later;
            if self.pending.len() == BLOCK_WORDS * BATCH_BLOCKS {
                self.write_pending()?;
            }
        }
        Ok(())
    }

    /// Encodes and writes the pending blocks (a partial last block only at the end).
    fn write_pending(&mut self) -> Result<()> {
        self.ones += self
            .pending
            .iter()
            .map(|w| u64::from(w.count_ones()))
            .sum::<u64>();
        let first = self.written;
        let Some(level) = self.level else {
            for block in self.pending.chunks(BLOCK_WORDS) {
                let sum = format::block_checksum(block.iter().copied());
                self.index.extend_from_slice(&sum.to_le_bytes());
                let bytes: Vec<u8> = block.iter().flat_map(|w| w.to_le_bytes()).collect();
                self.file.write_all(&bytes)?;
                self.written += 1;
            }
            self.pending.clear();
            return Ok(());
        };
        let (ranker, predictor, entries) = (&self.ranker, &self.predictor, self.header.entries);
        let encoded: Vec<(u8, bool, Vec<u8>, u64)> = self
            .pending
            .par_chunks(BLOCK_WORDS)
            .enumerate()
            .map(|(i, words)| {
                let block = first + i as u64;
                encode_block(ranker, predictor, entries, block, words, level)
            })
            .collect();
        for ((encoding, predicted, bytes, words_sum), _) in encoded.into_iter().zip(0..) {
            let end = self.header.stored_len + bytes.len() as u64;
            let info = u64::from(encoding) | if predicted { codec::PREDICTED } else { 0 };
            let entry = codec::Entry {
                end,
                info,
                stored_sum: codec::stored_checksum(info, &bytes),
                words_sum,
            };
            self.index.extend_from_slice(&entry.to_bytes());
            self.file.write_all(&bytes)?;
            self.header.stored_len = end;
            self.written += 1;
        }
        self.pending.clear();
        Ok(())
    }

    /// Writes the last block, the index and the header, and gives the file its name.
    pub fn finish(mut self) -> Result<Header> {
        let expected = self.header.body_len() / 8;
        if self.received != expected {
            return Err(Error::internal(format!(
                "{} body words for {} entries of {} bits (expected {expected})",
                self.received, self.header.entries, self.header.width
            )));
        }
        self.write_pending()?;
        if let BodyKind::Outcomes { .. } = self.header.kind {
            self.header.kind = BodyKind::Outcomes {
                unsafe_count: self.header.entries - self.ones,
            };
        }
        if self.level.is_none() {
            self.header.stored_len = self.header.body_len();
        }
        let placeholder = self.header.body_offset;
        self.header.lay_out(checksum(&self.index));
        if self.header.body_offset != placeholder {
            return Err(Error::internal("the header changed length"));
        }
        let mut prefix = self.header.encode();
        prefix.extend_from_slice(&self.index);
        prefix.resize(self.header.body_offset as usize, 0);
        self.file.write_at(0, &prefix)?;
        self.file.commit()?;
        Ok(self.header)
    }
}

/// Encodes block `block` of the body: the smaller of the residual against the
/// prediction and the words themselves. Returns the encoding, whether the residual was
/// kept, the stored bytes and the decoded words' checksum.
fn encode_block(
    ranker: &Ranker,
    predictor: &Predictor,
    entries: u64,
    block: u64,
    words: &[u64],
    level: i32,
) -> (u8, bool, Vec<u8>, u64) {
    let mut scratch = Vec::new();
    let plain = || {
        let (encoding, bytes) = codec::encode(words, level, &mut Vec::new());
        (
            encoding,
            false,
            bytes,
            format::block_checksum(words.iter().copied()),
        )
    };
    if predictor.is_none() {
        return plain();
    }
    let residual = residual(ranker, predictor, entries, block, words);
    let (encoding, bytes) = codec::encode(&residual, level, &mut scratch);
    let predicted = (
        encoding,
        true,
        bytes,
        format::block_checksum(residual.iter().copied()),
    );
    // Under 1 wrong prediction in 64 the residual is always the smaller: skip the
    // second compression.
    let wrong: u64 = residual.iter().map(|w| u64::from(w.count_ones())).sum();
    if wrong <= residual.len() as u64 {
        return predicted;
    }
    let flat = plain();
    if flat.2.len() < predicted.2.len() {
        flat
    } else {
        predicted
    }
}

/// The words of block `block` XOR the predicted outcomes (an involution: it also turns
/// a residual back into outcomes).
pub(crate) fn residual(
    ranker: &Ranker,
    predictor: &Predictor,
    entries: u64,
    block: u64,
    words: &[u64],
) -> Vec<u64> {
    let first = block * BLOCK_WORDS as u64 * 64;
    let mut out = words.to_vec();
    if first >= entries {
        return out;
    }
    let mut positions = Positions::new(ranker, first);
    let last = (first + words.len() as u64 * 64).min(entries);
    for rank in first..last {
        if predictor.safe(positions.heaps()) {
            out[((rank - first) / 64) as usize] ^= 1 << (rank % 64);
        }
        if rank + 1 < last {
            positions.advance();
        }
    }
    out
}

/// Writes a table whose body words are all in memory, compressed. The offsets and
/// checksums of `header` are filled in; the file appears complete or not at all.
pub fn write(path: &Path, header: Header, words: &[u64], replace: Replace) -> Result<Header> {
    write_stored(path, header, words, Storage::Compressed, replace)
}

/// Writes a table whose body words are all in memory, stored as `storage` says.
pub fn write_stored(
    path: &Path,
    header: Header,
    words: &[u64],
    storage: Storage,
    replace: Replace,
) -> Result<Header> {
    if words.len() as u64 * 8 != header.body_len() {
        return Err(Error::internal(format!(
            "{} body words for {} entries of {} bits",
            words.len(),
            header.entries,
            header.width
        )));
    }
    let mut writer = TableWriter::create(path, header, storage, replace)?;
    writer.push(words)?;
    writer.finish()
}

/// Packs `entries` fields of `width` bits (1 to 32) into body words; an allocation the
/// system refuses is an error.
pub fn pack(entries: u64, width: u8, fields: impl Iterator<Item = u64>) -> Result<Vec<u64>> {
    let len = usize::try_from(format::body_len(entries, width) / 8).unwrap_or(usize::MAX);
    let mut words = Vec::new();
    words.try_reserve_exact(len).map_err(|_| {
        Error::resource(format!(
            "not enough memory to pack {entries} entries of {width} bits"
        ))
    })?;
    words.resize(len, 0u64);
    let width = u64::from(width);
    for (rank, field) in fields.enumerate() {
        let bit = rank as u64 * width;
        let (index, shift) = ((bit / 64) as usize, bit % 64);
        words[index] |= field << shift;
        if shift + width > 64 {
            words[index + 1] |= field >> (64 - shift);
        }
    }
    Ok(words)
}

/// Fills in the option lists of every custom ruleset the header's game names (a script's,
/// a caller's function's) for the heaps its domain uses, so the table stands alone.
fn carry_rules(header: &mut Header) -> Result<()> {
    let specs: Vec<String> = match &header.carried.sides {
        Some((left, right)) => vec![left.clone(), right.clone()],
        None => vec![header.game.clone()],
    };
    let largest = match (&header.kind, &header.quotient) {
        (BodyKind::Quotient { .. }, Some(meta)) => meta.max_heap,
        _ => header.domain.max_heap(),
    };
    header.carried.rules.clear();
    for spec in specs {
        if header.carried.rules.iter().any(|r| r.spec == spec) {
            continue;
        }
        if let crate::game::Ruleset::Custom(rules) = crate::game::parse_spec(&spec)?.ruleset {
            let lists = crate::game::OptionLists::of(&rules, largest)?;
            let bytes = (lists.per_heap.len() + lists.parts.len()) as u64 * 4;
            // Past what a header may hold the table is written as before, naming rules
            // it does not carry: a reader without them says so (never that it is
            // damaged).
            if bytes > u64::from(super::format::MAX_CARRYING_HEADER_LEN) / 2 {
                continue;
            }
            header.carried.rules.push(lists);
        }
    }
    Ok(())
}

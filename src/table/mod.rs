//! Tables on disk: one container ([`mod@format`]) for every body kind (outcome bits,
//! remotenesses, nim-values), written atomically from a stream of body words and probed
//! memory-mapped. Bodies are compressed by default, block by block ([`codec`]), outcome
//! bodies as residuals against a prediction ([`predict`]); a small cache keeps decoded
//! blocks. Each body block is checked the first time it is read.

pub mod codec;
pub mod format;
mod predict;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use memmap2::Mmap;
use rayon::prelude::*;

use crate::atomic_file::{AtomicFile, Replace};
use crate::domain::{Domain, Ranker};
use crate::error::{Error, Hint, Result, TableKind};
use crate::game::{Convention, Game, Heap, Position, Ruleset};
use crate::theory::grundy::{Nimber, Periodicity};
use crate::theory::quotient::MisereQuotient;
use crate::value::Value;
pub use format::{
    bits_for, checksum, BodyKind, Checksum, Codec, Header, Prediction, Provenance, QuotientMeta,
    QuotientModel, BLOCK_BYTES, FORMAT_VERSION,
};
#[cfg(test)]
pub(crate) use predict::mispredicted;
use predict::Predictor;

/// Where tables go when no path is given, and where `check GAME` looks for them.
pub const DEFAULT_DIR: &str = "tables";
/// File extension of tables.
pub const EXTENSION: &str = "table";
/// The zstd level compressed tables are written at: within 1% of level 19's size on
/// sparse residuals, at a fraction of its time.
pub const ZSTD_LEVEL: i32 = 15;
/// Decoded blocks a compressed table keeps (64 MiB); a table with no more blocks keeps
/// every block it has decoded.
pub const CACHE_BLOCKS: usize = 1024;

/// The default file name for a game's table over a domain, e.g.
/// `octal-0.77-misere-total60.table` (`...-remoteness.table` for remoteness tables).
pub fn default_file_name(game: &Game, domain: Domain, remoteness: bool) -> String {
    let spec: String = game
        .ruleset
        .spec()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let kind = if remoteness { "-remoteness" } else { "" };
    format!(
        "{spec}-{}-{}{kind}.{EXTENSION}",
        game.convention,
        domain.slug()
    )
}

/// Words per checked block.
const BLOCK_WORDS: usize = (BLOCK_BYTES / 8) as usize;
/// Blocks encoded in parallel at a time.
const BATCH_BLOCKS: usize = 16;
/// Bytes a [`TableWriter`] holds besides its prediction's tables: a batch of blocks,
/// their residuals and their encodings.
pub const WRITER_BYTES: u64 = 3 * BATCH_BLOCKS as u64 * BLOCK_BYTES;

/// How a table's body is stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Storage {
    /// Blocks compressed on their own (outcomes as residuals against a prediction).
    #[default]
    Compressed,
    /// The packed words as they are, memory-mapped (format 2's body).
    Flat,
}

/// Steps through the positions of consecutive ranks without unranking each.
pub(crate) struct Positions<'a> {
    ranker: &'a Ranker,
    rank: u64,
    /// The position of `rank`: ascending, zero-padded to K heaps for `--heaps`.
    heaps: Vec<Heap>,
}

impl<'a> Positions<'a> {
    /// Starts at `rank` (`rank < count`).
    pub(crate) fn new(ranker: &'a Ranker, rank: u64) -> Self {
        let mut positions = Positions {
            ranker,
            rank,
            heaps: Vec::new(),
        };
        positions.unrank();
        positions
    }

    fn unrank(&mut self) {
        self.heaps.clear();
        self.heaps
            .extend_from_slice(self.ranker.unrank(self.rank).heaps());
        if let Ranker::Heaps(t) = self.ranker {
            let pad = t.heaps() - self.heaps.len();
            self.heaps.splice(0..0, std::iter::repeat_n(0, pad));
        }
    }

    /// The current position's heaps (ascending; zeros only with `--heaps`).
    pub(crate) fn heaps(&self) -> &[Heap] {
        &self.heaps
    }

    /// Moves to the next rank, which must exist.
    pub(crate) fn advance(&mut self) {
        self.rank += 1;
        match self.ranker {
            Ranker::Total(p) => {
                let total: Heap = self.heaps.iter().sum();
                if p.tier(total).end == self.rank {
                    self.unrank();
                } else {
                    p.advance(&mut self.heaps);
                }
            }
            // Colexicographic successor of `a_i + i`: raise the first heap below its
            // right neighbour (the last one below the maximum), zero the ones before it.
            Ranker::Heaps(t) => {
                let k = self.heaps.len();
                let mut i = 0;
                while i + 1 < k && self.heaps[i] == self.heaps[i + 1] {
                    i += 1;
                }
                if i + 1 == k && self.heaps[i] >= t.max() {
                    self.unrank();
                    return;
                }
                self.heaps[i] += 1;
                self.heaps[..i].fill(0);
            }
        }
    }
}

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
        let game = crate::game::parse_spec(&header.game)?.with_convention(header.convention);
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

    /// The game the table is written for.
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
fn residual(
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

/// Writes a misère quotient as a table: the multiplication table as the body (one entry
/// per unordered pair of elements), the rest in the header.
pub fn write_quotient(path: &Path, quotient: &MisereQuotient, replace: Replace) -> Result<Header> {
    let order = quotient.order;
    if order == 0 || quotient.table.len() != (order as usize).pow(2) {
        return Err(Error::internal(
            "a quotient without its multiplication table",
        ));
    }
    let domain = Domain::Heaps {
        heaps: 2,
        max: u64::from(order) - 1,
    };
    let ranker = Ranker::new(domain)?;
    let width = format::bits_for(u64::from(order) - 1);
    let products = (0..ranker.count()).map(|rank| {
        let (a, b) = pair_of(&ranker, rank);
        u64::from(quotient.table[a * order as usize + b])
    });
    let words = pack(ranker.count(), width, products)?;
    let mut header = Header::new(
        BodyKind::Quotient { order },
        crate::game::parse_spec(&quotient.ruleset)?.ruleset.spec(),
        Convention::Misere,
        domain,
        ranker.count(),
        width,
    );
    header.quotient = Some(QuotientMeta {
        max_heap: quotient.max_heap,
        identity: quotient.identity,
        p_portion: quotient.p_portion.clone(),
        heap_elements: quotient.heap_elements.clone(),
        generator_heaps: quotient.generator_heaps.clone(),
        relations: quotient.relations.clone(),
        normal_forms: quotient.normal_forms.clone(),
        changes: quotient.changes.clone(),
        recalibrations: quotient.recalibrations.clone(),
    });
    write_stored(path, header, &words, Storage::Compressed, replace)
}

/// The two elements of a rank of the pair domain `--heaps 2`.
fn pair_of(ranker: &Ranker, rank: u64) -> (usize, usize) {
    let heaps = ranker.unrank(rank).into_heaps();
    match heaps[..] {
        [b] => (0, b as usize),
        [a, b] => (a as usize, b as usize),
        _ => (0, 0),
    }
}

/// Reads a misère quotient table whole, checking every block and that the identity acts
/// as one.
pub fn read_quotient(path: &Path) -> Result<MisereQuotient> {
    let table = Table::open(path)?;
    let header = table.header();
    let bad = |why: &str| Error::damaged(format!("{}: {why}", path.display()));
    let (BodyKind::Quotient { order }, Some(meta)) = (header.kind, &header.quotient) else {
        return Err(
            Error::input(format!("{}: not a misère quotient table", path.display()))
                .with_hint(Hint::WriteAgain(TableKind::Quotient)),
        );
    };
    table.verify()?;
    let n = order as usize;
    let mut products = vec![0u32; n * n];
    for rank in 0..header.entries {
        let (a, b) = pair_of(table.ranker(), rank);
        let x = table.field_at(rank)? as u32;
        products[a * n + b] = x;
        products[b * n + a] = x;
    }
    let identity = meta.identity as usize;
    if (0..n).any(|x| products[identity * n + x] as usize != x) {
        return Err(bad("corrupted table (the identity does not act as one)"));
    }
    Ok(MisereQuotient {
        ruleset: header.game.clone(),
        max_heap: meta.max_heap,
        order,
        identity: meta.identity,
        table: products,
        p_portion: meta.p_portion.clone(),
        heap_elements: meta.heap_elements.clone(),
        generator_heaps: meta.generator_heaps.clone(),
        relations: meta.relations.clone(),
        normal_forms: meta.normal_forms.clone(),
        changes: meta.changes.clone(),
        recalibrations: meta.recalibrations.clone(),
    })
}

/// Writes G(0..values.len()) of a one-heap ruleset as a compressed table, with the
/// period the values prove, if any.
pub fn write_nim_values(
    path: &Path,
    ruleset: &Ruleset,
    values: &[Nimber],
    period: Option<Periodicity>,
    replace: Replace,
) -> Result<Header> {
    let largest = values.iter().copied().max().unwrap_or(0);
    let width = format::bits_for(u64::from(largest));
    let entries = values.len() as u64;
    let max = entries
        .checked_sub(1)
        .ok_or_else(|| Error::input("a nim-value table needs at least G(0)"))?;
    let words = pack(entries, width, values.iter().map(|&v| u64::from(v)))?;
    let header = Header::new(
        BodyKind::NimValues {
            period: period.filter(|p| p.proved_at.is_some()),
        },
        ruleset.spec(),
        Convention::Normal,
        Domain::Heaps { heaps: 1, max },
        entries,
        width,
    );
    write(path, header, &words, replace)
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

/// A cache slot: which block it holds, and the block's words.
type Slot = Option<(u64, Box<[u64]>)>;

/// Decoded blocks of a compressed table.
enum BlockCache {
    /// Every block has a slot: decoded once, kept while the table is open.
    All(Vec<OnceLock<Box<[u64]>>>),
    /// Block `b` lives in slot `b % CACHE_BLOCKS`, replacing whichever was there.
    Some(Mutex<Vec<Slot>>),
}

/// An open, memory-mapped table of any body kind.
pub struct Table {
    path: PathBuf,
    header: Header,
    ranker: Ranker,
    game: Game,
    map: Mmap,
    /// Flat bodies: one bit per body block, set once the block matched its checksum.
    verified: Vec<AtomicU64>,
    /// Compressed bodies: the block index.
    index: Vec<codec::Entry>,
    predictor: Predictor,
    cache: BlockCache,
}

impl Table {
    /// Opens a table: checks its header, its length and its block index (each body
    /// block is checked when first read).
    pub fn open(path: &Path) -> Result<Self> {
        let origin = path.display().to_string();
        let bad = |why: String| Error::damaged(format!("{origin}: {why}"));
        // Opening a FIFO or a device would block or read garbage: regular files only.
        let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
        if meta.is_dir() {
            return Err(Error::input(format!(
                "{origin}: is a directory, not a table"
            )));
        }
        if !meta.is_file() {
            return Err(Error::input(format!(
                "{origin}: is not a regular file, so not a table"
            )));
        }
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        // SAFETY: the map is only read. Tables are written under a temporary name and
        // renamed into place, so sicher never changes a mapped file; another program
        // truncating it while mapped is outside what sicher can guard against.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
        let header = Header::decode(&map, &origin)?;
        let expected = header.file_len();
        if (map.len() as u64) < expected {
            return Err(bad(format!(
                "truncated table ({} bytes, expected {expected})",
                map.len()
            )));
        }
        if (map.len() as u64) > expected {
            return Err(bad(format!(
                "corrupted table ({} bytes, expected {expected})",
                map.len()
            )));
        }
        let index_end = (header.index_offset + header.index_len()) as usize;
        let index_bytes = &map[header.index_offset as usize..index_end];
        if format::checksum_of_version(header.version, index_bytes) != header.index_checksum {
            return Err(bad(
                "corrupted table (body checksum mismatch in the block index)".into(),
            ));
        }
        // Header games are inline specs: a crafted header never makes sicher open a file.
        let game = crate::game::parse_spec(&header.game)
            .map_err(|e| bad(format!("corrupted table header ({e})")))?
            .with_convention(header.convention);
        // Writers store the canonical spec; anything else (say, with control characters
        // that `info` would print) was not written by sicher.
        if game.ruleset.spec() != header.game {
            return Err(bad(
                "corrupted table header (the game is not a canonical spec)".into(),
            ));
        }
        // Outcome tables cover positions, which play must not lead out of the domain;
        // nim-value tables cover heap sizes.
        if header.kind.holds_positions() {
            header
                .domain
                .check_game(&game)
                .map_err(|e| bad(format!("corrupted table header ({e})")))?;
        }
        let ranker =
            Ranker::new(header.domain).map_err(|e| bad(format!("corrupted table header ({e})")))?;
        if ranker.count() != header.entries {
            return Err(bad(format!(
                "corrupted table header ({} entries, but the domain has {})",
                header.entries,
                ranker.count()
            )));
        }
        let predictor = Predictor::build(&header.prediction, &game, header.domain)
            .map_err(|why| bad(format!("corrupted table header ({why})")))?;
        if predictor.check() != header.prediction_check {
            return Err(bad(
                "its prediction's nim-values or model differ from what this sicher computes; make the table again"
                    .into(),
            ));
        }
        let index = match header.codec {
            Codec::Flat => Vec::new(),
            Codec::Zstd { .. } => read_index(&header, index_bytes)
                .map_err(|why| bad(format!("corrupted table (block index: {why})")))?,
        };
        let verified = (0..header.blocks().div_ceil(64))
            .map(|_| AtomicU64::new(0))
            .collect();
        let blocks = header.blocks() as usize;
        let cache = if blocks <= CACHE_BLOCKS {
            BlockCache::All((0..blocks).map(|_| OnceLock::new()).collect())
        } else {
            BlockCache::Some(Mutex::new(vec![None; CACHE_BLOCKS]))
        };
        Ok(Table {
            path: path.to_path_buf(),
            header,
            ranker,
            game,
            map,
            verified,
            index,
            predictor,
            cache,
        })
    }

    /// The decoded header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file this table was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The domain's ranker.
    pub fn ranker(&self) -> &Ranker {
        &self.ranker
    }

    /// The game the table was written for, rebuilt from its header.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Refuses a table written for another game or convention.
    pub fn check_game(&self, game: &Game) -> Result<()> {
        if self.header.canonical() != game.canonical() {
            return Err(Error::input(format!(
                "{}: this table is for {}, not {}",
                self.path.display(),
                self.header.canonical(),
                game.canonical()
            )));
        }
        Ok(())
    }

    /// True when the position lies in the table's domain.
    pub fn covers(&self, position: &Position) -> bool {
        self.ranker.rank(position).is_some()
    }

    /// The value of a position, or an error when it is outside the domain or its block
    /// is damaged.
    pub fn probe(&self, position: &Position) -> Result<Value> {
        let rank = self.ranker.rank(position).ok_or_else(|| {
            Error::input(format!(
                "position {position} is outside the table's domain ({}) in {}",
                self.header.domain.flags(),
                self.path.display()
            ))
        })?;
        self.value_of(position.heaps(), rank)
    }

    /// The value of rank `rank` (`rank < entries`).
    #[inline(always)]
    pub fn value_at(&self, rank: u64) -> Result<Value> {
        Ok(self
            .header
            .kind
            .value(self.field_at(rank)?, self.header.convention))
    }

    /// The value of the position of ascending heaps `heaps` (zeros allowed), whose rank
    /// is `rank`: the fast way, as the heaps make a prediction cheap.
    #[inline(always)]
    pub fn value_of(&self, heaps: &[Heap], rank: u64) -> Result<Value> {
        let (field, predicted) = self.stored_field(rank)?;
        let field = if predicted {
            field ^ u64::from(self.predictor.safe(heaps))
        } else {
            field
        };
        Ok(self.header.kind.value(field, self.header.convention))
    }

    /// The value of the position a move leads to from ascending `heaps`, the child's
    /// rank being `rank`; `scratch` holds the child's heaps when a prediction needs them.
    #[inline(always)]
    pub fn child_value(
        &self,
        heaps: &[Heap],
        removed: &[usize],
        added: &[Heap],
        rank: u64,
        scratch: &mut Vec<Heap>,
    ) -> Result<Value> {
        let (field, predicted) = self.stored_field(rank)?;
        let field = if predicted {
            field ^ u64::from(self.predictor.safe_after(heaps, removed, added, scratch))
        } else {
            field
        };
        Ok(self.header.kind.value(field, self.header.convention))
    }

    /// The field of rank `rank` (`rank < entries`), its block(s) checked on first use.
    #[inline(always)]
    pub fn field_at(&self, rank: u64) -> Result<u64> {
        let (field, predicted) = self.stored_field(rank)?;
        if predicted {
            let position = self.ranker.unrank(rank);
            return Ok(field ^ u64::from(self.predictor.safe(position.heaps())));
        }
        Ok(field)
    }

    /// The stored field of rank `rank`, and whether it is a residual.
    #[inline(always)]
    fn stored_field(&self, rank: u64) -> Result<(u64, bool)> {
        let width = u64::from(self.header.width);
        let bit = rank * width;
        let word_index = bit / 64;
        let shift = bit % 64;
        // Widths are at most 32 bits, so the mask never overflows.
        let mask = (1u64 << width) - 1;
        let (word, predicted) = self.word(word_index)?;
        let low = word >> shift;
        if shift + width <= 64 {
            Ok((low & mask, predicted))
        } else {
            // The field straddles two words (never predicted: only outcomes are).
            Ok((
                (low | self.word(word_index + 1)?.0 << (64 - shift)) & mask,
                predicted,
            ))
        }
    }

    /// Body word `index`, its block checked on first use, and whether its block holds
    /// a residual.
    #[inline(always)]
    fn word(&self, index: u64) -> Result<(u64, bool)> {
        let block = index / BLOCK_WORDS as u64;
        let at = (index % BLOCK_WORDS as u64) as usize;
        if self.header.codec == Codec::Flat {
            self.ensure_verified(block)?;
            let at = (self.header.body_offset + index * 8) as usize;
            return Ok((
                u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap_or([0; 8])),
                false,
            ));
        }
        let predicted = self.index[block as usize].predicted();
        match &self.cache {
            BlockCache::All(slots) => {
                let slot = &slots[block as usize];
                if let Some(words) = slot.get() {
                    return Ok((words[at], predicted));
                }
                let words = self.decode_block(block)?;
                let word = words[at];
                let _ = slot.set(words);
                Ok((word, predicted))
            }
            BlockCache::Some(slots) => {
                let mut slots = slots.lock().unwrap_or_else(|e| e.into_inner());
                let slot = &mut slots[block as usize % CACHE_BLOCKS];
                if let Some((b, words)) = slot {
                    if *b == block {
                        return Ok((words[at], predicted));
                    }
                }
                let words = self.decode_block(block)?;
                let word = words[at];
                *slot = Some((block, words));
                Ok((word, predicted))
            }
        }
    }

    /// Decodes one compressed block, checked: an error names the block.
    fn decode_block(&self, block: u64) -> Result<Box<[u64]>> {
        let entry = &self.index[block as usize];
        let start = if block == 0 {
            0
        } else {
            self.index[block as usize - 1].end
        };
        let body = self.header.body_offset as usize;
        let stored = &self.map[body + start as usize..body + entry.end as usize];
        let mut words =
            vec![0u64; (self.header.raw_block_len(block) / 8) as usize].into_boxed_slice();
        codec::decode(entry, stored, &mut words, &mut Vec::new()).map_err(|e| {
            let why = match e {
                codec::DecodeError::StoredChecksum => "body checksum mismatch",
                codec::DecodeError::Malformed => "compressed bytes that do not decode",
                codec::DecodeError::WordsChecksum => "decoded body checksum mismatch",
            };
            self.damaged_block(block, why)
        })?;
        Ok(words)
    }

    fn damaged_block(&self, block: u64, why: &str) -> Error {
        Error::damaged(format!(
            "{}: corrupted table ({why} in block {} of {})",
            self.path.display(),
            block + 1,
            self.header.blocks()
        ))
        .with_hint(Hint::WriteAgain(TableKind::Positions))
    }

    #[inline(always)]
    fn ensure_verified(&self, block: u64) -> Result<()> {
        let slot = &self.verified[(block / 64) as usize];
        if slot.load(Ordering::Relaxed) >> (block % 64) & 1 == 1 {
            return Ok(());
        }
        self.verify_block(block)?;
        slot.fetch_or(1 << (block % 64), Ordering::Relaxed);
        Ok(())
    }

    /// The body words of one flat block.
    fn block_words(&self, block: u64) -> impl ExactSizeIterator<Item = u64> + '_ {
        let start = (self.header.body_offset + block * BLOCK_BYTES) as usize;
        let end = (start as u64 + BLOCK_BYTES).min(self.header.file_len()) as usize;
        self.map[start..end]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
    }

    fn verify_block(&self, block: u64) -> Result<()> {
        let at = (self.header.index_offset + block * 8) as usize;
        let stored = u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap_or([0; 8]));
        let words = self.block_words(block);
        if format::block_checksum_of_version(self.header.version, words) != stored {
            return Err(self.damaged_block(block, "body checksum mismatch"));
        }
        Ok(())
    }

    /// The outcome words of one block as the writer was given them (residuals turned
    /// back), checked.
    fn outcome_words(&self, block: u64) -> Result<Vec<u64>> {
        if self.header.codec == Codec::Flat {
            self.ensure_verified(block)?;
            return Ok(self.block_words(block).collect());
        }
        let words = self.decode_block(block)?;
        if self.index[block as usize].predicted() {
            return Ok(residual(
                &self.ranker,
                &self.predictor,
                self.header.entries,
                block,
                &words,
            ));
        }
        Ok(words.into_vec())
    }

    /// Reads the whole table: every block against its checksums, the padding, the
    /// unused tail bits, and what the header counted of the entries.
    pub fn verify(&self) -> Result<()> {
        let origin = self.path.display();
        let corrupted = |why: &str| Error::damaged(format!("{origin}: corrupted table ({why})"));
        let header_len = u32::from_le_bytes(self.map[12..16].try_into().unwrap_or([0; 4]));
        let header_end = format::PREFIX_LEN + header_len as usize + 8;
        let index_end = (self.header.index_offset + self.header.index_len()) as usize;
        let padding = self.map[header_end..self.header.index_offset as usize]
            .iter()
            .chain(&self.map[index_end..self.header.body_offset as usize]);
        if padding.clone().any(|&b| b != 0) {
            return Err(corrupted("padding is not zero"));
        }
        let blocks = self.header.blocks();
        let used_bits = self.header.entries * u64::from(self.header.width);
        let outcomes = matches!(self.header.kind, BodyKind::Outcomes { .. });
        let mut safe = 0u64;
        for block in 0..blocks {
            let words = self.outcome_words(block)?;
            if block + 1 == blocks {
                let tail_bits = used_bits % 64;
                let last = words.last().copied().unwrap_or(0);
                if tail_bits != 0 && last >> tail_bits != 0 {
                    return Err(corrupted("bits past the last entry"));
                }
            }
            if outcomes {
                safe += words.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
            }
        }
        match self.header.kind {
            BodyKind::Outcomes { unsafe_count } => {
                if self.header.entries - safe != unsafe_count {
                    return Err(corrupted("unsafe count mismatch"));
                }
            }
            BodyKind::Remoteness { rmax } => {
                let mut counts = vec![0u64; rmax as usize + 1];
                for rank in 0..self.header.entries {
                    let r = self.field_at(rank)?;
                    match counts.get_mut(r as usize) {
                        Some(count) => *count += 1,
                        None => return Err(corrupted("a remoteness above the largest")),
                    }
                }
                if counts.last() == Some(&0) {
                    return Err(corrupted("the largest remoteness does not occur"));
                }
                if self.header.histogram.as_ref().is_some_and(|h| *h != counts) {
                    return Err(corrupted("remoteness histogram mismatch"));
                }
            }
            BodyKind::Quotient { order } => {
                for rank in 0..self.header.entries {
                    if self.field_at(rank)? >= u64::from(order) {
                        return Err(corrupted("a product outside the quotient"));
                    }
                }
            }
            BodyKind::NimValues { .. } => {}
        }
        Ok(())
    }
}

/// Reads and checks the index of a compressed body: ends that grow to the stored
/// length, known encodings, residuals only in outcome bodies, and lengths each
/// encoding allows.
fn read_index(header: &Header, bytes: &[u8]) -> std::result::Result<Vec<codec::Entry>, String> {
    let mut entries = Vec::with_capacity(header.blocks() as usize);
    let mut start = 0u64;
    let predicts = header.prediction != Prediction::None;
    for (block, chunk) in bytes
        .chunks_exact(format::COMPRESSED_ENTRY_BYTES as usize)
        .enumerate()
    {
        let entry = codec::Entry::from_bytes(chunk);
        let block = block as u64;
        let len = entry.end.checked_sub(start).ok_or("ends out of order")?;
        let raw = header.raw_block_len(block);
        let fits = match entry.encoding() {
            codec::ZERO => len == 0,
            codec::RAW => len == raw,
            _ => len < raw,
        };
        if !entry.well_formed() || !fits || (entry.predicted() && !predicts) {
            return Err(format!("impossible entry for block {}", block + 1));
        }
        start = entry.end;
        entries.push(entry);
    }
    if start != header.stored_len {
        return Err("blocks do not fill the stored body".into());
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{write_outcomes, write_outcomes_stored};
    use crate::game::resolve;
    use crate::label::{label, Labels, Strategy};

    fn written(dir: &Path) -> (PathBuf, Labels, Ranker) {
        let game = resolve("kayles").unwrap();
        let domain = Domain::Total { total: 20 };
        let ranker = Ranker::new(domain).unwrap();
        let labels = label(&game, &ranker, Strategy::Forward, &|_| {}).unwrap();
        let path = dir.join(default_file_name(&game, domain, false));
        // Flat: these tests damage body bytes at fixed places.
        write_outcomes_stored(&path, &game, domain, &labels, Storage::Flat, Replace::Never)
            .unwrap();
        (path, labels, ranker)
    }

    #[test]
    fn probes_agree_with_the_labels() {
        let dir = tempfile::tempdir().unwrap();
        let (path, labels, ranker) = written(dir.path());
        assert!(path.ends_with("octal-0.77-normal-total20.table"));
        let table = Table::open(&path).unwrap();
        table.verify().unwrap();
        for rank in 0..ranker.count() {
            assert_eq!(
                table.probe(&ranker.unrank(rank)).unwrap().is_win(),
                labels.is_safe(rank)
            );
        }
        let outside = Position::new(vec![30]);
        assert!(table
            .probe(&outside)
            .unwrap_err()
            .to_string()
            .contains("outside"));
        let misere = resolve("kayles")
            .unwrap()
            .with_convention(crate::game::Convention::Misere);
        assert!(table.check_game(&misere).is_err());
        let game = resolve("kayles").unwrap();
        assert!(table.check_game(&game).is_ok());
        assert!(table.covers(&Position::new(vec![3, 4])));
        assert!(!table.covers(&outside));
        // No overwrite without force, and no temporary file left behind.
        let again = write_outcomes(&path, &game, table.header().domain, &labels, Replace::Never);
        // The hint the binary words as `--force`.
        assert_eq!(again.unwrap_err().hint(), Some(&Hint::Overwrite));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn body_flips_fail_verification_and_truncation_fails_open() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _, _) = written(dir.path());
        let bytes = std::fs::read(&path).unwrap();
        let body_offset = Table::open(&path).unwrap().header().body_offset as usize;
        for at in (format::PREFIX_LEN..bytes.len()).step_by(7) {
            let mut broken = bytes.clone();
            broken[at] ^= 0x01;
            std::fs::write(&path, &broken).unwrap();
            let outcome = Table::open(&path).and_then(|t| t.verify());
            assert!(
                outcome.is_err(),
                "flip at {at} (body at {body_offset}) went unnoticed"
            );
        }
        for len in [0, 5, 20, body_offset, bytes.len() - 1] {
            std::fs::write(&path, &bytes[..len]).unwrap();
            assert!(Table::open(&path).is_err(), "truncated to {len}");
        }
    }

    #[test]
    fn a_damaged_block_refuses_to_answer() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _, ranker) = written(dir.path());
        let mut bytes = std::fs::read(&path).unwrap();
        let body_offset = Table::open(&path).unwrap().header().body_offset as usize;
        bytes[body_offset] ^= 0x02;
        std::fs::write(&path, &bytes).unwrap();
        let table = Table::open(&path).unwrap();
        let err = table.value_at(1).unwrap_err().to_string();
        assert!(err.contains("block 1 of 1"), "{err}");
        assert!(table.probe(&ranker.unrank(ranker.count() - 1)).is_err());
    }

    #[test]
    fn nim_values_round_trip_at_the_width_they_need() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.table");
        let kayles = resolve("kayles").unwrap().ruleset;
        let values: Vec<Nimber> = (0..1000).map(|n| (n * 7 % 300) as Nimber).collect();
        let period = Periodicity {
            preperiod: 3,
            period: 5,
            proved_at: Some(20),
        };
        write_nim_values(&path, &kayles, &values, Some(period), Replace::Never).unwrap();
        assert!(write_nim_values(&path, &kayles, &values, None, Replace::Never).is_err());
        let table = Table::open(&path).unwrap();
        assert_eq!(table.header().width, 9);
        assert_eq!(
            table.header().kind,
            BodyKind::NimValues {
                period: Some(period)
            }
        );
        for (h, &v) in values.iter().enumerate() {
            assert_eq!(
                table.value_at(h as u64).unwrap(),
                Value::Nimber(u64::from(v))
            );
        }
        table.verify().unwrap();
    }
}

//! Tables on disk: one container ([`mod@format`]) for every body kind (outcome bits,
//! nim-values), written atomically and probed memory-mapped, each body block checked
//! the first time it is read.

pub mod format;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::Mmap;

use crate::atomic_file::{AtomicFile, Replace};
use crate::domain::{Domain, Ranker};
use crate::error::{Error, Result};
use crate::game::{Convention, Game, Position, Ruleset};
use crate::grundy::{Nimber, Periodicity};
use crate::label::{Labels, Remotenesses};
use crate::value::Value;
pub use format::{checksum, BodyKind, Checksum, Header, BLOCK_BYTES, FORMAT_VERSION};

/// Where tables go when no path is given, and where `check GAME` looks for them.
pub const DEFAULT_DIR: &str = "tables";
/// File extension of tables.
pub const EXTENSION: &str = "table";

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

/// Writes a table: `words` hold `header.entries` fields of `header.width` bits. The
/// offsets and checksums of `header` are filled in; the file appears complete or not at
/// all.
pub fn write(path: &Path, mut header: Header, words: &[u64], replace: Replace) -> Result<Header> {
    if words.len() as u64 * 8 != header.body_len() {
        return Err(Error::input(format!(
            "internal: {} body words for {} entries of {} bits",
            words.len(),
            header.entries,
            header.width
        )));
    }
    let index: Vec<u64> = words
        .chunks(BLOCK_WORDS)
        .map(|block| format::block_checksum(block.iter().copied()))
        .collect();
    let index_bytes: Vec<u8> = index.iter().flat_map(|c| c.to_le_bytes()).collect();
    header.lay_out(checksum(&index_bytes));
    let mut file = AtomicFile::create(path, replace)?;
    let mut prefix = header.encode();
    prefix.extend_from_slice(&index_bytes);
    prefix.resize(header.body_offset as usize, 0);
    file.write_all(&prefix)?;
    let mut buffer = Vec::with_capacity(BLOCK_BYTES as usize);
    for block in words.chunks(BLOCK_WORDS) {
        buffer.clear();
        block
            .iter()
            .for_each(|w| buffer.extend_from_slice(&w.to_le_bytes()));
        file.write_all(&buffer)?;
    }
    file.commit()?;
    Ok(header)
}

/// Writes the outcome labels of a domain as a table.
pub fn write_outcomes(
    path: &Path,
    game: &Game,
    domain: Domain,
    labels: &Labels,
    replace: Replace,
) -> Result<Header> {
    let header = Header::new(
        BodyKind::Outcomes {
            unsafe_count: labels.unsafe_count(),
        },
        game.ruleset.spec(),
        game.convention,
        domain,
        labels.entries(),
        1,
    );
    write(path, header, labels.words(), replace)
}

/// Most remoteness values whose histogram the header keeps.
const HISTOGRAM_MAX: u32 = 4096;

/// Writes the remotenesses of a domain as a table, at the fewest bits that hold the
/// largest.
pub fn write_remoteness(
    path: &Path,
    game: &Game,
    domain: Domain,
    remoteness: &Remotenesses,
    replace: Replace,
) -> Result<Header> {
    let rmax = remoteness.rmax();
    let width = format::bits_for(u64::from(rmax));
    let entries = remoteness.entries();
    let words = pack(
        entries,
        width,
        remoteness.values().iter().map(|&r| u64::from(r)),
    )?;
    let mut header = Header::new(
        BodyKind::Remoteness { rmax },
        game.ruleset.spec(),
        game.convention,
        domain,
        entries,
        width,
    );
    header.histogram = (rmax < HISTOGRAM_MAX).then(|| remoteness.histogram());
    write(path, header, &words, replace)
}

/// Writes G(0..values.len()) of a one-heap ruleset as a table, with the period the values
/// prove, if any.
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
        Error::input(format!(
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

/// An open, memory-mapped table of any body kind.
pub struct Table {
    path: PathBuf,
    header: Header,
    ranker: Ranker,
    game: Game,
    map: Mmap,
    /// One bit per body block: set once the block matched its checksum.
    verified: Vec<AtomicU64>,
}

impl Table {
    /// Opens a table: checks its header, its length and its block index (each body
    /// block is checked when first read).
    pub fn open(path: &Path) -> Result<Self> {
        let origin = path.display().to_string();
        let bad = |why: String| Error::input(format!("{origin}: {why}"));
        // Opening a FIFO or a device would block or read garbage: regular files only.
        let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
        if meta.is_dir() {
            return Err(bad("is a directory, not a table".into()));
        }
        if !meta.is_file() {
            return Err(bad("is not a regular file, so not a table".into()));
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
        let index_end = (header.index_offset + header.blocks() * 8) as usize;
        let index = &map[header.index_offset as usize..index_end];
        if checksum(index) != header.index_checksum {
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
        let verified = (0..header.blocks().div_ceil(64))
            .map(|_| AtomicU64::new(0))
            .collect();
        Ok(Table {
            path: path.to_path_buf(),
            header,
            ranker,
            game,
            map,
            verified,
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
        self.value_at(rank)
    }

    /// The value of rank `rank` (`rank < entries`).
    #[inline(always)]
    pub fn value_at(&self, rank: u64) -> Result<Value> {
        Ok(self
            .header
            .kind
            .value(self.field_at(rank)?, self.header.convention))
    }

    /// The raw field of rank `rank` (`rank < entries`), its block(s) checked on first use.
    #[inline(always)]
    pub fn field_at(&self, rank: u64) -> Result<u64> {
        let width = u64::from(self.header.width);
        let bit = rank * width;
        let word_index = bit / 64;
        let shift = bit % 64;
        // Widths are at most 32 bits, so the mask never overflows.
        let mask = (1u64 << width) - 1;
        let low = self.word(word_index)? >> shift;
        if shift + width <= 64 {
            Ok(low & mask)
        } else {
            // The field straddles two words.
            Ok((low | self.word(word_index + 1)? << (64 - shift)) & mask)
        }
    }

    /// Body word `index`, its block checked on first use.
    #[inline(always)]
    fn word(&self, index: u64) -> Result<u64> {
        self.ensure_verified(index * 8 / BLOCK_BYTES)?;
        let at = (self.header.body_offset + index * 8) as usize;
        Ok(u64::from_le_bytes(
            self.map[at..at + 8].try_into().unwrap_or([0; 8]),
        ))
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

    /// The body words of one block.
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
        if format::block_checksum(self.block_words(block)) != stored {
            return Err(Error::input(format!(
                "{}: corrupted table (body checksum mismatch in block {} of {}); make the table again",
                self.path.display(),
                block + 1,
                self.header.blocks()
            )));
        }
        Ok(())
    }

    /// Reads the whole table: every block against its checksum, the padding, the unused
    /// tail bits, and what the header counted of the entries.
    pub fn verify(&self) -> Result<()> {
        let origin = self.path.display();
        let corrupted = |why: &str| Error::input(format!("{origin}: corrupted table ({why})"));
        let header_len = u32::from_le_bytes(self.map[12..16].try_into().unwrap_or([0; 4]));
        let header_end = format::PREFIX_LEN + header_len as usize + 8;
        let index_end = (self.header.index_offset + self.header.blocks() * 8) as usize;
        let padding = self.map[header_end..self.header.index_offset as usize]
            .iter()
            .chain(&self.map[index_end..self.header.body_offset as usize]);
        if padding.clone().any(|&b| b != 0) {
            return Err(corrupted("padding is not zero"));
        }
        for block in 0..self.header.blocks() {
            self.ensure_verified(block)?;
        }
        let used_bits = self.header.entries * u64::from(self.header.width);
        let tail_bits = used_bits % 64;
        let last = self.header.body_offset as usize + (used_bits.div_ceil(64) as usize - 1) * 8;
        let last_word = u64::from_le_bytes(self.map[last..last + 8].try_into().unwrap_or([0; 8]));
        if tail_bits != 0 && last_word >> tail_bits != 0 {
            return Err(corrupted("bits past the last entry"));
        }
        match self.header.kind {
            BodyKind::Outcomes { unsafe_count } => {
                let safe: u64 = (0..self.header.blocks())
                    .flat_map(|b| self.block_words(b))
                    .map(|w| u64::from(w.count_ones()))
                    .sum();
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
            BodyKind::NimValues { .. } => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;
    use crate::label::{label, Strategy};

    fn written(dir: &Path) -> (PathBuf, Labels, Ranker) {
        let game = resolve("kayles").unwrap();
        let domain = Domain::Total { total: 20 };
        let ranker = Ranker::new(domain).unwrap();
        let labels = label(&game, &ranker, Strategy::Forward, &|_| {}).unwrap();
        let path = dir.join(default_file_name(&game, domain, false));
        write_outcomes(&path, &game, domain, &labels, Replace::Never).unwrap();
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
        assert!(again.unwrap_err().to_string().contains("--force"));
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

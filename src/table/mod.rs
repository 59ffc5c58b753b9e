//! Endgame tables on disk: writing a labelled domain, and probing it memory-mapped.
//!
//! The format is described in [`header`]; bincode is used here and nowhere else.

pub mod header;
pub mod nim;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::domain::{Domain, Ranker};
use crate::error::{Error, Result};
use crate::game::{Game, Position};
use crate::label::Labels;
pub use header::{checksum, Checksum, Header};

/// Where tables go when no path is given, and where `check GAME` looks for them.
pub const DEFAULT_DIR: &str = "tables";
/// File extension of tables.
pub const EXTENSION: &str = "table";

/// The default file name for a game's table over a domain, e.g.
/// `octal-0.77-misere-total60.table`.
pub fn default_file_name(game: &Game, domain: Domain) -> String {
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
    format!("{spec}-{}-{}.{EXTENSION}", game.convention, domain.slug())
}

/// The body checksum of packed labels, as stored in the header.
pub fn body_checksum(words: &[u64]) -> u64 {
    let mut sum = Checksum::new(words.len() as u64 * 8);
    words.iter().for_each(|&w| sum.add(w));
    sum.finish()
}

/// Writes a table to `path` through a temporary file that is renamed into place only once
/// complete and flushed; refuses to replace an existing file unless `force`.
pub fn write(
    path: &Path,
    game: &Game,
    domain: Domain,
    labels: &Labels,
    force: bool,
) -> Result<Header> {
    if path.exists() && !force {
        return Err(Error::input(format!(
            "{} already exists; pass --force to overwrite it",
            path.display()
        )));
    }
    let header = Header::new(
        game.ruleset.spec(),
        game.convention.to_string(),
        domain,
        labels.entries(),
        labels.unsafe_count(),
        body_checksum(labels.words()),
    );
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{file_name}.{}.partial", std::process::id()));
    let result = write_to(&temporary, &header, labels.words())
        .and_then(|()| std::fs::rename(&temporary, path).map_err(|e| Error::io(path, e)));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result.map(|()| header)
}

fn write_to(path: &Path, header: &Header, words: &[u64]) -> Result<()> {
    let io = |e| Error::io(path, e);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let file = File::create(path).map_err(io)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(&header.encode()).map_err(io)?;
    let mut buffer = Vec::with_capacity(1 << 16);
    for chunk in words.chunks(1 << 13) {
        buffer.clear();
        chunk
            .iter()
            .for_each(|w| buffer.extend_from_slice(&w.to_le_bytes()));
        out.write_all(&buffer).map_err(io)?;
    }
    let file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)
}

/// An open, memory-mapped table: probing reads one word, never the whole file.
pub struct Table {
    path: PathBuf,
    header: Header,
    ranker: Ranker,
    map: Mmap,
}

impl Table {
    /// Opens a table and checks its header and length (not its body checksum).
    pub fn open(path: &Path) -> Result<Self> {
        let origin = path.display().to_string();
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(Error::input(format!(
                "{origin}: is a directory, not a table"
            )));
        }
        // SAFETY: the map is only read. Tables are written under a temporary name and
        // renamed into place, so sicher never changes a mapped file; another program
        // truncating it while mapped is outside what sicher can guard against.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
        let header = Header::decode(&map, &origin)?;
        let expected = header.body_offset + header.body_len();
        if (map.len() as u64) < expected {
            return Err(Error::input(format!(
                "{origin}: truncated table ({} bytes, expected {expected})",
                map.len()
            )));
        }
        if (map.len() as u64) > expected {
            return Err(Error::input(format!(
                "{origin}: corrupted table ({} bytes, expected {expected})",
                map.len()
            )));
        }
        let ranker = Ranker::new(header.domain)
            .map_err(|e| Error::input(format!("{origin}: corrupted table header ({e})")))?;
        if ranker.count() != header.entries {
            return Err(Error::input(format!(
                "{origin}: corrupted table header ({} entries, but the domain has {})",
                header.entries,
                ranker.count()
            )));
        }
        Ok(Table {
            path: path.to_path_buf(),
            header,
            ranker,
            map,
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

    /// The game the table was written for, rebuilt from its header.
    pub fn game(&self) -> Result<Game> {
        let game = crate::game::resolve(&self.header.game).map_err(|e| {
            Error::input(format!(
                "{}: corrupted table header ({e})",
                self.path.display()
            ))
        })?;
        let convention = match self.header.convention.as_str() {
            "normal" => crate::game::Convention::Normal,
            "misere" => crate::game::Convention::Misere,
            other => {
                return Err(Error::input(format!(
                    "{}: corrupted table header (unknown convention `{other}`)",
                    self.path.display()
                )))
            }
        };
        Ok(game.with_convention(convention))
    }

    /// True when the position lies in the table's domain.
    pub fn covers(&self, position: &Position) -> bool {
        self.ranker.rank(position).is_some()
    }

    /// Safe (true) or unsafe, or an error when the position is outside the domain.
    #[inline]
    pub fn probe(&self, position: &Position) -> Result<bool> {
        let rank = self.ranker.rank(position).ok_or_else(|| {
            Error::input(format!(
                "position {position} is outside the table's domain ({})",
                self.header.domain
            ))
        })?;
        Ok(self.probe_rank(rank))
    }

    /// The label of rank `rank` (`rank < entries`).
    #[inline]
    pub fn probe_rank(&self, rank: u64) -> bool {
        let at = (self.header.body_offset + rank / 64 * 8) as usize;
        let word = u64::from_le_bytes(self.map[at..at + 8].try_into().unwrap_or([0; 8]));
        word >> (rank % 64) & 1 == 1
    }

    /// Reads the whole body and checks its checksum, its padding, its unused tail bits
    /// and its unsafe count.
    pub fn verify_body(&self) -> Result<()> {
        let origin = self.path.display();
        let header_end = header::PREFIX_LEN
            + u32::from_le_bytes(self.map[12..16].try_into().unwrap_or([0; 4])) as usize
            + 8;
        if self.map[header_end..self.header.body_offset as usize]
            .iter()
            .any(|&b| b != 0)
        {
            return Err(Error::input(format!(
                "{origin}: corrupted table (padding is not zero)"
            )));
        }
        let body = &self.map[self.header.body_offset as usize..];
        let words = || {
            body.chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        };
        let mut sum = Checksum::new(body.len() as u64);
        let mut safe = 0u64;
        for w in words() {
            sum.add(w);
            safe += w.count_ones() as u64;
        }
        if sum.finish() != self.header.body_checksum {
            return Err(Error::input(format!(
                "{origin}: corrupted table (body checksum mismatch)"
            )));
        }
        let tail_bits = self.header.entries % 64;
        if tail_bits != 0 && words().next_back().is_some_and(|w| w >> tail_bits != 0) {
            return Err(Error::input(format!(
                "{origin}: corrupted table (bits past the last entry)"
            )));
        }
        if self.header.entries - safe != self.header.unsafe_count {
            return Err(Error::input(format!(
                "{origin}: corrupted table (unsafe count mismatch)"
            )));
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
        let path = dir.join(default_file_name(&game, domain));
        write(&path, &game, domain, &labels, false).unwrap();
        (path, labels, ranker)
    }

    #[test]
    fn probes_agree_with_the_labels() {
        let dir = tempfile::tempdir().unwrap();
        let (path, labels, ranker) = written(dir.path());
        assert!(path.ends_with("octal-0.77-normal-total20.table"));
        let table = Table::open(&path).unwrap();
        table.verify_body().unwrap();
        for rank in 0..ranker.count() {
            assert_eq!(
                table.probe(&ranker.unrank(rank)).unwrap(),
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
        let again = write(&path, &game, table.header().domain, &labels, false);
        assert!(again.unwrap_err().to_string().contains("--force"));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn body_flips_fail_verification_and_truncation_fails_open() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _, _) = written(dir.path());
        let bytes = std::fs::read(&path).unwrap();
        let body_offset = Table::open(&path).unwrap().header().body_offset as usize;
        for at in (header::PREFIX_LEN..bytes.len()).step_by(7) {
            let mut broken = bytes.clone();
            broken[at] ^= 0x01;
            std::fs::write(&path, &broken).unwrap();
            let outcome = Table::open(&path).and_then(|t| t.verify_body());
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
}

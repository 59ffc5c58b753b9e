//! Tables on disk: one container (`format.rs`) for every body kind (outcome bits,
//! remotenesses, nim-values), written atomically from a stream of body words and probed
//! memory-mapped. Bodies are compressed by default, block by block (`codec.rs`), outcome
//! bodies as residuals against a prediction (`predict.rs`); a small cache keeps decoded
//! blocks. Each body block is checked the first time it is read.
//!
//! # Files
//!
//! - `format.rs`: the container's layout on disk and the header types (bincode is used
//!   here and nowhere else).
//! - `stored.rs`: the header as bincode stores it, versioned, and the conversion to and
//!   from [`Header`].
//! - `codec.rs`: compressed blocks (nothing, zstd or raw) and their index entries.
//! - `predict.rs`: predicted outcomes whose residual an outcome body stores.
//! - `writer.rs`: [`TableWriter`]: the body as a stream of words, blocks encoded in
//!   parallel, the file appearing whole.
//! - `reader.rs`: [`Table`]: the file mapped and checked, blocks decoded and cached.
//! - `bodies.rs`: bodies that are not positions: a misère quotient's table and
//!   nim-values.
//! - `list.rs`: a table's positions in rank order with their values ([`Listing`]).

mod bodies;
mod codec;
mod format;
mod list;
mod predict;
mod reader;
mod stored;
mod writer;

use crate::domain::Domain;
use crate::game::Game;
pub use bodies::{read_quotient, write_nim_values, write_nim_values_from, write_quotient};
pub use codec::stored_checksum;
pub use format::{
    bits_for, block_checksum, checksum, BodyKind, Carried, Checksum, Codec, Header, Prediction,
    Provenance, QuotientMeta, QuotientModel, BLOCK_BYTES, CARRYING_FORMAT_VERSION, FORMAT_VERSION,
    LEFT_WINS, RIGHT_WINS,
};
pub use list::{Filter, Listing};
#[cfg(test)]
pub(crate) use predict::mispredicted;
pub use reader::Table;
pub(crate) use writer::{pack, write_stored};
pub use writer::{write, TableWriter, WRITER_BYTES};

/// Where tables go when no path is given, and where `check GAME` looks for them.
pub const DEFAULT_DIR: &str = "tables";
/// File extension of tables.
pub(crate) const EXTENSION: &str = "table";
/// The zstd level compressed tables are written at: within 1% of level 19's size on
/// sparse residuals, at a fraction of its time.
pub(crate) const ZSTD_LEVEL: i32 = 15;
/// Decoded blocks a compressed table keeps (64 MiB); a table with no more blocks keeps
/// every block it has decoded.
pub(crate) const CACHE_BLOCKS: usize = 1024;

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

/// The default file name for a partizan game's table over a domain, e.g.
/// `partizan-subtraction-1-3-2-3-normal-total60.table`.
pub fn default_partizan_file_name(spec: &str, terminal: &str, domain: Domain) -> String {
    let clean = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '-'
                }
            })
            .collect()
    };
    format!(
        "{}-{}-{}.{EXTENSION}",
        clean(spec),
        clean(terminal),
        domain.slug()
    )
}

/// How a table's body is stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Storage {
    /// Blocks compressed on their own (outcomes as residuals against a prediction).
    #[default]
    Compressed,
    /// The packed words as they are, memory-mapped (format 2's body).
    Flat,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    use crate::atomic_file::Replace;
    use crate::build::{write_outcomes, write_outcomes_stored};
    use crate::domain::Ranker;
    use crate::error::Hint;
    use crate::game::resolve;
    use crate::game::Position;
    use crate::label::{label, Labels, Strategy};
    use crate::theory::grundy::{Nimber, Periodicity};
    use crate::value::Value;

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

    /// A mapped table written over in place (as `cp` does) or truncated while open is
    /// refused with a clear error before the map is read: never another file's answers,
    /// never SIGBUS past the end.
    #[test]
    fn a_table_changed_while_open_refuses_to_answer() {
        use std::io::{Seek, Write};
        let dir = tempfile::tempdir().unwrap();
        let (path, labels, ranker) = written(dir.path());
        let last = ranker.unrank(ranker.count() - 1);
        let bytes = std::fs::read(&path).unwrap();
        let table = Table::open(&path).unwrap();
        assert_eq!(
            table.probe(&last).unwrap().is_win(),
            labels.is_safe(ranker.count() - 1)
        );
        // Written over in place with other answers (the same length): the file's inode
        // and length stay, its last change moves.
        std::thread::sleep(std::time::Duration::from_millis(20));
        let mut flipped = bytes.clone();
        let body = table.header().body_offset as usize;
        for b in &mut flipped[body..] {
            *b = !*b;
        }
        let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all(&flipped).unwrap();
        file.sync_all().unwrap();
        let err = table.probe(&last).unwrap_err();
        assert!(
            err.to_string().contains("changed after it was opened"),
            "{err}"
        );
        assert!(table.verify().is_err());
        // Truncated: refused, not a fault.
        file.set_len(100).unwrap();
        file.rewind().unwrap();
        let err = table.probe(&last).unwrap_err().to_string();
        assert!(err.contains("truncated to 100 bytes"), "{err}");
        // Replaced by a rename: the open table still answers from its own file.
        std::fs::write(&path, &bytes).unwrap();
        let reopened = Table::open(&path).unwrap();
        let other = dir.path().join("other");
        std::fs::write(&other, &flipped).unwrap();
        std::fs::rename(&other, &path).unwrap();
        assert_eq!(
            reopened.probe(&last).unwrap().is_win(),
            labels.is_safe(ranker.count() - 1)
        );
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
            saltus: 0,
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

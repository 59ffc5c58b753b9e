//! Nim-value tables: G(0..N) of a one-heap ruleset on disk, in the outcome tables' format
//! family (same prefix, bincode header with checksum, 64-byte aligned body), probed
//! memory-mapped.
//!
//! ```text
//! 0        8 magic "SICHRNIM"
//! 8       12 format version, u32 little-endian
//! 12      16 header length H, u32 little-endian
//! 16    16+H header, bincode (standard configuration, fixed-width integers)
//! 16+H  24+H checksum of bytes 0..16+H, u64 little-endian
//! ...        zero padding up to the body offset, a multiple of 64
//! body       entries values of `width` bytes each (1, 2 or 4: the fewest that hold the
//!            largest value), little-endian; entry h is G(h)
//! ```
//!
//! The header also carries the proved period, when there is one, so a table answers every
//! heap size, not only those it stores.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use bincode::{Decode, Encode};
use memmap2::Mmap;

use super::header::{checksum, BODY_ALIGN, PREFIX_LEN};
use crate::error::{Error, Result};
use crate::grundy::{Nimber, Periodicity};

/// The first eight bytes of every nim-value table.
pub const NIM_MAGIC: [u8; 8] = *b"SICHRNIM";
/// The nim-value table format version this build writes and reads.
pub const NIM_FORMAT_VERSION: u32 = 1;
/// Encoded headers longer than this are corrupt.
const MAX_HEADER_LEN: u32 = 1 << 16;

/// Everything a nim-value table says about itself.
#[derive(Clone, Debug, PartialEq, Eq, Encode, Decode)]
pub struct NimHeader {
    /// The ruleset's canonical spec, e.g. `octal:0.77` (always normal play).
    pub game: String,
    /// Heap sizes stored: `0..entries`.
    pub entries: u64,
    /// Bytes per value: 1, 2 or 4.
    pub width: u8,
    /// The proved ultimate period as `(preperiod, period, proved_at)`, if any.
    pub period: Option<(u64, u64, u64)>,
    /// Byte offset of the body.
    pub body_offset: u64,
    /// Checksum of the body bytes.
    pub body_checksum: u64,
    /// The sicher version that wrote the table.
    pub sicher_version: String,
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_fixed_int_encoding()
}

/// The fewest bytes that hold every value.
fn width_for(values: &[Nimber]) -> u8 {
    match values.iter().copied().max().unwrap_or(0) {
        0..=0xFF => 1,
        0x100..=0xFFFF => 2,
        _ => 4,
    }
}

/// Writes G(0..values.len()) of `game` (and its proved period, if any) to `path`, through
/// a temporary file renamed into place; refuses to replace a file unless `force`.
pub fn write(
    path: &Path,
    game: &str,
    values: &[Nimber],
    period: Option<Periodicity>,
    force: bool,
) -> Result<NimHeader> {
    if path.exists() && !force {
        return Err(Error::input(format!(
            "{} already exists; pass --force to overwrite it",
            path.display()
        )));
    }
    let width = width_for(values);
    let mut body = Vec::with_capacity(values.len() * width as usize);
    for &v in values {
        body.extend_from_slice(&v.to_le_bytes()[..width as usize]);
    }
    let mut header = NimHeader {
        game: game.to_string(),
        entries: values.len() as u64,
        width,
        period: period.and_then(|p| p.proved_at.map(|at| (p.preperiod, p.period, at))),
        body_offset: 0,
        body_checksum: checksum(&body),
        sicher_version: env!("CARGO_PKG_VERSION").to_string(),
    };
    // Fixed-width integers: the offset's value does not change the encoded length.
    let encoded_len = bincode::encode_to_vec(&header, config())
        .map_err(|e| Error::input(format!("cannot encode the table header: {e}")))?
        .len();
    header.body_offset = (PREFIX_LEN as u64 + encoded_len as u64 + 8).next_multiple_of(BODY_ALIGN);
    let encoded = bincode::encode_to_vec(&header, config())
        .map_err(|e| Error::input(format!("cannot encode the table header: {e}")))?;
    let mut prefix = Vec::with_capacity(header.body_offset as usize);
    prefix.extend_from_slice(&NIM_MAGIC);
    prefix.extend_from_slice(&NIM_FORMAT_VERSION.to_le_bytes());
    prefix.extend_from_slice(&(encoded.len() as u32).to_le_bytes());
    prefix.extend_from_slice(&encoded);
    let sum = checksum(&prefix);
    prefix.extend_from_slice(&sum.to_le_bytes());
    prefix.resize(header.body_offset as usize, 0);

    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{name}.{}.partial", std::process::id()));
    let io = |e| Error::io(&temporary, e);
    let result = (|| {
        let mut file = File::create(&temporary).map_err(io)?;
        file.write_all(&prefix).map_err(io)?;
        file.write_all(&body).map_err(io)?;
        file.sync_all().map_err(io)?;
        std::fs::rename(&temporary, path).map_err(|e| Error::io(path, e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result.map(|()| header)
}

/// An open, memory-mapped nim-value table.
pub struct NimTable {
    path: PathBuf,
    header: NimHeader,
    map: Mmap,
}

impl NimTable {
    /// Opens a table and checks its header, length and body checksum.
    pub fn open(path: &Path) -> Result<Self> {
        let origin = path.display().to_string();
        let bad = |why: &str| Error::input(format!("{origin}: {why}"));
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(bad("is a directory, not a nim-value table"));
        }
        // SAFETY: the map is only read; tables are written under a temporary name and
        // renamed into place, so sicher never changes a mapped file.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
        if map.len() < PREFIX_LEN || map[..8] != NIM_MAGIC {
            return Err(bad(
                "not a sicher nim-value table (bad magic; outcome tables go to --table)",
            ));
        }
        let word = |at: usize| u32::from_le_bytes(map[at..at + 4].try_into().unwrap_or([0; 4]));
        if word(8) != NIM_FORMAT_VERSION {
            return Err(bad(&format!(
                "nim-value table format version {} is not supported (this sicher reads version {NIM_FORMAT_VERSION})",
                word(8)
            )));
        }
        let len = word(12);
        let end = PREFIX_LEN + len as usize;
        if len > MAX_HEADER_LEN || map.len() < end + 8 {
            return Err(bad("truncated or corrupted table header"));
        }
        let stored_sum = u64::from_le_bytes(map[end..end + 8].try_into().unwrap_or([0; 8]));
        if checksum(&map[..end]) != stored_sum {
            return Err(bad("corrupted table header (header checksum mismatch)"));
        }
        let (header, used): (NimHeader, usize) =
            bincode::decode_from_slice(&map[PREFIX_LEN..end], config())
                .map_err(|_| bad("corrupted table header (cannot decode it)"))?;
        if used != len as usize
            || !matches!(header.width, 1 | 2 | 4)
            || !header.body_offset.is_multiple_of(BODY_ALIGN)
            || header.body_offset < (end + 8) as u64
        {
            return Err(bad("corrupted table header"));
        }
        let expected = header
            .entries
            .checked_mul(u64::from(header.width))
            .and_then(|body| body.checked_add(header.body_offset));
        if expected != Some(map.len() as u64) {
            return Err(bad(&format!(
                "truncated or corrupted table ({} bytes, header says {})",
                map.len(),
                expected.map_or("more than fits".to_string(), |e| e.to_string())
            )));
        }
        if checksum(&map[header.body_offset as usize..]) != header.body_checksum {
            return Err(bad("corrupted table body (checksum mismatch)"));
        }
        if let Some((preperiod, period, proved_at)) = header.period {
            if period == 0 || proved_at >= header.entries || preperiod + period > header.entries {
                return Err(bad("corrupted table header (impossible period)"));
            }
        }
        Ok(NimTable {
            path: path.to_path_buf(),
            header,
            map,
        })
    }

    /// The decoded header.
    pub fn header(&self) -> &NimHeader {
        &self.header
    }

    /// The file this table was opened from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The proved period the table carries.
    pub fn periodicity(&self) -> Option<Periodicity> {
        self.header
            .period
            .map(|(preperiod, period, proved_at)| Periodicity {
                preperiod,
                period,
                proved_at: Some(proved_at),
            })
    }

    /// G(h) when the table stores it.
    #[inline]
    pub fn get(&self, h: u64) -> Option<Nimber> {
        if h >= self.header.entries {
            return None;
        }
        let width = self.header.width as usize;
        let at = self.header.body_offset as usize + h as usize * width;
        let mut bytes = [0u8; 4];
        bytes[..width].copy_from_slice(&self.map[at..at + width]);
        Some(u32::from_le_bytes(bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip_and_corruption() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.nim");
        let values: Vec<Nimber> = (0..1000).map(|n| (n * 7 % 300) as Nimber).collect();
        let period = Periodicity {
            preperiod: 3,
            period: 5,
            proved_at: Some(20),
        };
        write(&path, "octal:0.77", &values, Some(period), false).unwrap();
        assert!(write(&path, "octal:0.77", &values, None, false).is_err());
        let table = NimTable::open(&path).unwrap();
        assert_eq!(table.header().width, 2);
        assert_eq!(table.periodicity(), Some(period));
        for (h, &v) in values.iter().enumerate() {
            assert_eq!(table.get(h as u64), Some(v));
        }
        assert_eq!(table.get(1000), None);
        drop(table);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(NimTable::open(&path).is_err());
        bytes.truncate(last);
        std::fs::write(&path, &bytes).unwrap();
        assert!(NimTable::open(&path).is_err());
    }
}

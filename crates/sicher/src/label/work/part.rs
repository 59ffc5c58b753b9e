//! One file of a work directory: the labels of a run of ranks (a group of finished tiers,
//! a chunk of one tier labelled by one rank of a cluster, or the state of a checkpoint).
//!
//! A part starts with a header that binds it to its work: the work format, the bits per
//! position, a digest of the work's identity (game, convention, domain, kind, strategy),
//! the tiers and ranks it holds, and the checksum of its payload, closed by a checksum of
//! the header itself. The manifest lists each part with its tiers, ranks, length and that
//! header checksum, so a part renamed, swapped with another, truncated, left from other
//! work, or forged with its own checksums recomputed is told apart from the part the
//! manifest recorded: [`Part::verify`] reads it all before anything is labelled from it.

use std::fs::File;
use std::io::{BufReader, BufWriter, ErrorKind, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::super::window::{Atom, Packer, Unpacker, Window};
use super::WORK_FORMAT;
use crate::checksum::Checksum;
use crate::error::{Error, Hint, Result};

/// Bytes of a part's header: nine little-endian words.
pub(crate) const HEADER_BYTES: u64 = 72;
const MAGIC: u64 = u64::from_le_bytes(*b"SICHWORK");
/// Bytes written to a file at a time.
const WRITE_BATCH: usize = 1 << 16;
/// Bytes read from a file at a time.
pub(crate) const READ_BUFFER: usize = 1 << 20;

/// One finished file, as the manifest lists it (and as ranks of a cluster report it).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    /// First and last tier (a state: the last finished tier, twice).
    pub(crate) tiers: [u64; 2],
    /// The ranks it holds, `start..end`, in rank order.
    pub(crate) ranks: [u64; 2],
    /// The file's name within the work directory.
    pub(crate) file: String,
    /// The file's length, header included.
    pub(crate) bytes: u64,
    /// The checksum closing the file's header (which holds the payload's checksum).
    pub(crate) checksum: u64,
}

/// What a part is bound to besides its own place: the work it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Binding {
    /// Bits per position: 1 (outcomes) or 32 (remotenesses).
    pub(crate) width: u32,
    /// Digest of the work's identity.
    pub(crate) digest: u64,
}

impl Binding {
    /// Bytes of the payload holding `ranks` at this width.
    pub(crate) fn payload_bytes(&self, ranks: Range<u64>) -> u64 {
        (ranks.end - ranks.start)
            .saturating_mul(u64::from(self.width))
            .div_ceil(64)
            .saturating_mul(8)
    }
}

/// The header's words, in file order.
struct Header {
    binding: Binding,
    tiers: [u64; 2],
    ranks: [u64; 2],
    payload: u64,
}

impl Header {
    fn words(&self) -> [u64; 8] {
        [
            MAGIC,
            u64::from(WORK_FORMAT) | u64::from(self.binding.width) << 32,
            self.binding.digest,
            self.tiers[0],
            self.tiers[1],
            self.ranks[0],
            self.ranks[1],
            self.payload,
        ]
    }

    fn checksum(words: &[u64; 8]) -> u64 {
        let mut sum = Checksum::new(HEADER_BYTES - 8);
        for &w in words {
            sum.add(w);
        }
        sum.finish()
    }
}

/// True for names the parts of a work directory take (`group-…`, `state-…`, `tier-…`),
/// made of letters, digits, dots and dashes only: a manifest naming anything else (a path
/// out of the directory) is refused.
pub(crate) fn is_part_name(name: &str) -> bool {
    (name.starts_with("group-") || name.starts_with("state-") || name.starts_with("tier-"))
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
}

/// The file extension of parts of this width.
pub(crate) fn extension(width: u32) -> &'static str {
    if width == 1 {
        "bits"
    } else {
        "cells"
    }
}

/// The error for a damaged part or work directory, with the hint to start over.
pub(crate) fn damaged(dir: &Path, file: &str, why: &str) -> Error {
    Error::damaged(format!(
        "the work directory {} is damaged: {file} {why}",
        dir.display()
    ))
    .with_hint(Hint::Restart)
}

/// A part being written under a hidden temporary name, given its own when committed.
pub(crate) struct PartWriter {
    /// `None` once committed.
    out: Option<BufWriter<File>>,
    temporary: PathBuf,
    path: PathBuf,
    name: String,
    binding: Binding,
    /// First and last tier written.
    pub(crate) tiers: [u64; 2],
    start: u64,
    /// One past the last rank written.
    pub(crate) end: u64,
    packer: Packer,
    sum: Checksum,
    payload: u64,
    buffer: Vec<u8>,
}

impl PartWriter {
    /// Starts the part `name` in `dir` holding ranks from `start` on, of tier `tier`.
    pub(crate) fn create(
        dir: &Path,
        name: String,
        binding: Binding,
        tier: u64,
        start: u64,
    ) -> Result<Self> {
        let path = dir.join(&name);
        let temporary = dir.join(format!(".{name}.{}.partial", std::process::id()));
        let file = File::create(&temporary).map_err(|e| Error::io(&path, e))?;
        let mut out = BufWriter::with_capacity(WRITE_BATCH, file);
        // The header is written last, once the payload's checksum is known.
        out.write_all(&[0; HEADER_BYTES as usize])
            .map_err(|e| Error::io(&path, e))?;
        Ok(PartWriter {
            out: Some(out),
            temporary,
            path,
            name,
            binding,
            tiers: [tier, tier],
            start,
            end: start,
            packer: Packer::default(),
            sum: Checksum::new(0),
            payload: 0,
            buffer: Vec::with_capacity(WRITE_BATCH),
        })
    }

    /// Appends the low `n` bits of `value`.
    pub(crate) fn push(&mut self, value: u64, n: u32) -> Result<()> {
        match self.packer.push(value, n) {
            Some(word) => self.word(word),
            None => Ok(()),
        }
    }

    fn word(&mut self, word: u64) -> Result<()> {
        self.sum.add(word);
        self.payload += 8;
        self.buffer.extend_from_slice(&word.to_le_bytes());
        if self.buffer.len() >= WRITE_BATCH {
            self.flush_buffer()?;
        }
        Ok(())
    }

    fn flush_buffer(&mut self) -> Result<()> {
        let out = self
            .out
            .as_mut()
            .ok_or_else(|| Error::internal("a work file written after its commit"))?;
        out.write_all(&self.buffer)
            .map_err(|e| Error::io(&self.path, e))?;
        self.buffer.clear();
        Ok(())
    }

    /// Writes the header and gives the file its name; with `sync`, the file and the
    /// directory are synced first (a checkpoint's files), else the file is only handed to
    /// the operating system (a cluster's chunk, synced when a checkpoint lists it).
    pub(crate) fn commit(mut self, sync: bool) -> Result<Part> {
        if let Some(word) = std::mem::take(&mut self.packer).finish() {
            self.word(word)?;
        }
        self.flush_buffer()?;
        let expected = self.binding.payload_bytes(self.start..self.end);
        if self.payload != expected {
            return Err(Error::internal(format!(
                "{} holds {} bytes for ranks {}..{} (expected {expected})",
                self.name, self.payload, self.start, self.end
            )));
        }
        self.sum.add(self.payload);
        let header = Header {
            binding: self.binding,
            tiers: self.tiers,
            ranks: [self.start, self.end],
            payload: self.sum.finish(),
        };
        let words = header.words();
        let checksum = Header::checksum(&words);
        let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.extend_from_slice(&checksum.to_le_bytes());
        let io = |e| Error::io(&self.path, e);
        let mut out = self
            .out
            .take()
            .ok_or_else(|| Error::internal("a work file committed twice"))?;
        // Seeking a BufWriter flushes it first.
        out.seek(SeekFrom::Start(0)).map_err(io)?;
        out.write_all(&bytes).map_err(io)?;
        let file = out.into_inner().map_err(|e| io(e.into_error()))?;
        if sync {
            file.sync_all().map_err(io)?;
        }
        drop(file);
        std::fs::rename(&self.temporary, &self.path).map_err(io)?;
        if sync {
            sync_dir(self.path.parent().unwrap_or(Path::new(".")));
        }
        Ok(Part {
            tiers: self.tiers,
            ranks: [self.start, self.end],
            file: std::mem::take(&mut self.name),
            bytes: HEADER_BYTES + self.payload,
            checksum,
        })
    }
}

impl Drop for PartWriter {
    fn drop(&mut self) {
        // Abandoned before its rename, the temporary goes: a commit that failed half-way
        // (its header or sync refused: "File too large") has already taken `out`, so
        // `out` alone does not tell. Renamed, the name is empty.
        drop(self.out.take());
        if !self.name.is_empty() {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

/// Makes renames in `dir` durable where the platform allows syncing a directory.
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

/// Reads a part's payload words, in order, from a given word on.
pub(crate) struct PartReader {
    reader: BufReader<File>,
    path: PathBuf,
}

impl PartReader {
    /// Opens the part's file at payload byte `offset`, once its length and header are
    /// those the manifest recorded for it: a file replaced since the work directory was
    /// opened (by a writer that should not be there) is refused, never read as labels.
    pub(crate) fn open(dir: &Path, part: &Part, offset: u64) -> Result<Self> {
        let path = dir.join(&part.file);
        let mut file = File::open(&path).map_err(|e| match e.kind() {
            ErrorKind::NotFound => damaged(dir, &part.file, "is missing"),
            _ => Error::io(&path, e),
        })?;
        part.check_header(dir, &mut file)?;
        file.seek(SeekFrom::Start(HEADER_BYTES + offset))
            .map_err(|e| Error::io(&path, e))?;
        Ok(PartReader {
            reader: BufReader::with_capacity(READ_BUFFER, file),
            path,
        })
    }

    /// The next word.
    pub(crate) fn word(&mut self) -> Result<u64> {
        let mut bytes = [0u8; 8];
        self.reader.read_exact(&mut bytes).map_err(|e| {
            Error::damaged(format!(
                "the work file {} is damaged ({e})",
                self.path.display()
            ))
            .with_hint(Hint::Restart)
        })?;
        Ok(u64::from_le_bytes(bytes))
    }
}

impl Part {
    /// The ranks held.
    pub(crate) fn range(&self) -> Range<u64> {
        self.ranks[0]..self.ranks[1]
    }

    /// Checks the part's file against this listing and `binding`: its length, its
    /// header (work, tiers, ranks, the checksum recorded here) and its payload's
    /// checksum, reading it whole. Every mismatch is a one-line damaged error.
    pub(crate) fn verify(&self, dir: &Path, binding: Binding) -> Result<()> {
        let fail = |why: &str| Err(damaged(dir, &self.file, why));
        let expected = HEADER_BYTES.saturating_add(binding.payload_bytes(self.range()));
        if self.bytes != expected {
            return fail("is listed with a length that does not fit its ranks");
        }
        let path = dir.join(&self.file);
        let len = match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_file() => meta.len(),
            Ok(_) => return fail("is not a regular file"),
            Err(e) if e.kind() == ErrorKind::NotFound => return fail("is missing"),
            Err(e) => return Err(Error::io(&path, e)),
        };
        if len != self.bytes {
            return fail("has the wrong length");
        }
        let file = File::open(&path).map_err(|e| Error::io(&path, e))?;
        let mut reader = BufReader::with_capacity(READ_BUFFER, file);
        let mut word = || -> Result<u64> {
            let mut bytes = [0u8; 8];
            reader
                .read_exact(&mut bytes)
                .map_err(|_| damaged(dir, &self.file, "has the wrong length"))?;
            Ok(u64::from_le_bytes(bytes))
        };
        let mut words = [0u64; 8];
        for w in &mut words {
            *w = word()?;
        }
        let stored = word()?;
        if words[0] != MAGIC {
            return fail("is not a work file");
        }
        if Header::checksum(&words) != stored {
            return fail("has a damaged header");
        }
        if words[1] != u64::from(WORK_FORMAT) | u64::from(binding.width) << 32
            || words[2] != binding.digest
        {
            return fail("belongs to other work (another game, domain, kind or format)");
        }
        if [words[3], words[4]] != self.tiers || [words[5], words[6]] != self.ranks {
            return fail("holds other tiers or ranks than the manifest lists for it");
        }
        let mut sum = Checksum::new(0);
        let payload = len - HEADER_BYTES;
        for _ in 0..payload / 8 {
            sum.add(word()?);
        }
        sum.add(payload);
        if sum.finish() != words[7] {
            return fail("does not match its checksum");
        }
        if stored != self.checksum {
            return fail("is not the file the manifest recorded (its checksums were rewritten)");
        }
        Ok(())
    }

    /// Checks an open part file's length and header against this listing: the header
    /// checksum the manifest recorded binds the file to its work, tiers and ranks.
    fn check_header(&self, dir: &Path, file: &mut File) -> Result<()> {
        let fail = |why: &str| Err(damaged(dir, &self.file, why));
        let path = dir.join(&self.file);
        let len = file.metadata().map_err(|e| Error::io(&path, e))?.len();
        if len != self.bytes {
            return fail("has the wrong length (it changed since the work was opened)");
        }
        let mut bytes = [0u8; HEADER_BYTES as usize];
        file.read_exact(&mut bytes)
            .map_err(|_| damaged(dir, &self.file, "has the wrong length"))?;
        let mut words = [0u64; 8];
        for (w, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        }
        let stored = u64::from_le_bytes(bytes[64..72].try_into().expect("8 bytes"));
        if words[0] != MAGIC || Header::checksum(&words) != stored {
            return fail("has a damaged header");
        }
        if [words[3], words[4]] != self.tiers
            || [words[5], words[6]] != self.ranks
            || stored != self.checksum
        {
            return fail("is not the file the manifest recorded (another writer replaced it)");
        }
        Ok(())
    }

    /// Reads `ranks` (within the part's) from the part's file into the window.
    pub(crate) fn import<A: Atom>(
        &self,
        dir: &Path,
        ranks: Range<u64>,
        window: &mut Window<A>,
    ) -> Result<()> {
        let width = u64::from(A::WIDTH);
        let skip_bits = (ranks.start - self.ranks[0]) * width;
        let mut reader = PartReader::open(dir, self, skip_bits / 64 * 8)?;
        let mut unpacker = Unpacker::default();
        let mut source = || reader.word();
        let mut extra = (skip_bits % 64) as u32;
        while extra > 0 {
            let n = extra.min(64);
            unpacker.pull(n, &mut source)?;
            extra -= n;
        }
        window.import(ranks, &mut |n| unpacker.pull(n, &mut source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    fn written(dir: &Path, binding: Binding) -> Part {
        let mut writer =
            PartWriter::create(dir, "tier-000003-0001.bits".into(), binding, 3, 100).unwrap();
        for i in 0..130u64 {
            writer.push(u64::from(i % 3 == 0), 1).unwrap();
        }
        writer.end = 230;
        writer.commit(false).unwrap()
    }

    #[test]
    fn parts_read_back_and_refuse_any_other_file() {
        let dir = tempfile::tempdir().unwrap();
        let binding = Binding {
            width: 1,
            digest: 7,
        };
        let part = written(dir.path(), binding);
        assert_eq!(part.bytes, HEADER_BYTES + 24);
        part.verify(dir.path(), binding).unwrap();
        let mut window: Window<AtomicU64> = Window::new(300, 300).unwrap();
        window.cover(0, 300);
        part.import(dir.path(), 101..230, &mut window).unwrap();
        for r in 0..300 {
            assert_eq!(
                window.is_safe(r),
                (101..230).contains(&r) && (r - 100) % 3 == 0
            );
        }
        // Another work's digest, other ranks or tiers, another recorded checksum.
        let other = Binding {
            width: 1,
            digest: 8,
        };
        assert!(part.verify(dir.path(), other).is_err());
        let mut moved = part.clone();
        moved.tiers = [4, 4];
        assert!(moved.verify(dir.path(), binding).is_err());
        let mut forged = part.clone();
        forged.checksum ^= 1;
        let err = forged.verify(dir.path(), binding).unwrap_err().to_string();
        assert!(err.contains("rewritten"), "{err}");
        let path = dir.path().join(&part.file);
        let bytes = std::fs::read(&path).unwrap();
        for at in [0, 20, 70, 75, bytes.len() - 1] {
            let mut broken = bytes.clone();
            broken[at] ^= 4;
            std::fs::write(&path, &broken).unwrap();
            assert!(part.verify(dir.path(), binding).is_err(), "flip at {at}");
        }
        std::fs::write(&path, &bytes[..bytes.len() - 8]).unwrap();
        assert!(part.verify(dir.path(), binding).is_err());
        assert!(is_part_name("tier-000003-0001.bits"));
        assert!(!is_part_name("group-../../x"));
        assert!(!is_part_name("manifest.json"));
    }
}

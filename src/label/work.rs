//! The work directory: generation that survives being killed.
//!
//! Beside the table being made, `NAME.work/` holds a manifest (`manifest.json`: what is
//! being labelled, the format versions, and every finished file with its checksum) and
//! the finished tiers. Each tier's labels are appended to the open group file as the tier
//! finishes; at a checkpoint the group is synced and named, the labels already pushed
//! into later tiers (marks and offers of retrograde labellers) are saved as a state file,
//! and the manifest is replaced, in that order, each step atomic. A run killed at any
//! moment leaves the manifest of the last checkpoint and, at worst, files it does not
//! list, which the next run removes; that run loads the finished tiers the window needs
//! and the state, and labels on from the next tier. Labels are a function of the game
//! alone, so the table is byte-identical to an uninterrupted run's.
//!
//! `--heaps` domains with two or more heaps have tiers scattered over the ranks and hold
//! the whole domain: their checkpoint is one state file of every label. One-heap domains
//! are one tier (labelled in rank order), so they only checkpoint when done.

use std::fs::File;
use std::io::{BufReader, ErrorKind, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::bits::out_of_memory;
use super::tiers::Tiers;
use super::window::{Atom, Packer, Unpacker, Window};
use crate::atomic_file::{write_bytes, AtomicFile, Replace};
use crate::checksum::Checksum;
use crate::error::{Error, Hint, Result};

/// Version of the work directory's layout; another version is refused.
pub const WORK_FORMAT: u32 = 1;
const MANIFEST: &str = "manifest.json";
const LOCK: &str = "lock";
/// Least labelling time between two checkpoints by default.
const MIN_INTERVAL: Duration = Duration::from_secs(2);
/// By default a checkpoint waits for this many times the last one's cost.
const COST_FACTOR: u32 = 10;
/// Bytes written to a file at a time.
const WRITE_BATCH: usize = 1 << 16;
/// Bytes read from a file at a time.
const READ_BUFFER: usize = 1 << 20;
/// Bytes of buffers a work directory holds: the atomic file's writer and ours, or a
/// reader.
pub(crate) const IO_BYTES: u64 = (1 << 20) + WRITE_BATCH as u64;
/// Words of outcomes handed on at a time when they are streamed out of the groups.
pub(crate) const STREAM_WORDS: usize = 1 << 16;

/// Where a table's generation keeps its finished tiers, and whether to throw away what is
/// there.
#[derive(Clone, Debug)]
pub struct WorkDir {
    path: PathBuf,
    restart: bool,
    every: Option<Duration>,
    /// Format version of the file the labels are for, recorded in the manifest: work
    /// for another format is refused.
    output_format: u32,
}

impl WorkDir {
    /// The work directory of the table `output`: `output` with `.work` appended.
    pub fn beside(output: &Path) -> Self {
        let mut name = output.file_name().unwrap_or_default().to_os_string();
        name.push(".work");
        WorkDir {
            path: output.with_file_name(name),
            restart: false,
            every: None,
            output_format: 0,
        }
    }

    /// Records that the labels are for a file of this format version (a table's), so
    /// that a sicher writing another version refuses the work instead of resuming it.
    pub fn for_output_format(mut self, version: u32) -> Self {
        self.output_format = version;
        self
    }

    /// Checkpoints after this much labelling (zero: after every tier), instead of the
    /// default that keeps checkpoints to about a tenth of the time.
    pub fn checkpoint_every(mut self, every: Option<Duration>) -> Self {
        self.every = every;
        self
    }

    /// Throws away whatever work is there instead of resuming it.
    pub fn restart(mut self, restart: bool) -> Self {
        self.restart = restart;
        self
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Removes the directory (once the table is written), if it is a work directory.
    pub fn remove(&self) -> Result<()> {
        match std::fs::symlink_metadata(&self.path) {
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
            _ => remove_work_dir(&self.path),
        }
    }
}

/// What a work directory holds the labels of; another identity is refused.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Identity {
    /// The ruleset's inline spec.
    pub(crate) game: String,
    /// `normal` or `misere`.
    pub(crate) convention: String,
    /// The domain's flags.
    pub(crate) domain: String,
    /// `outcomes` or `remoteness`.
    pub(crate) kind: String,
    /// The labelling strategy.
    pub(crate) strategy: String,
    /// Positions in the domain.
    pub(crate) entries: u64,
}

impl Identity {
    fn describe(&self) -> String {
        format!(
            "{} {} {} ({}, {} strategy)",
            self.game, self.convention, self.domain, self.kind, self.strategy
        )
    }
}

/// One finished file: a group of tiers, or the state of a checkpoint.
#[derive(Serialize, Deserialize, Clone, Debug)]
struct Part {
    /// First and last tier (a state: the last finished tier, twice).
    tiers: [u64; 2],
    /// The ranks it holds, `start..end`, in rank order.
    ranks: [u64; 2],
    file: String,
    bytes: u64,
    /// [`Checksum`] over the file's words, then its length.
    checksum: u64,
}

#[derive(Serialize, Deserialize, Debug)]
struct Manifest {
    work_format: u32,
    table_format: u32,
    sicher: String,
    #[serde(flatten)]
    identity: Identity,
    /// Bits per position in the files.
    width: u32,
    /// The last tier finished, if any.
    tiers_done: Option<u64>,
    positions_done: u64,
    /// Finished tiers of `--total` domains, in order, covering ranks from 0.
    groups: Vec<Part>,
    /// Labels of the checkpoint not in a group: marks already pushed into later tiers,
    /// or every label of a `--heaps` domain.
    state: Option<Part>,
}

/// How far an earlier run got, for announcing a resumed run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resumed {
    /// Tiers finished.
    pub tiers_done: u64,
    /// Tiers in the domain.
    pub tiers: u64,
    /// Positions labelled in the finished tiers.
    pub positions: u64,
}

/// An open work directory.
pub(crate) struct Store {
    dir: PathBuf,
    manifest: Manifest,
    /// The tiers finished since the last checkpoint, being appended.
    group: Option<PartWriter>,
    /// Last finished tier and positions, which the manifest catches up with at the next
    /// checkpoint.
    done: Option<u64>,
    positions: u64,
    policy: Policy,
    _lock: Lock,
}

impl Store {
    /// Opens (or starts) the work directory for `identity`, refusing one holding other
    /// work, another format or damaged files, and removing files no checkpoint lists.
    pub(crate) fn open(work: &WorkDir, identity: Identity, width: u32) -> Result<Self> {
        let dir = work.path.clone();
        if work.restart {
            work.remove()?;
        }
        let manifest_path = dir.join(MANIFEST);
        let existing = match std::fs::read(&manifest_path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == ErrorKind::NotFound => None,
            Err(e) => return Err(Error::io(&manifest_path, e)),
        };
        if existing.is_none() {
            check_no_foreign_entries(&dir)?;
        }
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let lock = Lock::take(&dir)?;
        let manifest = match existing {
            Some(bytes) => {
                let manifest = read_manifest(&dir, &bytes)?;
                check_manifest(&dir, &manifest, &identity, width, work.output_format)?;
                verify_parts(&dir, &manifest)?;
                manifest
            }
            None => {
                let manifest = Manifest {
                    work_format: WORK_FORMAT,
                    table_format: work.output_format,
                    sicher: env!("CARGO_PKG_VERSION").to_string(),
                    identity,
                    width,
                    tiers_done: None,
                    positions_done: 0,
                    groups: Vec::new(),
                    state: None,
                };
                save_manifest(&dir, &manifest)?;
                manifest
            }
        };
        remove_unlisted(&dir, &manifest)?;
        Ok(Store {
            dir,
            done: manifest.tiers_done,
            positions: manifest.positions_done,
            manifest,
            group: None,
            policy: Policy::new(work.every),
            _lock: lock,
        })
    }

    /// How far the work had got when opened.
    pub(crate) fn resumed(&self, tiers: u64) -> Option<Resumed> {
        self.manifest.tiers_done.map(|t| Resumed {
            tiers_done: t + 1,
            tiers,
            positions: self.manifest.positions_done,
        })
    }

    /// The first tier still to label.
    pub(crate) fn next_tier(&self) -> u64 {
        self.done.map_or(0, |t| t + 1)
    }

    /// Positions labelled in finished tiers.
    pub(crate) fn positions_done(&self) -> u64 {
        self.positions
    }

    /// Fills a fresh window (covering the next tier's reach) from the finished tiers and
    /// the state of the last checkpoint.
    pub(crate) fn load<A: Atom>(&self, window: &mut Window<A>, tiers: Tiers<'_>) -> Result<()> {
        let held = window.range();
        let finished_end = match (tiers, self.done) {
            (Tiers::Total(p), Some(t)) => p.tier(t).end,
            _ => 0,
        };
        let wanted = held.start..finished_end.min(held.end);
        for part in &self.manifest.groups {
            let ranks = part.ranks[0]..part.ranks[1];
            let overlap = ranks.start.max(wanted.start)..ranks.end.min(wanted.end);
            if overlap.start < overlap.end {
                self.import_part(part, overlap, window)?;
            }
        }
        if let Some(state) = &self.manifest.state {
            let ranks = state.ranks[0]..state.ranks[1];
            let overlap = ranks.start.max(held.start)..ranks.end.min(held.end);
            if overlap.start < overlap.end {
                self.import_part(state, overlap, window)?;
            }
        }
        Ok(())
    }

    /// Reads `ranks` (within the part's) from a part's file into the window.
    fn import_part<A: Atom>(
        &self,
        part: &Part,
        ranks: Range<u64>,
        window: &mut Window<A>,
    ) -> Result<()> {
        let width = u64::from(A::WIDTH);
        let skip_bits = (ranks.start - part.ranks[0]) * width;
        let mut reader = PartReader::open(&self.dir, part, skip_bits / 64 * 8)?;
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

    /// Records a finished tier: appends it to the open group (`--total` domains) and
    /// checkpoints when one is due.
    pub(crate) fn tier_done<A: Atom>(
        &mut self,
        tier: u64,
        labelled: u64,
        window: &Window<A>,
        tiers: Tiers<'_>,
    ) -> Result<()> {
        if let Tiers::Total(p) = tiers {
            let ranks = p.tier(tier);
            if self.group.is_none() {
                let name = format!("group-{tier:06}.{}", extension(A::WIDTH));
                self.group = Some(PartWriter::create(&self.dir, name, tier, ranks.start)?);
            }
            let group = self.group.as_mut().expect("opened above");
            window.export(ranks.clone(), &mut |value, n| group.push(value, n))?;
            group.last_tier = tier;
            group.end = ranks.end;
        }
        self.done = Some(tier);
        self.positions += labelled;
        if self.policy.due() {
            self.checkpoint(window, tiers)?;
        }
        Ok(())
    }

    /// Checkpoints unless the last finished tier is already in one.
    pub(crate) fn seal<A: Atom>(&mut self, window: &Window<A>, tiers: Tiers<'_>) -> Result<()> {
        if self.done != self.manifest.tiers_done {
            self.checkpoint(window, tiers)?;
        }
        Ok(())
    }

    /// Names the open group, saves the state, then replaces the manifest.
    fn checkpoint<A: Atom>(&mut self, window: &Window<A>, tiers: Tiers<'_>) -> Result<()> {
        let started = Instant::now();
        let Some(done) = self.done else {
            return Ok(());
        };
        if let Some(group) = self.group.take() {
            let part = group.commit()?;
            self.manifest.groups.push(part);
        }
        let held = window.range();
        let state_ranks = match tiers {
            Tiers::Total(p) => {
                let start = p.tier(done).end;
                (start < held.end).then_some(start..held.end)
            }
            Tiers::Scattered(_) | Tiers::Lone(_) | Tiers::Blocks(_) => Some(held),
        };
        let state = match state_ranks {
            Some(ranks) => {
                let name = format!("state-{done:06}.{}", extension(A::WIDTH));
                let mut writer = PartWriter::create(&self.dir, name, done, ranks.start)?;
                window.export(ranks.clone(), &mut |value, n| writer.push(value, n))?;
                writer.end = ranks.end;
                Some(writer.commit()?)
            }
            None => None,
        };
        let old = std::mem::replace(&mut self.manifest.state, state);
        self.manifest.tiers_done = Some(done);
        self.manifest.positions_done = self.positions;
        save_manifest(&self.dir, &self.manifest)?;
        if let Some(old) = old {
            if self.manifest.state.as_ref().map(|s| &s.file) != Some(&old.file) {
                let _ = std::fs::remove_file(self.dir.join(&old.file));
            }
        }
        self.policy.checkpointed(started.elapsed());
        Ok(())
    }

    /// The groups' fields in rank order, as `(value, bits)`: up to 64 outcome bits at a
    /// time, or one remoteness.
    fn read_fields(&self, entries: u64, mut each: impl FnMut(u64, u32)) -> Result<()> {
        let width = self.manifest.width;
        let mut next = 0;
        for part in &self.manifest.groups {
            if part.ranks[0] != next {
                return Err(damaged(
                    &self.dir,
                    &part.file,
                    "does not follow the group before",
                ));
            }
            let mut reader = PartReader::open(&self.dir, part, 0)?;
            let mut source = || reader.word();
            let mut unpacker = Unpacker::default();
            let mut left = (part.ranks[1] - part.ranks[0]) * u64::from(width);
            while left > 0 {
                let n = if width == 1 {
                    left.min(64) as u32
                } else {
                    width
                };
                each(unpacker.pull(n, &mut source)?, n);
                left -= u64::from(n);
            }
            next = part.ranks[1];
        }
        if next != entries {
            return Err(Error::internal(format!(
                "the work directory {} holds {next} of {entries} positions",
                self.dir.display()
            )));
        }
        Ok(())
    }

    /// The outcome bits of the whole domain, from the groups.
    pub(crate) fn assemble_bits(&self, entries: u64) -> Result<Vec<u64>> {
        let len = usize::try_from(entries.div_ceil(64)).unwrap_or(usize::MAX);
        let mut words = Vec::new();
        words
            .try_reserve_exact(len)
            .map_err(|_| out_of_memory("the labels", entries))?;
        let mut packer = Packer::default();
        self.read_fields(entries, |bits, n| words.extend(packer.push(bits, n)))?;
        words.extend(packer.finish());
        Ok(words)
    }

    /// Hands the outcome bits of the whole domain, from the groups, to `push` in order,
    /// [`STREAM_WORDS`] words at a time: the domain is never held whole.
    pub(crate) fn stream_bits(
        &self,
        entries: u64,
        mut push: impl FnMut(&[u64]) -> Result<()>,
    ) -> Result<()> {
        let mut packer = Packer::default();
        let mut chunk = Vec::with_capacity(STREAM_WORDS);
        let mut failed = None;
        self.read_fields(entries, |bits, n| {
            if failed.is_some() {
                return;
            }
            chunk.extend(packer.push(bits, n));
            if chunk.len() == STREAM_WORDS {
                failed = push(&chunk).err();
                chunk.clear();
            }
        })?;
        if let Some(error) = failed {
            return Err(error);
        }
        chunk.extend(packer.finish());
        push(&chunk)
    }

    /// The remotenesses of the whole domain, from the groups.
    pub(crate) fn assemble_cells(&self, entries: u64) -> Result<Vec<u32>> {
        let mut cells = Vec::new();
        cells
            .try_reserve_exact(usize::try_from(entries).unwrap_or(usize::MAX))
            .map_err(|_| out_of_memory("the remotenesses", entries))?;
        self.read_fields(entries, |value, _| cells.push(value as u32))?;
        Ok(cells)
    }
}

fn extension(width: u32) -> &'static str {
    if width == 1 {
        "bits"
    } else {
        "cells"
    }
}

/// When the next checkpoint is due.
struct Policy {
    every: Option<Duration>,
    since: Instant,
    last_cost: Duration,
}

impl Policy {
    fn new(every: Option<Duration>) -> Self {
        Policy {
            every,
            since: Instant::now(),
            last_cost: Duration::ZERO,
        }
    }

    fn due(&self) -> bool {
        let wait = self
            .every
            .unwrap_or_else(|| MIN_INTERVAL.max(self.last_cost * COST_FACTOR));
        self.since.elapsed() >= wait
    }

    fn checkpointed(&mut self, cost: Duration) {
        self.last_cost = cost;
        self.since = Instant::now();
    }
}

/// A part being written under a temporary name.
struct PartWriter {
    file: AtomicFile,
    name: String,
    first_tier: u64,
    last_tier: u64,
    start: u64,
    end: u64,
    packer: Packer,
    sum: Checksum,
    bytes: u64,
    buffer: Vec<u8>,
}

impl PartWriter {
    fn create(dir: &Path, name: String, tier: u64, start: u64) -> Result<Self> {
        Ok(PartWriter {
            file: AtomicFile::create(&dir.join(&name), Replace::RegularFile)?,
            name,
            first_tier: tier,
            last_tier: tier,
            start,
            end: start,
            packer: Packer::default(),
            sum: Checksum::new(0),
            bytes: 0,
            buffer: Vec::with_capacity(WRITE_BATCH),
        })
    }

    fn push(&mut self, value: u64, n: u32) -> Result<()> {
        match self.packer.push(value, n) {
            Some(word) => self.word(word),
            None => Ok(()),
        }
    }

    fn word(&mut self, word: u64) -> Result<()> {
        self.sum.add(word);
        self.bytes += 8;
        self.buffer.extend_from_slice(&word.to_le_bytes());
        if self.buffer.len() >= WRITE_BATCH {
            self.file.write_all(&self.buffer)?;
            self.buffer.clear();
        }
        Ok(())
    }

    fn commit(mut self) -> Result<Part> {
        if let Some(word) = std::mem::take(&mut self.packer).finish() {
            self.word(word)?;
        }
        self.file.write_all(&self.buffer)?;
        self.file.commit()?;
        self.sum.add(self.bytes);
        Ok(Part {
            tiers: [self.first_tier, self.last_tier],
            ranks: [self.start, self.end],
            file: self.name,
            bytes: self.bytes,
            checksum: self.sum.finish(),
        })
    }
}

/// Reads a part's words.
struct PartReader {
    reader: BufReader<File>,
    path: PathBuf,
}

impl PartReader {
    fn open(dir: &Path, part: &Part, offset: u64) -> Result<Self> {
        let path = dir.join(&part.file);
        let mut file = File::open(&path).map_err(|e| Error::io(&path, e))?;
        file.seek(SeekFrom::Start(offset))
            .map_err(|e| Error::io(&path, e))?;
        Ok(PartReader {
            reader: BufReader::with_capacity(READ_BUFFER, file),
            path,
        })
    }

    fn word(&mut self) -> Result<u64> {
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

fn damaged(dir: &Path, file: &str, why: &str) -> Error {
    Error::damaged(format!(
        "the work directory {} is damaged: {file} {why}",
        dir.display()
    ))
    .with_hint(Hint::Restart)
}

fn read_manifest(dir: &Path, bytes: &[u8]) -> Result<Manifest> {
    // An older or newer layout may not parse as this one: name the format if it can.
    #[derive(Deserialize)]
    struct Versions {
        work_format: Option<u32>,
    }
    let versions: Option<Versions> = serde_json::from_slice(bytes).ok();
    match versions.and_then(|v| v.work_format) {
        Some(v) if v != WORK_FORMAT => Err(other_format(dir, v)),
        Some(_) => serde_json::from_slice(bytes)
            .map_err(|e| damaged(dir, MANIFEST, &format!("does not parse ({e})"))),
        None => Err(damaged(dir, MANIFEST, "is not a work manifest")),
    }
}

fn other_format(dir: &Path, version: u32) -> Error {
    Error::damaged(format!(
        "the work directory {} was written in work format {version} (this sicher uses {WORK_FORMAT})",
        dir.display()
    ))
    .with_hint(Hint::Restart)
}

fn check_manifest(
    dir: &Path,
    manifest: &Manifest,
    identity: &Identity,
    width: u32,
    output_format: u32,
) -> Result<()> {
    if manifest.work_format != WORK_FORMAT {
        return Err(other_format(dir, manifest.work_format));
    }
    if manifest.table_format != output_format {
        return Err(Error::damaged(format!(
            "the work directory {} is for table format {} (this sicher writes {output_format})",
            dir.display(),
            manifest.table_format
        ))
        .with_hint(Hint::Restart));
    }
    if manifest.identity != *identity || manifest.width != width {
        let (theirs, ours) = (manifest.identity.describe(), identity.describe());
        // Two descriptions that read the same differ in what they do not show.
        let what = if theirs != ours {
            format!("holds {theirs}, not {ours}")
        } else if manifest.identity.entries != identity.entries {
            format!(
                "counts {} positions where {ours} has {}",
                manifest.identity.entries, identity.entries
            )
        } else {
            format!(
                "stores {} bits per position where {ours} takes {width}",
                manifest.width
            )
        };
        return Err(
            Error::damaged(format!("the work directory {} {what}", dir.display()))
                .with_hint(Hint::Restart),
        );
    }
    Ok(())
}

/// Checks every listed file's length and checksum.
fn verify_parts(dir: &Path, manifest: &Manifest) -> Result<()> {
    for part in manifest.groups.iter().chain(&manifest.state) {
        let path = dir.join(&part.file);
        let len = std::fs::metadata(&path)
            .map_err(|_| damaged(dir, &part.file, "is missing"))?
            .len();
        if len != part.bytes || len % 8 != 0 {
            return Err(damaged(dir, &part.file, "has the wrong length"));
        }
        let mut reader = PartReader::open(dir, part, 0)?;
        let mut sum = Checksum::new(0);
        for _ in 0..len / 8 {
            sum.add(reader.word()?);
        }
        sum.add(len);
        if sum.finish() != part.checksum {
            return Err(damaged(dir, &part.file, "does not match its checksum"));
        }
    }
    Ok(())
}

fn save_manifest(dir: &Path, manifest: &Manifest) -> Result<()> {
    let mut json = serde_json::to_vec_pretty(manifest)
        .map_err(|e| Error::internal(format!("cannot encode the work manifest: {e}")))?;
    json.push(b'\n');
    write_bytes(&dir.join(MANIFEST), &json, Replace::RegularFile)
}

/// True for names a work directory holds: its manifest, lock, parts and their
/// temporaries.
fn is_work_entry(name: &str) -> bool {
    name == MANIFEST
        || name == LOCK
        || name.starts_with("group-")
        || name.starts_with("state-")
        || name.starts_with('.')
}

/// Refuses to use a directory that holds anything a work directory would not.
fn check_no_foreign_entries(dir: &Path) -> Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(Error::input(format!(
                "{} exists and is not a sicher work directory ({e})",
                dir.display()
            ))
            .with_hint(Hint::MoveAway))
        }
    };
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name();
        if !is_work_entry(&name.to_string_lossy()) {
            return Err(Error::input(format!(
                "{} exists and is not a sicher work directory (it holds {})",
                dir.display(),
                name.to_string_lossy()
            ))
            .with_hint(Hint::MoveAway));
        }
    }
    Ok(())
}

/// Removes a work directory, refusing any directory holding anything else.
fn remove_work_dir(dir: &Path) -> Result<()> {
    check_no_foreign_entries(dir)?;
    std::fs::remove_dir_all(dir).map_err(|e| Error::io(dir, e))
}

/// Removes parts the manifest does not list (written after its last checkpoint).
fn remove_unlisted(dir: &Path, manifest: &Manifest) -> Result<()> {
    let listed: Vec<&str> = manifest
        .groups
        .iter()
        .chain(&manifest.state)
        .map(|p| p.file.as_str())
        .collect();
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let part = name.starts_with("group-") || name.starts_with("state-");
        if part && !listed.contains(&name.as_str()) {
            std::fs::remove_file(entry.path()).map_err(|e| Error::io(entry.path(), e))?;
        }
    }
    Ok(())
}

/// The directory's lock: a file naming the process that works in it.
struct Lock {
    path: PathBuf,
}

impl Lock {
    fn take(dir: &Path) -> Result<Self> {
        let path = dir.join(LOCK);
        let me = std::process::id();
        if let Ok(text) = std::fs::read_to_string(&path) {
            if let Ok(pid) = text.trim().parse::<u32>() {
                if pid != me && alive(pid) {
                    return Err(Error::input(format!(
                        "the work directory {} is in use by another sicher (pid {pid})",
                        dir.display()
                    ))
                    .with_hint(Hint::Wait));
                }
            }
        }
        write_bytes(&path, format!("{me}\n").as_bytes(), Replace::RegularFile)?;
        Ok(Lock { path })
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// True when process `pid` runs sicher and has not ended (a dead writer's pid may have
/// been reused, or be a zombie not yet reaped).
fn alive(pid: u32) -> bool {
    let sicher = std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .is_ok_and(|comm| comm.trim().starts_with("sicher"));
    // The state follows the parenthesised command name: Z and X are ended processes.
    let running = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.trim_start().chars().next())
            .is_some_and(|state| !matches!(state, 'Z' | 'X' | 'x'))
    });
    sicher && running
}

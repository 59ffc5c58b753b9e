//! The work directory: generation that survives being killed.
//!
//! Beside the table being made, `NAME.work/` holds a manifest (`manifest.json`, see
//! [`manifest`]: what is being labelled, the format versions, and every finished part
//! with its tiers, ranks, length and checksum) and the parts themselves ([`part`]: each
//! with a header binding it to its work, tiers and ranks). Each tier's labels are
//! appended to the open group file as the tier finishes; at a checkpoint the group is
//! synced and named, the labels already pushed into later tiers (marks and offers of
//! retrograde labellers) are saved as a state file, and the manifest is replaced, in
//! that order, each step atomic. A run killed at any moment leaves the manifest of the
//! last checkpoint and, at worst, files it does not list, which the next run removes;
//! that run checks every listed file, loads the finished tiers the window needs and the
//! state, and labels on from the next tier. Labels are a function of the game alone, so
//! the table is byte-identical to an uninterrupted run's.
//!
//! A cluster ([`super::cluster`]) writes one part per chunk of a tier instead of groups
//! (`tier-TTTTTT-CCCC.bits`), each rank its own chunks; the rank managing the tiers
//! records them ([`Store::record_tier`]) and checkpoints the same way.
//!
//! `--heaps` domains with two or more heaps have tiers scattered over the ranks and hold
//! the whole domain: their checkpoint is one state file of every label. One-heap domains
//! are one tier (labelled in rank order), so they only checkpoint when done.
//!
//! # Files
//!
//! - `dir.rs`: the work directory as a directory: what may be in it, its lock, and the
//!   files no checkpoint lists, which are removed.
//! - `manifest.rs`: the manifest (`manifest.json`), the checkpoint, checked whole before
//!   anything is resumed from it.
//! - `part.rs`: one part file: a header binding it to its work, tiers and ranks, then
//!   the labels of a run of ranks.

pub(crate) mod dir;
pub(crate) mod manifest;
pub(crate) mod part;

use std::io::ErrorKind;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::bits::out_of_memory;
use super::tiers::Tiers;
use super::window::{Atom, Packer, Unpacker, Window};
use crate::error::{Error, Result};
use dir::{check_no_foreign_entries, remove_unlisted, remove_work_dir, Lock};
pub(crate) use manifest::Identity;
use manifest::{Manifest, MANIFEST};
use part::{damaged, extension, sync_dir, Binding, Part, PartReader, PartWriter};

/// Version of the work directory's layout; another version is refused. Version 2 gave
/// every part a header binding it to its work, tiers and ranks, and the manifest a
/// checksum.
pub const WORK_FORMAT: u32 = 2;
/// Least labelling time between two checkpoints by default.
const MIN_INTERVAL: Duration = Duration::from_secs(2);
/// By default a checkpoint waits for this many times the last one's cost.
const COST_FACTOR: u32 = 10;
/// Bytes of buffers a work directory holds: a part writer's and ours, or a reader.
pub(crate) const IO_BYTES: u64 = part::READ_BUFFER as u64 + (1 << 16);
/// Words of outcomes (or remotenesses) handed on at a time when they are streamed out of
/// the groups.
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

    /// The format version of the file the labels are for.
    pub(crate) fn output_format(&self) -> u32 {
        self.output_format
    }

    /// Removes the directory (once the table is written), if it is a work directory.
    pub fn remove(&self) -> Result<()> {
        match std::fs::symlink_metadata(&self.path) {
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
            _ => remove_work_dir(&self.path),
        }
    }

    /// Removes the directory if no writer holds it and it records no finished tier
    /// (what a run stopped before its first checkpoint leaves), so that such a run
    /// leaves nothing behind while finished work, which the same call resumes, is kept.
    /// Returns whether it was removed.
    pub fn remove_if_unstarted(&self) -> Result<bool> {
        if !self.path.is_dir() {
            return Ok(false);
        }
        // Held while looking and removing: another writer's directory is never touched.
        let Ok(_lock) = Lock::take(&self.path) else {
            return Ok(false);
        };
        let manifest_path = self.path.join(MANIFEST);
        match std::fs::read(&manifest_path) {
            Ok(bytes) => match Manifest::read(&self.path, &bytes) {
                Ok(manifest) if manifest.tiers_done.is_none() => {}
                _ => return Ok(false),
            },
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&manifest_path, e)),
        }
        remove_work_dir(&self.path)?;
        Ok(true)
    }
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
    binding: Binding,
    /// The tiers finished since the last checkpoint, being appended.
    group: Option<PartWriter>,
    /// Parts a cluster finished since the last checkpoint, in rank order.
    recorded: Vec<Part>,
    /// Last finished tier and positions, which the manifest catches up with at the next
    /// checkpoint.
    done: Option<u64>,
    positions: u64,
    policy: Policy,
    _lock: Lock,
}

impl Store {
    /// Opens (or starts) the work directory for `identity`, refusing one holding other
    /// work, another format, a manifest that does not fit the domain's `tiers`, or
    /// damaged files, and removing files no checkpoint lists.
    pub(crate) fn open(
        work: &WorkDir,
        identity: Identity,
        width: u32,
        tiers: Tiers<'_>,
    ) -> Result<Self> {
        let dir = work.path.clone();
        if work.restart {
            work.remove()?;
        }
        let manifest_path = dir.join(MANIFEST);
        if !manifest_path.exists() {
            check_no_foreign_entries(&dir)?;
        }
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let lock = Lock::take(&dir)?;
        // Read under the lock: a manifest read before it may be another writer's, since
        // finished and removed along with the parts it lists.
        let existing = match std::fs::read(&manifest_path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == ErrorKind::NotFound => None,
            Err(e) => return Err(Error::io(&manifest_path, e)),
        };
        if existing.is_none() {
            check_no_foreign_entries(&dir)?;
        }
        let binding = identity.binding(width);
        let entries = identity.entries;
        let manifest = match existing {
            Some(bytes) => {
                let manifest = Manifest::read(&dir, &bytes)?;
                manifest.check_work(&dir, &identity, width, work.output_format)?;
                manifest.check_structure(&dir, tiers, entries)?;
                for part in manifest.groups.iter().chain(&manifest.state) {
                    part.verify(&dir, binding)?;
                }
                manifest
            }
            None => {
                let mut manifest = Manifest::new(identity, width, work.output_format);
                manifest.save(&dir)?;
                manifest
            }
        };
        remove_unlisted(&dir, &manifest)?;
        Ok(Store {
            dir,
            done: manifest.tiers_done,
            positions: manifest.positions_done,
            manifest,
            binding,
            group: None,
            recorded: Vec::new(),
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

    /// The directory.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// What every part of this work is bound to.
    pub(crate) fn binding(&self) -> Binding {
        self.binding
    }

    /// The first tier still to label.
    pub(crate) fn next_tier(&self) -> u64 {
        self.done.map_or(0, |t| t + 1)
    }

    /// Positions labelled in finished tiers.
    pub(crate) fn positions_done(&self) -> u64 {
        self.positions
    }

    /// The finished parts of `--total` domains, in rank order: the manifest's groups and
    /// the parts recorded since.
    pub(crate) fn finished_parts(&self) -> impl Iterator<Item = &Part> {
        self.manifest.groups.iter().chain(&self.recorded)
    }

    /// Fills a fresh window (covering the next tier's reach) from the finished tiers and
    /// the state of the last checkpoint.
    pub(crate) fn load<A: Atom>(&self, window: &mut Window<A>, tiers: Tiers<'_>) -> Result<()> {
        let finished_end = match (tiers, self.done) {
            (Tiers::Total(p), Some(t)) => p.tier(t).end,
            _ => 0,
        };
        load_parts(&self.dir, self.finished_parts(), finished_end, window)?;
        if let Some(state) = &self.manifest.state {
            let held = window.range();
            let overlap = clip(state.range(), held);
            if overlap.start < overlap.end {
                state.import(&self.dir, overlap, window)?;
            }
        }
        Ok(())
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
                self.group = Some(PartWriter::create(
                    &self.dir,
                    name,
                    self.binding,
                    tier,
                    ranks.start,
                )?);
            }
            let group = self.group.as_mut().expect("opened above");
            window.export(ranks.clone(), &mut |value, n| group.push(value, n))?;
            group.tiers[1] = tier;
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
            let part = group.commit(true)?;
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
                let mut writer =
                    PartWriter::create(&self.dir, name, self.binding, done, ranks.start)?;
                window.export(ranks.clone(), &mut |value, n| writer.push(value, n))?;
                writer.end = ranks.end;
                Some(writer.commit(true)?)
            }
            None => None,
        };
        let old = std::mem::replace(&mut self.manifest.state, state);
        self.save(done)?;
        if let Some(old) = old {
            if self.manifest.state.as_ref().map(|s| &s.file) != Some(&old.file) {
                let _ = std::fs::remove_file(self.dir.join(&old.file));
            }
        }
        self.policy.checkpointed(started.elapsed());
        Ok(())
    }

    fn save(&mut self, done: u64) -> Result<()> {
        self.manifest.tiers_done = Some(done);
        self.manifest.positions_done = self.positions;
        self.manifest.save(&self.dir)
    }

    /// Records a tier a cluster finished: its parts (in rank order, covering the tier)
    /// and the positions in it; checkpoints when one is due.
    pub(crate) fn record_tier(&mut self, tier: u64, parts: Vec<Part>, labelled: u64) -> Result<()> {
        self.recorded.extend(parts);
        self.done = Some(tier);
        self.positions += labelled;
        if self.policy.due() {
            self.checkpoint_recorded()?;
        }
        Ok(())
    }

    /// Syncs the parts recorded since the last checkpoint (written unsynced by whichever
    /// rank labelled them), then lists them in the manifest.
    fn checkpoint_recorded(&mut self) -> Result<()> {
        let started = Instant::now();
        let Some(done) = self.done else {
            return Ok(());
        };
        for part in &self.recorded {
            let path = self.dir.join(&part.file);
            std::fs::File::open(&path)
                .and_then(|file| file.sync_all())
                .map_err(|e| Error::io(&path, e))?;
        }
        sync_dir(&self.dir);
        self.manifest.groups.append(&mut self.recorded);
        self.save(done)?;
        self.policy.checkpointed(started.elapsed());
        Ok(())
    }

    /// Checkpoints the recorded parts unless the last finished tier is already in one.
    pub(crate) fn seal_recorded(&mut self) -> Result<()> {
        if self.done != self.manifest.tiers_done {
            self.checkpoint_recorded()?;
        }
        Ok(())
    }

    /// The groups' fields in rank order, as `(value, bits)`: up to 64 outcome bits at a
    /// time, or one remoteness.
    fn read_fields(
        &self,
        entries: u64,
        mut each: impl FnMut(u64, u32) -> Result<()>,
    ) -> Result<()> {
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
                each(unpacker.pull(n, &mut source)?, n)?;
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
        self.read_fields(entries, |bits, n| {
            words.extend(packer.push(bits, n));
            Ok(())
        })?;
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
        self.read_fields(entries, |bits, n| {
            chunk.extend(packer.push(bits, n));
            if chunk.len() == STREAM_WORDS {
                push(&chunk)?;
                chunk.clear();
            }
            Ok(())
        })?;
        chunk.extend(packer.finish());
        push(&chunk)
    }

    /// The remotenesses of the whole domain, from the groups.
    pub(crate) fn assemble_cells(&self, entries: u64) -> Result<Vec<u32>> {
        let mut cells = Vec::new();
        cells
            .try_reserve_exact(usize::try_from(entries).unwrap_or(usize::MAX))
            .map_err(|_| out_of_memory("the remotenesses", entries))?;
        self.read_fields(entries, |value, _| {
            cells.push(value as u32);
            Ok(())
        })?;
        Ok(cells)
    }

    /// Hands the remotenesses of the whole domain, from the groups, to `push` in rank
    /// order, [`STREAM_WORDS`] at a time: the domain is never held whole.
    pub(crate) fn stream_cells(
        &self,
        entries: u64,
        mut push: impl FnMut(&[u32]) -> Result<()>,
    ) -> Result<()> {
        let mut chunk = Vec::with_capacity(STREAM_WORDS);
        self.read_fields(entries, |value, _| {
            chunk.push(value as u32);
            if chunk.len() == STREAM_WORDS {
                push(&chunk)?;
                chunk.clear();
            }
            Ok(())
        })?;
        push(&chunk)
    }
}

/// `range` clipped to `within`.
fn clip(range: Range<u64>, within: Range<u64>) -> Range<u64> {
    range.start.max(within.start)..range.end.min(within.end)
}

/// Fills the window's ranks below `finished_end` from the finished `parts` that hold
/// them.
pub(crate) fn load_parts<'a, A: Atom>(
    dir: &Path,
    parts: impl Iterator<Item = &'a Part>,
    finished_end: u64,
    window: &mut Window<A>,
) -> Result<()> {
    let held = window.range();
    let wanted = held.start..finished_end.min(held.end);
    for part in parts {
        let overlap = clip(part.range(), wanted.clone());
        if overlap.start < overlap.end {
            part.import(dir, overlap, window)?;
        }
    }
    Ok(())
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

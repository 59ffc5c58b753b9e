//! The manifest of a work directory (`manifest.json`): what is being labelled, the format
//! versions, how far the work got, and every finished part. It is the checkpoint: written
//! atomically after the parts it lists, and checked whole before anything is resumed from
//! it, so no content of a work directory makes sicher panic or resume wrong work.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::super::tiers::Tiers;
use super::part::{damaged, is_part_name, Binding, Part};
use super::WORK_FORMAT;
use crate::atomic_file::{write_bytes, Replace};
use crate::checksum::checksum;
use crate::error::{Error, Hint, Result};

/// The manifest's file name.
pub(crate) const MANIFEST: &str = "manifest.json";

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
    /// One line naming the work.
    pub(crate) fn describe(&self) -> String {
        format!(
            "{} {} {} ({}, {} strategy)",
            self.game, self.convention, self.domain, self.kind, self.strategy
        )
    }

    /// What every part of this work is bound to, at `width` bits per position.
    pub(crate) fn binding(&self, width: u32) -> Binding {
        let text = serde_json::to_vec(self).unwrap_or_default();
        Binding {
            width,
            digest: checksum(&text),
        }
    }
}

/// The manifest as stored.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub(crate) struct Manifest {
    pub(crate) work_format: u32,
    pub(crate) table_format: u32,
    pub(crate) sicher: String,
    #[serde(flatten)]
    pub(crate) identity: Identity,
    /// Bits per position in the files.
    pub(crate) width: u32,
    /// The last tier finished, if any.
    pub(crate) tiers_done: Option<u64>,
    pub(crate) positions_done: u64,
    /// Finished tiers of `--total` domains, in rank order from rank 0: groups of whole
    /// tiers, or chunks of one tier each (from a cluster).
    pub(crate) groups: Vec<Part>,
    /// Labels of the checkpoint not in a group: marks already pushed into later tiers,
    /// or every label of a `--heaps` domain.
    pub(crate) state: Option<Part>,
    /// [`checksum`] of this manifest as written with this field 0: a manifest edited by
    /// hand is refused.
    #[serde(default)]
    pub(crate) checksum: u64,
}

impl Manifest {
    /// A manifest of work not started.
    pub(crate) fn new(identity: Identity, width: u32, table_format: u32) -> Self {
        Manifest {
            work_format: WORK_FORMAT,
            table_format,
            sicher: env!("CARGO_PKG_VERSION").to_string(),
            identity,
            width,
            tiers_done: None,
            positions_done: 0,
            groups: Vec::new(),
            state: None,
            checksum: 0,
        }
    }

    fn encode(&self) -> Result<Vec<u8>> {
        let mut json = serde_json::to_vec_pretty(self)
            .map_err(|e| Error::internal(format!("cannot encode the work manifest: {e}")))?;
        json.push(b'\n');
        Ok(json)
    }

    /// Writes the manifest atomically, with its checksum.
    pub(crate) fn save(&mut self, dir: &Path) -> Result<()> {
        self.checksum = 0;
        self.checksum = checksum(&self.encode()?);
        write_bytes(&dir.join(MANIFEST), &self.encode()?, Replace::RegularFile)
    }

    /// Parses a manifest, refusing another work format (named when it can be read), one
    /// that does not parse, and one whose checksum does not match its content.
    pub(crate) fn read(dir: &Path, bytes: &[u8]) -> Result<Self> {
        // An older or newer layout may not parse as this one: name the format if it can.
        #[derive(Deserialize)]
        struct Versions {
            work_format: Option<u32>,
        }
        let versions: Option<Versions> = serde_json::from_slice(bytes).ok();
        let mut manifest: Manifest = match versions.and_then(|v| v.work_format) {
            Some(v) if v != WORK_FORMAT => return Err(other_format(dir, v)),
            Some(_) => serde_json::from_slice(bytes)
                .map_err(|e| damaged(dir, MANIFEST, &format!("does not parse ({e})")))?,
            None => return Err(damaged(dir, MANIFEST, "is not a work manifest")),
        };
        let stored = std::mem::take(&mut manifest.checksum);
        if checksum(&manifest.encode()?) != stored {
            return Err(damaged(
                dir,
                MANIFEST,
                "was edited (its checksum does not match)",
            ));
        }
        manifest.checksum = stored;
        Ok(manifest)
    }

    /// Refuses a manifest of another format, table format, identity or width.
    pub(crate) fn check_work(
        &self,
        dir: &Path,
        identity: &Identity,
        width: u32,
        output_format: u32,
    ) -> Result<()> {
        if self.work_format != WORK_FORMAT {
            return Err(other_format(dir, self.work_format));
        }
        if self.table_format != output_format {
            return Err(Error::damaged(format!(
                "the work directory {} is for table format {} (this sicher writes {output_format})",
                dir.display(),
                self.table_format
            ))
            .with_hint(Hint::Restart));
        }
        if self.identity != *identity || self.width != width {
            let (theirs, ours) = (self.identity.describe(), identity.describe());
            // Two descriptions that read the same differ in what they do not show.
            let what = if theirs != ours {
                format!("holds {theirs}, not {ours}")
            } else if self.identity.entries != identity.entries {
                format!(
                    "counts {} positions where {ours} has {}",
                    self.identity.entries, identity.entries
                )
            } else {
                format!(
                    "stores {} bits per position where {ours} takes {width}",
                    self.width
                )
            };
            return Err(
                Error::damaged(format!("the work directory {} {what}", dir.display()))
                    .with_hint(Hint::Restart),
            );
        }
        Ok(())
    }

    /// Checks that the listed parts and counts fit the domain's tiers: every tier number
    /// exists, the groups cover the finished tiers' ranks exactly, in order from rank 0,
    /// each part's tiers are those of its ranks, the state follows them, file names stay
    /// in the directory, and the positions done are those of the finished tiers.
    pub(crate) fn check_structure(&self, dir: &Path, tiers: Tiers<'_>, entries: u64) -> Result<()> {
        let bad = |why: String| Err(damaged(dir, MANIFEST, &why));
        let count = tiers.count();
        if let Some(done) = self.tiers_done {
            if done >= count {
                return bad(format!("lists tier {done} of a domain of {count} tiers"));
            }
        }
        for part in self.groups.iter().chain(&self.state) {
            if !is_part_name(&part.file) {
                return bad(format!("lists a file named {:?}", part.file));
            }
            let [first, last] = part.tiers;
            let [start, end] = part.ranks;
            if first > last || last >= count || start >= end || end > entries {
                return bad(format!(
                    "lists {} with tiers or ranks outside the domain",
                    part.file
                ));
            }
        }
        let finished = match (tiers, self.tiers_done) {
            (Tiers::Total(p), Some(done)) => p.tier(done).end,
            (Tiers::Total(_), None) => 0,
            (_, Some(_)) => entries,
            (_, None) => 0,
        };
        match tiers {
            Tiers::Total(p) => {
                let mut next = 0;
                for part in &self.groups {
                    let [first, last] = part.tiers;
                    let [start, end] = part.ranks;
                    if start != next {
                        return bad(format!("lists {} out of rank order", part.file));
                    }
                    if p.tier_of(start) != Some(first) || p.tier_of(end - 1) != Some(last) {
                        return bad(format!("lists {} with ranks of other tiers", part.file));
                    }
                    next = end;
                }
                if next != finished {
                    return bad(format!(
                        "lists groups of {next} positions for finished tiers of {finished}"
                    ));
                }
                if let Some(state) = &self.state {
                    let done = self.tiers_done.unwrap_or(u64::MAX);
                    if state.tiers != [done, done] || state.ranks[0] != finished {
                        return bad(format!("lists {} at the wrong place", state.file));
                    }
                }
            }
            Tiers::Scattered(_) | Tiers::Lone(_) | Tiers::Blocks(_) => {
                if !self.groups.is_empty() {
                    return bad("lists groups for a domain whose tiers are not rank ranges".into());
                }
                match (&self.state, self.tiers_done) {
                    (None, None) => {}
                    (Some(state), Some(done))
                        if state.ranks == [0, entries] && state.tiers == [done, done] => {}
                    _ => return bad("lists a state that does not fit its tiers".into()),
                }
            }
        }
        let positions_fit = match tiers {
            Tiers::Total(_) => self.positions_done == finished,
            _ => self.positions_done <= finished,
        };
        if !positions_fit {
            return bad(format!(
                "counts {} positions done for finished tiers of {finished}",
                self.positions_done
            ));
        }
        Ok(())
    }
}

/// The error for a work directory of another format version.
pub(crate) fn other_format(dir: &Path, version: u32) -> Error {
    Error::damaged(format!(
        "the work directory {} was written in work format {version} (this sicher uses {WORK_FORMAT})",
        dir.display()
    ))
    .with_hint(Hint::Restart)
}

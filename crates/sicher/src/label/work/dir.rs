//! The work directory as a directory: what may be in it, its lock, and the files no
//! checkpoint lists, which are removed.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::manifest::{Manifest, MANIFEST};
use super::part::is_part_name;
use crate::atomic_file::{write_bytes, Replace};
use crate::error::{Error, Hint, Result};

const LOCK: &str = "lock";

/// True for names a work directory holds: its manifest, lock, parts and their
/// temporaries.
fn is_work_entry(name: &str) -> bool {
    name == MANIFEST
        || name == LOCK
        || name.starts_with("group-")
        || name.starts_with("state-")
        || name.starts_with("tier-")
        || name.starts_with('.')
}

/// Refuses to use a directory that holds anything a work directory would not.
pub(crate) fn check_no_foreign_entries(dir: &Path) -> Result<()> {
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
pub(crate) fn remove_work_dir(dir: &Path) -> Result<()> {
    check_no_foreign_entries(dir)?;
    std::fs::remove_dir_all(dir).map_err(|e| Error::io(dir, e))
}

/// Removes parts the manifest does not list (written after its last checkpoint) and the
/// temporaries of parts (of writers that died: the lock is held, so no other writer is
/// at work).
pub(crate) fn remove_unlisted(dir: &Path, manifest: &Manifest) -> Result<()> {
    let listed: Vec<&str> = manifest
        .groups
        .iter()
        .chain(&manifest.state)
        .map(|p| p.file.as_str())
        .collect();
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let part = is_part_name(&name) && !listed.contains(&name.as_str());
        let temporary = name
            .strip_prefix('.')
            .is_some_and(|rest| is_part_name(rest) && name.ends_with(".partial"));
        if part || temporary {
            std::fs::remove_file(entry.path()).map_err(|e| Error::io(entry.path(), e))?;
        }
    }
    Ok(())
}

/// The directory's lock: a file naming the process that works in it.
pub(crate) struct Lock {
    path: PathBuf,
}

impl Lock {
    /// Takes the lock, refusing a directory another living sicher works in.
    pub(crate) fn take(dir: &Path) -> Result<Self> {
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

//! The work directory as a directory: what may be in it, its lock, and the files no
//! checkpoint lists, which are removed.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use super::manifest::{Manifest, MANIFEST};
use super::part::is_part_name;
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

/// The directory's lock: an advisory lock on the file `lock`, held by the open file for
/// as long as the work runs, so that it is taken atomically and by whichever process
/// works (the `sicher` binary, `sicher-mpi`, a Python program, two threads of one
/// process), and let go by the kernel when the holder dies. The file names the holder's
/// process for the message a second writer gets.
pub(crate) struct Lock {
    path: PathBuf,
    _file: File,
}

impl Lock {
    /// Takes the lock, refusing a directory another writer works in.
    pub(crate) fn take(dir: &Path) -> Result<Self> {
        let path = dir.join(LOCK);
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| Error::io(&path, e))?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    let holder = match holder.trim().parse::<u32>() {
                        Ok(pid) => format!(" (pid {pid})"),
                        Err(_) => String::new(),
                    };
                    return Err(Error::input(format!(
                        "the work directory {} is in use by another writer{holder}",
                        dir.display()
                    ))
                    .with_hint(Hint::Wait));
                }
                Err(TryLockError::Error(e)) => return Err(Error::io(&path, e)),
            }
            // A holder removes the file before it lets go, so a lock taken on a file no
            // longer at `path` guards nothing: take the one there now.
            if !same_file(&file, &path) {
                continue;
            }
            let me = format!("{}\n", std::process::id());
            file.set_len(0)
                .and_then(|()| file.write_all(me.as_bytes()))
                .map_err(|e| Error::io(&path, e))?;
            return Ok(Lock { path, _file: file });
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held (the file closes after this), so a writer waiting on
        // this file sees that it is gone and takes a new one.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// True when `path` names the file `file` has open.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lock is held by an open file, not by a process id: a second taker in the same
    /// process (another thread, another `Game` of a Python program) is refused, and the
    /// directory is free again once the holder is dropped.
    #[test]
    fn the_lock_is_exclusive_even_within_one_process() {
        let dir = tempfile::tempdir().unwrap();
        let held = Lock::take(dir.path()).unwrap();
        let err = Lock::take(dir.path())
            .err()
            .expect("a second taker is refused");
        assert!(
            err.to_string().contains("in use by another writer"),
            "{err}"
        );
        assert!(
            err.to_string().contains(&std::process::id().to_string()),
            "{err}"
        );
        drop(held);
        assert!(!dir.path().join(LOCK).exists());
        let again = Lock::take(dir.path()).unwrap();
        let takers: Vec<_> = (0..8)
            .map(|_| {
                let dir = dir.path().to_path_buf();
                std::thread::spawn(move || Lock::take(&dir).is_ok())
            })
            .collect();
        assert!(takers.into_iter().all(|t| !t.join().unwrap()));
        drop(again);
    }
}

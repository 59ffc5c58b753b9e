//! Files that appear complete or not at all: every file sicher writes (tables, pictures)
//! is written under a hidden temporary name beside its destination, synced, and only
//! then given its final name.
//!
//! The final step never replaces a file that appeared meanwhile unless overwriting was
//! asked for (a hard link fails if the name exists, where a rename would silently
//! replace), never replaces anything but a regular file, and errors name the user's
//! path, not the temporary one. [`remove_temporaries_before_exit`] removes the temporaries
//! being written, for a signal handler (the binary's); a temporary left behind by a
//! process that died otherwise (kill -9, power loss) is removed by the next writer of the
//! same destination.

use std::fs::File;
use std::io::{BufWriter, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{Error, Result};

/// Temporaries being written now: [`remove_temporaries_before_exit`] removes them.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes every temporary this process is writing now and keeps any writer from
/// creating another, for a program about to exit on a signal. The library installs no
/// signal handler: the `sicher` binary calls this from its own before exiting, and a
/// program that embeds sicher does the same from its handler if it has one. A temporary
/// left behind anyway (kill -9, power loss) is removed by the next writer of the same
/// destination. Never returns control of the registry: call it only on the way out.
pub fn remove_temporaries_before_exit() {
    let live = LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    for path in live.iter() {
        let _ = std::fs::remove_file(path);
    }
    // The lock stays held until the process is gone, so no writer creates a temporary
    // after this sweep (see `create_registered`).
    std::mem::forget(live);
}

/// Creates a temporary and registers it in one step under the lock the signal handler
/// takes: a temporary is either created and then removed by the handler, or never
/// created at all.
fn create_registered(path: &Path) -> std::io::Result<File> {
    let mut live = LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let file = File::create(path)?;
    live.push(path.to_path_buf());
    Ok(file)
}

fn unregister(path: &Path) {
    if let Ok(mut live) = LIVE.lock() {
        live.retain(|p| p != path);
    }
}

/// Whether an existing destination may be replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replace {
    /// Refuse if the destination exists, even if it appears while writing.
    Never,
    /// Replace an existing regular file.
    RegularFile,
}

/// A file being written under a temporary name; dropped without [`commit`](Self::commit),
/// the temporary is removed.
pub struct AtomicFile {
    destination: PathBuf,
    temporary: PathBuf,
    replace: Replace,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing `destination`: refuses at once when it exists and may not be
    /// replaced, or is not a regular file; creates missing parent directories.
    pub fn create(destination: &Path, replace: Replace) -> Result<Self> {
        check_destination(destination, replace)?;
        let dir = parent_dir(destination);
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        remove_stale_temporaries(destination);
        let temporary = temporary_name(destination, std::process::id());
        let file = create_registered(&temporary).map_err(|e| Error::io(destination, e))?;
        Ok(AtomicFile {
            destination: destination.to_path_buf(),
            temporary,
            replace,
            out: Some(BufWriter::with_capacity(1 << 20, file)),
        })
    }

    /// The path the file will have once committed.
    pub fn destination(&self) -> &Path {
        &self.destination
    }

    /// Writes bytes; errors name the destination.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        let destination = &self.destination;
        match self.out.as_mut() {
            Some(out) => out.write_all(bytes).map_err(|e| Error::io(destination, e)),
            None => Err(Error::internal("write after commit")),
        }
    }

    /// Overwrites bytes already written, from `offset` (a header written last).
    pub fn write_at(&mut self, offset: u64, bytes: &[u8]) -> Result<()> {
        use std::io::{Seek, SeekFrom};
        let destination = &self.destination;
        let io = |e| Error::io(destination, e);
        let out = self
            .out
            .as_mut()
            .ok_or_else(|| Error::internal("write after commit"))?;
        // Seeking a BufWriter flushes it first.
        out.seek(SeekFrom::Start(offset)).map_err(io)?;
        out.write_all(bytes).map_err(io)?;
        out.seek(SeekFrom::End(0)).map_err(io)?;
        Ok(())
    }

    /// Flushes, syncs and gives the file its final name.
    pub fn commit(mut self) -> Result<()> {
        let io = |e| Error::io(&self.destination, e);
        let out = self
            .out
            .take()
            .ok_or_else(|| Error::internal("committed twice"))?;
        let file = out.into_inner().map_err(|e| io(e.into_error()))?;
        file.sync_all().map_err(io)?;
        drop(file);
        match self.replace {
            Replace::Never => match std::fs::hard_link(&self.temporary, &self.destination) {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    return Err(exists_error(&self.destination));
                }
                // Filesystems without hard links: check, then rename (a narrow race).
                Err(_) => {
                    check_destination(&self.destination, Replace::Never)?;
                    std::fs::rename(&self.temporary, &self.destination).map_err(io)?;
                }
            },
            Replace::RegularFile => {
                check_destination(&self.destination, Replace::RegularFile)?;
                std::fs::rename(&self.temporary, &self.destination).map_err(io)?;
            }
        }
        // After a hard link the temporary is a second name of the same file.
        let _ = std::fs::remove_file(&self.temporary);
        sync_dir(parent_dir(&self.destination));
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self.out.as_mut() {
            Some(out) => out.write(bytes),
            None => Err(std::io::Error::other("write after commit")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.out.as_mut() {
            Some(out) => out.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // Committed or not, the temporary name must not outlive the writer.
        self.out.take();
        let _ = std::fs::remove_file(&self.temporary);
        unregister(&self.temporary);
    }
}

/// Writes `bytes` to `destination` in one go, atomically.
pub fn write_bytes(destination: &Path, bytes: &[u8], replace: Replace) -> Result<()> {
    let mut file = AtomicFile::create(destination, replace)?;
    file.write_all(bytes)?;
    file.commit()
}

fn exists_error(destination: &Path) -> Error {
    Error::exists(destination)
}

/// Refuses a destination that exists (unless it may be replaced) or is not a regular file,
/// as [`AtomicFile::create`] will: for work that checks its output before it starts.
pub fn check_destination(destination: &Path, replace: Replace) -> Result<()> {
    match std::fs::symlink_metadata(destination) {
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(destination, e)),
        // Not a regular file: refused whatever `replace` says, so the answer never
        // suggests overwriting what would be refused anyway.
        Ok(meta) if !meta.file_type().is_file() => Err(Error::exists_not_regular(destination)),
        Ok(_) if replace == Replace::Never => Err(exists_error(destination)),
        Ok(_) => Ok(()),
    }
}

fn parent_dir(path: &Path) -> &Path {
    path.parent().unwrap_or(Path::new(""))
}

/// `.NAME.PID.partial` beside the destination.
fn temporary_name(destination: &Path, pid: u32) -> PathBuf {
    let name = destination
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    destination.with_file_name(format!(".{name}.{pid}.partial"))
}

/// Removes `.NAME.PID.partial` files beside `destination` whose process is gone (a kill -9
/// or a power loss during an earlier write).
fn remove_stale_temporaries(destination: &Path) {
    let Some(name) = destination.file_name().map(|n| n.to_string_lossy()) else {
        return;
    };
    let prefix = format!(".{name}.");
    let dir = parent_dir(destination);
    let listing = if dir.as_os_str().is_empty() {
        std::fs::read_dir(".")
    } else {
        std::fs::read_dir(dir)
    };
    let Ok(listing) = listing else { return };
    for entry in listing.flatten() {
        let file_name = entry.file_name();
        let file_name = file_name.to_string_lossy();
        let Some(pid) = file_name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".partial"))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !process_alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// True when a process with this id exists (Linux: `/proc/PID`); elsewhere assume it
/// does, so nothing of a live writer is ever removed.
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let proc_root = Path::new("/proc");
    if !proc_root.join("self").exists() {
        return true;
    }
    proc_root.join(pid.to_string()).exists()
}

/// Makes the rename durable where the platform allows syncing a directory.
fn sync_dir(dir: &Path) {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_refuses_to_clobber_and_leaves_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("x.bin");
        write_bytes(&path, b"one", Replace::Never).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        let err = write_bytes(&path, b"two", Replace::Never).unwrap_err();
        // The hint the binary words as `--force`.
        assert_eq!(err.hint(), Some(&crate::error::Hint::Overwrite), "{err}");
        write_bytes(&path, b"two", Replace::RegularFile).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(
            std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
            1
        );
    }

    #[test]
    fn a_destination_that_appears_meanwhile_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("race.bin");
        let mut file = AtomicFile::create(&path, Replace::Never).unwrap();
        file.write_all(b"mine").unwrap();
        std::fs::write(&path, b"theirs").unwrap();
        let err = file.commit().unwrap_err().to_string();
        assert!(err.contains("already exists"), "{err}");
        assert!(!err.contains(".partial"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"theirs");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn only_regular_files_are_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a-directory");
        std::fs::create_dir(&path).unwrap();
        let err = write_bytes(&path, b"x", Replace::RegularFile).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }

    #[test]
    fn stale_temporaries_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.table");
        // Process ids wrap far below this on Linux, so no such process exists.
        let stale = temporary_name(&path, 4_000_000_000);
        std::fs::write(&stale, b"half").unwrap();
        write_bytes(&path, b"whole", Replace::Never).unwrap();
        assert!(!stale.exists());
        assert_eq!(std::fs::read(&path).unwrap(), b"whole");
    }
}

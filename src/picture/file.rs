//! Writing a picture under a temporary name in the target directory, renamed into place
//! only once complete and synced, so an interrupted run never leaves a half image under the
//! final name.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use crate::error::{Error, Result};

/// Writes `path` through `.NAME.PID.partial` beside it, replacing any existing file only
/// once `encode` has written everything. Errors name `path`, the file the user asked for.
pub(super) fn save_atomically(
    path: &Path,
    encode: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| Error::input(format!("{}: not a file name", path.display())))?;
    let temporary = path.with_file_name(format!(
        ".{}.{}.partial",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = write_file(&temporary, encode)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| Error::io(path, e));
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

fn write_file(
    path: &Path,
    encode: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, File::create(path)?);
    encode(&mut out)?;
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()
}

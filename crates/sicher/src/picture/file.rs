//! Writing a picture through [`crate::atomic_file`]: under a temporary name beside the
//! destination, synced, then given its final name, so an interrupted run never leaves a
//! half image under the final name and a file that appeared meanwhile is only replaced
//! when replacing was asked for.

use std::io::{self, Write};
use std::path::Path;

use crate::atomic_file::{AtomicFile, Replace};
use crate::error::{Error, Result};

/// Writes `path` with what `encode` produces; errors name `path`, the file the user
/// asked for.
pub(super) fn save_atomically(
    path: &Path,
    replace: Replace,
    encode: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<()> {
    let mut file = AtomicFile::create(path, replace)?;
    encode(&mut file).map_err(|e| Error::io(path, e))?;
    file.commit()
}

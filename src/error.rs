//! The crate's error type: every failure a user can cause, each rendered as one line.
//!
//! The binary prints `sicher: <message>` and exits with [`Error::exit_code`]; nothing
//! a user types or points sicher at may end in a panic.

use std::fmt;
use std::path::PathBuf;

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A failure with a one-line, user-facing message.
#[derive(Debug)]
pub enum Error {
    /// The user asked for something malformed or impossible (bad game, bad heap, bad table, ...).
    Input(String),
    /// An I/O failure on a named file.
    Io {
        /// The file involved.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A verification found positions on which the two engines disagree.
    Disagreement(String),
}

impl Error {
    /// Builds an input error from anything printable.
    pub fn input(message: impl Into<String>) -> Self {
        Error::Input(message.into())
    }

    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// The process exit code: 2 for anything the user can fix, 1 for a failed verification.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) | Error::Io { .. } => 2,
            Error::Disagreement(_) => 1,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(message) | Error::Disagreement(message) => f.write_str(message),
            Error::Io { path, source } => write!(f, "{}: {}", path.display(), source),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

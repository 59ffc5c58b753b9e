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

/// Quotes text a user gave, for an error message: in backticks, at most
/// [`QUOTE_CHARS`] characters (then an ellipsis), control characters and other
/// unprintable ones escaped, so hostile input never floods or garbles the one line.
pub fn quote(text: &str) -> String {
    let mut out = String::from("`");
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_CHARS {
            out.push('…');
            break;
        }
        if c == '`' {
            // escape_default leaves a backtick as it is, which would end the quote early.
            out.push_str("\\`");
        } else if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
}

/// Most characters of user text an error message quotes.
pub const QUOTE_CHARS: usize = 40;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_short_and_escaped() {
        assert_eq!(quote("x"), "`x`");
        assert_eq!(quote("a\0b\n"), "`a\\u{0}b\\n`");
        assert_eq!(quote("a`b"), "`a\\`b`");
        let long = "9".repeat(5_000_000);
        let quoted = quote(&long);
        assert!(
            quoted.chars().count() <= QUOTE_CHARS + 3,
            "{}",
            quoted.len()
        );
        assert!(quoted.ends_with("…`"));
    }
}

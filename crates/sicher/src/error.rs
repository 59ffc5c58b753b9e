//! The crate's error type: every failure, typed by what went wrong, each rendered as one
//! line.
//!
//! A caller matches on [`Error::kind`] ("damaged table" against "missing table", "bad
//! input" against "not enough memory"). Messages say what is wrong in the library's
//! terms; what the user can do about it travels as a [`Hint`], which the library words
//! neutrally and the `sicher` binary words as its flags. Nothing a user types or points
//! sicher at may end in a panic.

use std::fmt;
use std::path::PathBuf;

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A failure with a one-line message.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Bad input: a malformed game, description, script, heap or request, or one the
    /// chosen rules or engine cannot answer.
    Input {
        /// What is wrong.
        message: String,
        /// What the user can do instead.
        hint: Option<Hint>,
    },
    /// An I/O failure on a named file (a missing file is one, with
    /// [`std::io::ErrorKind::NotFound`]).
    Io {
        /// The file involved.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A file that would be written exists and may not be replaced.
    Exists {
        /// The file.
        path: PathBuf,
        /// True when it is not a regular file, which is never replaced.
        irregular: bool,
    },
    /// A table, quotient or work directory that is damaged, truncated, of another
    /// format version, or written for another game or domain.
    Damaged {
        /// What is wrong, naming the file.
        message: String,
        /// What the user can do about it.
        hint: Option<Hint>,
    },
    /// Work refused because it would not fit: memory, sizes, counts.
    Resource {
        /// What was refused and why.
        message: String,
        /// What the user can do instead.
        hint: Option<Hint>,
    },
    /// A verification found positions on which two engines disagree.
    Disagreement(String),
    /// The caller asked the work to stop (through its progress callback).
    Interrupted,
    /// A fault in sicher itself: a broken invariant. Never the user's doing.
    Internal(String),
}

/// What an [`Error`] is about, for callers that branch on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// [`Error::Input`].
    Input,
    /// [`Error::Io`] for a file that does not exist.
    NotFound,
    /// [`Error::Io`] otherwise.
    Io,
    /// [`Error::Exists`].
    Exists,
    /// [`Error::Damaged`].
    Damaged,
    /// [`Error::Resource`].
    Resource,
    /// [`Error::Disagreement`].
    Disagreement,
    /// [`Error::Interrupted`].
    Interrupted,
    /// [`Error::Internal`].
    Internal,
}

/// What the user can do about an error, named rather than worded: the library words it
/// for any caller ([`Hint`]'s `Display`), the binary as its own flags.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Hint {
    /// Allow replacing the existing file.
    Overwrite,
    /// Throw the work directory's work away and start again.
    Restart,
    /// Move the named thing out of the way.
    MoveAway,
    /// Wait for the other process to finish.
    Wait,
    /// Ask for a smaller range of heap sizes.
    LowerMax,
    /// Allow more nim-values, or answer positions by search instead.
    MoreValuesOrSearch,
    /// Label a smaller domain.
    SmallerDomain,
    /// Go ahead although the estimate says the memory will not be there.
    ForceMemory,
    /// Use a domain bounded by total tokens instead of heap count and size.
    UseTotal,
    /// Use the forward labeller.
    UseForward,
    /// The file is a table of positions: read it as one.
    UseAsTable,
    /// The file holds nim-values: read it as a nim-value table.
    UseAsNimTable,
    /// Ask for misère play.
    UseMisere,
    /// Answer by nim-values instead of search.
    UseNimValues,
    /// Make a remoteness table, or ask for the verdict alone.
    MakeRemotenessTable,
    /// Write the table again with this sicher.
    WriteAgain(TableKind),
    /// Compute the ruleset's misère quotient instead.
    UseQuotient(String),
}

/// The kinds of file sicher writes, for [`Hint::WriteAgain`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// An endgame table of positions.
    Positions,
    /// A table of nim-values of heap sizes.
    NimValues,
    /// A misère quotient.
    Quotient,
}

impl Error {
    /// Bad input, from anything printable.
    pub fn input(message: impl Into<String>) -> Self {
        Error::Input {
            message: message.into(),
            hint: None,
        }
    }

    /// Damaged or foreign data.
    pub fn damaged(message: impl Into<String>) -> Self {
        Error::Damaged {
            message: message.into(),
            hint: None,
        }
    }

    /// Work refused for want of memory or room.
    pub fn resource(message: impl Into<String>) -> Self {
        Error::Resource {
            message: message.into(),
            hint: None,
        }
    }

    /// A broken invariant inside sicher.
    pub fn internal(message: impl Into<String>) -> Self {
        Error::Internal(message.into())
    }

    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// The same error with a hint for the user (errors that carry none keep none).
    pub fn with_hint(mut self, new: Hint) -> Self {
        if let Error::Input { hint, .. }
        | Error::Damaged { hint, .. }
        | Error::Resource { hint, .. } = &mut self
        {
            *hint = Some(new);
        }
        self
    }

    /// What the error is about.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Input { .. } => ErrorKind::Input,
            Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                ErrorKind::NotFound
            }
            Error::Io { .. } => ErrorKind::Io,
            Error::Exists { .. } => ErrorKind::Exists,
            Error::Damaged { .. } => ErrorKind::Damaged,
            Error::Resource { .. } => ErrorKind::Resource,
            Error::Disagreement(_) => ErrorKind::Disagreement,
            Error::Interrupted => ErrorKind::Interrupted,
            Error::Internal(_) => ErrorKind::Internal,
        }
    }

    /// What the user can do about it, if anything is known.
    pub fn hint(&self) -> Option<&Hint> {
        match self {
            Error::Input { hint, .. }
            | Error::Damaged { hint, .. }
            | Error::Resource { hint, .. } => hint.as_ref(),
            Error::Exists {
                irregular: false, ..
            } => Some(&Hint::Overwrite),
            _ => None,
        }
    }

    /// The message without its hint.
    pub fn message(&self) -> String {
        match self {
            Error::Input { message, .. }
            | Error::Damaged { message, .. }
            | Error::Resource { message, .. }
            | Error::Disagreement(message) => message.clone(),
            Error::Io { path, source } => format!("{}: {}", path.display(), source),
            Error::Exists {
                path,
                irregular: false,
            } => format!("{} already exists", path.display()),
            Error::Exists {
                path,
                irregular: true,
            } => format!(
                "{} exists and is not a regular file; sicher only replaces regular files",
                path.display()
            ),
            Error::Interrupted => "interrupted".to_string(),
            Error::Internal(message) => format!("internal error: {message}"),
        }
    }

    /// The same error with `context` before its message (`stdin line 3: ...`); I/O
    /// errors, which name their file, and the message-less kinds are kept as they are.
    pub fn context(self, context: impl fmt::Display) -> Self {
        let prefix = |message: String| format!("{context}: {message}");
        match self {
            Error::Input { message, hint } => Error::Input {
                message: prefix(message),
                hint,
            },
            Error::Damaged { message, hint } => Error::Damaged {
                message: prefix(message),
                hint,
            },
            Error::Resource { message, hint } => Error::Resource {
                message: prefix(message),
                hint,
            },
            other => other,
        }
    }
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::Overwrite => f.write_str("allow overwriting to replace it"),
            Hint::Restart => f.write_str("throw the work away and start again"),
            Hint::MoveAway => f.write_str("move it away"),
            Hint::Wait => f.write_str("wait for it to finish"),
            Hint::LowerMax => f.write_str("ask for fewer heap sizes"),
            Hint::MoreValuesOrSearch => {
                f.write_str("allow more nim-values, or answer by search instead")
            }
            Hint::SmallerDomain => f.write_str("label a smaller domain"),
            Hint::ForceMemory => f.write_str("go ahead anyway only if you know better"),
            Hint::UseTotal => f.write_str("bound the domain by total tokens instead"),
            Hint::UseForward => f.write_str("use the forward labeller"),
            Hint::UseAsTable => f.write_str("read it as a table of positions"),
            Hint::UseAsNimTable => f.write_str("read it as a nim-value table"),
            Hint::UseMisere => f.write_str("ask for misere play"),
            Hint::UseNimValues => f.write_str("answer by nim-values instead"),
            Hint::MakeRemotenessTable => {
                f.write_str("make a remoteness table, or ask for the verdict alone")
            }
            Hint::WriteAgain(TableKind::NimValues) => {
                f.write_str("compute the nim-values again and write them with this sicher")
            }
            Hint::WriteAgain(kind) => write!(f, "write the {kind} again with this sicher"),
            Hint::UseQuotient(ruleset) => write!(f, "compute the misère quotient of {ruleset}"),
        }
    }
}

impl fmt::Display for TableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TableKind::Positions => "table",
            TableKind::NimValues => "nim-value table",
            TableKind::Quotient => "quotient",
        })
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
        f.write_str(&self.message())?;
        match self.hint() {
            Some(hint) => write!(f, "; {hint}"),
            None => Ok(()),
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

    #[test]
    fn kinds_tell_missing_from_damaged() {
        let missing = Error::io("t", std::io::Error::from(std::io::ErrorKind::NotFound));
        assert_eq!(missing.kind(), ErrorKind::NotFound);
        let damaged = Error::damaged("t: corrupted table").with_hint(Hint::Restart);
        assert_eq!(damaged.kind(), ErrorKind::Damaged);
        assert_eq!(damaged.hint(), Some(&Hint::Restart));
        assert_eq!(
            damaged.to_string(),
            "t: corrupted table; throw the work away and start again"
        );
        assert_eq!(Error::internal("x").kind(), ErrorKind::Internal);
    }
}

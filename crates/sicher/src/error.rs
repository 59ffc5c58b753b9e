//! The crate's error type: every failure, typed by what went wrong, each rendered as one
//! line.
//!
//! A caller matches on [`Error::kind`] ("damaged table" against "missing table", "bad
//! input" against "not enough memory"). Messages say what is wrong in the library's
//! terms; what the user can do about it travels as a [`Hint`], which the library words
//! neutrally and the `sicher` binary words as its flags. Nothing a user types or points
//! sicher at may end in a panic.

use std::fmt;
use std::path::{Path, PathBuf};

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A failure with a one-line message.
///
/// Opaque: a caller branches on [`Error::kind`], reads [`Error::message`],
/// [`Error::hint`] and, for file trouble, [`Error::path`] and [`Error::io_error`] (also
/// the [`std::error::Error::source`]). Its `Display` is the one line a user is shown: the
/// message, then `; ` and the hint's wording when there is one.
pub struct Error {
    repr: Repr,
}

/// What an [`Error`] holds; private, so that new kinds of detail break no caller.
#[derive(Debug)]
enum Repr {
    /// Bad input (see [`ErrorKind::Input`]).
    Input { message: String, hint: Option<Hint> },
    /// An I/O failure on a named file.
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file that would be written exists; `irregular` when it is not a regular file,
    /// which is never replaced.
    Exists { path: PathBuf, irregular: bool },
    /// Damaged or foreign data.
    Damaged { message: String, hint: Option<Hint> },
    /// Work refused because it would not fit.
    Resource { message: String, hint: Option<Hint> },
    /// Two engines disagree.
    Disagreement(String),
    /// The caller asked the work to stop.
    Interrupted,
    /// A broken invariant inside sicher.
    Internal(String),
}

/// What an [`Error`] is about, for callers that branch on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Bad input: a malformed game, description, script, heap or request, or one the
    /// chosen rules or engine cannot answer ([`Error::input`]).
    Input,
    /// An I/O failure on a file that does not exist ([`Error::io`] with
    /// [`std::io::ErrorKind::NotFound`]).
    NotFound,
    /// Any other I/O failure on a named file ([`Error::io`]).
    Io,
    /// A file that would be written exists and may not be replaced ([`Error::exists`],
    /// [`Error::exists_not_regular`]).
    Exists,
    /// A table, quotient or work directory that is damaged, truncated, of another format
    /// version, or written for another game or domain ([`Error::damaged`]).
    Damaged,
    /// Work refused because it would not fit: memory, sizes, counts
    /// ([`Error::resource`]).
    Resource,
    /// A verification found positions on which two engines disagree
    /// ([`Error::disagreement`]).
    Disagreement,
    /// The caller asked the work to stop ([`Error::interrupted`], what
    /// [`crate::Cancel::check`] returns once cancelled).
    Interrupted,
    /// A fault in sicher itself: a broken invariant, never the user's doing
    /// ([`Error::internal`]).
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
    fn new(repr: Repr) -> Self {
        Error { repr }
    }

    /// Bad input, from anything printable.
    pub fn input(message: impl Into<String>) -> Self {
        Error::new(Repr::Input {
            message: message.into(),
            hint: None,
        })
    }

    /// Damaged or foreign data.
    pub fn damaged(message: impl Into<String>) -> Self {
        Error::new(Repr::Damaged {
            message: message.into(),
            hint: None,
        })
    }

    /// Work refused for want of memory or room.
    pub fn resource(message: impl Into<String>) -> Self {
        Error::new(Repr::Resource {
            message: message.into(),
            hint: None,
        })
    }

    /// A broken invariant inside sicher.
    pub fn internal(message: impl Into<String>) -> Self {
        Error::new(Repr::Internal(message.into()))
    }

    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::new(Repr::Io {
            path: path.into(),
            source,
        })
    }

    /// A file that would be written exists and may not be replaced (its hint is
    /// [`Hint::Overwrite`]).
    pub fn exists(path: impl Into<PathBuf>) -> Self {
        Error::new(Repr::Exists {
            path: path.into(),
            irregular: false,
        })
    }

    /// A file that would be written exists and is not a regular file, which sicher never
    /// replaces (so no hint).
    pub fn exists_not_regular(path: impl Into<PathBuf>) -> Self {
        Error::new(Repr::Exists {
            path: path.into(),
            irregular: true,
        })
    }

    /// Two engines disagree on positions, as the message says.
    pub fn disagreement(message: impl Into<String>) -> Self {
        Error::new(Repr::Disagreement(message.into()))
    }

    /// The work was stopped at the caller's request.
    pub fn interrupted() -> Self {
        Error::new(Repr::Interrupted)
    }

    /// The same error with a hint for the user (errors that carry none keep none).
    pub fn with_hint(mut self, new: Hint) -> Self {
        if let Repr::Input { hint, .. } | Repr::Damaged { hint, .. } | Repr::Resource { hint, .. } =
            &mut self.repr
        {
            *hint = Some(new);
        }
        self
    }

    /// The same error without the hint it was given (the one an existing file implies
    /// stays: it is part of what the error is).
    pub fn without_hint(mut self) -> Self {
        if let Repr::Input { hint, .. } | Repr::Damaged { hint, .. } | Repr::Resource { hint, .. } =
            &mut self.repr
        {
            *hint = None;
        }
        self
    }

    /// What the error is about.
    pub fn kind(&self) -> ErrorKind {
        match &self.repr {
            Repr::Input { .. } => ErrorKind::Input,
            Repr::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                ErrorKind::NotFound
            }
            Repr::Io { .. } => ErrorKind::Io,
            Repr::Exists { .. } => ErrorKind::Exists,
            Repr::Damaged { .. } => ErrorKind::Damaged,
            Repr::Resource { .. } => ErrorKind::Resource,
            Repr::Disagreement(_) => ErrorKind::Disagreement,
            Repr::Interrupted => ErrorKind::Interrupted,
            Repr::Internal(_) => ErrorKind::Internal,
        }
    }

    /// What the user can do about it, if anything is known.
    pub fn hint(&self) -> Option<&Hint> {
        match &self.repr {
            Repr::Input { hint, .. } | Repr::Damaged { hint, .. } | Repr::Resource { hint, .. } => {
                hint.as_ref()
            }
            Repr::Exists {
                irregular: false, ..
            } => Some(&Hint::Overwrite),
            _ => None,
        }
    }

    /// The file the error is about, for I/O failures and existing files.
    pub fn path(&self) -> Option<&Path> {
        match &self.repr {
            Repr::Io { path, .. } | Repr::Exists { path, .. } => Some(path),
            _ => None,
        }
    }

    /// What the operating system said, for I/O failures.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        match &self.repr {
            Repr::Io { source, .. } => Some(source),
            _ => None,
        }
    }

    /// The message without its hint.
    pub fn message(&self) -> String {
        match &self.repr {
            Repr::Input { message, .. }
            | Repr::Damaged { message, .. }
            | Repr::Resource { message, .. }
            | Repr::Disagreement(message) => message.clone(),
            Repr::Io { path, source } => format!("{}: {}", path.display(), source),
            Repr::Exists {
                path,
                irregular: false,
            } => format!("{} already exists", path.display()),
            Repr::Exists {
                path,
                irregular: true,
            } => format!(
                "{} exists and is not a regular file; sicher only replaces regular files",
                path.display()
            ),
            Repr::Interrupted => "interrupted".to_string(),
            Repr::Internal(message) => format!("internal error: {message}"),
        }
    }

    /// The same error with `context` before its message (`stdin line 3: ...`); I/O
    /// errors, which name their file, and the message-less kinds are kept as they are.
    pub fn context(mut self, context: impl fmt::Display) -> Self {
        if let Repr::Input { message, .. }
        | Repr::Damaged { message, .. }
        | Repr::Resource { message, .. } = &mut self.repr
        {
            *message = format!("{context}: {message}");
        }
        self
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.repr, f)
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
        self.io_error()
            .map(|source| source as &(dyn std::error::Error + 'static))
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

    #[test]
    fn an_opaque_error_tells_its_kind_path_and_source() {
        use std::error::Error as _;
        let missing = Error::io("t.tab", std::io::Error::from(std::io::ErrorKind::NotFound));
        assert_eq!(missing.path(), Some(Path::new("t.tab")));
        assert!(missing.io_error().is_some() && missing.source().is_some());
        let exists = Error::exists("out.tab");
        assert_eq!(exists.kind(), ErrorKind::Exists);
        assert_eq!(exists.path(), Some(Path::new("out.tab")));
        assert_eq!(
            exists.to_string(),
            "out.tab already exists; allow overwriting to replace it"
        );
        let odd = Error::exists_not_regular("dir");
        assert_eq!(odd.hint(), None);
        assert_eq!(
            odd.to_string(),
            "dir exists and is not a regular file; sicher only replaces regular files"
        );
        assert!(odd.source().is_none() && Error::input("x").path().is_none());
        assert_eq!(Error::interrupted().to_string(), "interrupted");
        assert_eq!(Error::interrupted().kind(), ErrorKind::Interrupted);
        assert_eq!(Error::disagreement("d").kind(), ErrorKind::Disagreement);
        let hinted = Error::input("bad heap")
            .with_hint(Hint::LowerMax)
            .context("line 3");
        assert_eq!(
            hinted.to_string(),
            "line 3: bad heap; ask for fewer heap sizes"
        );
        let plain = hinted.without_hint();
        assert_eq!(
            (plain.kind(), plain.to_string()),
            (ErrorKind::Input, "line 3: bad heap".to_string())
        );
        assert_eq!(Error::internal("x").to_string(), "internal error: x");
    }
}

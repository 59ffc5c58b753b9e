//! Positions: multisets of heap sizes, kept sorted with empty heaps dropped.

use std::fmt;

use crate::error::{quote, Error, Result};

/// Size of one heap.
pub type Heap = u64;

/// A position: heap sizes in ascending order, no empty heaps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position(Vec<Heap>);

impl Position {
    /// Builds the canonical position from heap sizes in any order (zeros dropped).
    pub fn new(mut heaps: Vec<Heap>) -> Self {
        heaps.retain(|&h| h > 0);
        heaps.sort_unstable();
        Position(heaps)
    }

    /// Wraps heaps already canonical (ascending, no zeros), as a move's child is built.
    pub(crate) fn from_canonical(heaps: Vec<Heap>) -> Self {
        debug_assert!(heaps.is_sorted() && heaps.first().is_none_or(|&h| h > 0));
        Position(heaps)
    }

    /// The heaps, ascending.
    pub fn heaps(&self) -> &[Heap] {
        &self.0
    }

    /// Consumes the position and returns its heaps.
    pub fn into_heaps(self) -> Vec<Heap> {
        self.0
    }

    /// Total number of tokens.
    pub fn total(&self) -> u128 {
        self.0.iter().map(|&h| h as u128).sum()
    }

    /// Parses heap sizes given as separate command-line arguments (each may also hold
    /// several sizes separated by commas).
    pub fn parse_args<S: AsRef<str>>(args: &[S]) -> Result<Self> {
        let mut heaps = Vec::new();
        for arg in args {
            parse_sizes(arg.as_ref(), &mut heaps)?;
        }
        Ok(Position::new(heaps))
    }

    /// Parses one line of heap sizes separated by spaces or commas; an empty line is the
    /// empty position.
    pub fn parse_line(line: &str) -> Result<Self> {
        let mut heaps = Vec::new();
        parse_sizes(line, &mut heaps)?;
        Ok(Position::new(heaps))
    }
}

fn parse_sizes(text: &str, heaps: &mut Vec<Heap>) -> Result<()> {
    for word in text.split(|c: char| c == ',' || c.is_whitespace()) {
        if word.is_empty() {
            continue;
        }
        heaps.push(parse_heap(word)?);
    }
    Ok(())
}

/// Parses one heap size, with a message that says what is wrong with it.
pub fn parse_heap(word: &str) -> Result<Heap> {
    if word.bytes().all(|b| b.is_ascii_digit()) {
        word.parse::<Heap>().map_err(|_| {
            Error::input(format!(
                "heap {} is too large (at most {})",
                quote(word),
                Heap::MAX
            ))
        })
    } else {
        Err(Error::input(format!(
            "heap {} is not a non-negative integer",
            quote(word)
        )))
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(no heaps)");
        }
        for (i, h) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{h}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_canonicalises() {
        assert_eq!(
            Position::parse_line("5, 0 3 4").unwrap().heaps(),
            &[3, 4, 5]
        );
        assert_eq!(Position::parse_line("").unwrap(), Position::default());
        assert!(Position::parse_line("3 -1").is_err());
        assert!(Position::parse_line("3 x").is_err());
        assert!(Position::parse_line("99999999999999999999999").is_err());
        assert_eq!(
            Position::parse_args(&["1,2", "3"]).unwrap().heaps(),
            &[1, 2, 3]
        );
    }
}

//! Packed outcome labels: one bit per rank, set when the position is safe (the body of an
//! outcome table).

use crate::error::{Error, Hint};
use crate::value::{Outcome, Value};

/// The error for an allocation of per-position data that the system refused.
pub(crate) fn out_of_memory(what: &str, entries: u64) -> Error {
    Error::resource(format!(
        "not enough memory for {what} of {entries} positions (the allocation was refused)"
    ))
    .with_hint(Hint::SmallerDomain)
}

/// The labels of a whole domain: bit `r` of the little-endian word sequence is 1 when
/// the position of rank `r` is safe. Bits past the last entry are 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labels {
    words: Vec<u64>,
    entries: u64,
}

impl Labels {
    /// Wraps packed words; bits past `entries` must be 0.
    pub fn from_words(words: Vec<u64>, entries: u64) -> Self {
        debug_assert_eq!(words.len() as u64, entries.div_ceil(64));
        Labels { words, entries }
    }

    /// Number of positions labelled.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// The packed words.
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// True when the position of rank `rank` is safe.
    pub fn is_safe(&self, rank: u64) -> bool {
        self.words[(rank / 64) as usize] >> (rank % 64) & 1 == 1
    }

    /// The value of the position of rank `rank`.
    pub fn value(&self, rank: u64) -> Value {
        Value::Outcome(Outcome::from_win(self.is_safe(rank)))
    }

    /// How many positions are unsafe.
    pub fn unsafe_count(&self) -> u64 {
        self.entries
            - self
                .words
                .iter()
                .map(|w| w.count_ones() as u64)
                .sum::<u64>()
    }
}

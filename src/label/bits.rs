//! Packed outcome labels: one bit per rank, set when the position is safe (the body of an
//! outcome table).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};
use crate::value::{Outcome, Value};

/// The error for an allocation of per-position data that the system refused.
pub(crate) fn out_of_memory(what: &str, entries: u64) -> Error {
    Error::input(format!(
        "not enough memory for {what} of {entries} positions (the allocation was refused); label a smaller domain"
    ))
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

/// Labels under construction, shared by the threads of one tier.
pub(crate) struct SharedBits {
    words: Vec<AtomicU64>,
    entries: u64,
}

impl SharedBits {
    /// All-unsafe labels for `entries` positions; an allocation the system refuses is an
    /// error, not an abort.
    pub(crate) fn new(entries: u64) -> Result<Self> {
        let len = usize::try_from(entries.div_ceil(64)).unwrap_or(usize::MAX);
        let mut words = Vec::new();
        words
            .try_reserve_exact(len)
            .map_err(|_| out_of_memory("the labels", entries))?;
        words.resize_with(len, || AtomicU64::new(0));
        Ok(SharedBits { words, entries })
    }

    // Relaxed is enough: tiers are separated by rayon joins, which order all accesses.
    #[inline]
    pub(crate) fn is_safe(&self, rank: u64) -> bool {
        self.words[(rank / 64) as usize].load(Ordering::Relaxed) >> (rank % 64) & 1 == 1
    }

    #[inline]
    pub(crate) fn set_safe(&self, rank: u64) {
        self.words[(rank / 64) as usize].fetch_or(1 << (rank % 64), Ordering::Relaxed);
    }

    pub(crate) fn into_labels(self) -> Labels {
        let words = self.words.into_iter().map(AtomicU64::into_inner).collect();
        Labels::from_words(words, self.entries)
    }
}

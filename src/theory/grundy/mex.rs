//! The mex (minimum excludant): the least value missing from a set of nim-values, the
//! rule every nim-value, genus and misère Grundy value is defined by.
//!
//! One implementation for every engine that takes a plain mex: a bitset kept between
//! uses, so computing heap after heap allocates only while values grow, and clearing
//! costs only the words a set touched. A set of values below 64 is one word and its mex
//! one count of trailing ones. (The sparse-space engine never takes a plain mex: it
//! settles the least value its rare pairs leave unreached within one parity class, then
//! looks for witnesses below it, in its own word and vector kernels.)

/// A set of nim-values collected to take their mex.
#[derive(Clone, Debug, Default)]
pub struct MexSet {
    /// Bit `v % 64` of word `v / 64`: value `v` is in the set.
    words: Vec<u64>,
    /// Words that may be non-zero: the prefix a clear has to zero.
    used: usize,
}

impl MexSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes room for every value below `cap`, so inserting them never allocates.
    pub fn reserve(&mut self, cap: u64) {
        let words = usize::try_from(cap.div_ceil(64)).unwrap_or(usize::MAX);
        if self.words.len() < words {
            self.words.resize(words, 0);
        }
    }

    /// Empties the set, keeping its room.
    #[inline]
    pub fn clear(&mut self) {
        self.words[..self.used].fill(0);
        self.used = 0;
    }

    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: u64) {
        let word = (v / 64) as usize;
        if word >= self.words.len() {
            self.grow(word);
        }
        self.words[word] |= 1 << (v % 64);
        self.used = self.used.max(word + 1);
    }

    #[cold]
    fn grow(&mut self, word: usize) {
        self.words.resize((word + 1).next_power_of_two(), 0);
    }

    /// The least value not in the set.
    #[inline]
    pub fn mex(&self) -> u64 {
        let used = &self.words[..self.used];
        match used.iter().position(|&w| w != u64::MAX) {
            Some(i) => i as u64 * 64 + u64::from(used[i].trailing_ones()),
            None => self.used as u64 * 64,
        }
    }
}

/// The mex of some values (a fresh set: for one-off uses off the hot paths).
pub fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let mut set = MexSet::new();
    for v in values {
        set.insert(v);
    }
    set.mex()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn small_sets() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 1, 3]), 2);
        assert_eq!(mex(0..64), 64);
        assert_eq!(mex((0..200).filter(|&v| v != 130)), 130);
    }

    proptest! {
        /// A reused set answers as the definition does, whatever it held before.
        #[test]
        fn reused_set_is_the_definition(
            rounds in proptest::collection::vec(
                proptest::collection::vec(0u64..300, 0..80), 1..6),
        ) {
            let mut set = MexSet::new();
            set.reserve(64);
            for values in rounds {
                set.clear();
                for &v in &values {
                    set.insert(v);
                }
                let expected = (0..).find(|v| !values.contains(v)).unwrap_or(0);
                prop_assert_eq!(set.mex(), expected);
            }
        }
    }
}

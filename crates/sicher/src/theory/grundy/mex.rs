//! The mex (minimum excludant): the least value missing from a set of nim-values, the
//! rule every nim-value, genus and misère Grundy value is defined by.
//!
//! One implementation for every engine that takes a plain mex: marks stamped with the
//! number of the current set, kept between uses, so starting a new set costs nothing
//! and adding a value is one store. (A bitset needs a load and an OR per value, and
//! values that follow each other into one word wait on each other: the plain engine on
//! codes with three-heap splits ran at half speed on one.) The sparse-space engine
//! never takes a plain mex: it settles the least value its rare pairs leave unreached
//! within one parity class, then looks for witnesses below it, in its own word and
//! vector kernels.

/// A set of nim-values collected to take their mex.
#[derive(Clone, Debug)]
pub struct MexSet {
    /// `marks[v] == stamp`: value `v` is in the set.
    marks: Vec<u32>,
    /// The current set's number: earlier sets' marks hold smaller ones.
    stamp: u32,
}

impl Default for MexSet {
    fn default() -> Self {
        MexSet {
            marks: Vec::new(),
            stamp: 1,
        }
    }
}

impl MexSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes room for every value below `cap`, so inserting them never allocates.
    pub fn reserve(&mut self, cap: u64) {
        let len = usize::try_from(cap).unwrap_or(usize::MAX);
        if self.marks.len() < len {
            self.marks.resize(len, 0);
        }
    }

    /// Empties the set, keeping its room.
    #[inline]
    pub fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Every old mark could match again: start over.
            self.marks.fill(0);
            self.stamp = 1;
        }
    }

    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: u64) {
        let at = usize::try_from(v).unwrap_or(usize::MAX);
        if at >= self.marks.len() {
            self.grow(at);
        }
        self.marks[at] = self.stamp;
    }

    #[cold]
    fn grow(&mut self, at: usize) {
        self.marks.resize((at + 1).next_power_of_two(), 0);
    }

    /// Empties the set and makes room for every value below `cap`, for a hot loop that
    /// knows its values lie below it: the [`Marks`] returned add them without a check
    /// for room (a value at `cap` or above panics).
    #[inline]
    pub fn start(&mut self, cap: u64) -> Marks<'_> {
        self.clear();
        self.reserve(cap);
        Marks {
            marks: &mut self.marks,
            stamp: self.stamp,
        }
    }

    /// The least value not in the set.
    #[inline]
    pub fn mex(&self) -> u64 {
        let stamp = self.stamp;
        self.marks
            .iter()
            .position(|&m| m != stamp)
            .unwrap_or(self.marks.len()) as u64
    }
}

/// Adding values to a [`MexSet`] known to have room for them (see [`MexSet::start`]).
pub struct Marks<'a> {
    marks: &'a mut [u32],
    stamp: u32,
}

impl Marks<'_> {
    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: u64) {
        self.marks[v as usize] = self.stamp;
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
    fn stamps_wrap_around() {
        let mut set = MexSet::new();
        set.insert(0);
        set.stamp = u32::MAX;
        set.insert(1);
        set.clear();
        assert_eq!(set.mex(), 0);
        set.insert(0);
        assert_eq!(set.mex(), 1);
    }

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

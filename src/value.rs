//! What a position is worth: the value type every layer carries (answers, labels, table
//! bodies), so that richer values travel through the same pipes as the plain verdict.
//!
//! The verdict itself is an [`Outcome`]; a [`Value`] is an outcome or something that
//! implies one (a nim-value in normal play).

use std::fmt;

/// Who wins from a position, with the player to move: the `sicher` predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The player to move loses against best play (a P-position).
    Unsafe,
    /// The player to move has a sure win (an N-position).
    Safe,
}

impl Outcome {
    /// `Safe` when `win`, else `Unsafe`.
    #[inline]
    pub fn from_win(win: bool) -> Self {
        if win {
            Outcome::Safe
        } else {
            Outcome::Unsafe
        }
    }

    /// True when the player to move wins.
    #[inline]
    pub fn is_win(self) -> bool {
        self == Outcome::Safe
    }

    /// `"safe"` or `"unsafe"`, as in JSON output and table headers.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Safe => "safe",
            Outcome::Unsafe => "unsafe",
        }
    }

    /// The verdict in words, for people.
    pub fn in_words(self) -> &'static str {
        match self {
            Outcome::Safe => "safe: the player to move wins",
            Outcome::Unsafe => "unsafe: the player to move loses against best play",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// What an engine knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Safe or unsafe, and nothing more.
    Outcome(Outcome),
    /// A Sprague-Grundy value (normal play): the position is unsafe exactly at 0.
    Nimber(u64),
}

impl Value {
    /// The verdict the value implies.
    #[inline]
    pub fn outcome(self) -> Outcome {
        match self {
            Value::Outcome(outcome) => outcome,
            Value::Nimber(nimber) => Outcome::from_win(nimber != 0),
        }
    }

    /// True when the player to move wins.
    #[inline]
    pub fn is_win(self) -> bool {
        self.outcome().is_win()
    }

    /// The nim-value, when the value is one.
    pub fn nimber(self) -> Option<u64> {
        match self {
            Value::Nimber(nimber) => Some(nimber),
            Value::Outcome(_) => None,
        }
    }
}

impl From<Outcome> for Value {
    fn from(outcome: Outcome) -> Self {
        Value::Outcome(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nimbers_imply_outcomes() {
        assert_eq!(Value::Nimber(0).outcome(), Outcome::Unsafe);
        assert!(Value::Nimber(5).is_win());
        assert_eq!(Value::from(Outcome::Safe).nimber(), None);
        assert_eq!(Outcome::from_win(false).label(), "unsafe");
    }
}

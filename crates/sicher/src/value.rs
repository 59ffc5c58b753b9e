//! What a position is worth: the value type every layer carries (answers, labels, table
//! bodies), so that richer values travel through the same pipes as the plain verdict.
//!
//! The verdict itself is an [`Outcome`]; a [`Value`] is an outcome or something that
//! implies one (a nim-value in normal play), or an outcome with its remoteness. Partizan
//! games add the [`Player`] to move and the four [`OutcomeClass`]es.
//!
//! **Remoteness** counts moves of both players under best play: a position with no move
//! has remoteness 0; a safe position's is 1 + the smallest remoteness among its unsafe
//! children (the winner hurries), an unsafe position's 1 + the largest among its
//! children (the loser holds out). So in normal play a position is safe exactly when its
//! remoteness is odd, in misère play exactly when it is even.

use std::fmt;

/// Who wins when no move is left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Convention {
    /// The player with no move loses.
    Normal,
    /// The player with no move wins.
    Misere,
}

impl fmt::Display for Convention {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Convention::Normal => "normal",
            Convention::Misere => "misere",
        })
    }
}

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

    /// The outcome a remoteness implies under a convention (safe at odd remoteness in
    /// normal play, at even remoteness in misère play).
    #[inline]
    pub fn from_remoteness(remoteness: u32, convention: Convention) -> Self {
        let odd = remoteness % 2 == 1;
        Outcome::from_win(match convention {
            Convention::Normal => odd,
            Convention::Misere => !odd,
        })
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
    /// The outcome and how many moves (of both players) best play takes to end the game.
    Remoteness {
        /// Who wins.
        outcome: Outcome,
        /// Moves until the game ends: the winner's fastest win, the loser's longest
        /// resistance.
        remoteness: u32,
    },
}

impl Value {
    /// The verdict the value implies.
    #[inline]
    pub fn outcome(self) -> Outcome {
        match self {
            Value::Outcome(outcome) | Value::Remoteness { outcome, .. } => outcome,
            Value::Nimber(nimber) => Outcome::from_win(nimber != 0),
        }
    }

    /// A remoteness with the outcome it implies under `convention`.
    pub fn remote(remoteness: u32, convention: Convention) -> Self {
        Value::Remoteness {
            outcome: Outcome::from_remoteness(remoteness, convention),
            remoteness,
        }
    }

    /// The remoteness, when the value carries one.
    pub fn remoteness(self) -> Option<u32> {
        match self {
            Value::Remoteness { remoteness, .. } => Some(remoteness),
            Value::Outcome(_) | Value::Nimber(_) => None,
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
            Value::Outcome(_) | Value::Remoteness { .. } => None,
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

    #[test]
    fn remoteness_parity_gives_the_outcome() {
        assert_eq!(
            Value::remote(0, Convention::Normal).outcome(),
            Outcome::Unsafe
        );
        assert_eq!(
            Value::remote(5, Convention::Normal).outcome(),
            Outcome::Safe
        );
        assert_eq!(
            Value::remote(0, Convention::Misere).outcome(),
            Outcome::Safe
        );
        assert_eq!(
            Value::remote(1, Convention::Misere).outcome(),
            Outcome::Unsafe
        );
        assert_eq!(Value::remote(7, Convention::Misere).remoteness(), Some(7));
    }
}

// Partizan games: the two players and the four outcome classes.

/// One of the two players of a partizan game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Left (Blue, positive values).
    Left,
    /// Right (Red, negative values).
    Right,
}

impl Player {
    /// Both players, Left first.
    pub const BOTH: [Player; 2] = [Player::Left, Player::Right];

    /// The other player (the seeds' `gegner`).
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::Left => Player::Right,
            Player::Right => Player::Left,
        }
    }

    /// `"left"` or `"right"`, as in JSON and scripts.
    pub fn name(self) -> &'static str {
        match self {
            Player::Left => "left",
            Player::Right => "right",
        }
    }

    /// `"Left"` or `"Right"`, for sentences.
    pub fn title(self) -> &'static str {
        match self {
            Player::Left => "Left",
            Player::Right => "Right",
        }
    }

    /// The player named `left` or `right` (any case).
    pub fn parse(word: &str) -> Option<Player> {
        if word.eq_ignore_ascii_case("left") {
            Some(Player::Left)
        } else if word.eq_ignore_ascii_case("right") {
            Some(Player::Right)
        } else {
            None
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who wins a partizan position, whoever starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutcomeClass {
    /// Left wins whoever starts.
    L,
    /// Right wins whoever starts.
    R,
    /// The player to move wins.
    N,
    /// The player to move loses.
    P,
}

impl OutcomeClass {
    /// The class from whether the player to move wins when Left starts and when Right
    /// starts.
    pub fn from_wins(left_starting_wins: bool, right_starting_wins: bool) -> Self {
        match (left_starting_wins, right_starting_wins) {
            (true, false) => OutcomeClass::L,
            (false, true) => OutcomeClass::R,
            (true, true) => OutcomeClass::N,
            (false, false) => OutcomeClass::P,
        }
    }

    /// True when the player to move wins with `to_move` to move.
    pub fn to_move_wins(self, to_move: Player) -> bool {
        match (self, to_move) {
            (OutcomeClass::N, _) => true,
            (OutcomeClass::P, _) => false,
            (OutcomeClass::L, p) => p == Player::Left,
            (OutcomeClass::R, p) => p == Player::Right,
        }
    }

    /// `'L'`, `'R'`, `'N'` or `'P'`.
    pub fn letter(self) -> char {
        match self {
            OutcomeClass::L => 'L',
            OutcomeClass::R => 'R',
            OutcomeClass::N => 'N',
            OutcomeClass::P => 'P',
        }
    }

    /// The class in words.
    pub fn in_words(self) -> &'static str {
        match self {
            OutcomeClass::L => "Left wins whoever starts",
            OutcomeClass::R => "Right wins whoever starts",
            OutcomeClass::N => "the player to move wins",
            OutcomeClass::P => "the player to move loses",
        }
    }
}

impl fmt::Display for OutcomeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

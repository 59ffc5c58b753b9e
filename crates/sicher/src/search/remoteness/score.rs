//! Scores: an outcome and its remoteness folded into one integer, ordered from the
//! point of view of the player to move, as chess engines fold mate distances.
//!
//! A win in `r` moves scores `MAX - r`, a loss in `r` moves `r - MAX`: every win beats
//! every loss, a faster win beats a slower one, a longer resistance beats a shorter
//! one. Zero is never a score. A position's score is then a negamax over its
//! children with one correction per ply, [`shrink`]: `score(p) = shrink(max over
//! children c of -score(c))`, which moves a score one step towards zero (one more
//! move to the end of the game). `shrink` is monotone, so windows translate through
//! it exactly: [`lift_alpha`] and [`lift_beta`] turn a window on a position's score
//! into a window on the best child's negated score.

use crate::game::Convention;
use crate::value::Value;

/// A score (never zero; within `MIN..=MAX`).
pub type Score = i32;

/// The best score: a win with no move to make (a terminal position in misère play).
/// One below `i32::MAX`, so that windows one past either end still fit an `i32`.
pub const MAX: Score = i32::MAX - 1;
/// The worst score: a loss with no move to make (a terminal position in normal play).
pub const MIN: Score = -MAX;
/// Largest remoteness a score can carry.
pub const MAX_REMOTENESS: u32 = (MAX - 1) as u32;

/// The score of a win in `remoteness` moves.
#[inline]
pub fn win(remoteness: u32) -> Score {
    debug_assert!(remoteness <= MAX_REMOTENESS);
    MAX - remoteness as Score
}

/// The score of a loss in `remoteness` moves.
#[inline]
pub fn loss(remoteness: u32) -> Score {
    debug_assert!(remoteness <= MAX_REMOTENESS);
    remoteness as Score - MAX
}

/// The score of a position with no move under `convention`.
#[inline]
pub fn terminal(convention: Convention) -> Score {
    match convention {
        Convention::Normal => MIN,
        Convention::Misere => MAX,
    }
}

/// True when the score is a win for the player to move.
#[inline]
pub fn is_win(score: Score) -> bool {
    score > 0
}

/// Moves until the game ends under best play.
#[inline]
pub fn remoteness(score: Score) -> u32 {
    if score > 0 {
        (MAX - score) as u32
    } else {
        (score + MAX) as u32
    }
}

/// The score of a position of remoteness `remoteness`: a win or a loss by its parity
/// under `convention`.
#[inline]
pub fn of_remoteness(remoteness: u32, convention: Convention) -> Score {
    // Normal play: odd remotenesses win; misère play: even ones.
    if (remoteness % 2 == 1) == (convention == Convention::Normal) {
        win(remoteness)
    } else {
        loss(remoteness)
    }
}

/// The value a score stands for; the outcome follows from the remoteness's parity.
pub fn to_value(score: Score, convention: Convention) -> Value {
    let value = Value::remote(remoteness(score), convention);
    debug_assert_eq!(value.is_win(), is_win(score), "score {score} breaks parity");
    value
}

/// A position's score from the best negated score among its children: one move more.
#[inline]
pub fn shrink(best: Score) -> Score {
    if best > 0 {
        best - 1
    } else {
        best + 1
    }
}

/// The best child's negated score that `score` came from (the inverse of [`shrink`]).
#[inline]
pub fn unshrink(score: Score) -> Score {
    if score > 0 {
        score + 1
    } else {
        score - 1
    }
}

/// `shrink(m) <= alpha` exactly when `m <= lift_alpha(alpha)`, for every score `m`.
/// Clamped to `MIN - 1`, which no score reaches, so windows never drift outwards.
#[inline]
pub fn lift_alpha(alpha: Score) -> Score {
    let lifted = if alpha >= 0 {
        i64::from(alpha) + 1
    } else {
        i64::from(alpha) - 1
    };
    lifted.clamp(i64::from(MIN) - 1, i64::from(MAX) + 1) as Score
}

/// `shrink(m) >= beta` exactly when `m >= lift_beta(beta)`, for every score `m`.
/// Clamped to `MAX + 1`, which no score reaches.
#[inline]
pub fn lift_beta(beta: Score) -> Score {
    let lifted = if beta > 0 {
        i64::from(beta) + 1
    } else {
        i64::from(beta) - 1
    };
    lifted.clamp(i64::from(MIN) - 1, i64::from(MAX) + 1) as Score
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores() -> Vec<Score> {
        let mut all = Vec::new();
        for r in 0..6 {
            all.push(win(r));
            all.push(loss(r));
        }
        all.sort();
        all
    }

    #[test]
    fn lifted_windows_are_exact() {
        let windows: Vec<Score> = scores()
            .into_iter()
            .flat_map(|s| [s - 1, s, s + 1])
            .chain([0, MIN - 1, MAX + 1])
            .collect();
        for &m in &scores() {
            for &w in &windows {
                assert_eq!(shrink(m) <= w, m <= lift_alpha(w), "m {m} alpha {w}");
                assert_eq!(shrink(m) >= w, m >= lift_beta(w), "m {m} beta {w}");
            }
        }
    }

    #[test]
    fn scores_order_outcomes_and_distances() {
        assert!(loss(1) < loss(3) && loss(3) < win(9) && win(9) < win(1));
        assert_eq!(shrink(-loss(2)), win(3));
        assert_eq!(shrink(-win(2)), loss(3));
        assert_eq!(unshrink(shrink(-loss(4))), -loss(4));
        assert_eq!(to_value(win(3), Convention::Normal).remoteness(), Some(3));
        assert!(to_value(win(2), Convention::Misere).is_win());
        assert!(!to_value(loss(1), Convention::Misere).is_win());
    }
}

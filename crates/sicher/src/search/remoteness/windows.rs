//! The four ways to choose windows, each driving one engine to a position's exact
//! score: one full-window search (alpha-beta, and NegaScout, whose probes live in the
//! engine), MTD(f)'s null-window tests, and aspiration windows.

use super::engine::Engine;
use super::score::{Score, MAX, MIN};
use super::Algorithm;
use crate::game::Position;

/// Aspiration: half-width of the first window, in score units (one remoteness step
/// of a given outcome is two units), and its growth on each failure.
const ASPIRATION_DELTA: i64 = 4;
const ASPIRATION_GROWTH: i64 = 4;

/// The exact score of `position` by `algorithm` (meaningless when the engine gives up
/// at its node limit or is stopped).
pub(super) fn score(engine: &mut Engine, algorithm: Algorithm, position: &Position) -> Score {
    let (lower, upper) = engine.bounds(position);
    if lower == upper {
        return lower;
    }
    match algorithm {
        Algorithm::AlphaBeta | Algorithm::NegaScout => {
            engine.stats_mut().root_searches += 1;
            engine.search(position, MIN - 1, MAX + 1)
        }
        Algorithm::MtdF => mtdf(engine, position, lower, upper),
        Algorithm::Aspiration => aspiration(engine, position, lower, upper),
    }
}

/// MTD(f): null-window tests until the bounds meet. The first asks whether the
/// position is a win at all, the boolean question; each fail-soft answer moves a
/// bound to the value it proved.
fn mtdf(engine: &mut Engine, position: &Position, mut lower: Score, mut upper: Score) -> Score {
    let mut guess: Score = 1;
    while lower < upper {
        let gamma = if guess <= lower {
            lower + 1
        } else {
            guess.min(upper)
        };
        engine.stats_mut().root_searches += 1;
        guess = engine.search(position, gamma - 1, gamma);
        if engine.aborted() {
            return guess;
        }
        if guess < gamma {
            upper = guess;
        } else {
            lower = guess;
        }
    }
    lower
}

/// Aspiration windows around the bound the boolean question ("is it a win?")
/// proves, widened fourfold on the side that failed. The boolean test keeps its
/// threshold at zero whatever the depth; narrow windows far from the truth would
/// shift with the length of the path to each position, and bounds found under one
/// seldom decide another.
fn aspiration(engine: &mut Engine, position: &Position, lower: Score, upper: Score) -> Score {
    let clamp = |x: i64| x.clamp(i64::from(MIN) - 1, i64::from(MAX) + 1) as Score;
    engine.stats_mut().root_searches += 1;
    let guess = engine.search(position, 0, 1);
    if engine.aborted() {
        return guess;
    }
    let mut delta = ASPIRATION_DELTA;
    let (mut alpha, mut beta) = if guess > 0 {
        (
            guess - 1,
            clamp(i64::from(guess) + delta).min(upper.saturating_add(1)),
        )
    } else {
        (clamp(i64::from(guess) - delta).max(lower - 1), guess + 1)
    };
    loop {
        engine.stats_mut().root_searches += 1;
        let score = engine.search(position, alpha, beta);
        if engine.aborted() {
            return score;
        }
        delta *= ASPIRATION_GROWTH;
        if score <= alpha {
            (alpha, beta) = (clamp(i64::from(score) - delta), score + 1);
        } else if score >= beta {
            (alpha, beta) = (score - 1, clamp(i64::from(score) + delta));
        } else {
            return score;
        }
        engine.stats_mut().re_searches += 1;
    }
}

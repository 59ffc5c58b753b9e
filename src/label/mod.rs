//! The retrograde labeller: colours every position of a bounded domain safe or unsafe,
//! bottom-up.
//!
//! Every move lowers the total number of tokens (or, for codes that split without
//! taking, keeps it and adds heaps), so positions are labelled in tiers of equal total and
//! a tier only reads lower ones. Within a tier positions are independent and are labelled
//! in parallel; each writes only bits that no one else in the tier reads, and the bits
//! are a function of the game alone, so the result is the same for any thread count.

mod backward;
mod bits;
mod forward;
mod parents;
mod plain;
mod plan;
mod remoteness;
mod tiers;

pub use plan::{Labelled, Plan};
pub use remoteness::Remotenesses;
pub use tiers::child_into;

use std::fmt;
use std::str::FromStr;

use crate::domain::Ranker;
use crate::error::{Error, Result};
use crate::game::{Game, Ruleset};
pub use bits::Labels;

/// How the labeller decides each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Each position scans its moves for an unsafe child.
    Forward,
    /// Each unsafe position marks every position that moves to it as safe: cheap when
    /// unsafe positions are rare.
    Backward,
    /// The baseline: one `Vec<bool>`, one thread, forward scans in rank order.
    Plain,
}

impl Strategy {
    /// The strategy measured fastest for a ruleset: backward wherever moves only lower
    /// heaps (Nim, Wythoff, Moore: unsafe positions are rare; subtraction: few parents
    /// each), forward for take-and-break games.
    pub fn auto(ruleset: &Ruleset) -> Strategy {
        if ruleset.reversible() {
            Strategy::Backward
        } else {
            Strategy::Forward
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Strategy::Forward => "forward",
            Strategy::Backward => "backward",
            Strategy::Plain => "plain",
        })
    }
}

impl FromStr for Strategy {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        match s {
            "forward" => Ok(Strategy::Forward),
            "backward" => Ok(Strategy::Backward),
            "plain" => Ok(Strategy::Plain),
            other => Err(Error::input(format!(
                "unknown strategy `{other}` (expected forward, backward or plain)"
            ))),
        }
    }
}

/// Bytes the labeller will hold at its peak for this domain and strategy.
pub fn estimate_bytes(ranker: &Ranker, strategy: Strategy) -> u64 {
    let count = ranker.count();
    let bits = count.div_ceil(64) * 8;
    let tier_buffer = match ranker {
        // The largest tier of equal total, stored K words per position.
        Ranker::Heaps(t) => {
            let tiers = ranker.max_total() + 1;
            (count / tiers * 4).min(count) * t.heaps() as u64 * 8
        }
        // Forward labelling ranks children from stride sums as large as the ranking table.
        Ranker::Total(_) => ranker.table_bytes(),
    };
    let working = match strategy {
        Strategy::Plain => count,
        _ => tier_buffer,
    };
    bits + working + ranker.table_bytes()
}

/// Labels every position of the domain; `progress` is told how many positions each step
/// finished.
pub fn label(
    game: &Game,
    ranker: &Ranker,
    strategy: Strategy,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Labels> {
    ranker.domain().check_game(game)?;
    check_strategy(game, strategy)?;
    match strategy {
        Strategy::Forward => forward::label(game, ranker, progress),
        Strategy::Backward => backward::label(game, ranker, progress),
        Strategy::Plain => plain::label(game, ranker, progress),
    }
}

/// Labels every position of the domain with its remoteness: retrograde, or with
/// `Strategy::Plain` the single-threaded forward baseline.
pub fn label_remoteness(
    game: &Game,
    ranker: &Ranker,
    strategy: Strategy,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Remotenesses> {
    ranker.domain().check_game(game)?;
    match strategy {
        Strategy::Plain => plain::label_remoteness(game, ranker, progress),
        Strategy::Forward | Strategy::Backward => remoteness::label(game, ranker, progress),
    }
}

/// Refuses a strategy that cannot label the game.
pub fn check_strategy(game: &Game, strategy: Strategy) -> Result<()> {
    match strategy {
        // Unsafe positions of take-and-break games are common, and each would scan its
        // merges: forward labelling, which stops at the first unsafe child, is the fit.
        Strategy::Backward if !game.ruleset.reversible() => Err(Error::input(format!(
            "the backward strategy needs nim, subtraction, wythoff or moore rules, not {}; use --strategy forward",
            game.ruleset
        ))),
        Strategy::Forward | Strategy::Backward | Strategy::Plain => Ok(()),
    }
}

#[cfg(test)]
mod tests;

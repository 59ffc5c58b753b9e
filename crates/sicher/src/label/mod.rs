//! The retrograde labeller: colours every position of a bounded domain safe or unsafe,
//! bottom-up.
//!
//! Every move lowers the total number of tokens (or, for codes that split without
//! taking, keeps it and adds heaps), so positions are labelled in tiers of equal total and
//! a tier only reads lower ones. Within a tier positions are independent and are labelled
//! in parallel; each writes only bits that no one else in the tier reads, and the bits
//! are a function of the game alone, so the result is the same for any thread count.
//!
//! # Files
//!
//! - `plan.rs`: a labelling about to run ([`Plan`]): domain, strategy, threads, work
//!   directory and memory, known before anything is allocated.
//! - `forward.rs`: forward labelling: safe when some move reaches an unsafe position.
//! - `kernel.rs`: the rules every labeller but the plain reference shares: safe by a
//!   move to an unsafe position or by the terminal rule, children gathered by rank, the
//!   remoteness pulled from the children's.
//! - `backward.rs`: backward labelling: every unsafe position marks its parents safe.
//! - `remoteness.rs`: remoteness labelling, retrograde, tier by tier.
//! - `partizan.rs`: partizan games, every position labelled for both players to move on
//!   the same tiers, window and work directory, on one machine or in chunks shared
//!   between the ranks of a job.
//! - `plain.rs`: the baseline labeller the others are measured against.
//! - `tiers.rs`: walking a domain's tiers of equal total, in parallel within a tier.
//! - `window.rs`: the labels being built, held for the window of tiers moves reach.
//! - `drive.rs`: runs a tier labeller over a domain: slides the window, hands finished
//!   tiers to the work directory and resumes from it.
//! - `chunk.rs`: labelling a chunk of a tier by pulling from lower tiers, the unit a
//!   cluster shares out.
//! - `one_heap.rs`: shortcut for one-heap domains at memory speed: lone heaps 64 at a
//!   time, copied from one period earlier once a period is proved.
//! - `nim_values.rs`: shortcut for normal play of one-heap moves: each label from the
//!   XOR of nim-values, no child read.
//! - `options.rs`: the game's option table as the labellers read it, by nim-value.
//! - `parents.rs`: the parents of a position within a domain, by runs of equal heaps on
//!   `--total` domains.
//! - `bits.rs`: packed outcome labels, one bit per rank ([`Labels`]).
//! - `work/`: the work directory: part files, the manifest, resumption after a kill.
//! - `cluster/`: a `--total` domain's tiers shared between the ranks of a job (rank 0's
//!   tier manager, workers, messages over a [`cluster::Link`]).
//! - `tests.rs`: unit tests of the labeller against closed forms and against itself
//!   across strategies.

mod backward;
mod bits;
mod chunk;
pub mod cluster;
mod drive;
mod forward;
mod kernel;
mod nim_values;
mod one_heap;
mod options;
mod parents;
mod partizan;
mod plain;
mod plan;
mod remoteness;
mod tiers;
mod window;
mod work;

pub use partizan::{
    estimate_partizan_bytes, label_partizan, label_partizan_cancellable, label_partizan_ranked,
    serve_partizan, Sides, LEFT_WINS, RIGHT_WINS,
};
pub use plan::{Labelled, Plan};
pub use remoteness::Remotenesses;
pub(crate) use window::Packer;
use window::RemotenessCell;
pub(crate) use work::STREAM_WORDS;
pub use work::{Resumed, WorkDir, WORK_FORMAT};

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8};

use crate::domain::Ranker;
use crate::error::{Error, Hint, Result};
use crate::game::{Game, Ruleset};
use crate::theory::grundy::Periodicity;
pub use bits::Labels;
use drive::Finished;
use tiers::Tiers;

/// How the labels of a domain were found. Every way gives the exact labels; the
/// shortcuts rest on theorems (and are checked against the retrograde labellers in the
/// tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Derivation {
    /// Every position decided from its moves (or its parents'), tier by tier.
    Retrograde,
    /// Lone heaps decided 64 at a time from earlier words of outcomes.
    Words,
    /// Lone heaps decided word by word until the periodicity theorem proved a period of
    /// their outcomes; every later heap copied from one period earlier.
    Period(Periodicity),
    /// Normal play of one-heap moves: unsafe exactly when the XOR of the heaps'
    /// nim-values is 0 (Sprague-Grundy); no child read.
    NimValues,
}

impl Derivation {
    /// A one-word name: `retrograde`, `words`, `period` or `nim-values`.
    pub fn name(&self) -> &'static str {
        match self {
            Derivation::Retrograde => "retrograde",
            Derivation::Words => "words",
            Derivation::Period(_) => "period",
            Derivation::NimValues => "nim-values",
        }
    }
}

impl fmt::Display for Derivation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Derivation::Retrograde => f.write_str("every position from its moves"),
            Derivation::Words => f.write_str("lone heaps 64 at a time from earlier words"),
            Derivation::Period(p) => write!(
                f,
                "lone heaps word by word until a period was proved (period {}, pre-period {}, proof up to heap {}), the rest copied from it",
                p.period,
                p.preperiod,
                p.proved_at.unwrap_or(0)
            ),
            Derivation::NimValues => {
                f.write_str("XOR of nim-values (Sprague-Grundy; normal play, one-heap moves)")
            }
        }
    }
}

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

/// Bytes the labeller will hold at its peak for this domain and strategy, the whole
/// domain in memory (as [`label`] labels it).
pub fn estimate_bytes(ranker: &Ranker, strategy: Strategy) -> u64 {
    let count = ranker.count();
    let bits = count.div_ceil(64) * 8;
    let working = match strategy {
        Strategy::Plain => count,
        Strategy::Forward | Strategy::Backward => 0,
    };
    bits + working + ranker.table_bytes()
}

/// Labels every position of the domain with the strategy, no shortcut taken (lone heaps
/// are still labelled a word at a time); `progress` is told how many positions each step
/// finished.
pub fn label(
    game: &Game,
    ranker: &Ranker,
    strategy: Strategy,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Labels> {
    ranker.domain().check_game(game)?;
    check_strategy(game, strategy)?;
    match (strategy, ranker) {
        (Strategy::Plain, _) => plain::label(game, ranker, progress),
        (_, Ranker::Heaps(t)) if t.heaps() == 1 => {
            Ok(one_heap::label(game, t.max(), false, progress)?.0)
        }
        (Strategy::Forward | Strategy::Backward, _) => {
            label_tiers(game, ranker, strategy, None, true, progress)?
                .ok_or_else(stored_without_store)
        }
    }
}

/// Labels the outcomes tier by tier with the forward or backward labeller, checkpointing
/// into `store` when given. Labels finished in the store's tier files are gathered when
/// `gather` says so, else left there (`None`).
fn label_tiers(
    game: &Game,
    ranker: &Ranker,
    strategy: Strategy,
    mut store: Option<&mut work::Store>,
    gather: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Option<Labels>> {
    let tiers = Tiers::of(ranker, strategy == Strategy::Backward);
    let count = ranker.count();
    let (backward, forward);
    let (labeller, reach): (&dyn drive::TierLabeller<AtomicU64>, _) = match strategy {
        Strategy::Backward => {
            backward = backward::Backward::new(game, ranker);
            (&backward, backward::Backward::reach(game))
        }
        Strategy::Forward | Strategy::Plain => {
            forward = forward::Forward::new(game, ranker);
            (&forward, forward::Forward::reach(game))
        }
    };
    let finished = drive::run::<AtomicU64>(
        labeller,
        tiers,
        count,
        reach,
        store.as_deref_mut(),
        progress,
    )?;
    let words = match (finished, store) {
        (Finished::Held(slots), _) => slots.into_iter().map(AtomicU64::into_inner).collect(),
        (Finished::Stored, Some(store)) if gather => store.assemble_bits(count)?,
        (Finished::Stored, Some(_)) => return Ok(None),
        (Finished::Stored, None) => return Err(stored_without_store()),
    };
    Ok(Some(Labels::from_words(words, count)))
}

/// Labels remotenesses tier by tier, checkpointing into `store` when given.
/// Remotenesses finished in the store's tier files are gathered when `gather` says so,
/// else left there (`None`).
fn label_remoteness_tiers(
    game: &Game,
    ranker: &Ranker,
    mut store: Option<&mut work::Store>,
    gather: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Option<Remotenesses>> {
    let count = ranker.count();
    let labeller = remoteness::Retrograde::new(game, ranker);
    let reach = remoteness::Retrograde::reach(game);
    let finished = drive::run::<AtomicU32>(
        &labeller,
        Tiers::of(ranker, false),
        count,
        reach,
        store.as_deref_mut(),
        progress,
    )?;
    if labeller.overflowed() {
        return Err(Error::internal("a remoteness too large for four bytes"));
    }
    let values = match (finished, store) {
        (Finished::Held(slots), _) => slots.into_iter().map(AtomicU32::into_inner).collect(),
        (Finished::Stored, Some(store)) if gather => store.assemble_cells(count)?,
        (Finished::Stored, Some(_)) => return Ok(None),
        (Finished::Stored, None) => return Err(stored_without_store()),
    };
    Ok(Some(Remotenesses::new(values, game.convention)))
}

/// Domains of at most this many tokens are labelled a byte a remoteness. A move takes a
/// token, or splits a heap without taking one (an octal digit 4, Grundy's game, a
/// script), so no game from `T` tokens lasts more than `2T - 1` moves, and no more than
/// `T` where nothing splits without taking: most such domains fit. A remoteness that
/// reaches the byte's unknown mark is caught, and the domain labelled again in four.
const NARROW_MAX_TOTAL: u64 = <AtomicU8 as RemotenessCell>::UNKNOWN as u64 - 2;

/// The remoteness of every position of the domain in a byte each, labelled in memory
/// (a quarter of the four-byte labels' memory and page faults, and nothing to narrow
/// after); `None` when the domain is too deep for bytes or some remoteness did not fit.
fn label_remoteness_narrow(game: &Game, ranker: &Ranker) -> Result<Option<Vec<u8>>> {
    if ranker.max_total() > NARROW_MAX_TOTAL {
        return Ok(None);
    }
    let labeller = remoteness::Retrograde::new(game, ranker);
    let finished = drive::run::<AtomicU8>(
        &labeller,
        Tiers::of(ranker, false),
        ranker.count(),
        remoteness::Retrograde::reach(game),
        None,
        &|_| {},
    )?;
    // Labels held in memory come back whole; `Stored` cannot, without a store.
    match finished {
        Finished::Held(slots) if !labeller.overflowed() => {
            Ok(Some(slots.into_iter().map(AtomicU8::into_inner).collect()))
        }
        _ => Ok(None),
    }
}

fn stored_without_store() -> Error {
    Error::internal("labels evicted without a work directory")
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
        Strategy::Forward | Strategy::Backward => {
            label_remoteness_tiers(game, ranker, None, true, progress)?
                .ok_or_else(stored_without_store)
        }
    }
}

/// Refuses a strategy that cannot label the game.
pub fn check_strategy(game: &Game, strategy: Strategy) -> Result<()> {
    match strategy {
        // Unsafe positions of take-and-break games are common, and each would scan its
        // merges: forward labelling, which stops at the first unsafe child, is the fit.
        Strategy::Backward if !game.ruleset.reversible() => Err(Error::input(format!(
            "the backward strategy needs nim, subtraction, wythoff or moore rules, not {}",
            game.ruleset
        ))
        .with_hint(Hint::UseForward)),
        Strategy::Forward | Strategy::Backward | Strategy::Plain => Ok(()),
    }
}

#[cfg(test)]
mod tests;

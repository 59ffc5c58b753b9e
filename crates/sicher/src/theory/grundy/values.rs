//! Nim-value sequences G(0), G(1), ... of one-heap rulesets.
//!
//! Two independent engines compute them: [`MexReference`], the plain definition (the mex
//! over every option, as the ruleset enumerates them), and [`SparseSpace`], the rare/common
//! ("sparse space") method of Berlekamp, Gangolli-Plambeck and Flammenkamp for codes whose
//! moves leave at most two heaps. Both grow one heap size at a time, so callers can stop
//! as soon as a periodicity proof closes.
//!
//! # Files of `values/`
//!
//! - `reference.rs`: [`MexReference`], the plain definition every faster engine is
//!   tested against.
//! - `sparse.rs`: [`SparseSpace`], the sparse-space engine; its paths in `sparse/`.
//! - `sparse/`: the sparse-space engine's 16-bit and 32-bit paths and their tests.
//! - `scan.rs`: word-parallel scans for the first split whose value is still wanted.
//! - `take_sizes.rs`: the fast engines of infinite subtraction sets (sizes named by a
//!   rule, and all-but games).

pub use self::reference::MexReference;
pub use self::sparse::SparseSpace;
use crate::cancel::Cancel;
use crate::error::{Error, Hint, Result};
use crate::game::{Ruleset, SubtractionFamily};
use crate::theory::grundy::arithmetic::find_arithmetic;
use crate::theory::grundy::period::find_apparent;
use crate::theory::grundy::{PeriodFinder, Periodicity, ProofBound};

mod reference;
mod scan;
mod sparse;
mod take_sizes;

/// A nim-value.
pub type Nimber = u32;

/// Most heap sizes a sequence may hold (4 bytes each): refuse more than this up front
/// rather than die half-way through an allocation.
pub const MAX_LEN: u64 = 1 << 30;

/// Which engine computes a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The mex over every option: slow, obviously right.
    Reference,
    /// The fastest engine for the ruleset (sparse space for take-and-break codes).
    Fast,
}

/// The values computed so far, borrowed as the engine holds them: 16 bits a value while
/// every value fits (the sparse-space engine), else 32.
#[derive(Clone, Copy, Debug)]
pub enum Values<'a> {
    /// Every value below 2^16, two bytes each.
    Narrow(&'a [u16]),
    /// Four bytes each.
    Wide(&'a [Nimber]),
}

impl<'a> Values<'a> {
    /// How many values: G(0..len).
    pub fn len(&self) -> usize {
        match self {
            Values::Narrow(values) => values.len(),
            Values::Wide(values) => values.len(),
        }
    }

    /// True when no value is computed yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// G(i), when computed.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Nimber> {
        match self {
            Values::Narrow(values) => values.get(i).map(|&v| Nimber::from(v)),
            Values::Wide(values) => values.get(i).copied(),
        }
    }

    /// The values `G(from..to)` as a vector of 32-bit values.
    pub fn to_vec(&self, from: usize, to: usize) -> Vec<Nimber> {
        match self {
            Values::Narrow(values) => values[from..to].iter().map(|&v| Nimber::from(v)).collect(),
            Values::Wide(values) => values[from..to].to_vec(),
        }
    }

    /// Every value, in order.
    pub fn iter(&self) -> impl Iterator<Item = Nimber> + 'a {
        let (narrow, wide): (&'a [u16], &'a [Nimber]) = match *self {
            Values::Narrow(values) => (values, &[]),
            Values::Wide(values) => (&[], values),
        };
        narrow
            .iter()
            .map(|&v| Nimber::from(v))
            .chain(wide.iter().copied())
    }

    /// The largest value, 0 for none.
    pub fn largest(&self) -> Nimber {
        match self {
            Values::Narrow(values) => values.iter().copied().max().map_or(0, Nimber::from),
            Values::Wide(values) => values.iter().copied().max().unwrap_or(0),
        }
    }

    /// The smallest period the theorem proves from these values, looking with `finder`
    /// (which must have seen only prefixes of them before).
    pub fn find_with(&self, finder: &mut PeriodFinder) -> Option<Periodicity> {
        match self {
            Values::Narrow(values) => finder.check(values),
            Values::Wide(values) => finder.check(values),
        }
    }

    /// [`find_proved`](super::find_proved) on these values.
    pub fn find_proved(&self, bound: ProofBound) -> Option<Periodicity> {
        self.find_with(&mut PeriodFinder::new(bound))
    }

    /// A period these values show, unproved (`find_apparent`),
    /// or an arithmetic one.
    pub fn find_apparent_or_arithmetic(&self) -> Option<Periodicity> {
        match self {
            Values::Narrow(values) => find_apparent(values).or_else(|| find_arithmetic(values)),
            Values::Wide(values) => find_apparent(values).or_else(|| find_arithmetic(values)),
        }
    }
}

impl PartialEq<[Nimber]> for Values<'_> {
    fn eq(&self, other: &[Nimber]) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl PartialEq for Values<'_> {
    fn eq(&self, other: &Values<'_>) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl PartialEq<&[Nimber]> for Values<'_> {
    fn eq(&self, other: &&[Nimber]) -> bool {
        *self == **other
    }
}

/// A nim-value sequence that grows on demand.
pub trait Sequence: Send {
    /// Computes the next value, G(len).
    fn push_next(&mut self);
    /// The values computed so far, G(0..len).
    fn values(&self) -> Values<'_>;
    /// Computes values until `len` are known.
    fn extend_to(&mut self, len: usize) {
        while self.values().len() < len {
            self.push_next();
        }
    }
    /// Gives up the engine's own looks for a proved period, for callers that look on
    /// their own (a second look at the same values is wasted work).
    fn leave_periods_to_caller(&mut self) {}
    /// Uses `threads` threads in all (the caller's included) where the engine can share
    /// its work; the values are the same for any count. Engines that cannot ignore it.
    fn set_threads(&mut self, _threads: usize) {}
    /// The values computed, G(0..len), without a copy where the engine holds them as
    /// 32-bit values.
    fn into_values(self: Box<Self>) -> Vec<Nimber>;
    /// The first `len` values computed, the engine's other tables freed before they are
    /// widened to 32 bits.
    fn into_prefix(self: Box<Self>, len: usize) -> Vec<Nimber> {
        let mut values = self.into_values();
        values.truncate(len);
        values
    }
    /// The period the engine proved on its own, if it looks for one and found it.
    fn proved(&self) -> Option<Periodicity> {
        None
    }
    /// What the sparse-space engine's split looks like now, for progress lines.
    fn sparse_stats(&self) -> Option<SparseStats> {
        None
    }
    /// Bytes the engine holds now (values, copies and tables), for measurements.
    fn held_bytes(&self) -> usize;
    /// Starts an empty engine from values already known (a checkpoint), as if it had
    /// computed them; false when this engine cannot (the caller computes them again).
    /// Values must be right: the engine trusts them.
    fn preload(&mut self, _known: &[Nimber]) -> bool {
        false
    }
}

/// The sparse-space engine's state, for progress lines: how sparse the space is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SparseStats {
    /// Rare heaps under the current split.
    pub rare: usize,
    /// The split's mask over the values' bits.
    pub mask: u32,
    /// Whether the heap's own parity joins the classification.
    pub domain: bool,
    /// Pairs the witness scans examined so far.
    pub pairs_scanned: u64,
    /// The largest value so far.
    pub largest: Nimber,
}

/// Refuses rulesets without nim-values and lengths that cannot fit in memory.
pub fn check_request(ruleset: &Ruleset, len: u64) -> Result<()> {
    if !ruleset.moves_one_heap() {
        return Err(Error::input(format!(
            "{ruleset} has moves that change two or more heaps at once, so its positions have no per-heap nim-values; ask about a position instead"
        )));
    }
    if len > MAX_LEN {
        return Err(Error::resource(format!(
            "cannot hold {len} nim-values in memory (at most {MAX_LEN}, 4 bytes each)"
        ))
        .with_hint(Hint::LowerMax));
    }
    Ok(())
}

/// Bytes the engine `method` holds for `len` values: 4 a value for the 32-bit engines;
/// for the sparse-space engine two 16-bit copies of them (front to back and back to
/// front) and its rare heaps (at most one in `sparse::RARE_SHARE`, 6 bytes each); its
/// other tables grow with the largest value, which stays small. Values past 2^15 take
/// the sparse-space engine to 32 bits: its estimate holds while they fit.
pub fn bytes_needed(ruleset: &Ruleset, method: Method, len: u64) -> u128 {
    let len = u128::from(len);
    match method {
        Method::Fast if uses_sparse_space(ruleset) => {
            4 * len + 6 * len / u128::from(sparse::RARE_SHARE) + (1 << 20)
        }
        _ => 4 * len,
    }
}

/// Bytes a [`PeriodFinder`] looking at `len` values of `ruleset` holds at most: a key per
/// candidate period below `len / parts` and each filed once, lists grown by doubling.
pub fn finder_bytes(ruleset: &Ruleset, len: u64) -> u128 {
    match ProofBound::for_ruleset(ruleset) {
        Some(bound) => {
            let periods = u128::from(len / bound.parts.max(1));
            4 * periods + 8 * periods
        }
        None => 0,
    }
}

/// True when [`engine`] gives `ruleset` the sparse-space engine under [`Method::Fast`].
fn uses_sparse_space(ruleset: &Ruleset) -> bool {
    !ruleset.nim_values_are_sizes()
        && !matches!(ruleset, Ruleset::InfiniteSubtraction(_))
        && ruleset.moves_one_heap()
        && ruleset.max_parts() <= 2
        && ruleset.max_take().is_some()
}

/// Builds the engine `method` names for a one-heap ruleset, with room for `len` values.
pub fn engine(ruleset: &Ruleset, method: Method, len: u64) -> Result<Box<dyn Sequence>> {
    check_request(ruleset, len)?;
    crate::memory::check_fits(
        &format!("computing {len} nim-values"),
        bytes_needed(ruleset, method, len),
        Hint::LowerMax,
    )?;
    if method == Method::Fast && uses_sparse_space(ruleset) {
        if let Some(sparse) = SparseSpace::with_capacity(ruleset, len as usize) {
            return Ok(Box::new(sparse));
        }
    }
    let mut values = Vec::new();
    values.try_reserve_exact(len as usize).map_err(|_| {
        Error::resource(format!(
            "not enough memory for {len} nim-values ({} MB)",
            (len * 4) >> 20
        ))
        .with_hint(Hint::LowerMax)
    })?;
    Ok(match method {
        Method::Reference => Box::new(MexReference::with_storage(ruleset.clone(), values)),
        Method::Fast if ruleset.nim_values_are_sizes() => Box::new(NimClosedForm { values }),
        Method::Fast => match ruleset {
            Ruleset::InfiniteSubtraction(SubtractionFamily::AllBut(excluded)) => {
                Box::new(take_sizes::AllBut::new(excluded.clone(), values))
            }
            Ruleset::InfiniteSubtraction(family) => {
                Box::new(take_sizes::TakeSizes::new(family.clone(), values))
            }
            _ => Box::new(MexReference::with_storage(ruleset.clone(), values)),
        },
    })
}

/// Computes G(0..len) with the given engine.
pub fn nim_values(ruleset: &Ruleset, method: Method, len: u64) -> Result<Vec<Nimber>> {
    nim_values_cancellable(ruleset, method, len, &Cancel::new())
}

/// [`nim_values`], stopping with [`crate::ErrorKind::Interrupted`] soon after `cancel` is
/// cancelled (it is looked at every few values).
pub fn nim_values_cancellable(
    ruleset: &Ruleset,
    method: Method,
    len: u64,
    cancel: &Cancel,
) -> Result<Vec<Nimber>> {
    let mut sequence = engine(ruleset, method, len)?;
    ruleset.prepare(len.saturating_sub(1))?;
    let len = len as usize;
    while sequence.values().len() < len {
        cancel.check()?;
        // Few enough that a large value's many options stay well under a second.
        let next = (sequence.values().len() + 64).min(len);
        sequence.extend_to(next);
    }
    Ok(sequence.into_values())
}

/// Smallest power of two above every value so far: no option value can reach it, since
/// values and their XORs stay below it, so the mex is at most it.
fn cap_above(value: Nimber, cap: u32) -> u32 {
    if value < cap {
        cap
    } else {
        (value as u64 + 1).next_power_of_two().min(1 << 31) as u32
    }
}

/// Nim: G(n) = n.
struct NimClosedForm {
    values: Vec<Nimber>,
}

impl Sequence for NimClosedForm {
    fn push_next(&mut self) {
        let n = self.values.len();
        self.values.push(n as Nimber);
    }

    fn values(&self) -> Values<'_> {
        Values::Wide(&self.values)
    }

    fn held_bytes(&self) -> usize {
        self.values.capacity() * std::mem::size_of::<Nimber>()
    }

    fn into_values(self: Box<Self>) -> Vec<Nimber> {
        self.values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_coupled_rulesets_and_huge_lengths() {
        assert!(engine(&Ruleset::Wythoff, Method::Fast, 10).is_err());
        assert!(engine(&Ruleset::Moore(2), Method::Reference, 10).is_err());
        assert!(engine(&Ruleset::Nim, Method::Fast, MAX_LEN + 1).is_err());
    }
}

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

/// A nim-value sequence that grows on demand.
pub trait Sequence: Send {
    /// Computes the next value, G(len).
    fn push_next(&mut self);
    /// The values computed so far, G(0..len).
    fn values(&self) -> &[Nimber];
    /// Computes values until `len` are known.
    fn extend_to(&mut self, len: usize) {
        while self.values().len() < len {
            self.push_next();
        }
    }
    /// Gives up the engine's own looks for a proved period, for callers that look on
    /// their own (a second look at the same values is wasted work).
    fn leave_periods_to_caller(&mut self) {}
    /// The values computed, G(0..len), without a copy.
    fn into_values(self: Box<Self>) -> Vec<Nimber>;
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

/// Bytes the engine `method` holds for `len` values: 4 a value, and for the sparse-space
/// engine its two 16-bit copies of them (front to back and back to front) besides; its
/// other tables grow with the largest value or the rare heaps, which stay small.
pub fn bytes_needed(ruleset: &Ruleset, method: Method, len: u64) -> u128 {
    let per_value = match method {
        Method::Fast if !ruleset.nim_values_are_sizes() => 8,
        _ => 4,
    };
    u128::from(len) * per_value
}

/// Builds the engine `method` names for a one-heap ruleset, with room for `len` values.
pub fn engine(ruleset: &Ruleset, method: Method, len: u64) -> Result<Box<dyn Sequence>> {
    check_request(ruleset, len)?;
    crate::memory::check_fits(
        &format!("computing {len} nim-values"),
        bytes_needed(ruleset, method, len),
        Hint::LowerMax,
    )?;
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
            _ => sparse_or_reference(ruleset, values),
        },
    })
}

/// The sparse-space engine where it applies, else the plain definition.
fn sparse_or_reference(ruleset: &Ruleset, values: Vec<Nimber>) -> Box<dyn Sequence> {
    match SparseSpace::with_storage(ruleset, values) {
        Ok(fast) => Box::new(fast),
        Err(values) => Box::new(MexReference::with_storage(ruleset.clone(), values)),
    }
}

/// Computes G(0..len) with the given engine.
pub fn nim_values(ruleset: &Ruleset, method: Method, len: u64) -> Result<Vec<Nimber>> {
    nim_values_cancellable(ruleset, method, len, &Cancel::new())
}

/// [`nim_values`], stopping with [`crate::Error::Interrupted`] soon after `cancel` is
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

    fn values(&self) -> &[Nimber] {
        &self.values
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

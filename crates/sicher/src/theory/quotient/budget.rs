//! The budget that bounds a misère quotient's construction ([`Budget`]: counts, memory,
//! a deadline, a [`Cancel`] flag), why a construction stopped ([`Stop`]), and the memory
//! estimates of a quotient's table and verification. Shared by the driver
//! (`construct.rs`), recalibration and its layouts, and tameness; it imports none of them.

use crate::Cancel;

/// Deterministic limits on a construction; exceeding one stops it with
/// [`Stop`], keeping the quotient of the heaps finished so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Largest order a quotient may reach.
    pub max_order: u32,
    /// Largest unreduced candidate (product of cycles) a recalibration may build.
    pub max_candidate: u64,
    /// Largest number of transition pairs one verification may visit.
    pub max_pairs: u64,
    /// Largest number of candidates rebuilt while recalibrating one heap.
    pub max_rebuilds: u32,
    /// Longest preperiod plus period looked for in one heap's rows.
    pub max_rows: u32,
    /// Largest memory, in bytes, that the construction may take: the candidate being
    /// built (its product, table and verification, estimated before their large
    /// allocations) together with [`Budget::held_memory`].
    pub max_memory: u64,
    /// Bytes already held when a candidate is estimated: the accepted quotient with its
    /// verified closure, and the candidates a recalibration keeps while it builds the
    /// next. The construction counts these itself; a fresh budget holds 0.
    pub held_memory: u64,
    /// When to stop, wherever the construction is (checked before each heap and each
    /// rebuild); `None`, the default, keeps the construction deterministic.
    pub deadline: Option<std::time::Instant>,
    /// Stops the construction as the deadline does, once set from another thread (a
    /// search that no longer needs the quotient it was building beside it).
    pub cancel: Option<Cancel>,
}

impl Budget {
    /// True once the deadline, if any, has passed or the construction was cancelled.
    pub fn past_deadline(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| std::time::Instant::now() >= deadline)
            || self.cancel.as_ref().is_some_and(Cancel::is_cancelled)
    }

    /// Refuses work estimated to take `bytes` when that and what is held already come
    /// to more than `max_memory` (the stop gives the total).
    pub(crate) fn check_memory(&self, bytes: u64) -> Result<(), Stop> {
        let total = bytes.saturating_add(self.held_memory);
        if total > self.max_memory {
            return Err(Stop::Memory(total));
        }
        Ok(())
    }

    /// This budget while `bytes` more are held (a candidate kept alive meanwhile).
    pub(crate) fn holding(&self, bytes: u64) -> Budget {
        Budget {
            held_memory: self.held_memory.saturating_add(bytes),
            ..self.clone()
        }
    }

    /// Refuses a reduced quotient whose table and verification (with `generators` heap
    /// generators) would take more than `max_memory` bytes.
    pub(crate) fn check_table(&self, order: usize, generators: usize) -> Result<(), Stop> {
        self.check_memory(table_bytes(order) + verification_bytes(order, generators))
    }

    /// Refuses a product of `elements` elements with `generators` generators whose
    /// construction (rows, congruence, reduction) would exceed `max_memory` bytes.
    pub(crate) fn check_product(&self, elements: u64, generators: usize) -> Result<(), Stop> {
        // Per element: outcome bits, union-find, classes and representatives (about 40
        // bytes), and one step per generator in the reduction's refinement.
        self.check_memory(elements.saturating_mul(40 + 8 * generators as u64))
    }
}

/// Bytes of a reduced quotient of `order` elements: its table (4 bytes a cell) and the
/// verification's bit rows of `P` (one bit a cell).
pub(crate) fn table_bytes(order: usize) -> u64 {
    let order = order as u64;
    order * order * 4 + order * order.div_ceil(64) * 8
}

/// Bytes a verification of a quotient of `order` elements adds to its table and bit
/// rows, at most: per heap generator and element, where its term set lies and the set.
pub(crate) fn verification_bytes(order: usize, generators: usize) -> u64 {
    let order = order as u64;
    generators as u64 * order * (4 + order.div_ceil(64) * 8)
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_order: 10_000,
            max_candidate: 1 << 20,
            max_pairs: 2_000_000,
            max_rebuilds: 5000,
            max_rows: 256,
            max_memory: 2048 << 20,
            held_memory: 0,
            deadline: None,
            cancel: None,
        }
    }
}

/// Why a construction stopped before its last heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The quotient would exceed `max_order` (the order reached is given).
    Order(u64),
    /// A recalibration candidate would exceed `max_candidate`.
    Candidate(u64),
    /// A verification visited more than `max_pairs` transition pairs.
    Pairs,
    /// Recalibration used up `max_rebuilds`.
    Rebuilds,
    /// A heap's rows showed no period within `max_rows`.
    Rows,
    /// A candidate, with what the construction held meanwhile, would need more memory
    /// than `max_memory` (the bytes estimated).
    Memory(u64),
    /// No single change of the layout moved the least failure further on.
    Stuck,
    /// The deadline passed.
    Time,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Order(order) => write!(f, "the quotient would reach order {order}"),
            Stop::Candidate(size) => {
                write!(f, "a recalibration candidate would have {size} elements")
            }
            Stop::Pairs => f.write_str("a verification visited too many transition pairs"),
            Stop::Memory(bytes) => write!(
                f,
                "a candidate would need about {} MiB with what the construction holds, more than its memory bound",
                bytes.div_ceil(1 << 20)
            ),
            Stop::Rebuilds => f.write_str("recalibration used up its rebuilds"),
            Stop::Rows => f.write_str("a heap's rows showed no period in the rows allowed"),
            Stop::Stuck => f.write_str("no change of the layout moved the first failure on"),
            Stop::Time => f.write_str("it ran past its time limit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_memory_counts_against_the_bound() {
        let budget = Budget {
            max_memory: 1000,
            ..Budget::default()
        };
        assert_eq!(budget.check_memory(1000), Ok(()));
        let holding = budget.holding(600).holding(300);
        assert_eq!(holding.held_memory, 900);
        assert_eq!(holding.check_memory(100), Ok(()));
        // The stop gives the total, which is over the bound.
        assert_eq!(holding.check_memory(101), Err(Stop::Memory(1001)));
        assert_eq!(
            budget.holding(u64::MAX).check_memory(1),
            Err(Stop::Memory(u64::MAX))
        );
        assert_eq!(table_bytes(64), 64 * 64 * 4 + 64 * 8);
    }
}

//! Sprague-Grundy theory for rulesets whose moves change one heap: nim-value sequences,
//! their periods and proofs, complete solutions, and the normal-play fast path.

mod arithmetic;
mod fast_path;
mod mex;
mod period;
mod solution;
mod values;

pub use arithmetic::{find_arithmetic, prove_all_but};
pub use fast_path::{applies, NimOracle, Verdict, WinningMove};
pub use mex::{mex, Marks, MexSet};
pub use period::{find_proved, find_proved_by_scan, PeriodFinder, Periodicity, ProofBound};
pub use solution::{default_max, lone_heap_outcomes, solve, Solution, SolvedSequence};
pub use values::{
    engine, nim_values, nim_values_cancellable, Method, MexReference, Nimber, Sequence, SparseSpace,
};

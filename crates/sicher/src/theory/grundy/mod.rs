//! Sprague-Grundy theory for rulesets whose moves change one heap: nim-value sequences,
//! their periods and proofs, complete solutions, and the normal-play fast path.
//!
//! # Files
//!
//! - `mex.rs`: the one mex, with marks stamped per set ([`Marks`], [`MexSet`]).
//! - `values.rs`: nim-value sequences and the engine chosen for a ruleset
//!   ([`nim_values`], [`engine`]); its engines in `values/`.
//! - `values/`: the sequence engines: the plain definition, the sparse-space engine and
//!   its vector scans, the engines of infinite subtraction sets.
//! - `period.rs`: ultimate periods and the periodicity theorem that proves them
//!   ([`Periodicity`], [`PeriodFinder`]).
//! - `arithmetic.rs`: arithmetic periodicity (a period with a saltus), found by a scan
//!   and proved for all-but subtraction games.
//! - `solution.rs`: complete solutions: the sequence, its period and its proof.
//! - `fast_path.rs`: the normal-play fast path at any heap size: XOR verdicts and
//!   winning moves ([`NimValueLookup`]).

mod arithmetic;
mod fast_path;
mod mex;
mod period;
mod solution;
mod values;

pub use arithmetic::{find_arithmetic, prove_all_but};
pub use fast_path::{applies, NimValueLookup, Verdict, WinningMove};
pub use mex::{mex, Marks, MexSet};
pub use period::{find_proved, find_proved_by_scan, PeriodFinder, Periodicity, ProofBound};
pub use solution::{
    default_max, lone_heap_outcomes, solve, solve_with_threads, Solution, SolvedSequence,
};
pub use values::{
    bytes_needed, check_request, engine, finder_bytes, nim_values, nim_values_cancellable, Method,
    MexReference, Nimber, Sequence, SparseSpace, SparseStats, Values,
};

//! Sprague-Grundy theory for rulesets whose moves change one heap: nim-value sequences,
//! their periods and proofs, complete solutions, and the normal-play fast path.

pub mod fast_path;
pub mod mex;
pub mod period;
pub mod solution;
pub mod values;

pub use fast_path::{NimOracle, Verdict, WinningMove};
pub use mex::{mex, Marks, MexSet};
pub use period::{Periodicity, ProofBound};
pub use solution::{solve, Solution};
pub use values::{engine, nim_values, Method, MexReference, Nimber, Sequence, SparseSpace};

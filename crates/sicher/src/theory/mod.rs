//! Theory: what is known about a game without searching it. Nim-values and their proved
//! periods ([`grundy`]), misère quotients ([`quotient`]), closed forms ([`closed`]), and the one winning-move
//! search over a theory's heap-by-heap invariant ([`invariant`]); for partizan games,
//! combinatorial game values in canonical form ([`cgt`]) and one-heap outcome sequences
//! with their periods ([`partizan`]).
//!
//! # Files
//!
//! - `grundy/`: nim-value sequences, their periods and proofs, complete solutions, and
//!   the normal-play fast path.
//! - `quotient/`: misère quotients, misère Nim, genus and tameness, the quotient a table
//!   learns.
//! - `closed/`: Wythoff's game and Moore's Nim_k in closed form.
//! - `invariant.rs`: a heap's element, how elements combine, which are unsafe, and the
//!   one winning-move search over them.
//! - `cgt/`: combinatorial game values (partizan): canonical forms, comparison, sums and
//!   CGSuite's notation.
//! - `partizan/`: one-heap outcome sequences of partizan games with their proved periods,
//!   and the canonical forms of single heaps.

pub mod cgt;
pub mod closed;
pub mod grundy;
pub mod invariant;
pub mod partizan;
pub mod quotient;

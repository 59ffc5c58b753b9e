//! Theory: what is known about a game without searching it. Nim-values and their proved
//! periods ([`grundy`]), misère quotients ([`quotient`]), closed forms ([`closed`]), and the one winning-move
//! search over a theory's heap-by-heap invariant ([`invariant`]).
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

pub mod closed;
pub mod grundy;
pub mod invariant;
pub mod quotient;

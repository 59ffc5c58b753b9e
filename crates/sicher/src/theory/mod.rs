//! Theory: what is known about a game without searching it. Nim-values and their proved
//! periods ([`grundy`]), misère quotients ([`quotient`]), closed forms ([`closed`]), and the one winning-move
//! search over a theory's heap-by-heap invariant ([`invariant`]); for partizan games,
//! combinatorial game values in canonical form ([`cgt`]) and one-heap outcome sequences
//! with their periods ([`partizan`]).

pub mod cgt;
pub mod closed;
pub mod grundy;
pub mod invariant;
pub mod partizan;
pub mod quotient;

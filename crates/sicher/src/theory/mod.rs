//! Theory: what is known about a game without searching it. Nim-values and their proved
//! periods ([`grundy`]), misère quotients ([`quotient`]), closed forms ([`closed`]), and the one winning-move
//! search over a theory's heap-by-heap invariant ([`invariant`]).

pub mod closed;
pub mod grundy;
pub mod invariant;
pub mod quotient;

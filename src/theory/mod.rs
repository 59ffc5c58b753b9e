//! Theory: what is known about a game without searching it. Nim-values and their proved
//! periods ([`grundy`]), misère quotients ([`quotient`]).

pub mod closed;
pub mod grundy;
pub mod quotient;

//! Combinatorial game values: short games in canonical form, their comparison and sums,
//! and CGSuite's notation for them.
//!
//! # Files
//!
//! - `store.rs`: the store of short games: hash-consed nodes, comparison, canonical
//!   forms, negation and sums.
//! - `number.rs`: dyadic numbers, games that are numbers, and stops.
//! - `notation.rs`: canonical forms written as CGSuite writes them, with short names.
//! - `tests.rs`: unit tests of the store against games played out by the definition.

mod notation;
mod number;
mod store;

pub use notation::Notation;
pub use number::{Dyadic, Numbers};
pub use store::{GameId, GameStore, Grown, TooLarge};

#[cfg(test)]
mod tests;

//! Combinatorial game values: short games in canonical form, their comparison and sums,
//! and CGSuite's notation for them.

mod notation;
mod number;
mod store;

pub use notation::Notation;
pub use number::{Dyadic, Numbers};
pub use store::{GameId, GameStore, Grown, TooLarge};

#[cfg(test)]
mod tests;

//! sicher: a solver for impartial heap games (code map below).

pub mod cli;
pub mod error;
pub mod game;
pub mod search;

pub use error::{Error, Result};
pub use game::{Convention, Game, Position, Ruleset};

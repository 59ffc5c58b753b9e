//! sicher: a solver for impartial heap games (code map below).

pub mod error;
pub mod game;

pub use error::{Error, Result};
pub use game::{Convention, Game, Position, Ruleset};
pub mod domain;
pub mod label;
pub mod table;

//! sicher: a solver for impartial heap games (code map below).
//!
//! - [`game`]: rulesets, conventions, positions, where games come from.
//! - [`domain`]: bounded domains of positions and their ranking bijections.
//! - [`label`]: the bottom-up (retrograde) labeller.
//! - [`table`]: endgame tables on disk, written and probed memory-mapped.
//! - [`cli`]: the command line.

#![warn(missing_docs)]

pub mod cli;
pub mod domain;
pub mod error;
pub mod game;
pub mod label;
pub mod table;

pub use error::{Error, Result};
pub use game::{Convention, Game, Position, Ruleset};

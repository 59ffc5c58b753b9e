//! Arguments shared by several commands: the game and the search settings.

use clap::Args;

use crate::error::Result;
use crate::game::{self, Convention, Game};

/// Which game, under which convention.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// A shipped game (nim, kayles, ...), a .toml description, or an inline spec
    /// (nim, octal:0.77, hex:0.8F, subtraction:1,3,4, grundy, wythoff, moore:2).
    pub game: String,
    /// Play misère (the player with no move wins); overrides the description.
    #[arg(long, conflicts_with = "normal")]
    pub misere: bool,
    /// Play normal (the player with no move loses); overrides the description.
    #[arg(long)]
    pub normal: bool,
}

impl GameArgs {
    /// Resolves the game and applies the convention flags.
    pub fn resolve(&self) -> Result<Game> {
        let game = game::resolve(&self.game)?;
        Ok(if self.misere {
            game.with_convention(Convention::Misere)
        } else if self.normal {
            game.with_convention(Convention::Normal)
        } else {
            game
        })
    }
}

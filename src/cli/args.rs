//! Arguments shared by several commands: the game and the search settings.

use clap::{Args, ValueEnum};

use crate::error::{Error, Result};
use crate::game::{self, Convention, Game};
use crate::search::SearchConfig;

/// Which game, under which convention.
#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    /// A shipped game (nim, kayles, ...), a .toml description, or an inline spec
    /// (nim, octal:0.77, hex:0.8F, subtraction:1,3,4, grundy, wythoff, moore:2).
    #[arg(required = true)]
    pub game: Option<String>,
    /// Play misère (the player with no move wins); overrides the description.
    #[arg(long, conflicts_with = "normal")]
    pub misere: bool,
    /// Play normal (the player with no move loses); overrides the description.
    #[arg(long)]
    pub normal: bool,
}

impl GameArgs {
    /// The convention the flags force, if any.
    pub fn forced_convention(&self) -> Option<Convention> {
        if self.misere {
            Some(Convention::Misere)
        } else if self.normal {
            Some(Convention::Normal)
        } else {
            None
        }
    }

    /// Resolves the game and applies the convention flags.
    pub fn resolve(&self) -> Result<Game> {
        let name = self
            .game
            .as_deref()
            .ok_or_else(|| Error::input("name a GAME, as in `sicher check kayles 3 4 5`"))?;
        let game = game::resolve(name)?;
        Ok(match self.forced_convention() {
            Some(convention) => game.with_convention(convention),
            None => game,
        })
    }
}

/// The heaps of the description's start position, as command-line words.
pub fn start_heaps(game: &Game) -> Result<Vec<String>> {
    let start = game.start.as_ref().ok_or_else(|| {
        Error::input(format!(
            "{} gives no start position (`start = [...]`)",
            game.name
        ))
    })?;
    Ok(start.heaps().iter().map(u64::to_string).collect())
}

/// Which top-down engine answers.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Boolean alpha-beta with transposition table and move ordering.
    Alphabeta,
    /// The plain memoised recursion, kept as a baseline for measurements.
    Plain,
}

/// Settings of the top-down search.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Memory bound of the transposition table, in MiB.
    #[arg(long, value_name = "MiB", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    pub hash: u32,
    /// Engine to use.
    #[arg(long, value_enum, default_value_t = Engine::Alphabeta)]
    pub engine: Engine,
    /// Switch off enhanced transposition cut-offs.
    #[arg(long)]
    pub no_etc: bool,
    /// Switch off the history heuristic.
    #[arg(long)]
    pub no_history: bool,
    /// Switch on killer moves (off by default: they cost nodes on the benchmark suite).
    #[arg(long)]
    pub killers: bool,
    /// Switch off the exact simplifications (dead heaps, cancelling pairs).
    #[arg(long)]
    pub no_simplify: bool,
    /// Switch off the nim-value guidance of move ordering.
    #[arg(long)]
    pub no_guide: bool,
}

impl SearchArgs {
    /// The search configuration these flags describe.
    pub fn config(&self) -> SearchConfig {
        SearchConfig {
            hash_bytes: (self.hash as usize) << 20,
            etc: !self.no_etc,
            history: !self.no_history,
            killers: self.killers,
            simplify: !self.no_simplify,
            guide: !self.no_guide,
        }
    }
}

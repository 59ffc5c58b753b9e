//! Arguments shared by several commands, and their resolution into what the library takes:
//! a [`Game`], a [`Policy`] of answer sources, search settings.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use sicher::answer::{Engine, Method, Policy, Remoteness};
use sicher::error::{Error, Result};
use sicher::game::{self, Convention, Game};
use sicher::search::{Algorithm, SearchConfig};

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
        forced_convention(self.misere, self.normal)
    }

    /// Resolves the game and applies the convention flags.
    pub fn resolve(&self) -> Result<Game> {
        resolve_game(self.game.as_deref(), self.forced_convention())
    }
}

/// The convention `--misere` or `--normal` force, if any.
pub fn forced_convention(misere: bool, normal: bool) -> Option<Convention> {
    if misere {
        Some(Convention::Misere)
    } else if normal {
        Some(Convention::Normal)
    } else {
        None
    }
}

/// Resolves a GAME argument and applies a forced convention.
pub fn resolve_game(name: Option<&str>, convention: Option<Convention>) -> Result<Game> {
    let name =
        name.ok_or_else(|| Error::input("name a GAME, as in `sicher check kayles 3 4 5`"))?;
    let game = game::resolve(name)?;
    Ok(match convention {
        Some(convention) => game.with_convention(convention),
        None => game,
    })
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
pub enum EngineArg {
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
    #[arg(long, value_enum, default_value_t = EngineArg::Alphabeta)]
    pub engine: EngineArg,
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

    /// The engine these flags choose.
    pub fn engine(&self) -> Engine {
        match self.engine {
            EngineArg::Alphabeta => Engine::Alphabeta,
            EngineArg::Plain => Engine::Plain,
        }
    }
}

/// How positions are answered, as typed.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodArg {
    /// Nim-values where Sprague-Grundy theory applies (normal play, one-heap moves), then
    /// a covering table under tables/, then search.
    Auto,
    /// Always the top-down search.
    Search,
    /// Always nim-values (an error where they do not apply).
    Grundy,
}

/// The `--method`, `--max` and `--nim-table` flags of `check` and `solve`.
#[derive(Args, Debug, Clone)]
pub struct MethodArgs {
    /// Search, nim-values, or whichever applies.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub method: MethodArg,
    /// Largest heap size whose nim-value (or misère outcome) may be computed; larger heaps
    /// need a proved period. Default: 1000000 (2000 for rulesets without a fast engine).
    #[arg(long, value_name = "N")]
    pub max: Option<u64>,
    /// Answer from this nim-value table (`nim-values --write`) instead of computing.
    #[arg(long, value_name = "FILE")]
    pub nim_table: Option<PathBuf>,
    /// Answer misère play from this stored misère quotient (`quotient --write`).
    #[arg(long, value_name = "FILE")]
    pub quotient: Option<PathBuf>,
}

impl MethodArgs {
    /// The answer policy these flags and the search settings describe; `table` answers
    /// alone when given.
    pub fn policy(&self, search: &SearchArgs, table: Option<PathBuf>) -> Policy {
        let method = match self.method {
            MethodArg::Auto => Method::Auto,
            MethodArg::Search => Method::Search,
            MethodArg::Grundy => Method::Grundy,
        };
        Policy {
            method,
            table,
            nim_table: self.nim_table.clone(),
            quotient_file: self.quotient.clone(),
            nim_max: self.max,
            search: search.config(),
            engine: search.engine(),
            ..Policy::default()
        }
    }
}

/// `--remoteness` and `--no-remoteness`: whether answers must say how many moves best play
/// takes.
#[derive(Args, Debug, Clone)]
pub struct RemotenessArgs {
    /// Always give the remoteness (the fastest win, the longest resistance), even where
    /// nim-values or an outcome table would answer the verdict alone at once, or where
    /// it would cost the search more than 16 times the verdict.
    #[arg(long, conflicts_with = "no_remoteness")]
    pub remoteness: bool,
    /// Never compute the remoteness: the verdict alone, as fast as it comes.
    #[arg(long)]
    pub no_remoteness: bool,
    /// How the remoteness search chooses its windows: alphabeta, aspiration, negascout
    /// or mtdf (default: alphabeta, the best measured).
    #[arg(long, value_name = "NAME")]
    pub algorithm: Option<Algorithm>,
}

impl RemotenessArgs {
    /// The remoteness these flags ask for.
    pub fn wanted(&self) -> Remoteness {
        if self.remoteness {
            Remoteness::Required
        } else if self.no_remoteness {
            Remoteness::Skip
        } else {
            Remoteness::IfAvailable
        }
    }

    /// The remoteness search's variant these flags choose.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm.unwrap_or_default()
    }
}

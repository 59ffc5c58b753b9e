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
    let game = resolve_named(name)?;
    Ok(match convention {
        Some(convention) => game.with_convention(convention),
        None => game,
    })
}

/// Resolves a GAME argument as the library does, adding "did you mean `kayles`?" to an
/// unknown name that is a small typing distance from a shipped game or a built-in name.
pub fn resolve_named(name: &str) -> Result<Game> {
    game::resolve(name).map_err(|error| match closest_game_name(name) {
        Some(near) if error.message().starts_with("unknown game") => Error::input(format!(
            "{}; did you mean {}?",
            error.message(),
            sicher::error::quote(near)
        )),
        _ => error,
    })
}

/// The names a GAME argument may be without a path or a spec's argument: the shipped
/// descriptions, the built-in specs that take none, and the spec kinds.
pub fn known_game_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = game::shipped_games().iter().map(|g| g.name).collect();
    for builtin in ["grundy", "wythoff", "nim"] {
        if !names.contains(&builtin) {
            names.push(builtin);
        }
    }
    names
}

/// The known game name nearest to `typed`, if it is near enough to be a slip of the
/// keyboard: at most two edits, and fewer than a third of the name.
pub fn closest_game_name(typed: &str) -> Option<&'static str> {
    let typed = typed.to_ascii_lowercase();
    known_game_names()
        .into_iter()
        .map(|name| (strsim::damerau_levenshtein(&typed, name), name))
        .filter(|&(distance, name)| distance > 0 && distance <= 2 && distance * 3 <= name.len())
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, name)| name)
}

/// `word` as a shell reads it back: as it is when it holds only safe characters, else in
/// single quotes. Suggested commands quote game names and paths with it, so that they run
/// as printed.
pub fn shell_word(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.,:/=+@%".contains(&b));
    if safe {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// How a suggested command names `game`, shell-quoted: as typed on this command line
/// when it was (a shipped name, a description's path, a spec), else by its spec, or by
/// the description's `name` where the spec is a script's hash that no command reads.
pub fn game_word(typed: Option<&str>, game: &Game) -> String {
    let spec = game.ruleset.spec();
    let word = match typed {
        Some(typed) => typed.to_string(),
        None if !spec.starts_with("script:") => spec,
        None => game.name.clone(),
    };
    shell_word(&word)
}

/// With `--table`, the GAME slot may hold the first heap instead of a game
/// (`check --table FILE 3 4 5`): the game's name, if one was given, and the heap words.
pub fn game_or_first_heap(
    game: Option<&str>,
    heaps: &[String],
    table: Option<&std::path::Path>,
) -> (Option<String>, Vec<String>) {
    let first_is_heap = table.is_some()
        && game.is_some_and(|first| {
            first
                .split(',')
                .all(|w| w.trim().bytes().all(|b| b.is_ascii_digit()))
        });
    if first_is_heap {
        let first = game.map(str::to_string).into_iter();
        (None, first.chain(heaps.iter().cloned()).collect())
    } else {
        (game.map(str::to_string), heaps.to_vec())
    }
}

/// The answer chain of `check` and `solve`: the table alone when `--table` is given
/// without a game (its game read from the table, which must be of a forced
/// convention), else the game's chain under `policy`.
pub fn chain_for(
    game: Option<&str>,
    convention: Option<Convention>,
    table: Option<&std::path::Path>,
    policy: &sicher::answer::Policy,
) -> Result<sicher::answer::Chain> {
    match (table, game) {
        (Some(path), None) => {
            let chain = sicher::answer::Chain::for_table(path)?;
            let game = chain.game();
            if let Some(convention) = convention.filter(|&c| c != game.convention) {
                return Err(Error::input(format!(
                    "{} holds {} play of {}, not {convention} play",
                    path.display(),
                    game.convention,
                    game.title()
                )));
            }
            Ok(chain)
        }
        (_, name) => sicher::answer::Chain::new(&resolve_game(name, convention)?, policy),
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
    /// Threads of the remoteness search and of the endgame tables it labels (default: one
    /// per core; `bench`: one, so that its node counts repeat), and of the nim-values of
    /// `solve GAME` (default: one per core); answers are the same for any count.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

impl SearchArgs {
    /// The search configuration these flags describe, on one thread per core unless
    /// `--threads` says otherwise.
    pub fn config(&self) -> SearchConfig {
        self.config_with_threads(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        })
    }

    /// The search configuration these flags describe, on `default_threads()` threads
    /// unless `--threads` says otherwise.
    pub fn config_with_threads(&self, default_threads: impl FnOnce() -> usize) -> SearchConfig {
        SearchConfig {
            hash_bytes: (self.hash as usize) << 20,
            etc: !self.no_etc,
            history: !self.no_history,
            killers: self.killers,
            simplify: !self.no_simplify,
            guide: !self.no_guide,
            threads: self.threads.map_or_else(default_threads, |n| n as usize),
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

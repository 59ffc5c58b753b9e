//! The command line: one module per subcommand over the library, plus the shared
//! argument groups ([`args`]) and output conventions ([`output`]).
//!
//! # Files
//!
//! - `main.rs`: the `sicher` binary: the signal handler, parsing, [`run`], the exit code.
//! - `lib.rs`: the command ([`Cli`], [`Command`]) and its dispatch.
//! - `args.rs`: arguments shared by several commands, resolved into a game, a policy of
//!   answer sources and search settings.
//! - `output.rs`: the safe/unsafe wording, writing JSON (records: `sicher::answer`), quiet progress.
//! - `errors.rs`: the library's errors in this program's words: hints as its flags,
//!   kinds as exit codes.
//! - `time_limit.rs`: `--time-limit` of `check` and `solve`, kept by a watchdog thread.
//! - `check.rs`: `sicher check`: is a position safe, and which move wins.
//! - `solve.rs`: `sicher solve`: every winning move of a position, with what the source
//!   knows beside.
//! - `solution.rs`: `solve GAME` with no heaps: a one-heap ruleset's complete solution.
//! - `partizan.rs`: `check` and `solve` for partizan games: classes, each player's
//!   verdicts and winning moves, outcome sequences, canonical forms.
//! - `nim_values.rs`: `sicher nim-values`: the nim-sequence of a one-heap ruleset.
//! - `quotient.rs`: `sicher quotient`: the misère quotient of heaps `1..=N`.
//! - `table.rs`: `sicher table`: label a bounded domain and write its table.
//! - `info.rs`: `sicher info`: what a table file holds, and whether its body is intact.
//! - `list.rs`: `sicher list`: a table's positions in rank order with their values.
//! - `verify.rs`: `sicher verify`: bottom-up labels against top-down answers.
//! - `play.rs`: `sicher play`: a game in the terminal against the computer.
//! - `play/`: `sicher play` for partizan games (you play Left or Right).
//! - `picture.rs`: `sicher picture` and `sicher plot`: maps and plots.
//! - `serve.rs`: `sicher serve`'s flags, handed to the `sicher-serve` crate (feature
//!   `serve`, on by default).
//! - `bench.rs`: `sicher bench`: a fixed timed suite with a node-count signature.
//! - `discover.rs`: `sicher games` (the shipped games and spec forms), `sicher
//!   completions SHELL` and `sicher man`, made from the same definition as `--help`.

/// `println!` that reports a failed write (such as a closed pipe) as an error instead of
/// panicking; `run` treats a closed pipe as a normal end.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*).map_err($crate::stdout_error)
    }};
}

pub mod args;
pub mod bench;
pub mod check;
pub mod discover;
pub mod errors;
pub mod info;
pub mod list;
pub mod nim_values;
pub mod output;
pub mod partizan;
pub mod picture;
pub mod play;
pub mod quotient;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solution;
pub mod solve;
pub mod table;
pub mod time_limit;
pub mod verify;

use clap::{Parser, Subcommand};

use sicher::error::{Error, Result};

const EXAMPLES_CHECK: &str = "Examples:
  sicher check nim 3 4 5                  # safe: the player to move wins, and how
  sicher check kayles 10 11 12 --misere   # misère Kayles
  sicher check octal:0.07 20,30 --json    # inline spec, JSON answer
  printf '1 2 3\\n4 5\\n' | sicher check nim   # one position per line from stdin
  sicher check partizan-subtraction:1,3/2,3 6 --left   # partizan: Left to move (no flag: the class)";

const EXAMPLES_SOLVE: &str = "Examples:
  sicher solve kayles                     # complete solution: period and proof
  sicher solve partizan-subtraction:1,3/2,3 6 --canonical   # class, both players' winning moves, canonical form
  sicher solve subtraction:1,3,4 --misere # lone-heap misère outcomes
  sicher solve kayles 1000000000000 77    # normal play: by XOR of nim-values
  sicher solve kayles 10 11 12 13 14 --misere
  sicher solve wythoff 400 647 --json
  sicher solve moore:2 3 5 6 9 --hash 64
  sicher table kayles --total 12 --misere -o k.table && sicher solve --table k.table 3 4";

const EXAMPLES_TOP: &str = "Examples (each command's --help has more):
  sicher check nim 3 4 5                  # safe or unsafe, with a winning move
  sicher solve kayles                     # the complete solution of a one-heap game
  sicher play nim 3 4 5                   # a game against the computer";

const EXAMPLES_BENCH: &str = "Examples:
  sicher bench                  # the suite with every heuristic on
  sicher bench --no-history     # what the history heuristic buys
  sicher bench --engine plain   # the plain memoised baseline";

/// sicher: solves impartial heap games (Nim, octal and hexadecimal games, subtraction
/// games, Grundy's game, Wythoff, Moore's Nim) under normal and misère play.
///
/// A position is safe when the player to move has a sure win, unsafe when the player
/// to move loses against best play.
#[derive(Parser, Debug)]
#[command(name = "sicher", version, about, long_about, after_help = EXAMPLES_TOP)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Say whether positions are safe or unsafe, with one winning move.
    Check(check::CheckArgs),
    /// Every winning move of a position, with search statistics.
    Solve(solve::SolveArgs),
    /// Time a fixed suite of positions across the rulesets.
    Bench(bench::BenchArgs),
    /// Label a bounded domain bottom-up and write it as an endgame table.
    Table(table::TableArgs),
    /// Print a table's header; with --verify, check its body.
    Info(info::InfoArgs),
    /// The positions a table holds, in rank order, with their values.
    List(list::ListArgs),
    /// Compare the bottom-up labels of a domain with the top-down engine.
    Verify(verify::VerifyArgs),
    /// The nim-values G(0..=N) of a ruleset whose moves change one heap.
    NimValues(nim_values::NimValuesArgs),
    /// The map of every two-heap position up to N: safe white, unsafe black (PNG or
    /// terminal).
    Picture(picture::PictureArgs),
    /// The per-heap series (nim-values, or misère lone-heap outcomes) as a PNG plot.
    Plot(picture::PlotArgs),
    /// Play a game against perfect play.
    Play(play::PlayArgs),
    /// The misère quotient of a one-heap ruleset's heaps 1..=N.
    Quotient(quotient::QuotientArgs),
    /// Serve the page to play and explore in a browser, sicher's JSON API and the
    /// GamesCrafters Universal Web API, until Ctrl-C.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
    /// The shipped games and the inline spec forms, a line each.
    Games(discover::GamesArgs),
    /// A shell completion script (bash, zsh, fish, elvish, powershell) on standard output.
    Completions(discover::CompletionsArgs),
    /// The manual page (roff), made from the same definition as --help.
    Man(discover::ManArgs),
}

impl Cli {
    /// True for `sicher serve`, which handles Ctrl-C itself (a clean shutdown).
    pub fn serves(&self) -> bool {
        #[cfg(feature = "serve")]
        if matches!(self.command, Command::Serve(_)) {
            return true;
        }
        false
    }
}

/// Runs a parsed command line.
pub fn run(cli: &Cli) -> Result<()> {
    let outcome = match &cli.command {
        Command::Check(args) => check::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Table(args) => table::run(args),
        Command::Info(args) => info::run(args),
        Command::List(args) => list::run(args),
        Command::Verify(args) => verify::run(args),
        Command::NimValues(args) => nim_values::run(args),
        Command::Picture(args) => picture::run_picture(args),
        Command::Plot(args) => picture::run_plot(args),
        Command::Play(args) => play::run(args),
        Command::Quotient(args) => quotient::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args),
        Command::Games(args) => discover::run_games(args),
        Command::Completions(args) => discover::run_completions(args),
        Command::Man(args) => discover::run_man(args),
    };
    match outcome {
        // A reader that stopped listening (`| head`) is not an error.
        Err(error)
            if error
                .io_error()
                .is_some_and(|source| source.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            Ok(())
        }
        other => other,
    }
}

/// Wraps a failed write to standard output.
pub fn stdout_error(source: std::io::Error) -> Error {
    Error::io("<stdout>", source)
}

/// Past `ulimit -f`, the kernel sends SIGXFSZ, whose default action kills the process
/// without a word. Ignored, the write fails with EFBIG instead, which becomes one error
/// line (the table's temporary removed) like a full disk. Only the binaries call this
/// (`sicher` and `sicher-mpi`, first thing): the library installs no signal handlers.
#[cfg(unix)]
pub fn ignore_file_size_signal() {
    use nix::sys::signal::{signal, SigHandler, Signal};
    // SAFETY: SIG_IGN runs no code in the signal's context, and the binaries call this
    // before they start any thread.
    let _ = unsafe { signal(Signal::SIGXFSZ, SigHandler::SigIgn) };
}

/// Nothing to do where there is no SIGXFSZ.
#[cfg(not(unix))]
pub fn ignore_file_size_signal() {}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        super::Cli::command().debug_assert();
    }

    /// The library's test of its code map, for this crate's one folder: every file of
    /// `src/` is listed in this file's `//!` doc. (The library exports no test helpers,
    /// and a flat folder needs only these lines.)
    #[test]
    fn code_map_lists_every_source_file() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let text = std::fs::read_to_string(src.join("lib.rs")).unwrap();
        let doc: String = text
            .lines()
            .filter_map(|line| line.trim_start().strip_prefix("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut missing = Vec::new();
        for entry in std::fs::read_dir(&src).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let listed = if path.is_dir() {
                format!("`{name}/`")
            } else if name.ends_with(".rs") {
                format!("`{name}`")
            } else {
                continue;
            };
            if !doc.contains(&listed) {
                missing.push(format!(
                    "src/{name} is not in the code map: add the line \"//! - {listed}: <what \
                     it holds>\" to the //! doc of src/lib.rs"
                ));
            }
        }
        missing.sort();
        assert!(missing.is_empty(), "{}", missing.join("\n"));
    }
}

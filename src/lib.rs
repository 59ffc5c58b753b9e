//! The command line: one module per subcommand over the library, plus the shared
//! argument groups ([`args`]) and output conventions ([`output`]).

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
pub mod errors;
pub mod info;
pub mod list;
pub mod nim_values;
pub mod output;
pub mod picture;
pub mod play;
pub mod quotient;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solution;
pub mod solve;
pub mod table;
pub mod verify;

use clap::{Parser, Subcommand};

use sicher::error::{Error, Result};

const EXAMPLES_CHECK: &str = "Examples:
  sicher check nim 3 4 5                  # safe: the player to move wins, and how
  sicher check kayles 10 11 12 --misere   # misère Kayles
  sicher check octal:0.07 20,30 --json    # inline spec, JSON answer
  printf '1 2 3\\n4 5\\n' | sicher check nim   # one position per line from stdin";

const EXAMPLES_SOLVE: &str = "Examples:
  sicher solve kayles                     # complete solution: period and proof
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
    };
    match outcome {
        // A reader that stopped listening (`| head`) is not an error.
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Wraps a failed write to standard output.
pub fn stdout_error(source: std::io::Error) -> Error {
    Error::io("<stdout>", source)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        super::Cli::command().debug_assert();
    }
}

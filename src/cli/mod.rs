//! The command line: one module per subcommand over the library, plus the shared
//! argument groups ([`args`]) and output conventions ([`output`]).

pub mod args;
pub mod info;
pub mod output;
pub mod probe;
pub mod table;
pub mod verify;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::error::{Error, Result};

/// sicher: solves impartial heap games (Nim, octal and hexadecimal games, subtraction
/// games, Grundy's game, Wythoff, Moore's Nim) under normal and misère play.
///
/// A position is safe when the player to move has a sure win, unsafe when the player
/// to move loses against best play.
#[derive(Parser, Debug)]
#[command(name = "sicher", version, about, long_about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Until the search commands land: `check --table FILE [HEAP...]` only.
#[derive(clap::Args, Debug)]
pub struct CheckTableArgs {
    /// Answer from this endgame table.
    #[arg(long, value_name = "FILE")]
    pub table: PathBuf,
    /// Heap sizes (spaces or commas); with none, one position per line is read from stdin.
    pub heaps: Vec<String>,
    /// Print one JSON object per position.
    #[arg(long)]
    pub json: bool,
    /// Only say safe or unsafe, without looking for a winning move.
    #[arg(long)]
    pub no_move: bool,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Say whether positions are safe or unsafe, with one winning move.
    Check(CheckTableArgs),
    /// Label a bounded domain bottom-up and write it as an endgame table.
    Table(table::TableArgs),
    /// Print a table's header; with --verify, check its body.
    Info(info::InfoArgs),
    /// Compare the bottom-up labels of a domain with the top-down engine.
    Verify(verify::VerifyArgs),
}

/// Runs a parsed command line.
pub fn run(cli: &Cli) -> Result<()> {
    let outcome = match &cli.command {
        Command::Check(args) => {
            probe::run_table(&args.table, &args.heaps, args.json, !args.no_move)
        }
        Command::Table(args) => table::run(args),
        Command::Info(args) => info::run(args),
        Command::Verify(args) => verify::run(args),
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

//! `sicher list`: the positions a table holds, in rank order, with their values.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::output::{label, write_heaps, write_json};
use super::stdout_error;
use sicher::error::Result;
use sicher::table::{BodyKind, Filter, Table};
use sicher::value::Value;

const EXAMPLES: &str = "Examples:
  sicher table nim --heaps 3 --max 20 -o nim3.table && sicher list nim3.table --unsafe
  sicher list nim3.table --safe --limit 10
  sicher table kayles --total 12 --misere --remoteness -o k.table && sicher list k.table --json";

/// Arguments of `sicher list`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct ListArgs {
    /// The table (`sicher table`, or `nim-values --write`).
    pub file: PathBuf,
    /// Only the unsafe positions (the player to move loses: P-positions).
    #[arg(long, conflicts_with = "safe")]
    pub r#unsafe: bool,
    /// Only the safe positions (the player to move wins: N-positions).
    #[arg(long)]
    pub safe: bool,
    /// One JSON object per position.
    #[arg(long)]
    pub json: bool,
    /// At most this many positions.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
}

/// One position, as `--json` prints it.
#[derive(Serialize)]
struct Record<'a> {
    position: &'a [u64],
    win: bool,
    label: &'static str,
    /// Remoteness tables: moves until the game ends under best play.
    remoteness: Option<u32>,
    /// Nim-value tables: the heap's nim-value.
    #[serde(skip_serializing_if = "Option::is_none")]
    nim_value: Option<u64>,
}

/// Runs `sicher list`.
pub fn run(args: &ListArgs) -> Result<()> {
    let table = Table::open(&args.file)?;
    if table.partizan().is_some() {
        return list_partizan(args, &table);
    }
    let filter = if args.r#unsafe {
        Filter::Unsafe
    } else if args.safe {
        Filter::Safe
    } else {
        Filter::All
    };
    let limit = args
        .limit
        .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let listing = table.list(filter)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if !args.json {
        let header = table.header();
        let which = match filter {
            Filter::All => "every position",
            Filter::Safe => "the safe positions",
            Filter::Unsafe => "the unsafe positions",
        };
        let count = match table.count(filter) {
            Some(count) if filter == Filter::All => format!(" ({count})"),
            Some(count) => format!(" ({count} of {})", header.entries),
            None => String::new(),
        };
        let values = match header.kind {
            BodyKind::Remoteness { .. } => ", with their remoteness",
            BodyKind::NimValues { .. } => ", with their nim-values",
            _ => "",
        };
        writeln!(
            out,
            "{}, {} play, {}: {which}{count} in rank order{values}",
            table.game().title(),
            header.convention,
            header.domain.flags(),
        )
        .map_err(stdout_error)?;
    }
    let mut line = Vec::new();
    for listed in listing.take(limit) {
        let (position, value) = listed?;
        line.clear();
        if args.json {
            write_json(
                &mut line,
                &Record {
                    position: position.heaps(),
                    win: value.is_win(),
                    label: label(value.is_win()),
                    remoteness: value.remoteness(),
                    nim_value: value.nimber(),
                },
            )?;
        } else {
            write_heaps(&mut line, position.heaps());
            line.extend_from_slice(b": ");
            line.extend_from_slice(label(value.is_win()).as_bytes());
            match value {
                Value::Remoteness { remoteness, .. } => {
                    line.extend_from_slice(format!(", remoteness {remoteness}").as_bytes())
                }
                Value::Nimber(g) => line.extend_from_slice(format!(", nim-value {g}").as_bytes()),
                Value::Outcome(_) => {}
            }
            line.push(b'\n');
        }
        out.write_all(&line).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)
}

/// One position of a partizan table, as `--json` prints it.
#[derive(Serialize)]
struct PartizanRecord<'a> {
    position: &'a [u64],
    class: char,
    left_wins: bool,
    right_wins: bool,
}

/// `sicher list` of a partizan table: every position in rank order with its class.
fn list_partizan(args: &ListArgs, table: &Table) -> Result<()> {
    if args.safe || args.r#unsafe {
        return Err(sicher::error::Error::input(format!(
            "{} holds a partizan game's classes (L, R, N, P): --safe and --unsafe apply to impartial tables",
            args.file.display()
        )));
    }
    let game = table.partizan().expect("a partizan table");
    let header = table.header();
    let limit = args.limit.unwrap_or(u64::MAX).min(header.entries);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if !args.json {
        writeln!(
            out,
            "{}, {}, {}: every position ({}) in rank order, with its class",
            game.title(),
            game.terminal.name(),
            header.domain.flags(),
            header.entries
        )
        .map_err(stdout_error)?;
    }
    let mut line = Vec::new();
    for rank in 0..limit {
        let position = table.ranker().unrank(rank);
        let (left_wins, right_wins) = table.sides(&position)?;
        let class = sicher::value::OutcomeClass::from_wins(left_wins, right_wins);
        line.clear();
        if args.json {
            write_json(
                &mut line,
                &PartizanRecord {
                    position: position.heaps(),
                    class: class.letter(),
                    left_wins,
                    right_wins,
                },
            )?;
        } else {
            write_heaps(&mut line, position.heaps());
            line.extend_from_slice(format!(": class {class}\n").as_bytes());
        }
        out.write_all(&line).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)
}

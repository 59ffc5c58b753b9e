//! `sicher nim-values`: the nim-sequence G(0..=N) of a one-heap ruleset.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::args::GameArgs;
use super::output::{progress_bar, write_json};
use super::stdout_error;
use sicher::atomic_file::{check_destination, Replace};
use sicher::error::{Error, Result};
use sicher::game::Convention;
use sicher::table::{self, BodyKind};
use sicher::theory::grundy::{engine, Method};
use sicher::theory::grundy::{find_proved, ProofBound};

/// Which engine computes the values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValuesMethod {
    /// The fastest engine for the ruleset (sparse space for take-and-break codes).
    Fast,
    /// The plain mex over every option (slow; the reference the fast engine is tested on).
    Reference,
}

const EXAMPLES: &str = "Examples:
  sicher nim-values kayles --max 100
  sicher nim-values octal:0.6 --max 1000000 --json > values.json
  sicher nim-values grundy --max 1000 --method reference
  sicher nim-values kayles --max 100000 --write kayles.nim && sicher check kayles 7 9 --nim-table kayles.nim
  sicher nim-values subtraction:squares --max 10000 --bfile > b-squares.txt";

/// Arguments of `sicher nim-values`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct NimValuesArgs {
    /// The game (normal play; its moves must change one heap).
    #[command(flatten)]
    pub game: GameArgs,
    /// Largest heap size: values G(0) to G(N) are printed.
    #[arg(long, value_name = "N")]
    pub max: u64,
    /// Engine computing the values.
    #[arg(long, value_enum, default_value_t = ValuesMethod::Fast)]
    pub method: ValuesMethod,
    /// Print `{"values": [...]}`.
    #[arg(long, conflicts_with = "bfile")]
    pub json: bool,
    /// Print the values as an OEIS b-file: one `n a(n)` line per heap size, nothing else.
    #[arg(long)]
    pub bfile: bool,
    /// No progress bar, even on a terminal.
    #[arg(long, short)]
    pub quiet: bool,
    /// Also write the values (and the period, if they prove one) as a nim-value table,
    /// for `check --nim-table FILE`.
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
    /// With --write: replace an existing file.
    #[arg(long, requires = "write")]
    pub force: bool,
}

#[derive(Serialize)]
struct Record<'a> {
    game: String,
    /// The game as named on the command line.
    name: String,
    method: &'static str,
    values: &'a [u32],
    seconds: f64,
    values_per_second: f64,
}

/// Heap sizes computed between progress-bar updates.
const CHUNK: usize = 1 << 14;

/// Runs `sicher nim-values`.
pub fn run(args: &NimValuesArgs) -> Result<()> {
    let game = args.game.resolve()?;
    if game.convention == Convention::Misere {
        return Err(Error::input(
            "nim-values describe normal play; for misère play use `sicher solve GAME --misere` (lone-heap outcomes) or `check`",
        ));
    }
    let method = match args.method {
        ValuesMethod::Fast => Method::Fast,
        ValuesMethod::Reference => Method::Reference,
    };
    let replace = if args.force {
        Replace::RegularFile
    } else {
        Replace::Never
    };
    if let Some(path) = &args.write {
        check_destination(path, replace)?;
    }
    let len = args.max.saturating_add(1);
    let started = std::time::Instant::now();
    let mut sequence = engine(&game.ruleset, method, len)?;
    let bar = progress_bar(len, args.quiet, "heaps");
    let len = len as usize;
    while sequence.values().len() < len {
        let next = (sequence.values().len() + CHUNK).min(len);
        game.ruleset.prepare(next as u64 - 1)?;
        sequence.extend_to(next);
        bar.set_position(next as u64);
    }
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let values = sequence.values();
    let rate = super::output::per_second(values.len() as u64, elapsed);
    let method_name = match method {
        Method::Fast => "fast",
        Method::Reference => "reference",
    };
    if let Some(path) = &args.write {
        let period = ProofBound::for_ruleset(&game.ruleset).and_then(|b| find_proved(values, b));
        let header = table::write_nim_values(path, &game.ruleset, values, period, replace)?;
        if !args.quiet {
            let proved = match header.kind {
                BodyKind::NimValues { period: Some(p) } => {
                    format!(
                        ", with the proved period {} from n = {}",
                        p.period, p.preperiod
                    )
                }
                _ => String::new(),
            };
            eprintln!(
                "wrote {}: G(0..={}) at {} bits per value{proved}",
                path.display(),
                args.max,
                header.width,
            );
        }
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.bfile {
        let mut line = Vec::with_capacity(1 << 16);
        for (n, &v) in values.iter().enumerate() {
            writeln!(line, "{n} {v}").map_err(stdout_error)?;
            if line.len() >= 1 << 16 {
                out.write_all(&line).map_err(stdout_error)?;
                line.clear();
            }
        }
        out.write_all(&line).map_err(stdout_error)?;
    } else if args.json {
        let record = Record {
            game: game.ruleset.spec(),
            name: game.name.clone(),
            method: method_name,
            values,
            seconds: elapsed.as_secs_f64(),
            values_per_second: rate,
        };
        write_json(&mut out, &record)?;
    } else {
        writeln!(
            out,
            "nim-values G(0) to G({}) of {} (normal play; a lone heap is unsafe exactly when its value is 0):",
            args.max,
            game.title()
        )
        .map_err(stdout_error)?;
        for (row, chunk) in values.chunks(20).enumerate() {
            let line: Vec<String> = chunk.iter().map(u32::to_string).collect();
            writeln!(out, "{:>8}: {}", row * 20, line.join(" ")).map_err(stdout_error)?;
        }
        writeln!(
            out,
            "computed {} values in {:.3} s ({rate:.0} values/s, {method_name} method)",
            values.len(),
            elapsed.as_secs_f64()
        )
        .map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)
}

//! `sicher nim-values`: the nim-sequence G(0..=N) of a one-heap ruleset.
//!
//! The values stream from the engine (16 bits each while they fit) into a nim-value table
//! or a b-file (`-o FILE`), or to stdout; a memory bound (`--memory`) is checked against
//! the estimate before any work, `--time-limit` keeps the values computed by then, and
//! `--checkpoint` saves them so that a killed run resumes.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::args::GameArgs;
use super::output::{progress_bar, write_json};
use super::stdout_error;
use sicher::atomic_file::{check_destination, AtomicFile, Replace};
use sicher::error::{Error, Hint, Result};
use sicher::game::Convention;
use sicher::table::{self, BodyKind};
use sicher::theory::grundy::{
    bytes_needed, engine, finder_bytes, Method, Periodicity, ProofBound, Values,
};

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
  sicher nim-values grundy --max 1000 --engine reference
  sicher nim-values kayles --max 100000 -o kayles.nim && sicher check kayles 7 9 --nim-table kayles.nim
  sicher nim-values subtraction:squares --max 10000 --bfile > b-squares.txt
  sicher nim-values octal:0.6 --max 100000 --bfile -o b-officers.txt --time-limit 60";

/// Values printed by default (text form, no `-o`): the rest is one flag away (`--all`).
const SHOWN: usize = 1000;

/// Arguments of `sicher nim-values`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, mut_arg("misere", |arg| arg.hide(true)))]
pub struct NimValuesArgs {
    /// The game (normal play; its moves must change one heap).
    #[command(flatten)]
    pub game: GameArgs,
    /// Largest heap size: values G(0) to G(N) are computed.
    #[arg(long, value_name = "N")]
    pub max: u64,
    /// Engine computing the values (`--method`, its former name, still works).
    #[arg(long, value_enum, default_value_t = ValuesMethod::Fast, alias = "method")]
    pub engine: ValuesMethod,
    /// Print `{"values": [...]}` with every value, the largest and the period found.
    #[arg(long, conflicts_with = "bfile")]
    pub json: bool,
    /// The values as an OEIS b-file: one `n a(n)` line per heap size, nothing else (to
    /// stdout, or into the file of `-o`).
    #[arg(long)]
    pub bfile: bool,
    /// Print every value (the text form shows the first 1000 and, with `-o`, none).
    #[arg(long, conflicts_with_all = ["json", "bfile"])]
    pub all: bool,
    /// No progress bar and no `wrote` line, even on a terminal.
    #[arg(long, short)]
    pub quiet: bool,
    /// Write the values into FILE: a nim-value table (with the period, if they prove one)
    /// for `check --nim-table FILE`, or with --bfile a b-file. The file appears whole or
    /// not at all.
    #[arg(long, short = 'o', value_name = "FILE", alias = "write")]
    pub output: Option<PathBuf>,
    /// With -o: replace an existing file.
    #[arg(long, requires = "output")]
    pub force: bool,
    /// Refuse (one line, before any work) a run whose memory estimate exceeds this many
    /// MiB; by default the memory available.
    #[arg(long, value_name = "MiB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory: Option<u64>,
    /// Stop computing after this many seconds and keep G(0) to the last value computed
    /// (said on stderr); 0: no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    pub time_limit: u64,
    /// Save the values computed to FILE (a nim-value table, replaced whole) every minute
    /// and when the time limit stops the run, and resume from it when it exists: a
    /// killed run started again gives the same values. Removed once the run completes.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Threads computing the values (default: one per core); the values are the same
    /// for any count. Runs below 65 536 values, and games with few rare heaps, use one.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Seconds between checkpoints.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, hide = true)]
    pub checkpoint_every: u64,
}

/// Threads for nim-values by default: one per core, as `table` and `check` use. (Counting
/// only the cores the one-minute load average leaves idle was tried: the load of the
/// run before, on a quiet machine, then took the second core away from the next run,
/// which two threads make 1.6 times faster there; docs/measurements.md.)
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// The values of a checkpoint of `game`, if `path` exists.
fn read_checkpoint(path: &std::path::Path, game: &sicher::game::Game) -> Result<Option<Vec<u32>>> {
    if !path.exists() {
        return Ok(None);
    }
    let table = sicher::table::Table::open(path)?;
    if !matches!(table.header().kind, BodyKind::NimValues { .. })
        || table.header().game != game.ruleset.spec()
    {
        return Err(Error::input(format!(
            "{}: not a checkpoint of the nim-values of {}; move it away or name another file",
            path.display(),
            game.ruleset.spec()
        )));
    }
    table.verify()?;
    (0..table.header().entries)
        .map(|h| {
            let value = table.value_at(h)?.nimber().unwrap_or(0);
            u32::try_from(value).map_err(|_| {
                Error::damaged(format!(
                    "{}: nim-value {value} is too large",
                    path.display()
                ))
            })
        })
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

/// Saves the values computed so far as the checkpoint, replacing it whole.
fn write_checkpoint(
    path: &std::path::Path,
    game: &sicher::game::Game,
    values: Values<'_>,
) -> Result<()> {
    table::write_nim_values_from(
        path,
        &game.ruleset,
        (values.len() as u64, values.largest()),
        values.iter(),
        None,
        Replace::RegularFile,
    )
    .map(|_| ())
}

#[derive(Serialize)]
struct Record {
    game: String,
    /// The game as named on the command line.
    name: String,
    method: &'static str,
    values: Vec<u32>,
    /// The largest value computed.
    largest: u32,
    /// The period the periodicity theorem proves from the values, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    period: Option<PeriodRecord>,
    /// False when the time limit stopped the run before G(N).
    complete: bool,
    seconds: f64,
    values_per_second: f64,
}

#[derive(Serialize)]
struct PeriodRecord {
    period: u64,
    preperiod: u64,
    proved_at: Option<u64>,
}

/// Heap sizes computed between progress-bar updates and time-limit looks.
const CHUNK: usize = 1 << 14;

/// The memory the run holds at most, in bytes: the engine's storage, the period finder
/// it keeps, and what writing a table packs (at most the values' width, 4 bytes each).
fn estimate(
    args: &NimValuesArgs,
    ruleset: &sicher::game::Ruleset,
    method: Method,
    len: u64,
) -> u128 {
    let packed = if args.output.is_some() && !args.bfile {
        // Packed at the width of the largest value: two bytes while values fit 16 bits.
        2 * u128::from(len)
    } else if args.json || args.all {
        // Widened to 32 bits for the JSON record or rows of text.
        4 * u128::from(len)
    } else {
        0
    };
    let finder = match method {
        Method::Fast => finder_bytes(ruleset, len),
        Method::Reference => 0,
    };
    bytes_needed(ruleset, method, len) + finder + packed
}

/// Runs `sicher nim-values`.
pub fn run(args: &NimValuesArgs) -> Result<()> {
    let game = args.game.resolve()?;
    if game.convention == Convention::Misere {
        let game = crate::args::shell_word(args.game.game.as_deref().unwrap_or_default());
        return Err(Error::input(format!(
            "nim-values describe normal play; for misere play use `sicher solve {game} --misere` (lone-heap outcomes) or `check`"
        )));
    }
    let method = match args.engine {
        ValuesMethod::Fast => Method::Fast,
        ValuesMethod::Reference => Method::Reference,
    };
    let replace = if args.force {
        Replace::RegularFile
    } else {
        Replace::Never
    };
    if let Some(path) = &args.output {
        check_destination(path, replace)?;
    }
    let len = args.max.saturating_add(1);
    sicher::theory::grundy::check_request(&game.ruleset, len)?;
    if let Some(mib) = args.memory {
        let needed = estimate(args, &game.ruleset, method, len);
        if needed > u128::from(mib) << 20 {
            return Err(Error::resource(format!(
                "computing {len} nim-values needs about {} MiB, more than --memory {mib}",
                needed.div_ceil(1 << 20)
            ))
            .with_hint(Hint::LowerMax));
        }
    }
    let started = Instant::now();
    let deadline = (args.time_limit > 0).then(|| started + Duration::from_secs(args.time_limit));
    let mut sequence = engine(&game.ruleset, method, len)?;
    sequence.set_threads(args.threads.map_or_else(default_threads, |n| n as usize));
    // Values read from a checkpoint: the rate counts the others.
    let mut resumed = 0;
    if let Some(path) = &args.checkpoint {
        if let Some(mut known) = read_checkpoint(path, &game)? {
            known.truncate(len as usize);
            game.ruleset.prepare(known.len() as u64)?;
            if !args.quiet {
                eprintln!(
                    "resuming from {}: G(0..={})",
                    path.display(),
                    known.len().saturating_sub(1)
                );
            }
            if sequence.preload(&known) {
                resumed = known.len();
            }
        }
    }
    let bar = progress_bar(len, args.quiet, "heaps");
    if !bar.is_hidden() {
        // The common bar, and the sparse space's statistics after it.
        let style = indicatif::ProgressStyle::with_template(
            "{bar:30} {human_pos}/{human_len} heaps {elapsed_precise} {rate} ETA {eta} {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", state.per_sec());
            },
        );
        bar.set_style(style);
    }
    let len = len as usize;
    let mut complete = true;
    let every = Duration::from_secs(args.checkpoint_every.max(1));
    let mut next_checkpoint = Instant::now() + every;
    while sequence.values().len() < len {
        if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
            complete = false;
            break;
        }
        if let Some(path) = args
            .checkpoint
            .as_ref()
            .filter(|_| Instant::now() >= next_checkpoint)
        {
            write_checkpoint(path, &game, sequence.values())?;
            next_checkpoint = Instant::now() + every;
        }
        let next = (sequence.values().len() + CHUNK).min(len);
        game.ruleset.prepare(next as u64 - 1)?;
        sequence.extend_to(next);
        bar.set_position(next as u64);
        if let Some(stats) = sequence.sparse_stats() {
            bar.set_message(format!(
                "| rare {} (mask {:#x}{}), largest {}, pairs scanned {}",
                stats.rare,
                stats.mask,
                if stats.domain { ", domain" } else { "" },
                stats.largest,
                stats.pairs_scanned
            ));
        }
    }
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let values = sequence.values();
    let computed = values.len();
    if !complete {
        eprintln!(
            "sicher: stopped by the time limit of {} s at G({}); the values up to it follow",
            args.time_limit,
            computed.saturating_sub(1)
        );
    }
    let rate = super::output::per_second((computed - resumed.min(computed)) as u64, elapsed);
    let method_name = match method {
        Method::Fast => "fast",
        Method::Reference => "reference",
    };
    if let Some(path) = &args.checkpoint {
        if complete {
            let _ = std::fs::remove_file(path);
        } else {
            write_checkpoint(path, &game, values)?;
        }
    }
    let period = sequence.proved().or_else(|| {
        ProofBound::for_ruleset(&game.ruleset).and_then(|bound| values.find_proved(bound))
    });
    let largest = values.largest();
    if let Some(path) = &args.output {
        write_output(args, path, &game, values, largest, period, replace)?;
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.bfile && args.output.is_none() {
        write_bfile(&mut out, values).map_err(stdout_error)?;
    } else if args.json {
        let record = Record {
            game: game.ruleset.spec(),
            name: game.name.clone(),
            method: method_name,
            values: values.to_vec(0, computed),
            largest,
            period: period.map(|found| PeriodRecord {
                period: found.period,
                preperiod: found.preperiod,
                proved_at: found.proved_at,
            }),
            complete,
            seconds: elapsed.as_secs_f64(),
            values_per_second: rate,
        };
        write_json(&mut out, &record)?;
    } else {
        // With `-o` the values are in the file: the summary alone (a b-file there too).
        let shown = if args.all {
            computed
        } else if args.output.is_some() {
            0
        } else {
            computed.min(SHOWN)
        };
        if shown > 0 {
            writeln!(
                out,
                "nim-values G(0) to G({}) of {} (normal play; a lone heap is unsafe exactly when its value is 0):",
                shown - 1,
                game.title()
            )
            .map_err(stdout_error)?;
            let mut row = String::new();
            for (n, value) in values.iter().take(shown).enumerate() {
                if n % 20 == 0 {
                    if !row.is_empty() {
                        writeln!(out, "{row}").map_err(stdout_error)?;
                    }
                    row = format!("{n:>8}:");
                }
                row.push(' ');
                row.push_str(&value.to_string());
            }
            writeln!(out, "{row}").map_err(stdout_error)?;
        }
        if shown < computed {
            let more = match &args.output {
                Some(path) => format!("in {}; --all prints them", path.display()),
                None => "--all prints them, -o FILE writes them".into(),
            };
            writeln!(
                out,
                "({} values more up to G({}): {more})",
                computed - shown,
                computed - 1
            )
            .map_err(stdout_error)?;
        }
        writeln!(
            out,
            "computed {} values in {:.3} s ({rate:.0} values/s, {method_name} method); largest value {largest}; {}",
            computed,
            elapsed.as_secs_f64(),
            describe(period, &game.ruleset)
        )
        .map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)
}

/// What the values say of periodicity, for the summary line.
fn describe(period: Option<Periodicity>, ruleset: &sicher::game::Ruleset) -> String {
    match (period, ProofBound::for_ruleset(ruleset)) {
        (Some(found), _) => format!(
            "proved period {} from n = {} (the proof used G(0..={}))",
            found.period,
            found.preperiod,
            found.proved_at.unwrap_or(0)
        ),
        (None, Some(_)) => "no period proved within them".into(),
        (None, None) => "no periodicity theorem applies".into(),
    }
}

/// `n a(n)` lines, one per value.
fn write_bfile(out: &mut dyn Write, values: Values<'_>) -> std::io::Result<()> {
    let mut line = Vec::with_capacity(1 << 16);
    for (n, v) in values.iter().enumerate() {
        writeln!(line, "{n} {v}")?;
        if line.len() >= 1 << 16 {
            out.write_all(&line)?;
            line.clear();
        }
    }
    out.write_all(&line)
}

/// Writes `-o FILE`: a nim-value table, or with `--bfile` a b-file, whole or not at all.
fn write_output(
    args: &NimValuesArgs,
    path: &std::path::Path,
    game: &sicher::game::Game,
    values: Values<'_>,
    largest: u32,
    period: Option<Periodicity>,
    replace: Replace,
) -> Result<()> {
    let last = values.len().saturating_sub(1);
    if args.bfile {
        let mut file = AtomicFile::create(path, replace)?;
        let mut line = Vec::with_capacity(1 << 16);
        for (n, v) in values.iter().enumerate() {
            writeln!(line, "{n} {v}").map_err(|e| Error::io(path, e))?;
            if line.len() >= 1 << 16 {
                file.write_all(&line)?;
                line.clear();
            }
        }
        file.write_all(&line)?;
        file.commit()?;
        if !args.quiet {
            eprintln!("wrote {}: b-file of G(0..={last})", path.display());
        }
        return Ok(());
    }
    let header = table::write_nim_values_from(
        path,
        &game.ruleset,
        (values.len() as u64, largest),
        values.iter(),
        period,
        replace,
    )?;
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
            "wrote {}: G(0..={last}) at {} bits per value{proved}",
            path.display(),
            header.width,
        );
    }
    Ok(())
}

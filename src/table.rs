//! `sicher table`: label a bounded domain bottom-up and write it as an endgame table.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::args::GameArgs;
use super::output::{per_second, print_json, progress_bar};
use sicher::atomic_file::Replace;
use sicher::build::{PartizanTable, TableBuilt, TableJob, TableRequest};
use sicher::domain::Domain;
use sicher::error::{Error, Result};
use sicher::game::Game;
use sicher::label::{Derivation, Labelled, Plan, Resumed};
use sicher::{memory, table};

const EXAMPLES_TABLE: &str = "Examples:
  sicher table nim --heaps 3 --max 255           # writes tables/nim-normal-heaps3-max255.table
  sicher table kayles --total 60 --misere        # splitting games need --total
  sicher table wythoff --heaps 2 --max 4000 -o w.table --json";

/// Which bounded domain: `--heaps K --max N` or `--total T`.
#[derive(Args, Debug, Clone)]
pub struct DomainArgs {
    /// Every position of at most K heaps (with --max N); not for games that split heaps.
    #[arg(
        long,
        value_name = "K",
        requires = "max",
        required_unless_present = "total"
    )]
    pub heaps: Option<u32>,
    /// Largest heap size of the --heaps domain.
    #[arg(long, value_name = "N", requires = "heaps")]
    pub max: Option<u64>,
    /// Every position with at most T tokens in all (any game).
    #[arg(long, value_name = "T", conflicts_with_all = ["heaps", "max"])]
    pub total: Option<u64>,
}

impl DomainArgs {
    /// The domain these flags select.
    pub fn domain(&self) -> Result<Domain> {
        match (self.heaps, self.max, self.total) {
            (Some(heaps), Some(max), None) => Ok(Domain::Heaps { heaps, max }),
            (None, None, Some(total)) => Ok(Domain::Total { total }),
            _ => Err(Error::input("give either --heaps K --max N or --total T")),
        }
    }
}

/// How to label: the strategy and the threads.
#[derive(Args, Debug, Clone)]
pub struct LabelArgs {
    /// Labeller: forward, backward or plain (the single-threaded baseline); default: the
    /// one measured fastest for the ruleset (`--strategy`, the older spelling, still works).
    #[arg(long = "engine", alias = "strategy", value_name = "ENGINE")]
    pub strategy: Option<String>,
    /// Worker threads (default: one per core); the table is the same for any count.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Go ahead even when the memory estimate exceeds the memory available (an
    /// allocation the system refuses is still one error line).
    #[arg(long)]
    pub force_memory: bool,
    /// No progress bar and no announcement on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Arguments of `sicher table`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_TABLE)]
pub struct TableArgs {
    /// The game and convention.
    #[command(flatten)]
    pub game: GameArgs,
    /// The domain to label.
    #[command(flatten)]
    pub domain: DomainArgs,
    /// How to label.
    #[command(flatten)]
    pub label: LabelArgs,
    /// Where to write the table (default: under tables/, named after the rules, the
    /// convention and the domain, as tables/octal-0.77-misere-total20.table).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace the output file if it exists (a regular file only).
    #[arg(long)]
    pub force: bool,
    /// Also run the plain labeller, check it agrees, and report the speed-up.
    #[arg(long)]
    pub compare_plain: bool,
    /// Print the statistics as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Store each position's remoteness (how many moves best play takes), not only safe
    /// or unsafe: the fewest bits that hold the largest, the outcome following from parity.
    #[arg(long)]
    pub remoteness: bool,
    /// Throw away the work directory (FILE.work) of an earlier, unfinished run instead of
    /// resuming it.
    #[arg(long)]
    pub restart: bool,
    /// Label every position from its moves: no proved period of lone heaps, no
    /// nim-values (the table is the same; for measuring and checking the labellers).
    #[arg(long)]
    pub no_shortcuts: bool,
    /// Store the body flat and memory-mapped, as format 2 did, instead of in
    /// compressed blocks (larger, no decoding on first read).
    #[arg(long)]
    pub uncompressed: bool,
    /// Stop after this many seconds (one line, exit code 2), keeping the work directory:
    /// the same command resumes where it stopped. 0, the default: no limit, as a table
    /// may take hours.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    pub time_limit: u64,
}

/// Plans the labelling, announces the domain size and memory, refuses what will not fit
/// (unless `--force-memory`), and labels with a progress bar.
pub fn label_domain(
    game: &Game,
    domain: Domain,
    args: &LabelArgs,
    remoteness: bool,
) -> Result<(Plan, Labelled)> {
    let strategy = args.strategy.as_deref().map(str::parse).transpose()?;
    let mut plan = Plan::new(game, domain, strategy, args.threads.map(|t| t as usize))?;
    if remoteness {
        plan = plan.with_remoteness();
    }
    let resumed = plan.prepare()?;
    announce(game, &plan, resumed.as_ref(), args)?;
    let bar = progress_bar(plan.ranker().count(), args.quiet, "positions");
    let labelled = plan.run(&|n| bar.inc(n));
    bar.finish_and_clear();
    Ok((plan, labelled?))
}

/// Announces a plan's positions and memory, refuses it when the memory is not there
/// (unless `--force-memory`), and says how far an earlier run got.
fn announce(game: &Game, plan: &Plan, resumed: Option<&Resumed>, args: &LabelArgs) -> Result<()> {
    let domain = plan.ranker().domain();
    if !args.quiet {
        let available = memory::available();
        let count = plan.ranker().count();
        let held = plan.positions_held();
        eprintln!(
            "{}, {} play, {}: {} positions, about {} of memory{}{}",
            game.title(),
            game.convention,
            domain.flags(),
            count,
            memory::mebibytes(u128::from(plan.bytes_needed())),
            if held < count {
                format!(" ({held} positions held at once while labelling)")
            } else {
                String::new()
            },
            available.map_or(String::new(), |a| format!(
                " ({} available)",
                memory::mebibytes(u128::from(a))
            ))
        );
    }
    if !args.force_memory {
        plan.check_memory()?;
    }
    if let (Some(resumed), false) = (resumed, args.quiet) {
        eprintln!(
            "resuming: {} of {} tiers already done ({} positions)",
            resumed.tiers_done, resumed.tiers, resumed.positions
        );
    }
    Ok(())
}

/// What `sicher table` reports.
#[derive(Serialize)]
struct TableReport {
    game: String,
    /// The game as named on the command line.
    name: String,
    convention: String,
    domain: String,
    path: String,
    strategy: String,
    threads: usize,
    entries: u64,
    #[serde(rename = "unsafe")]
    unsafe_count: u64,
    bytes: u64,
    body_bytes: u64,
    raw_body_bytes: u64,
    codec: String,
    prediction: String,
    /// Packed bits per position (the width of an entry).
    bits_per_position: f64,
    /// Bits per position of the whole file, as stored.
    stored_bits_per_position: f64,
    seconds: f64,
    label_seconds: f64,
    positions_per_second: f64,
    /// How the labels were found (all exact): `retrograde`, `words`, `period` or
    /// `nim-values`.
    derivation: &'static str,
    /// The proved period of lone-heap outcomes the labels follow, when they do.
    #[serde(skip_serializing_if = "Option::is_none")]
    period: Option<PeriodReport>,
    /// Positions held in memory at once while labelling.
    positions_held: u64,
    /// Positions an earlier, interrupted run had labelled.
    resumed_positions: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    plain_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    speedup_over_plain: Option<f64>,
    /// Remoteness tables: the largest remoteness.
    #[serde(skip_serializing_if = "Option::is_none")]
    rmax: Option<u32>,
    /// `sicher-mpi`: the ranks of the job (`threads` is per rank), and whether they
    /// shared the tiers (else rank 0 labelled alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    ranks: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shared: Option<bool>,
}

/// Environment variable: seconds of labelling between checkpoints of the work directory
/// (0: after every tier); by default checkpoints take about a tenth of the time.
pub const CHECKPOINT_SECONDS: &str = "SICHER_CHECKPOINT_SECONDS";

/// The report's `ranks:` line after its label: how many ranks, and whether they shared
/// the labelling (impartial and partizan tables alike).
fn ranks_line(ranks: impl std::fmt::Display, shared: bool) -> String {
    let how = if shared {
        "each tier shared out in chunks"
    } else {
        "rank 0 labelled alone: the domain is not shared out"
    };
    format!("{ranks} ({how})")
}

fn checkpoint_interval() -> Option<std::time::Duration> {
    std::env::var(CHECKPOINT_SECONDS)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(std::time::Duration::from_secs_f64)
}

/// A proved period of lone-heap outcomes.
#[derive(Serialize)]
struct PeriodReport {
    period: u64,
    preperiod: u64,
    proved_at: Option<u64>,
}

/// Runs `sicher table`.
pub fn run(args: &TableArgs) -> Result<()> {
    let started = Instant::now();
    let watchdog = super::time_limit::Watchdog::start(&super::time_limit::TimeLimitArgs {
        time_limit: args.time_limit,
    });
    watchdog.working_on("the table (its work directory is kept: the same command resumes)".into());
    if let Some(game) =
        super::partizan::game(args.game.game.as_deref(), args.game.forced_convention())?
    {
        return run_partizan(args, &game, started);
    }
    let (game, request) = request(args)?;
    let job = TableJob::prepare(request)?;
    run_job(args, &game, job, started, None, |job, progress| {
        job.run(progress)
    })
}

/// The table `sicher table` (or `sicher-mpi table`) is asked for, with its game.
pub fn request(args: &TableArgs) -> Result<(Game, TableRequest)> {
    let game = args.game.resolve()?;
    let domain = args.domain.domain()?;
    let path = match &args.output {
        Some(path) => path.clone(),
        None => Path::new(table::DEFAULT_DIR).join(table::default_file_name(
            &game,
            domain,
            args.remoteness,
        )),
    };
    let mut request = TableRequest::new(game.clone(), domain, &path);
    request.replace = if args.force {
        Replace::RegularFile
    } else {
        Replace::Never
    };
    request.strategy = args.label.strategy.as_deref().map(str::parse).transpose()?;
    request.threads = args.label.threads.map(|t| t as usize);
    request.remoteness = args.remoteness;
    request.shortcuts = !args.no_shortcuts;
    request.storage = if args.uncompressed {
        table::Storage::Flat
    } else {
        table::Storage::Compressed
    };
    request.restart = args.restart;
    request.checkpoint_every = checkpoint_interval();
    request.compare_plain = args.compare_plain;
    Ok((game, request))
}

/// Announces a prepared job, runs it through `label` (which labels and writes the
/// table) with a progress bar, and reports; `ranks` is the size of an MPI job.
pub fn run_job(
    args: &TableArgs,
    game: &Game,
    job: TableJob,
    started: Instant,
    ranks: Option<usize>,
    label: impl FnOnce(TableJob, &(dyn Fn(u64) + Sync)) -> Result<TableBuilt>,
) -> Result<()> {
    announce(game, job.plan(), job.resumed(), &args.label)?;
    let (labeller, threads, positions_held, shared) = (
        job.plan().labeller(),
        job.plan().threads(),
        job.plan().positions_held(),
        job.plan().shared(),
    );
    let domain = job.plan().ranker().domain();
    let path = job.path().to_path_buf();
    let entries = job.plan().ranker().count();
    let bar = progress_bar(entries, args.label.quiet, "positions");
    let built = label(job, &|n| bar.inc(n));
    bar.finish_and_clear();
    let built = built?;
    if let Some(why) = &built.work_left {
        // Not an error: the table is whole; only the directory beside it stays.
        eprintln!("sicher: note: the table is written, but its work directory stays: {why}");
    }
    let header = &built.header;
    let rmax = built.rmax;
    let report = TableReport {
        game: game.ruleset.spec(),
        name: game.name.clone(),
        convention: game.convention.to_string(),
        domain: domain.flags(),
        path: path.display().to_string(),
        strategy: labeller,
        threads,
        entries,
        unsafe_count: built.unsafe_count,
        bytes: header.file_len(),
        body_bytes: header.stored_len,
        raw_body_bytes: header.body_len(),
        codec: header.codec.name(),
        prediction: header.prediction.name(),
        bits_per_position: header.body_len() as f64 * 8.0 / entries as f64,
        stored_bits_per_position: header.file_len() as f64 * 8.0 / entries as f64,
        seconds: started.elapsed().as_secs_f64(),
        label_seconds: built.label_seconds,
        positions_per_second: per_second(
            entries - built.resumed_positions,
            std::time::Duration::from_secs_f64(built.label_seconds),
        ),
        derivation: built.derivation.name(),
        period: match built.derivation {
            Derivation::Period(p) => Some(PeriodReport {
                period: p.period,
                preperiod: p.preperiod,
                proved_at: p.proved_at,
            }),
            _ => None,
        },
        positions_held,
        resumed_positions: built.resumed_positions,
        plain_seconds: built.plain_seconds,
        speedup_over_plain: built
            .plain_seconds
            .map(|plain| plain / built.label_seconds.max(1e-9)),
        rmax,
        ranks,
        shared: ranks.map(|_| shared),
    };
    if args.json {
        print_json(&report)?;
    } else {
        outln!(
            "wrote {} ({}, {} play)",
            report.path,
            game.title(),
            game.convention
        )?;
        outln!("  domain:         {} ({domain})", report.domain)?;
        outln!(
            "  entries:        {} ({} unsafe: the player to move loses; {} safe: the player to move wins)",
            entries,
            report.unsafe_count,
            entries - report.unsafe_count
        )?;
        if let Some(rmax) = rmax {
            outln!(
                "  remoteness:     at most {rmax}, stored in {} bits per position",
                header.width
            )?;
        }
        outln!(
            "  size:           {} bytes ({} bits per position; body {} bytes stored, {} raw)",
            report.bytes,
            format_args!("{:.4}", report.stored_bits_per_position),
            report.body_bytes,
            report.raw_body_bytes
        )?;
        outln!(
            "  codec:          {} (prediction: {})",
            report.codec,
            report.prediction
        )?;
        outln!(
            "  labelling:      {:.3} s, {:.0} positions/s ({} strategy, {} thread{})",
            report.label_seconds,
            report.positions_per_second,
            report.strategy,
            report.threads,
            if report.threads == 1 { "" } else { "s" }
        )?;
        if let Some(ranks) = ranks {
            outln!("  ranks:          {}", ranks_line(ranks, shared))?;
        }
        outln!("  derived from:   {} (exact)", built.derivation)?;
        if built.resumed_positions > 0 {
            outln!(
                "  resumed:        {} positions were labelled by an earlier run",
                built.resumed_positions
            )?;
        }
        if let (Some(plain), Some(ratio)) = (report.plain_seconds, report.speedup_over_plain) {
            outln!("  plain labeller: {plain:.3} s, {ratio:.1}x slower (labels identical)")?;
        }
        outln!("  total time:     {:.3} s", report.seconds)?;
    }
    Ok(())
}

/// What `sicher table` reports for a partizan game.
#[derive(Serialize)]
struct PartizanReport {
    game: String,
    name: String,
    /// `normal`, `misere` or the terminal script's spec.
    terminal: String,
    domain: String,
    path: String,
    threads: usize,
    entries: u64,
    /// Positions of each outcome class.
    classes: ClassCounts,
    bytes: u64,
    body_bytes: u64,
    raw_body_bytes: u64,
    codec: String,
    /// Packed bits per position (two: Left's label and Right's).
    bits_per_position: f64,
    stored_bits_per_position: f64,
    seconds: f64,
    label_seconds: f64,
    positions_per_second: f64,
    resumed_positions: u64,
    /// `sicher-mpi`: the ranks of the job (`threads` is per rank), and whether they
    /// shared the tiers (else rank 0 labelled alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    ranks: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shared: Option<bool>,
}

/// Positions per outcome class.
#[derive(Serialize)]
#[allow(non_snake_case)]
struct ClassCounts {
    L: u64,
    R: u64,
    N: u64,
    P: u64,
}

/// The partizan table `sicher table` (or `sicher-mpi table`) is asked for: its domain
/// and where and how it is written; flags that do not apply to partizan games are
/// refused.
pub fn partizan_request(
    args: &TableArgs,
    game: &sicher::game::partizan::PartizanGame,
) -> Result<(Domain, PartizanTable)> {
    for (given, flag) in [
        (args.remoteness, "--remoteness"),
        (args.compare_plain, "--compare-plain"),
        (args.no_shortcuts, "--no-shortcuts"),
        (args.label.strategy.is_some(), "--strategy"),
    ] {
        if given {
            return Err(Error::input(format!(
                "{flag} does not apply to partizan games: their tables hold both players' labels, each position labelled from its moves"
            )));
        }
    }
    let domain = args.domain.domain()?;
    let path = match &args.output {
        Some(path) => path.clone(),
        None => Path::new(table::DEFAULT_DIR).join(table::default_partizan_file_name(
            &game.spec(),
            &game.terminal.name(),
            domain,
        )),
    };
    let shared = PartizanTable {
        path,
        storage: if args.uncompressed {
            table::Storage::Flat
        } else {
            table::Storage::Compressed
        },
        replace: if args.force {
            Replace::RegularFile
        } else {
            Replace::Never
        },
        restart: args.restart,
        checkpoint_every: checkpoint_interval(),
        threads: args.label.threads.map(|t| t as usize),
        chunk_positions: None,
        cancel: sicher::Cancel::new(),
    };
    Ok((domain, shared))
}

/// `sicher table` for a partizan game: every position labelled for both players to move,
/// written as a partizan table.
fn run_partizan(
    args: &TableArgs,
    game: &sicher::game::partizan::PartizanGame,
    started: Instant,
) -> Result<()> {
    let (domain, request) = partizan_request(args, game)?;
    run_partizan_job(args, game, domain, &request, started, None, |progress| {
        request.build_alone(game, domain, progress)
    })
}

/// Announces a partizan table, checks its memory, builds it through `build` with a
/// progress bar and reports; `ranks` is the size of an MPI job.
pub fn run_partizan_job(
    args: &TableArgs,
    game: &sicher::game::partizan::PartizanGame,
    domain: Domain,
    request: &PartizanTable,
    started: Instant,
    ranks: Option<usize>,
    build: impl FnOnce(&(dyn Fn(u64) + Sync)) -> Result<sicher::build::PartizanBuilt>,
) -> Result<()> {
    let ranker = sicher::Ranker::new(domain)?;
    let entries = ranker.count();
    let path = request.path.clone();
    let needed = sicher::label::estimate_partizan_bytes(&ranker);
    if !args.label.quiet {
        eprintln!(
            "{}, {}, {}: {entries} positions, about {} of memory",
            game.title(),
            game.terminal.name(),
            domain.flags(),
            memory::mebibytes(u128::from(needed))
        );
    }
    if !args.label.force_memory {
        memory::check_fits(
            "labelling this domain",
            u128::from(needed),
            sicher::error::Hint::ForceMemory,
        )?;
    }
    let bar = progress_bar(entries, args.label.quiet, "positions");
    let built = build(&|n| bar.inc(n));
    bar.finish_and_clear();
    let built = built?;
    let header = &built.header;
    let [l, r, n, p] = match header.kind {
        table::BodyKind::Partizan { classes } => classes,
        _ => [0; 4],
    };
    let report = PartizanReport {
        game: game.spec(),
        name: game.name.clone(),
        terminal: game.terminal.name(),
        domain: domain.flags(),
        path: path.display().to_string(),
        threads: built.threads,
        entries,
        classes: ClassCounts {
            L: l,
            R: r,
            N: n,
            P: p,
        },
        bytes: header.file_len(),
        body_bytes: header.stored_len,
        raw_body_bytes: header.body_len(),
        codec: header.codec.name(),
        bits_per_position: header.body_len() as f64 * 8.0 / entries as f64,
        stored_bits_per_position: header.file_len() as f64 * 8.0 / entries as f64,
        seconds: started.elapsed().as_secs_f64(),
        label_seconds: built.label_seconds,
        positions_per_second: per_second(
            entries - built.resumed_positions,
            std::time::Duration::from_secs_f64(built.label_seconds),
        ),
        resumed_positions: built.resumed_positions,
        ranks,
        // A `--heaps` domain is labelled by rank 0 alone.
        shared: ranks.map(|_| matches!(domain, Domain::Total { .. })),
    };
    if args.json {
        return print_json(&report);
    }
    outln!(
        "wrote {} ({}, {})",
        report.path,
        game.title(),
        report.terminal
    )?;
    outln!("  domain:         {} ({domain})", report.domain)?;
    outln!(
        "  entries:        {entries} labelled for both players to move: {l} L (Left wins whoever starts), {r} R, {n} N (the player to move wins), {p} P"
    )?;
    outln!(
        "  size:           {} bytes ({:.4} bits per position; body {} bytes stored, {} raw)",
        report.bytes,
        report.stored_bits_per_position,
        report.body_bytes,
        report.raw_body_bytes
    )?;
    outln!("  codec:          {}", report.codec)?;
    outln!(
        "  labelling:      {:.3} s, {:.0} positions/s ({} thread{})",
        report.label_seconds,
        report.positions_per_second,
        report.threads,
        if report.threads == 1 { "" } else { "s" }
    )?;
    if let (Some(ranks), Some(shared)) = (ranks, report.shared) {
        outln!("  ranks:          {}", ranks_line(ranks, shared))?;
    }
    if built.resumed_positions > 0 {
        outln!(
            "  resumed:        {} positions were labelled by an earlier run",
            built.resumed_positions
        )?;
    }
    outln!("  total time:     {:.3} s", report.seconds)?;
    Ok(())
}

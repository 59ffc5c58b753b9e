//! `sicher quotient`: the misère quotient of a one-heap ruleset's heaps `1..=N`.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::output::{print_json, spinner};
use sicher::atomic_file::{check_destination, Replace};
use sicher::error::{Error, Result};
use sicher::game::Convention;
use sicher::table;
use sicher::theory::quotient::{self, Budget, MisereQuotient, Stop};

const EXAMPLES: &str = "Examples:
  sicher quotient kayles --max 100             # order 40, presentation, P-portion
  sicher quotient octal:0.75 --max 60 --json
  sicher quotient kayles --max 200 -o kayles.quotient && sicher check kayles 40 41 --misere --quotient kayles.quotient";

/// Arguments of `sicher quotient`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct QuotientArgs {
    /// The game (rules that move one heap: octal, hexadecimal, subtraction, Nim, Grundy);
    /// always misère play.
    pub game: String,
    /// Largest heap of the alphabet: the quotient covers every sum of heaps 1..=N.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max: u64,
    /// Stop once the quotient would have more elements than this.
    #[arg(long, value_name = "K", default_value_t = Budget::default().max_order,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_order: u32,
    /// Memory bound of the construction, in MiB: a candidate whose product, table or
    /// verification, with the quotient and the candidates held meanwhile, is estimated
    /// to need more stops it, keeping the heaps established.
    #[arg(long, value_name = "MiB", default_value_t = (Budget::default().max_memory >> 20) as u32,
          value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    pub memory: u32,
    /// Stop after this many seconds, keeping the heaps established by then (a hard heap
    /// can take the construction minutes: Daisies, octal:4.7, takes about 46 s to heap
    /// 30); 0: no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub time_limit: u64,
    /// Also store the quotient in a table file, for `check --quotient FILE` (`--write`,
    /// the older spelling, still works).
    #[arg(short, long, value_name = "FILE", alias = "write")]
    pub output: Option<PathBuf>,
    /// With --output: replace an existing file.
    #[arg(long, requires = "output")]
    pub force: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No spinner, even on a terminal.
    #[arg(long, short)]
    pub quiet: bool,
}

/// What `quotient` reports.
#[derive(Serialize)]
struct Report {
    game: String,
    /// The game as named on the command line.
    name: String,
    /// The heap alphabet asked for: 1..=requested.
    requested: u64,
    /// Heaps 1..=covered are covered: exact for every sum of them.
    covered: u64,
    /// True when the computation reached the requested heap.
    complete: bool,
    /// Where and why it stopped, when it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped_at: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stop_reason: Option<String>,
    /// True when the periodicity theorem (Plambeck and Siegel 2008) proves the quotient
    /// for every heap size.
    #[serde(rename = "final")]
    is_final: bool,
    /// Final quotients: the pretending function repeats with `period` from heap `preperiod`.
    #[serde(skip_serializing_if = "Option::is_none")]
    preperiod: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    period: Option<u64>,
    /// Final quotients: the heap range the theorem needed.
    #[serde(skip_serializing_if = "Option::is_none")]
    proved_at: Option<u64>,
    order: u32,
    presentation: String,
    generators: Vec<u64>,
    relations: Vec<String>,
    p_portion: Vec<String>,
    /// The element of heap h (normal form), for h = 1..=covered.
    heap_elements: Vec<String>,
    changes: Vec<u64>,
    recalibrations: Vec<u64>,
    seconds: f64,
    note: String,
}

/// Runs `sicher quotient`.
pub fn run(args: &QuotientArgs) -> Result<()> {
    let game = sicher::game::resolve(&args.game)?.with_convention(Convention::Misere);
    let started = Instant::now();
    let budget = Budget {
        max_order: args.max_order,
        max_memory: u64::from(args.memory) << 20,
        deadline: (args.time_limit > 0)
            .then(|| started + std::time::Duration::from_secs(args.time_limit)),
        ..Budget::default()
    };
    if let Some(path) = &args.output {
        check_destination(path, replace(args.force))?;
    }
    let bar = spinner(args.quiet, "building the misère quotient heap by heap");
    let mut show = |p: quotient::Progress| {
        bar.set_message(format!(
            "building the misère quotient: heap {} of {}, order {}",
            p.heap, p.target, p.order
        ));
    };
    let computed =
        quotient::compute_as_far_as_with_progress(&game.ruleset, args.max, &budget, &mut show);
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let (q, stopped) = computed.map_err(Error::input)?;
    // Which flag lets the construction go further.
    let raise = match &stopped {
        Some((_, Stop::Time)) => format!(" of {} s; raise --time-limit", args.time_limit),
        Some((_, Stop::Memory(_))) => format!(" of {} MiB; raise --memory", args.memory),
        _ => "; raise --max-order".to_string(),
    };
    let stopped = stopped.map(|(heap, stop)| (heap, stop.to_string()));
    if let Some(path) = &args.output {
        table::write_quotient(path, &q, replace(args.force))?;
    }
    let mut report = report(&game.title(), args.max, &q, stopped, &raise, seconds);
    report.game = game.ruleset.spec();
    report.name = game.name.clone();
    if args.json {
        return print_json(&report);
    }
    outln!("{}", report.note)?;
    outln!("order:        {}", report.order)?;
    outln!("presentation: {}", report.presentation)?;
    outln!("P-portion:    {{{}}}", report.p_portion.join(", "))?;
    let heaps: Vec<String> = report
        .heap_elements
        .iter()
        .enumerate()
        .map(|(i, word)| format!("{}:{word}", i + 1))
        .collect();
    outln!("heaps:        {}", heaps.join(" "))?;
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    outln!("presentation changed at heaps: {}", list(&report.changes))?;
    if !report.recalibrations.is_empty() {
        outln!(
            "recalibrated at heaps (a heap told apart positions merged before): {}",
            list(&report.recalibrations)
        )?;
    }
    if let Some(path) = &args.output {
        outln!("wrote {}", path.display())?;
    }
    match q.periodicity {
        Some(period) => outln!(
            "a position of any heaps is unsafe (the player to move loses) exactly when the product of its heaps' elements lies in the P-portion; heap n > {} has the element of heap {} + (n - {}) mod {} ({seconds:.3} s)",
            q.max_heap, period.preperiod, period.preperiod, period.period
        ),
        None => outln!(
            "a position of heaps 1..={} is unsafe (the player to move loses) exactly when the product of its heaps' elements lies in the P-portion ({seconds:.3} s)",
            report.covered
        ),
    }
}

fn report(
    game: &str,
    requested: u64,
    q: &MisereQuotient,
    stopped: Option<(u64, String)>,
    raise: &str,
    seconds: f64,
) -> Report {
    let note = match &stopped {
        None => match q.periodicity {
            Some(period) => format!(
                "misère quotient of {game}: final, for every heap size (established for heaps up to {} by the transition-table theorem; its pretending function repeats with period {} from heap {}, which by the periodicity theorem of Plambeck and Siegel needs heaps up to {})",
                q.max_heap, period.period, period.preperiod, period.proved_at
            ),
            None => format!(
                "misère quotient of {game}, heaps 1..={}: established for every sum of heaps up to {} (checked by the transition-table theorem); its pretending function has not repeated long enough for the periodicity theorem, so it is not final",
                q.max_heap, q.max_heap
            ),
        },
        Some((heap, why)) => format!(
            "misère quotient of {game}: the construction stopped at heap {heap} ({why}{raise}, or lower --max); established for heaps up to {}",
            q.max_heap
        ),
    };
    Report {
        game: game.to_string(),
        name: game.to_string(),
        requested,
        covered: q.max_heap,
        complete: stopped.is_none(),
        stopped_at: stopped.as_ref().map(|s| s.0),
        stop_reason: stopped.map(|s| s.1),
        is_final: q.is_final(),
        preperiod: q.periodicity.map(|p| p.preperiod),
        period: q.periodicity.map(|p| p.period),
        proved_at: q.periodicity.map(|p| p.proved_at),
        order: q.order,
        presentation: q.presentation(),
        generators: q.generator_heaps.clone(),
        relations: q.relations.clone(),
        p_portion: q.p_portion_forms(),
        heap_elements: q.heap_element_forms(),
        changes: q.changes.clone(),
        recalibrations: q.recalibrations.clone(),
        seconds,
        note,
    }
}

/// What `--force` allows.
fn replace(force: bool) -> Replace {
    if force {
        Replace::RegularFile
    } else {
        Replace::Never
    }
}

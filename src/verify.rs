//! `sicher verify`: label a domain bottom-up, solve its positions top-down, compare.

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::args::GameArgs;
use super::output::{print_json, progress_bar};
use super::table::{label_domain, DomainArgs, LabelArgs};
use sicher::error::{Error, Result};
use sicher::verify;

const EXAMPLES: &str = "Examples:
  sicher verify kayles --total 20 --misere               # every position against the search
  sicher verify nim --heaps 3 --max 15 --against theory  # against Bouton's rule, no search
  sicher verify octal:0.07 --total 40 --sample 500 --json";

/// Arguments of `sicher verify`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct VerifyArgs {
    /// The game and convention.
    #[command(flatten)]
    pub game: GameArgs,
    /// The domain to label.
    #[command(flatten)]
    pub domain: DomainArgs,
    /// How to label.
    #[command(flatten)]
    pub label: LabelArgs,
    /// Check M positions drawn at random (reproducibly) instead of all of them.
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
    /// What the labeller is checked against: the top-down search, or theory alone
    /// (nim-values in normal play, misère Nim or the misère quotient in misère play).
    #[arg(long, value_enum, default_value_t = Against::Search)]
    pub against: Against,
    /// Seed of the random sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the outcome as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Give up (one line, exit code 2) once labelling and checking have taken this many
    /// seconds; 0, the default, for no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    pub time_limit: u64,
}

/// The top-down side of `sicher verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Against {
    /// The boolean alpha-beta search.
    Search,
    /// Sprague-Grundy theory or the misère quotient, without search or tables.
    Theory,
}

#[derive(Serialize)]
struct VerifyReport {
    game: String,
    /// The game as named on the command line.
    name: String,
    convention: String,
    domain: String,
    against: &'static str,
    entries: u64,
    checked: u64,
    agreements: u64,
    disagreements: u64,
    #[serde(rename = "unsafe")]
    unsafe_count: u64,
}

/// Runs `sicher verify`.
pub fn run(args: &VerifyArgs) -> Result<()> {
    super::time_limit::Watchdog::start(&super::time_limit::TimeLimitArgs {
        time_limit: args.time_limit,
    })
    .working_on("verifying the domain".into());
    if let Some(game) =
        super::partizan::game(args.game.game.as_deref(), args.game.forced_convention())?
    {
        return run_partizan(args, &game);
    }
    let game = args.game.resolve()?;
    let domain = args.domain.domain()?;
    let against = match args.against {
        Against::Search => verify::Against::Search,
        Against::Theory => verify::Against::Theory,
    };
    // Refused before labelling, should theory not apply.
    let mut top_down = verify::top_down(&game, domain, against)?;
    let (plan, labelled) = label_domain(&game, domain, &args.label, false)?;
    let labels = labelled.held()?;
    let count = plan.ranker().count();
    let bar = progress_bar(
        args.sample.map_or(count, |m| m.min(count)),
        args.label.quiet,
        "positions",
    );
    let comparison = verify::compare(
        &mut top_down,
        plan.ranker(),
        labels,
        args.sample,
        args.seed,
        &mut || bar.inc(1),
    );
    bar.finish_and_clear();
    let comparison = comparison?;
    let report = VerifyReport {
        game: game.ruleset.spec(),
        name: game.name.clone(),
        convention: game.convention.to_string(),
        domain: domain.flags(),
        against: against.name(),
        entries: count,
        checked: comparison.checked,
        agreements: comparison.agreements,
        disagreements: comparison.checked - comparison.agreements,
        unsafe_count: labels.unsafe_count(),
    };
    if args.json {
        print_json(&report)?;
    } else {
        outln!(
            "{}, {} play, {}: {} of {} positions checked agree with {} ({} unsafe in the domain)",
            game.title(),
            game.convention,
            report.domain,
            report.agreements,
            report.checked,
            report.against,
            report.unsafe_count
        )?;
    }
    match comparison.first_disagreement {
        None => Ok(()),
        Some((position, bottom_up)) => Err(Error::disagreement(format!(
            "{} positions disagree; first: {position} is {} bottom-up but {} by {}",
            report.disagreements,
            super::output::label(bottom_up.is_win()),
            super::output::label(!bottom_up.is_win()),
            report.against
        ))),
    }
}

/// `verify` for a partizan game: every position of the domain (or a sample), its class
/// from the chain (outcome period, canonical forms) against a fresh search's.
fn run_partizan(args: &VerifyArgs, game: &sicher::game::partizan::PartizanGame) -> Result<()> {
    let domain = args.domain.domain()?;
    let ranker = sicher::Ranker::new(domain)?;
    let count = ranker.count();
    let take = args.sample.map_or(count, |m| m.min(count));
    // A sample is spread evenly over the ranks, so it is the same every run.
    let step = (count / take.max(1)).max(1);
    let positions = (0..take).map(|i| ranker.unrank(i * step));
    let bar = progress_bar(take, args.label.quiet, "positions");
    let comparison = sicher::answer::verify_partizan(
        game,
        sicher::answer::PartizanPolicy::default(),
        positions,
        || bar.inc(1),
    );
    bar.finish_and_clear();
    let comparison = comparison?;
    let [period, forms, search] = comparison.by_source;
    outln!(
        "{}, {}, {}: {} of {} positions agree with the search for both players to move (answered by the outcome period {period}, canonical forms {forms}, search {search})",
        game.title(),
        game.terminal.name(),
        domain.flags(),
        comparison.agreements,
        comparison.checked
    )?;
    if let Some((position, class, truth)) = comparison.first_disagreement {
        return Err(Error::disagreement(format!(
            "{} positions disagree; first: {position} is class {class} by the chain but {truth} by the search",
            comparison.checked - comparison.agreements
        )));
    }
    // The bottom-up labeller, against the search and the literal recursion.
    let bar = progress_bar(count + take, args.label.quiet, "positions");
    let (sides, _) = sicher::label::label_partizan(game, &ranker, None, &|n| bar.inc(n))?;
    let labels = sicher::verify::compare_partizan_labels(
        game,
        &ranker,
        &sides,
        (0..take).map(|i| i * step),
        &mut || bar.inc(1),
    );
    bar.finish_and_clear();
    let labels = labels?;
    outln!(
        "labeller: {} of {} positions labelled bottom-up agree with the search, {} with the literal recursion sicher(s, p), for both players to move",
        labels.search_agreements,
        labels.checked,
        labels.literal_agreements
    )?;
    match labels.first_disagreement {
        None => Ok(()),
        Some((position, labelled, searched, literal)) => Err(Error::disagreement(format!(
            "{position} is class {labelled} by the labeller, {searched} by the search and {literal} by the literal recursion"
        ))),
    }
}

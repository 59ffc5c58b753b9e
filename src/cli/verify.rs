//! `sicher verify`: label a domain bottom-up, solve its positions top-down, compare.

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::args::GameArgs;
use super::output::{print_json, progress_bar};
use super::table::{label_domain, DomainArgs, LabelArgs};
use sicher::answer::{Chain, Method, Policy, Query, Remoteness};
use sicher::error::{Error, Result};

/// Arguments of `sicher verify`.
#[derive(Args, Debug)]
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
    let game = args.game.resolve()?;
    let domain = args.domain.domain()?;
    // Refused before labelling, should theory not apply.
    let mut top_down = match args.against {
        Against::Search => {
            let search_only = Policy {
                method: Method::Search,
                tables_dir: None,
                ..Policy::default()
            };
            Chain::new(&game, &search_only)?
        }
        Against::Theory => Chain::theory(&game, domain.max_heap())?,
    };
    let verdict = Query {
        best_move: false,
        remoteness: Remoteness::Skip,
    };
    let (plan, labelled) = label_domain(&game, domain, &args.label, false)?;
    let labels = labelled.held()?;
    let ranker = plan.ranker();
    let count = ranker.count();
    let ranks: Box<dyn Iterator<Item = u64>> = match args.sample {
        Some(m) if m < count => {
            let mut state = args.seed;
            Box::new((0..m).map(move |_| splitmix(&mut state) % count))
        }
        _ => Box::new(0..count),
    };
    let checked = args.sample.map_or(count, |m| m.min(count));
    let bar = progress_bar(checked, args.label.quiet, "positions");
    let (mut agreements, mut first_disagreement) = (0u64, None);
    for rank in ranks {
        let position = ranker.unrank(rank);
        let table = labels.is_safe(rank);
        if top_down.answer(&position, verdict)?.value.is_win() == table {
            agreements += 1;
        } else if first_disagreement.is_none() {
            first_disagreement = Some((position, table));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let report = VerifyReport {
        game: game.ruleset.spec(),
        convention: game.convention.to_string(),
        domain: domain.flags(),
        against: match args.against {
            Against::Search => "search",
            Against::Theory => "theory",
        },
        entries: count,
        checked,
        agreements,
        disagreements: checked - agreements,
        unsafe_count: labels.unsafe_count(),
    };
    if args.json {
        print_json(&report)?;
    } else {
        outln!(
            "{} {}: {} of {} positions checked agree with {} ({} unsafe in the domain)",
            game.canonical(),
            report.domain,
            agreements,
            checked,
            report.against,
            report.unsafe_count
        )?;
    }
    match first_disagreement {
        None => Ok(()),
        Some((position, table)) => Err(Error::Disagreement(format!(
            "{} positions disagree; first: {position} is {} bottom-up but {} by {}",
            report.disagreements,
            super::output::label(table),
            super::output::label(!table),
            report.against
        ))),
    }
}

/// SplitMix64: a tiny, well-mixed generator, enough for a reproducible sample.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

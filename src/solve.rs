//! `sicher solve`: every winning move of a position, with what the answering source knows
//! beside (search statistics, nim-values, the table); with no heaps, the complete
//! solution of a one-heap ruleset.

use super::time_limit::{TimeLimitArgs, Watchdog};
use std::time::Instant;

use super::args::{
    chain_for, forced_convention, game_or_first_heap, game_word, resolve_game, start_heaps,
    MethodArg, MethodArgs, RemotenessArgs, SearchArgs,
};
use super::output::{per_second, print_json, spinner, verdict_with_remoteness};
use super::{partizan, solution, EXAMPLES_SOLVE};
use clap::Args;
use sicher::answer::PartizanPolicy;
use sicher::answer::{Evidence, Policy, Query, Remoteness, SolveRecord, TableName};
use sicher::error::{Error, Hint, Result};
use sicher::game::partizan::PartizanGame;
use sicher::game::Position;
use sicher::search::SearchStats;

/// Arguments of `sicher solve`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_SOLVE)]
pub struct SolveArgs {
    /// A shipped game (nim, kayles, ...), a .toml description, or an inline spec
    /// (nim, octal:0.77, hex:0.8F, subtraction:1,3,4, grundy, wythoff, moore:2);
    /// may be left out with --table.
    #[arg(required_unless_present = "table")]
    pub game: Option<String>,
    /// Play misère (the player with no move wins); overrides the description.
    #[arg(long, conflicts_with = "normal")]
    pub misere: bool,
    /// Play normal (the player with no move loses); overrides the description.
    #[arg(long)]
    pub normal: bool,
    /// Heap sizes (spaces or commas).
    #[arg(allow_negative_numbers = true)]
    pub heaps: Vec<String>,
    /// Use the description's start position (`start = [...]`) as the heaps.
    #[arg(long, conflicts_with = "heaps")]
    pub start: bool,
    /// Search settings.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Nim-values or search; with no heaps, how far to look for a period.
    #[command(flatten)]
    pub method: MethodArgs,
    /// Answer from this endgame table (`sicher table`) only; GAME may then be left out
    /// (`solve --table FILE 3 4 5`), and when named it must be the table's game and
    /// convention.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "method", "max", "nim_table", "quotient", "hash", "engine",
        "no_etc", "no_history", "killers", "no_simplify", "no_guide",
    ])]
    pub table: Option<std::path::PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No spinner, even on a terminal.
    #[arg(long, short)]
    pub quiet: bool,
    /// Remoteness: with --remoteness every move is listed with its value and remoteness.
    #[command(flatten)]
    pub remoteness: RemotenessArgs,
    /// How long answering a position may take (a complete solution is bounded by
    /// --max instead).
    #[command(flatten)]
    pub time_limit: TimeLimitArgs,
    /// Partizan games, normal play: also the position's canonical form (CGSuite's
    /// notation).
    #[arg(long)]
    pub canonical: bool,
    /// With no heaps: print every value of the pre-period and the first period (by
    /// default at most 1000 of each, with how many there are).
    #[arg(long)]
    pub all_values: bool,
}

/// `solve` for a partizan game: with heaps, the class and each player's winning moves
/// (and `--canonical`, the canonical form); without, the one-heap outcome sequence.
fn run_partizan(args: &SolveArgs, game: &PartizanGame, heaps: Vec<String>) -> Result<()> {
    let heaps = if args.start {
        let start = game.start.as_ref().ok_or_else(|| {
            Error::input(format!(
                "{} gives no start position (`start = [...]`)",
                game.name
            ))
        })?;
        start.heaps().iter().map(u64::to_string).collect()
    } else {
        heaps
    };
    if heaps.is_empty() {
        if args.canonical {
            return Err(Error::input(
                "--canonical needs a position: solve GAME HEAPS --canonical",
            ));
        }
        let max = args.method.max.unwrap_or(64);
        Watchdog::start(&args.time_limit).working_on(format!("the lone heaps up to {max}"));
        return partizan::solve_game(game, max, args.json);
    }
    let position = Position::parse_args(&heaps)?;
    Watchdog::start(&args.time_limit).working_on(format!("position {position}"));
    partizan::solve_position(
        game,
        &position,
        args.canonical,
        args.json,
        PartizanPolicy::default(),
    )
}

/// Runs `sicher solve`.
pub fn run(args: &SolveArgs) -> Result<()> {
    let convention = forced_convention(args.misere, args.normal);
    let (game_name, heaps) =
        game_or_first_heap(args.game.as_deref(), &args.heaps, args.table.as_deref());
    if args.table.is_none() {
        if let Some(game) = partizan::game(game_name.as_deref(), convention)? {
            return run_partizan(args, &game, heaps);
        }
    }
    if args.canonical {
        return Err(partizan::impartial_refuses("--canonical"));
    }
    if heaps.is_empty() && !args.start {
        if args.method.method == MethodArg::Search || args.table.is_some() {
            return Err(Error::input(
                "a complete solution comes from nim-values or lone-heap outcomes, not from the search or a table; drop --method search or give heaps",
            ));
        }
        let game = resolve_game(game_name.as_deref(), convention)?;
        let typed = game_name.as_deref();
        let solved = solution::solve_game(
            &game,
            args.method.max,
            args.json,
            args.quiet,
            args.all_values,
            args.search.threads,
        );
        return solved.map_err(|error| match error.hint() {
            // The library names the rules by spec (`script:HASH` for a script); the
            // suggested command names the game as it was typed, so that it runs.
            Some(Hint::UseQuotient(_)) => {
                let spec = game.ruleset.spec();
                // A script's spec is its hash: the description's name says more.
                let title = if spec.starts_with("script:") {
                    game.name.clone()
                } else {
                    game.title()
                };
                let named = error.message().replace(&spec, &title);
                let typed = typed.unwrap_or(&game.name).to_string();
                Error::input(named).with_hint(Hint::UseQuotient(typed))
            }
            _ => error,
        });
    }
    let policy = Policy {
        algorithm: args.remoteness.algorithm(),
        ..args.method.policy(&args.search, args.table.clone())
    };
    let mut chain = chain_for(
        game_name.as_deref(),
        convention,
        args.table.as_deref(),
        &policy,
    )?;
    let game = chain.game().clone();
    let heaps = if args.start {
        start_heaps(&game)?
    } else {
        heaps
    };
    let position = Position::parse_args(&heaps)?;
    Watchdog::start(&args.time_limit).working_on(format!("position {position}"));
    let bar = spinner(args.quiet, "searching");
    let progress_bar = bar.clone();
    chain.set_search_progress(Box::new(move |stats: &SearchStats| {
        progress_bar.set_message(format!(
            "{} nodes, {} in table",
            stats.nodes, stats.table_entries
        ));
    }));
    let started = Instant::now();
    let query = Query {
        best_move: true,
        remoteness: args.remoteness.wanted(),
    };
    let solved = chain.solve(&position, query);
    bar.finish_and_clear();
    let solved = solved?;
    let elapsed = started.elapsed();
    let win = solved.answer.value.is_win();
    let valued = query.remoteness == Remoteness::Required;
    if args.json {
        return print_json(&SolveRecord::new(
            &game,
            &position,
            &solved,
            valued,
            elapsed,
            TableName::Path,
        ));
    }
    let named = game_word(game_name.as_deref(), &game);
    outln!(
        "{}, {} play, {position}: {}",
        game.title(),
        game.convention,
        verdict_with_remoteness(solved.answer.value)
    )?;
    if let Evidence::NimValues { values, nim_sum } = &solved.evidence {
        let values: Vec<String> = values.iter().map(u64::to_string).collect();
        outln!(
            "nim-values {} (XOR {nim_sum}): by Sprague-Grundy theory the position is unsafe exactly when the XOR is 0",
            values.join(" ")
        )?;
    }
    if valued {
        outln!("every move, best first (the moves left if it is played):")?;
        for (to, child) in &solved.moves {
            let r = child.remoteness().map_or(0, |r| r + 1);
            let how = if child.is_win() {
                format!("loses in {r} at most")
            } else {
                format!("wins in {r}")
            };
            outln!("  to {to}: {how}")?;
        }
        if solved.moves.is_empty() {
            outln!("  none: no move is left")?;
        }
    } else if win {
        let list: Vec<String> = solved
            .winning_moves
            .iter()
            .map(|m| format!("to {m}"))
            .collect();
        let count = match (&solved.evidence, solved.complete) {
            (_, true) => format!("{}", list.len()),
            (Evidence::ClosedForm { .. }, false) => {
                format!("the first {}; there are more", list.len())
            }
            (_, false) => format!("{}; one per heap too large to list all", list.len()),
        };
        outln!("winning moves ({count}): {}", list.join("; "))?;
    } else {
        outln!("no winning move: every move leaves a safe position for the opponent")?;
    }
    match &solved.evidence {
        Evidence::Search { stats, table_bytes } => outln!(
            "nodes {}, table hits {}, cut-offs {} (+{} by transposition), depth {}, time {:.3} s, {:.0} nodes/s, table {} entries ({} evicted, {:.1} MiB allocated)",
            stats.nodes,
            stats.table_hits,
            stats.cutoffs,
            stats.etc_cutoffs,
            stats.max_depth,
            elapsed.as_secs_f64(),
            per_second(stats.nodes, elapsed),
            stats.table_entries,
            stats.evictions,
            *table_bytes as f64 / (1 << 20) as f64,
        ),
        Evidence::Table { path } => outln!("from the table {}", path.display()),
        Evidence::MisereNim => outln!(
            "by Bouton's misère Nim rule: unsafe exactly when the nim-sum is 0 with a heap above 1, or 1 with every heap at most 1"
        ),
        Evidence::Quotient {
            order,
            max_heap,
            periodicity: None,
        } => outln!(
            "by the misère quotient of heaps 1..={max_heap} (order {order}; `sicher quotient {named} --max {max_heap}` shows it)",
        ),
        Evidence::Quotient {
            order,
            max_heap,
            periodicity: Some(period),
        } => outln!(
            "by the final misère quotient (order {order}, every heap size: its pretending function repeats with period {} from heap {}; `sicher quotient {named} --max {max_heap}` shows it)",
            period.period, period.preperiod
        ),
        Evidence::ClosedForm { rule } => outln!("by the closed form: {rule}"),
        Evidence::NimValues { .. } => Ok(()),
    }
}

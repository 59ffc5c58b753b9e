//! `sicher solve`: every winning move of a position, with search statistics.

use std::time::Instant;

use clap::Args;
use serde::Serialize;

use super::args::{start_heaps, Engine, GameArgs, SearchArgs};
use super::grundy::{self as nim, MethodArgs};
use super::output::{label, per_second, print_json, spinner, verdict};
use super::EXAMPLES_SOLVE;
use crate::error::Result;
use crate::game::Position;
use crate::search::plain::PlainSolver;
use crate::search::{SearchStats, Solver};

/// Arguments of `sicher solve`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_SOLVE)]
pub struct SolveArgs {
    /// The game and its convention.
    #[command(flatten)]
    pub game: GameArgs,
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
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// No spinner, even on a terminal.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The JSON record `solve` prints.
#[derive(Serialize)]
struct Solution {
    game: String,
    position: Vec<u64>,
    win: bool,
    label: &'static str,
    moves: Vec<Vec<u64>>,
    stats: SearchStats,
    seconds: f64,
    nodes_per_second: f64,
    table_bytes: usize,
}

/// Runs `sicher solve`.
pub fn run(args: &SolveArgs) -> Result<()> {
    let game = args.game.resolve()?;
    if args.heaps.is_empty() && !args.start {
        return nim::solve_game(&game, &args.method, args.json, args.quiet);
    }
    let heaps = if args.start {
        start_heaps(&game)?
    } else {
        args.heaps.clone()
    };
    let position = Position::parse_args(&heaps)?;
    let largest = position.heaps().last().copied().unwrap_or(0);
    if let Some(oracle) = args.method.oracle(&game, largest)? {
        return nim::solve_position(&game, &oracle, &position, args.json);
    }
    super::check_searchable(&position)?;
    let bar = spinner(args.quiet, "searching");
    let started = Instant::now();
    let (win, moves, stats, table_bytes) = match args.search.engine {
        Engine::Alphabeta => {
            let mut solver = Solver::new(&game, args.search.config());
            let progress_bar = bar.clone();
            solver.set_progress(Box::new(move |stats: &SearchStats| {
                progress_bar.set_message(format!(
                    "{} nodes, {} in table",
                    stats.nodes, stats.table_entries
                ));
            }));
            let win = solver.is_win(&position);
            let moves = if win {
                solver.winning_moves(&position)
            } else {
                Vec::new()
            };
            (win, moves, solver.stats(), solver.table_bytes())
        }
        Engine::Plain => {
            let mut solver = PlainSolver::new(&game);
            let win = solver.is_win(&position);
            let moves = game
                .children(&position)
                .into_iter()
                .filter(|child| !solver.is_win(child))
                .collect();
            let stats = SearchStats {
                nodes: solver.nodes(),
                ..SearchStats::default()
            };
            (win, moves, stats, 0)
        }
    };
    let elapsed = started.elapsed();
    bar.finish_and_clear();
    let solution = Solution {
        game: game.canonical(),
        position: position.heaps().to_vec(),
        win,
        label: label(win),
        moves: moves.iter().map(|m| m.heaps().to_vec()).collect(),
        stats,
        seconds: elapsed.as_secs_f64(),
        nodes_per_second: per_second(stats.nodes, elapsed),
        table_bytes,
    };
    if args.json {
        print_json(&solution)?;
        return Ok(());
    }
    outln!(
        "{} ({}) {position}: {}",
        game.name,
        game.convention,
        verdict(win)
    )?;
    if win {
        let list: Vec<String> = moves.iter().map(|m| format!("to {m}")).collect();
        outln!("winning moves ({}): {}", moves.len(), list.join("; "))?;
    } else {
        outln!("no winning move: every move leaves a safe position for the opponent")?;
    }
    outln!(
        "nodes {}, table hits {}, cut-offs {} (+{} by transposition), depth {}, time {:.3} s, {:.0} nodes/s, table {} entries ({} evicted, {:.1} MiB allocated)",
        stats.nodes,
        stats.table_hits,
        stats.cutoffs,
        stats.etc_cutoffs,
        stats.max_depth,
        elapsed.as_secs_f64(),
        solution.nodes_per_second,
        stats.table_entries,
        stats.evictions,
        table_bytes as f64 / (1 << 20) as f64,
    )?;
    Ok(())
}

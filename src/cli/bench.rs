//! `sicher bench`: a fixed suite of positions across the rulesets, timed, with a
//! node-count signature that changes whenever the search does.

use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;

use super::args::{EngineArg as Engine, SearchArgs};
use super::output::{label, per_second, print_json};
use super::EXAMPLES_BENCH;
use crate::error::Result;
use crate::game::{self, Convention, Position};
use crate::search::plain::PlainSolver;
use crate::search::Solver;

/// The suite: (game spec, convention, heaps). Fixed, so signatures compare across builds.
const SUITE: &[(&str, Convention, &[u64])] = &[
    ("nim", Convention::Normal, &[3, 5, 7, 9, 11, 13]),
    ("nim", Convention::Misere, &[2, 3, 5, 7, 9, 11]),
    ("subtraction:1,3,4", Convention::Normal, &[60, 90, 121]),
    ("subtraction:1,3,4", Convention::Misere, &[40, 50, 61]),
    ("octal:0.77", Convention::Normal, &[10, 11, 12, 13, 14]),
    ("octal:0.77", Convention::Misere, &[10, 11, 12, 13, 14]),
    ("octal:0.07", Convention::Normal, &[20, 23, 26]),
    ("octal:0.007", Convention::Misere, &[20, 25]),
    ("grundy", Convention::Normal, &[60]),
    ("grundy", Convention::Misere, &[40]),
    ("wythoff", Convention::Normal, &[400, 647]),
    ("wythoff", Convention::Normal, &[500, 300]),
    ("moore:2", Convention::Normal, &[5, 6, 9, 10]),
];

/// Arguments of `sicher bench`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_BENCH)]
pub struct BenchArgs {
    /// Search settings.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print one JSON object per position, then one for the total.
    #[arg(long)]
    pub json: bool,
}

/// One benchmark row.
#[derive(Serialize)]
struct Row {
    game: String,
    position: Vec<u64>,
    win: bool,
    label: &'static str,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
}

/// The total row.
#[derive(Serialize)]
struct Total {
    total_nodes: u64,
    total_seconds: f64,
    nodes_per_second: f64,
    signature: String,
}

/// Runs `sicher bench`.
pub fn run(args: &BenchArgs) -> Result<()> {
    let mut total_nodes = 0;
    let mut total_time = Duration::ZERO;
    // FNV-1a over the node counts: a fingerprint of what the search did.
    let mut signature: u64 = 0xcbf2_9ce4_8422_2325;
    if !args.json {
        outln!(
            "{:<28} {:<22} {:<7} {:>12} {:>10} {:>12}",
            "game",
            "position",
            "label",
            "nodes",
            "ms",
            "nodes/s"
        )?;
    }
    for &(spec, convention, heaps) in SUITE {
        let game = game::resolve(spec)?.with_convention(convention);
        let position = Position::new(heaps.to_vec());
        let started = Instant::now();
        let (win, nodes) = match args.search.engine {
            Engine::Alphabeta => {
                let mut solver = Solver::new(&game, args.search.config());
                let win = solver.is_win(&position);
                (win, solver.stats().nodes)
            }
            Engine::Plain => {
                let mut solver = PlainSolver::new(&game);
                let win = solver.is_win(&position);
                (win, solver.nodes())
            }
        };
        let elapsed = started.elapsed();
        total_nodes += nodes;
        total_time += elapsed;
        for byte in nodes.to_le_bytes().into_iter().chain([u8::from(win)]) {
            signature = (signature ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        let row = Row {
            game: game.canonical(),
            position: position.heaps().to_vec(),
            win,
            label: label(win),
            nodes,
            seconds: elapsed.as_secs_f64(),
            nodes_per_second: per_second(nodes, elapsed),
        };
        if args.json {
            print_json(&row)?;
        } else {
            outln!(
                "{:<28} {:<22} {:<7} {:>12} {:>10.1} {:>12.0}",
                row.game,
                position.to_string(),
                row.label,
                row.nodes,
                row.seconds * 1e3,
                row.nodes_per_second
            )?;
        }
    }
    let total = Total {
        total_nodes,
        total_seconds: total_time.as_secs_f64(),
        nodes_per_second: per_second(total_nodes, total_time),
        signature: format!("{signature:016x}"),
    };
    if args.json {
        print_json(&total)?;
    } else {
        outln!(
            "total: {} nodes in {:.3} s, {:.0} nodes/s, signature {}",
            total.total_nodes,
            total.total_seconds,
            total.nodes_per_second,
            total.signature
        )?;
    }
    Ok(())
}

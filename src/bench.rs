//! `sicher bench`: a fixed suite of positions across the rulesets, timed, with a
//! node-count signature that changes whenever the search does. With `--remoteness`,
//! the remoteness search on its suite, with the ordering efficiency of each answer.

use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;

use super::args::{EngineArg as Engine, SearchArgs};
use super::output::{label, per_second, print_json, spinner};
use super::EXAMPLES_BENCH;
use sicher::answer::{Engine as AnswerEngine, Oracle, Query, Remoteness, SearchSource};
use sicher::error::{Error, Result};
use sicher::game::{self, Convention, Game, Position};
use sicher::search::plain::{PlainRemoteness, PlainSolver};
use sicher::search::{Algorithm, Solver};
use sicher::value::Value;

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
    /// Time the remoteness search (moves to the end under best play) on its suite.
    #[arg(long)]
    pub remoteness: bool,
    /// Remoteness variant: alphabeta, aspiration, negascout or mtdf (default: the best
    /// measured).
    #[arg(long, value_name = "NAME", requires = "remoteness")]
    pub algorithm: Option<Algorithm>,
    /// With --remoteness: skip counting the proof trees (the ordering efficiency), so
    /// that timing the whole run times the searches alone.
    #[arg(long, requires = "remoteness")]
    pub no_proof: bool,
    /// Only the positions whose game and heaps (as printed) contain this text.
    #[arg(long, value_name = "TEXT")]
    pub only: Option<String>,
    /// No spinner naming the position being timed, even on a terminal.
    #[arg(long, short)]
    pub quiet: bool,
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
    if args.remoteness {
        return run_remoteness(args);
    }
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
    for (game, position) in suite(args)? {
        let bar = spinner(args.quiet, &format!("{} {position}", game.canonical()));
        let started = Instant::now();
        let (win, nodes) = match args.search.engine {
            Engine::Alphabeta => {
                let mut solver = Solver::new(&game, args.search.config_with_threads(|| 1));
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
        bar.finish_and_clear();
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

/// True when `--only` is absent or matches the row's game and position as printed.
fn selected(args: &BenchArgs, game: &Game, position: &Position) -> bool {
    args.only
        .as_deref()
        .is_none_or(|text| format!("{} {position}", game.canonical()).contains(text))
}

/// The suite's games and positions that `--only` selects, in suite order.
fn suite(args: &BenchArgs) -> Result<Vec<(Game, Position)>> {
    let mut chosen = Vec::new();
    for &(spec, convention, heaps) in SUITE {
        let game = game::resolve(spec)?.with_convention(convention);
        let position = Position::new(heaps.to_vec());
        if selected(args, &game, &position) {
            chosen.push((game, position));
        }
    }
    Ok(chosen)
}

/// One remoteness benchmark row.
#[derive(Serialize)]
struct RemotenessRow {
    game: String,
    position: Vec<u64>,
    algorithm: String,
    win: bool,
    label: &'static str,
    remoteness: u32,
    nodes: u64,
    /// Positions labelled bottom-up for the search's endgame tables.
    endgame_positions: u64,
    re_searches: u64,
    root_searches: u64,
    seconds: f64,
    nodes_per_second: f64,
    /// Positions of the proof tree (absent for the plain engine).
    proof_nodes: Option<u64>,
    /// Nodes searched per proof-tree node.
    ordering_efficiency: Option<f64>,
}

/// The remoteness total row.
#[derive(Serialize)]
struct RemotenessTotal {
    algorithm: String,
    total_nodes: u64,
    total_endgame_positions: u64,
    total_proof_nodes: Option<u64>,
    ordering_efficiency: Option<f64>,
    total_seconds: f64,
    nodes_per_second: f64,
    /// Seconds spent counting proof trees, outside the search's timing.
    proof_seconds: f64,
    signature: String,
}

/// What one remoteness search did.
struct Measured {
    value: Value,
    nodes: u64,
    endgame_positions: u64,
    re_searches: u64,
    root_searches: u64,
    elapsed: Duration,
    proof_nodes: Option<u64>,
    /// Time spent counting the proof tree (not in `elapsed`).
    proof_time: Duration,
}

/// Times the remoteness search on one position as `check --remoteness` runs it (with
/// the theory and endgame tables the answer layer brings in), then (outside the
/// timing, unless `--no-proof`) counts its proof tree.
fn measure(
    game: &Game,
    position: &Position,
    args: &BenchArgs,
    algorithm: Algorithm,
) -> Result<Measured> {
    let started = Instant::now();
    let config = args.search.config_with_threads(|| 1);
    let mut source = SearchSource::with_algorithm(game, AnswerEngine::Alphabeta, config, algorithm);
    let query = Query {
        best_move: false,
        remoteness: Remoteness::Required,
    };
    let answer = source.answer(position, query)?;
    let elapsed = started.elapsed();
    let value = answer
        .ok_or_else(|| Error::internal("the search covers every position"))?
        .value;
    let stats = source.remoteness_stats().unwrap_or_default();
    let counting = Instant::now();
    let proof_nodes = if args.no_proof {
        None
    } else {
        source.proof_size(position)
    };
    Ok(Measured {
        value,
        nodes: stats.nodes,
        endgame_positions: source.endgame_positions(),
        re_searches: stats.re_searches,
        root_searches: stats.root_searches,
        elapsed,
        proof_nodes,
        proof_time: counting.elapsed(),
    })
}

/// Times the plain memoised remoteness solver on one position.
fn measure_plain(game: &Game, position: &Position) -> Measured {
    let started = Instant::now();
    let mut solver = PlainRemoteness::new(game);
    let value = solver.value(position);
    Measured {
        value,
        nodes: solver.nodes(),
        endgame_positions: 0,
        re_searches: 0,
        root_searches: 1,
        elapsed: started.elapsed(),
        proof_nodes: None,
        proof_time: Duration::ZERO,
    }
}

/// Runs `sicher bench --remoteness`.
fn run_remoteness(args: &BenchArgs) -> Result<()> {
    let algorithm = args.algorithm.unwrap_or_default();
    let plain = args.search.engine == Engine::Plain;
    let name = if plain { "plain" } else { algorithm.name() };
    let deterministic = plain || args.search.config_with_threads(|| 1).threads == 1;
    let mut total_nodes = 0;
    let mut total_endgame = 0;
    let mut total_proof = 0;
    let mut total_time = Duration::ZERO;
    let mut proof_time = Duration::ZERO;
    let mut signature: u64 = 0xcbf2_9ce4_8422_2325;
    if !args.json {
        outln!(
            "{:<28} {:<22} {:<7} {:>6} {:>12} {:>9} {:>10} {:>12} {:>11} {:>6}",
            "game",
            "position",
            "label",
            "moves",
            "nodes",
            "endgame",
            "ms",
            "nodes/s",
            "proof nodes",
            "ratio"
        )?;
    }
    for (game, position) in suite(args)? {
        let bar = spinner(args.quiet, &format!("{} {position}", game.canonical()));
        let measured = if plain {
            measure_plain(&game, &position)
        } else {
            measure(&game, &position, args, algorithm)?
        };
        bar.finish_and_clear();
        let Measured {
            value,
            nodes,
            endgame_positions,
            re_searches,
            root_searches,
            elapsed,
            proof_nodes,
            proof_time: counted_in,
        } = measured;
        total_time += elapsed;
        proof_time += counted_in;
        let remoteness = value.remoteness().unwrap_or(0);
        total_nodes += nodes;
        total_endgame += endgame_positions;
        total_proof += proof_nodes.unwrap_or(0);
        let win = value.is_win();
        // Threads race for the shared table, so node counts vary between runs on
        // several: the signature then covers the values and the endgame tables alone.
        let signed_nodes = if deterministic { nodes } else { 0 };
        for byte in signed_nodes
            .to_le_bytes()
            .into_iter()
            .chain(remoteness.to_le_bytes())
            .chain(endgame_positions.to_le_bytes())
        {
            signature = (signature ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        let row = RemotenessRow {
            game: game.canonical(),
            position: position.heaps().to_vec(),
            algorithm: name.to_string(),
            win,
            label: label(win),
            remoteness,
            nodes,
            endgame_positions,
            re_searches,
            root_searches,
            seconds: elapsed.as_secs_f64(),
            nodes_per_second: per_second(nodes, elapsed),
            proof_nodes,
            // A proof the endgame table settled has no node to measure the search by.
            ordering_efficiency: proof_nodes
                .filter(|&proof| proof > 0)
                .map(|proof| nodes as f64 / proof as f64),
        };
        if args.json {
            print_json(&row)?;
        } else {
            outln!(
                "{:<28} {:<22} {:<7} {:>6} {:>12} {:>9} {:>10.1} {:>12.0} {:>11} {:>6}",
                row.game,
                position.to_string(),
                row.label,
                row.remoteness,
                row.nodes,
                row.endgame_positions,
                row.seconds * 1e3,
                row.nodes_per_second,
                row.proof_nodes.map_or("-".to_string(), |p| p.to_string()),
                row.ordering_efficiency
                    .map_or("-".to_string(), |e| format!("{e:.2}"))
            )?;
        }
    }
    let total = RemotenessTotal {
        algorithm: name.to_string(),
        total_nodes,
        total_endgame_positions: total_endgame,
        total_proof_nodes: (total_proof > 0).then_some(total_proof),
        ordering_efficiency: (total_proof > 0).then(|| total_nodes as f64 / total_proof as f64),
        total_seconds: total_time.as_secs_f64(),
        nodes_per_second: per_second(total_nodes, total_time),
        proof_seconds: proof_time.as_secs_f64(),
        signature: format!("{signature:016x}"),
    };
    if args.json {
        print_json(&total)?;
    } else {
        let efficiency = total
            .ordering_efficiency
            .map_or(String::new(), |e| format!(", {e:.2} nodes per proof node"));
        // The searches alone are timed; counting the proof trees can take far longer.
        let counting = if total.total_proof_nodes.is_some() {
            format!(
                " searching (and {:.3} s counting proof trees, which --no-proof skips)",
                total.proof_seconds
            )
        } else {
            String::new()
        };
        let signed = if deterministic {
            ""
        } else {
            " (of the values: node counts vary on several threads)"
        };
        outln!(
            "total ({}): {} nodes and {} endgame positions in {:.3} s{counting}, {:.0} nodes/s{efficiency}, signature {}{signed}",
            total.algorithm,
            total.total_nodes,
            total.total_endgame_positions,
            total.total_seconds,
            total.nodes_per_second,
            total.signature
        )?;
    }
    Ok(())
}

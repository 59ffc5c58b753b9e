//! `sicher check`: is one position safe or unsafe, and which move wins?

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use indicatif::ProgressBar;

use clap::Args;

use super::args::{
    chain_for, forced_convention, game_or_first_heap, game_word, start_heaps, MethodArgs,
    RemotenessArgs, SearchArgs,
};
use super::output::{per_second, show_progress, spinner, write_human, write_json_answer};
use super::time_limit::{TimeLimitArgs, Watchdog};
use super::{partizan, stdout_error, EXAMPLES_CHECK};
use sicher::answer::{PartizanChain, PartizanPolicy};
use sicher::answer::{Policy, Query};
use sicher::error::Result;
use sicher::game::partizan::PartizanGame;
use sicher::game::Position;
use sicher::search::{ProgressHook, SearchStats};

/// Arguments of `sicher check`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_CHECK)]
pub struct CheckArgs {
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
    /// Heap sizes (spaces or commas); with none, one position per line is read from stdin.
    #[arg(allow_negative_numbers = true)]
    pub heaps: Vec<String>,
    /// Use the description's start position (`start = [...]`) as the heaps.
    #[arg(long, conflicts_with = "heaps")]
    pub start: bool,
    /// Search settings.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Nim-values or search.
    #[command(flatten)]
    pub method: MethodArgs,
    /// Print one JSON object per position.
    #[arg(long)]
    pub json: bool,
    /// Answer from this endgame table (`sicher table`) only; GAME may then be left out
    /// (`check --table FILE 3 4 5`), and when named it must be the table's game and
    /// convention.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "start", "method", "max", "nim_table", "quotient", "hash", "engine",
        "no_etc", "no_history", "killers", "no_simplify", "no_guide",
    ])]
    pub table: Option<PathBuf>,
    /// Only say safe or unsafe, without looking for a winning move.
    #[arg(long)]
    pub no_move: bool,
    /// No spinner during long searches, even on a terminal.
    #[arg(long, short)]
    pub quiet: bool,
    /// Remoteness: how many moves best play takes.
    #[command(flatten)]
    pub remoteness: RemotenessArgs,
    /// How long answering may take.
    #[command(flatten)]
    pub time_limit: TimeLimitArgs,
    /// Partizan games: answer for Left to move (without --left or --right, the class).
    #[arg(long, conflicts_with = "right")]
    pub left: bool,
    /// Partizan games: answer for Right to move.
    #[arg(long)]
    pub right: bool,
}

/// Runs `sicher check`.
pub fn run(args: &CheckArgs) -> Result<()> {
    let convention = forced_convention(args.misere, args.normal);
    let (game_name, mut heaps) =
        game_or_first_heap(args.game.as_deref(), &args.heaps, args.table.as_deref());
    if args.table.is_none() {
        if let Some(game) = partizan::game(game_name.as_deref(), convention)? {
            return run_partizan(args, &game, heaps);
        }
    }
    if let Some(path) = args.table.as_deref() {
        let table = sicher::table::Table::open(path)?;
        if table.partizan().is_some() {
            return run_partizan_table(args, &table, game_name.as_deref(), convention, heaps);
        }
    }
    if args.left || args.right {
        return Err(partizan::impartial_refuses(if args.left {
            "--left"
        } else {
            "--right"
        }));
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
    if args.start {
        heaps = start_heaps(chain.game())?;
    }
    let query = Query {
        best_move: !args.no_move,
        remoteness: args.remoteness.wanted(),
    };
    let spinner = SearchSpinner::new(show_progress(args.quiet));
    chain.set_search_progress(spinner.hook());
    if show_progress(args.quiet) {
        // On a terminal, say once why theory passed before a search that may take a while.
        let mut told = false;
        let named = game_word(game_name.as_deref(), chain.game());
        let max = super::errors::QUOTIENT_SUGGESTED_MAX;
        chain.set_fallback_notice(Box::new(move |why: &str| {
            if !told {
                eprintln!("{why}: the search answers instead, ending at positions whose heaps the quotient covers (`sicher quotient {named} --max {max}` shows the quotient)");
                told = true;
            }
        }));
    }
    let watchdog = Watchdog::start(&args.time_limit);
    // Answers collect in a buffer written in large pieces (a batch is output-bound);
    // the watchdog writes what it holds if the time limit ends the work.
    let pending = watchdog.pending();
    let mut answer = |heaps: &[u64]| -> Result<()> {
        watchdog.working_on(format!("position {}", Position::new(heaps.to_vec())));
        let answer = chain.answer(&Position::new(heaps.to_vec()), query);
        spinner.clear();
        let answer = answer?;
        let mut pending = lock(pending);
        if args.json {
            write_json_answer(&mut pending, &answer)
        } else {
            write_human(&mut pending, &answer, query);
            Ok(())
        }
    };
    let outcome = if !heaps.is_empty() || args.start {
        Position::parse_args(&heaps).and_then(|p| answer(p.heaps()))
    } else {
        sicher::game::for_each_line(std::io::stdin().lock(), |heaps| {
            answer(heaps)?;
            let mut pending = lock(pending);
            if pending.len() >= 1 << 16 {
                flush(&mut pending)?;
            }
            Ok(())
        })
    };
    // Answers already computed are printed before any error.
    flush(&mut lock(pending))?;
    outcome
}

/// `check` for a partizan game: each position's class, or with `--left`/`--right` that
/// player's verdict, winning move and remoteness.
fn run_partizan(args: &CheckArgs, game: &PartizanGame, mut heaps: Vec<String>) -> Result<()> {
    if args.start {
        let start = game.start.as_ref().ok_or_else(|| {
            sicher::error::Error::input(format!(
                "{} gives no start position (`start = [...]`)",
                game.name
            ))
        })?;
        heaps = start.heaps().iter().map(u64::to_string).collect();
    }
    let policy = PartizanPolicy {
        table_bytes: (args.search.hash as usize) << 20,
        ..PartizanPolicy::default()
    };
    let mut chain = PartizanChain::new(game, policy)?;
    let to_move = partizan::chosen(args.left, args.right);
    let query = Query {
        best_move: !args.no_move,
        remoteness: args.remoteness.wanted(),
    };
    // The time limit holds here as for impartial games: the watchdog writes the answers
    // made and names the position still being worked on.
    let watchdog = Watchdog::start(&args.time_limit);
    let pending = watchdog.pending();
    let mut answer = |position: &Position| -> Result<()> {
        watchdog.working_on(format!("position {position}"));
        let mut line = Vec::new();
        partizan::check_one(&mut chain, position, to_move, query, args.json, &mut line)?;
        lock(pending).extend_from_slice(&line);
        Ok(())
    };
    let outcome = if !heaps.is_empty() || args.start {
        Position::parse_args(&heaps).and_then(|p| answer(&p))
    } else {
        sicher::game::for_each_line(std::io::stdin().lock(), |heaps| {
            answer(&Position::new(heaps.to_vec()))?;
            flush(&mut lock(pending))
        })
    };
    flush(&mut lock(pending))?;
    outcome
}

/// `check --table FILE` for a partizan table: every answer from the table alone (GAME,
/// when named, must be the table's game).
fn run_partizan_table(
    args: &CheckArgs,
    table: &sicher::table::Table,
    game_name: Option<&str>,
    convention: Option<sicher::game::Convention>,
    mut heaps: Vec<String>,
) -> Result<()> {
    let held = table.partizan().expect("a partizan table");
    let path = table.path().display();
    let named = partizan::game(game_name, convention)?;
    if let Some(game) = &named {
        if game.spec() != held.spec() || game.terminal.name() != held.terminal.name() {
            return Err(sicher::error::Error::input(format!(
                "{path} holds {} ({} play), not {} ({} play)",
                held.title(),
                held.terminal.name(),
                game.title(),
                game.terminal.name()
            )));
        }
    } else if game_name.is_some() {
        return Err(sicher::error::Error::input(format!(
            "{path} holds the partizan game {}, not an impartial one",
            held.title()
        )));
    } else if let Some(convention) = convention.filter(|c| Some(*c) != held.terminal.convention()) {
        return Err(sicher::error::Error::input(format!(
            "{path} holds {} play of {}, not {convention} play",
            held.terminal.name(),
            held.title()
        )));
    }
    if args.start {
        let start = named.as_ref().and_then(|g| g.start.as_ref()).ok_or_else(|| {
            sicher::error::Error::input(format!(
                "--start needs the game named beside --table {path}, and a description with `start = [...]`"
            ))
        })?;
        heaps = start.heaps().iter().map(u64::to_string).collect();
    }
    let to_move = partizan::chosen(args.left, args.right);
    let query = Query {
        best_move: !args.no_move,
        remoteness: args.remoteness.wanted(),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut pending: Vec<u8> = Vec::new();
    let outcome = if !heaps.is_empty() || args.start {
        Position::parse_args(&heaps).and_then(|p| {
            partizan::check_from_table(table, &p, to_move, query, args.json, &mut pending)
        })
    } else {
        sicher::game::for_each_line(std::io::stdin().lock(), |heaps| {
            let position = Position::new(heaps.to_vec());
            partizan::check_from_table(table, &position, to_move, query, args.json, &mut pending)?;
            if pending.len() >= 1 << 16 {
                out.write_all(&pending).map_err(stdout_error)?;
                pending.clear();
            }
            Ok(())
        })
    };
    out.write_all(&pending).map_err(stdout_error)?;
    out.flush().map_err(stdout_error)?;
    outcome
}

/// A spinner that appears only once a search has run for a while (the search reports
/// every 65 536 nodes) and disappears when its position is answered.
struct SearchSpinner {
    shown: bool,
    bar: Arc<Mutex<Option<ProgressBar>>>,
}

impl SearchSpinner {
    fn new(shown: bool) -> Self {
        SearchSpinner {
            shown,
            bar: Arc::default(),
        }
    }

    /// The hook the search calls with its statistics.
    fn hook(&self) -> ProgressHook {
        let (shown, bar) = (self.shown, Arc::clone(&self.bar));
        let started = Instant::now();
        Box::new(move |stats: &SearchStats| {
            if !shown {
                return;
            }
            let Ok(mut bar) = bar.lock() else { return };
            let bar = bar.get_or_insert_with(|| spinner(false, "searching"));
            bar.set_message(format!(
                "searching: {} nodes ({:.0}/s), {} in the transposition table",
                stats.nodes,
                per_second(stats.nodes, started.elapsed()),
                stats.table_entries
            ));
        })
    }

    /// Removes the spinner, if one is shown.
    fn clear(&self) {
        if let Some(bar) = self.bar.lock().ok().and_then(|mut b| b.take()) {
            bar.finish_and_clear();
        }
    }
}

/// The answers' buffer, locked (a panic elsewhere leaves it usable).
/// Writes the answers collected so far and empties the buffer.
fn flush(pending: &mut Vec<u8>) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(pending).map_err(stdout_error)?;
    pending.clear();
    out.flush().map_err(stdout_error)
}

fn lock(pending: &Mutex<Vec<u8>>) -> std::sync::MutexGuard<'_, Vec<u8>> {
    pending.lock().unwrap_or_else(PoisonError::into_inner)
}

//! `sicher check`: is one position safe or unsafe, and which move wins?

use std::io::{BufRead, Write};

use clap::Args;

use super::args::{start_heaps, Engine, GameArgs, SearchArgs};
use super::grundy::{self as nim, MethodArgs};
use super::output::Answer;
use super::{stdout_error, EXAMPLES_CHECK};
use crate::error::{Error, Result};
use crate::game::{Game, Position};
use crate::search::plain::PlainSolver;
use crate::search::{Solver, TopDown};

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
    /// Answer from this endgame table (`sicher table`) instead of searching; GAME may then
    /// be left out when heaps are given (`check --table FILE 3 4 5`), and when named it
    /// must be the table's game and convention.
    #[arg(long, value_name = "FILE")]
    pub table: Option<std::path::PathBuf>,
    /// With --table: only say safe or unsafe, without looking for a winning move.
    #[arg(long, requires = "table")]
    pub no_move: bool,
}

/// Answers positions one at a time with the chosen top-down engine.
struct Answerer<'g>(Box<dyn TopDown + 'g>);

impl Answerer<'_> {
    fn answer(&mut self, position: &Position) -> Answer {
        let win = self.0.is_win(position);
        let winning_move = if win {
            self.0.winning_move(position)
        } else {
            None
        };
        Answer::new(position, win, winning_move, "search")
    }
}

impl CheckArgs {
    /// The game arguments as the other commands take them.
    fn game_args(&self) -> GameArgs {
        GameArgs {
            game: self.game.clone(),
            misere: self.misere,
            normal: self.normal,
        }
    }
}

/// Runs `sicher check`.
pub fn run(args: &CheckArgs) -> Result<()> {
    if let Some(table) = &args.table {
        if args.method.nim_table.is_some() {
            return Err(Error::input(
                "give either --table (outcomes) or --nim-table (nim-values), not both",
            ));
        }
        return super::probe::run_table(
            table,
            &args.game_args(),
            &args.heaps,
            args.json,
            !args.no_move,
        );
    }
    let game = args.game_args().resolve()?;
    let heaps = if args.start {
        start_heaps(&game)?
    } else {
        args.heaps.clone()
    };
    // Heaps given on the command line tell the nim-values how far they must reach.
    let largest = Position::parse_args(&heaps)?.heaps().last().copied();
    let mut oracle = args.method.oracle(&game, largest.unwrap_or(0))?;
    let mut search = answerer(&game, &args.search);
    // `--method search` means the search, not a table that happens to cover the position.
    let mut tables = if args.method.method == nim::AnswerMethod::Search {
        None
    } else {
        super::probe::TableAnswerer::for_game(&game)
    };
    let mut answerer = |position: &Position| -> Result<Answer> {
        if let Some(current) = &oracle {
            let largest = position.heaps().last().copied().unwrap_or(0);
            if !nim::covers(current, largest) {
                oracle = args.method.oracle(&game, largest)?;
            }
        }
        if let Some(oracle) = &oracle {
            return Ok(nim::answer(oracle, position));
        }
        Ok(match tables.as_mut().and_then(|t| t.answer(position)) {
            Some(answer) => answer,
            None => {
                super::check_searchable(position)?;
                search.answer(position)
            }
        })
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut emit = |answer: Answer| -> Result<()> {
        if args.json {
            serde_json::to_writer(&mut out, &answer)
                .map_err(|e| Error::input(format!("cannot encode JSON: {e}")))?;
            writeln!(out).map_err(stdout_error)
        } else {
            writeln!(out, "{}", answer.human()).map_err(stdout_error)
        }
    };
    if !heaps.is_empty() || args.start {
        let position = Position::parse_args(&heaps)?;
        emit(answerer(&position)?)?;
    } else {
        let stdin = std::io::stdin();
        for (number, line) in stdin.lock().lines().enumerate() {
            let line = line.map_err(|e| Error::io("<stdin>", e))?;
            let position = Position::parse_line(&line)
                .map_err(|e| Error::input(format!("stdin line {}: {e}", number + 1)))?;
            emit(answerer(&position)?)?;
        }
    }
    out.flush().map_err(stdout_error)
}

fn answerer<'g>(game: &'g Game, search: &SearchArgs) -> Answerer<'g> {
    match search.engine {
        Engine::Alphabeta => Answerer(Box::new(Solver::new(game, search.config()))),
        Engine::Plain => Answerer(Box::new(PlainSolver::new(game))),
    }
}

//! `sicher check`: is one position safe or unsafe, and which move wins?

use std::io::{BufRead, Write};

use clap::Args;

use super::args::{Engine, GameArgs, SearchArgs};
use super::grundy::{self as nim, MethodArgs};
use super::output::Answer;
use super::{stdout_error, EXAMPLES_CHECK};
use crate::error::{Error, Result};
use crate::game::{Game, Position};
use crate::grundy::NimOracle;
use crate::search::plain::PlainSolver;
use crate::search::Solver;

/// Arguments of `sicher check`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_CHECK)]
pub struct CheckArgs {
    /// The game and its convention.
    #[command(flatten)]
    pub game: GameArgs,
    /// Heap sizes (spaces or commas); with none, one position per line is read from stdin.
    #[arg(allow_negative_numbers = true)]
    pub heaps: Vec<String>,
    /// Search settings.
    #[command(flatten)]
    pub search: SearchArgs,
    /// Nim-values or search.
    #[command(flatten)]
    pub method: MethodArgs,
    /// Print one JSON object per position.
    #[arg(long)]
    pub json: bool,
}

/// Answers positions one at a time with the chosen engine.
enum Answerer<'g> {
    Search(Box<Solver<'g>>),
    Plain(PlainSolver<'g>),
    Grundy(NimOracle),
}

impl Answerer<'_> {
    fn answer(&mut self, position: &Position) -> Answer {
        let (win, winning_move) = match self {
            Answerer::Grundy(oracle) => return nim::answer(oracle, position),
            Answerer::Search(solver) => {
                let win = solver.is_win(position);
                (
                    win,
                    if win {
                        solver.winning_move(position)
                    } else {
                        None
                    },
                )
            }
            Answerer::Plain(solver) => {
                let win = solver.is_win(position);
                (
                    win,
                    if win {
                        solver.winning_move(position)
                    } else {
                        None
                    },
                )
            }
        };
        Answer::new(position, win, winning_move, "search")
    }
}

/// Runs `sicher check`.
pub fn run(args: &CheckArgs) -> Result<()> {
    let game = args.game.resolve()?;
    // Heaps given on the command line tell the nim-values how far they must reach.
    let largest = Position::parse_args(&args.heaps)?.heaps().last().copied();
    let mut answerer = match args.method.oracle(&game, largest.unwrap_or(0))? {
        Some(oracle) => Answerer::Grundy(oracle),
        None => answerer(&game, &args.search),
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
    if !args.heaps.is_empty() {
        let position = Position::parse_args(&args.heaps)?;
        emit(answerer.answer(&position))?;
    } else {
        let stdin = std::io::stdin();
        for (number, line) in stdin.lock().lines().enumerate() {
            let line = line.map_err(|e| Error::io("<stdin>", e))?;
            let position = Position::parse_line(&line)
                .map_err(|e| Error::input(format!("stdin line {}: {e}", number + 1)))?;
            let largest = position.heaps().last().copied().unwrap_or(0);
            if let Answerer::Grundy(oracle) = &answerer {
                if !nim::covers(oracle, largest) {
                    answerer = match args.method.oracle(&game, largest)? {
                        Some(oracle) => Answerer::Grundy(oracle),
                        None => self::answerer(&game, &args.search),
                    };
                }
            }
            emit(answerer.answer(&position))?;
        }
    }
    out.flush().map_err(stdout_error)
}

fn answerer<'g>(game: &'g Game, search: &SearchArgs) -> Answerer<'g> {
    match search.engine {
        Engine::Alphabeta => Answerer::Search(Box::new(Solver::new(game, search.config()))),
        Engine::Plain => Answerer::Plain(PlainSolver::new(game)),
    }
}

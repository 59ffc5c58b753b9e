//! `sicher play`: a game in the terminal against perfect play.

use std::io::{BufRead, IsTerminal};

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::args::{start_heaps, GameArgs, SearchArgs};
use super::output::print_json;
use sicher::answer::{Chain, Policy};
use sicher::error::{Error, Result};
use sicher::game::Position;
use sicher::play::{Player, Session};
use sicher::search::Algorithm;
use sicher::value::Value;

const EXAMPLES_PLAY: &str = "Examples:
  sicher play nim 3 4 5                 # you move first
  sicher play kayles --misere --first computer
  printf '1\\n1\\n' | sicher play nim 2 3 --json   # scripted: one move per line";

/// Who moves first.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// You.
    You,
    /// The computer.
    Computer,
}

/// Arguments of `sicher play`.
#[derive(Args, Debug)]
#[command(after_help = EXAMPLES_PLAY)]
pub struct PlayArgs {
    /// The game and convention.
    #[command(flatten)]
    pub game: GameArgs,
    /// The heaps to start from (spaces or commas); with none, the description's start
    /// position.
    #[arg(allow_negative_numbers = true)]
    pub heaps: Vec<String>,
    /// Who moves first.
    #[arg(long, value_enum, default_value_t = First::You)]
    pub first: First,
    /// Show the best move before each of yours.
    #[arg(long)]
    pub hint: bool,
    /// One JSON object per move, then one for the result.
    #[arg(long)]
    pub json: bool,
    /// Search settings.
    #[command(flatten)]
    pub search: SearchArgs,
    /// How the remoteness search chooses its windows: alphabeta, aspiration, negascout
    /// or mtdf (default: alphabeta, the best measured).
    #[arg(long, value_name = "NAME")]
    pub algorithm: Option<Algorithm>,
}

/// One move, as `--json` prints it.
#[derive(Serialize)]
struct MoveRecord<'a> {
    ply: u64,
    by: &'static str,
    /// The move, named by the position it leads to (as `check` names moves).
    #[serde(rename = "move")]
    to: &'a [u64],
    /// The position now.
    position: &'a [u64],
    /// True when the player now to move wins against best play.
    win: bool,
    /// Moves until the game ends under best play from here.
    remoteness: Option<u32>,
}

/// The result, as `--json` prints it last.
#[derive(Serialize)]
struct ResultRecord {
    winner: &'static str,
    plies: u64,
}

/// Runs `sicher play`.
pub fn run(args: &PlayArgs) -> Result<()> {
    let game = args.game.resolve()?;
    let heaps = if args.heaps.is_empty() {
        start_heaps(&game)?
    } else {
        args.heaps.clone()
    };
    let start = Position::parse_args(&heaps)?;
    let policy = Policy {
        search: args.search.config(),
        engine: args.search.engine(),
        algorithm: args.algorithm.unwrap_or_default(),
        ..Policy::default()
    };
    let first = match args.first {
        First::You => Player::You,
        First::Computer => Player::Computer,
    };
    // The legal moves are listed before the first answer: ready the start's heaps.
    game.ruleset
        .prepare(start.heaps().iter().copied().max().unwrap_or(0))?;
    let mut session = Session::new(Chain::new(&game, &policy)?, start, first);
    let interactive = std::io::stdin().is_terminal();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    if !args.json {
        outln!(
            "{} ({} play). You play against perfect play; the player who {} wins.",
            game.name,
            game.convention,
            if game.terminal_is_win() {
                "cannot move"
            } else {
                "makes the last move"
            }
        )?;
    }
    loop {
        if let Some(winner) = session.winner() {
            if args.json {
                return print_json(&ResultRecord {
                    winner: winner.name(),
                    plies: session.plies(),
                });
            }
            return outln!(
                "{}: no move is left. {} after {} moves.",
                session.position(),
                match winner {
                    Player::You => "You win",
                    Player::Computer => "The computer wins",
                },
                session.plies()
            );
        }
        let value = session.value()?;
        if !args.json {
            outln!(
                "\nposition {}: {}",
                session.position(),
                standing(session.to_move(), value)
            )?;
        }
        let to = match session.to_move() {
            Player::Computer => {
                let to = session
                    .best_move()?
                    .ok_or_else(|| Error::input("internal: a move exists but none was chosen"))?;
                if !args.json {
                    outln!("the computer moves to {to}")?;
                }
                to
            }
            Player::You => {
                if !args.json {
                    let hint = if args.hint {
                        session.best_move()?
                    } else {
                        None
                    };
                    for (i, to) in session.moves().iter().enumerate() {
                        let star = if hint.as_ref() == Some(to) {
                            "  <- best"
                        } else {
                            ""
                        };
                        outln!("  {:>3}. to {to}{star}", i + 1)?;
                    }
                    outln!("your move (a number, or the position it leads to):")?;
                }
                loop {
                    let Some(line) = lines.next() else {
                        return Err(Error::input(format!(
                            "the input ended with the game unfinished at {} (your move)",
                            session.position()
                        )));
                    };
                    let line = line.map_err(|e| Error::io("<stdin>", e))?;
                    match session.parse_move(&line) {
                        Ok(to) => break to,
                        Err(error) if interactive => outln!("{error}; try again:")?,
                        Err(error) => {
                            return Err(Error::input(format!(
                                "move {}: {error}",
                                session.plies() + 1
                            )))
                        }
                    }
                }
            }
        };
        let by = session.to_move();
        session.play(to)?;
        if args.json {
            let value = session.value()?;
            print_json(&MoveRecord {
                ply: session.plies(),
                by: by.name(),
                to: session.position().heaps(),
                position: session.position().heaps(),
                win: value.is_win(),
                remoteness: value.remoteness(),
            })?;
        }
    }
}

/// Who stands to win, from your side of the board.
fn standing(to_move: Player, value: Value) -> String {
    let r = value.remoteness().unwrap_or(0);
    match (to_move, value.is_win()) {
        (Player::You, true) => format!("you can win in {r}"),
        (Player::You, false) => format!("you are lost: the computer wins in at most {r}"),
        (Player::Computer, true) => format!("you are lost: the computer wins in {r}"),
        (Player::Computer, false) => {
            format!("the computer is lost: you can win, in {r} moves at most")
        }
    }
}

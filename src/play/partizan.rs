//! `sicher play` for partizan games: you play Left or Right (`--as`), the computer the
//! other side; either may start (`--first`). Moves, hints, undo, levels and the JSON
//! records work as in the impartial game, each side with its own moves.

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde::Serialize;

use super::{
    clock_seed, level_words, numbered_moves, screen_rows, thinking, First, InputLines, PlayArgs,
    Playing, Reading, Side, Thinking, YourMove, COMMANDS,
};
use crate::output::{plural, print_json};
use sicher::answer::PartizanPolicy;
use sicher::error::{Error, Result};
use sicher::game::partizan::{PartizanGame, Terminal};
use sicher::game::Position;
use sicher::play::{PartizanSession, Reply, MAX_LEVEL};
use sicher::value::Player;

/// One move, as `--json` prints it.
#[derive(Serialize)]
struct MoveRecord<'a> {
    ply: u64,
    /// `"you"` or `"computer"`.
    by: &'static str,
    /// `"left"` or `"right"`: the side that moved.
    side: &'static str,
    /// The move, named by the position it leads to.
    #[serde(rename = "move")]
    to: &'a [u64],
    /// The position now.
    position: &'a [u64],
    /// The side now to move.
    to_move: &'static str,
    /// True when the side now to move wins against best play.
    win: bool,
    /// Moves until play ends under best play from here, where searched.
    remoteness: Option<u32>,
    /// True for a random move of the computer below level 10.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    random: bool,
}

/// The result, as `--json` prints it last.
#[derive(Serialize)]
struct ResultRecord {
    /// `"you"` or `"computer"`; `None` when the game was left unfinished.
    winner: Option<&'static str>,
    /// `"left"` or `"right"`, the side that won.
    #[serde(skip_serializing_if = "Option::is_none")]
    winner_side: Option<&'static str>,
    plies: u64,
    /// True when `quit` ended the game.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    quit: bool,
}

/// Who a side is at this keyboard.
fn who(session: &PartizanSession, side: Player) -> &'static str {
    if side == session.you() {
        "you"
    } else {
        "computer"
    }
}

/// Plays a partizan game (the game `play` resolved as partizan).
pub fn play(args: &PlayArgs, game: PartizanGame) -> Result<()> {
    let (heaps, origin) = if args.heaps.is_empty() {
        let start = game.start.clone().ok_or_else(|| {
            Error::input(format!(
                "{}: give the heaps to start from, as in `sicher play {} 9`",
                game.title(),
                game.spec()
            ))
        })?;
        (
            start,
            format!("the start position of {}'s description", game.name),
        )
    } else {
        (Position::parse_args(&args.heaps)?, "as given".to_string())
    };
    let you = match args.side {
        Some(Side::Right) => Player::Right,
        Some(Side::Left) | None => Player::Left,
    };
    let first = match args.first {
        First::You => you,
        First::Computer => you.opponent(),
        First::Left => Player::Left,
        First::Right => Player::Right,
    };
    let clock = Thinking::started();
    if args.time_limit > 0 {
        // The partizan chain has no progress hook: the watching thread keeps the limit.
        clock.clone().watch(Duration::from_secs(args.time_limit));
    }
    // Where no period can be proved the chain searches every lone heap up to the
    // policy's limit when it is made: in play no heap grows, so the start's largest is
    // enough (a lone heap of 64 of a splitting code costs seconds).
    let policy = PartizanPolicy {
        sequence_limit: heaps.heaps().last().copied().unwrap_or(0),
        ..PartizanPolicy::default()
    };
    let mut session = PartizanSession::new(&game, policy, heaps, you, first)?;
    clock.busy.store(false, Ordering::Relaxed);
    session.set_level(args.level, args.seed.unwrap_or_else(clock_seed))?;
    let interactive = std::io::IsTerminal::is_terminal(&std::io::stdin());
    let stdin = std::io::stdin();
    let mut lines = InputLines::new(stdin.lock());
    let human = !args.json;
    if human {
        let ends = match &game.terminal {
            Terminal::Normal => "the player who cannot move loses".to_string(),
            Terminal::Misere => "the player who cannot move wins".to_string(),
            Terminal::Script(_) => {
                "play ends by the game's terminal rule (else the player who cannot move loses)"
                    .to_string()
            }
        };
        outln!(
            "{}, {}: Left and Right have moves of their own; {ends}. Moves are counted for both players.",
            game.title(),
            match game.terminal {
                Terminal::Misere => "misère play",
                Terminal::Normal => "normal play",
                Terminal::Script(_) => "a terminal script",
            }
        )?;
        if !game.notes.is_empty() {
            outln!("{}", game.notes)?;
        }
        let class = thinking(&clock, &mut session, |s| s.class())?;
        outln!(
            "start: {} ({origin}): class {class} ({})",
            session.position(),
            class.in_words()
        )?;
        outln!(
            "you play {}, the computer {} at level {} of {MAX_LEVEL} ({}); {} moves first",
            you.title(),
            you.opponent().title(),
            args.level,
            level_words(args.level),
            first.title()
        )?;
        outln!("{COMMANDS}")?;
    }
    loop {
        if let Some(winner) = session.winner() {
            if args.json {
                return print_json(&ResultRecord {
                    winner: Some(who(&session, winner)),
                    winner_side: Some(winner.name()),
                    plies: session.plies(),
                    quit: false,
                });
            }
            let why = if session.moves().is_empty() {
                format!("{} has no move", session.to_move().title())
            } else {
                "the game's terminal rule ends play".to_string()
            };
            return outln!(
                "{}: {why}. {} after {}.",
                session.position(),
                if winner == you {
                    format!("You ({}) win", winner.title())
                } else {
                    format!("The computer ({}) wins", winner.title())
                },
                plural(session.plies(), "move")
            );
        }
        let standing = thinking(&clock, &mut session, |s| s.standing())?;
        let mover = session.to_move();
        if human {
            let winner = if standing.win {
                mover
            } else {
                mover.opponent()
            };
            let count = standing.remoteness.map_or(String::new(), |r| {
                format!(" in {}", plural(r.into(), "move"))
            });
            let verdict = if winner == you {
                format!("you can win{count}")
            } else if args.level == MAX_LEVEL {
                format!("you are lost: the computer wins{count}")
            } else {
                format!("you are lost: the computer can win{count}")
            };
            outln!(
                "\nposition {}, {} to move ({}): {verdict}",
                session.position(),
                mover.title(),
                who(&session, mover)
            )?;
        }
        let (to, random) = if mover != you {
            let Reply { to, random } = thinking(&clock, &mut session, |s| s.computer_move())?
                .ok_or_else(|| Error::internal("a move exists but none was chosen"))?;
            if human {
                if random {
                    outln!(
                        "the computer ({}) plays a random move (level {}): to {to}",
                        mover.title(),
                        session.level()
                    )?;
                } else {
                    outln!("the computer ({}) moves to {to}", mover.title())?;
                }
            }
            (to, random)
        } else {
            if human {
                numbered_moves(session.moves(), screen_rows(interactive))?;
                if args.hint {
                    super::show_hint(&clock, &mut session)?;
                }
                outln!("your move ({}):", mover.title())?;
            }
            let prompt = format!("your move ({}):", mover.title());
            let reading = Reading {
                clock: &clock,
                interactive,
                human,
                prompt: &prompt,
            };
            match reading.your_move(&mut session, &mut lines)? {
                YourMove::To(to) => (to, false),
                YourMove::Undone => continue,
                YourMove::Left if human => return Ok(()),
                YourMove::Left => return quit(&session),
            }
        };
        session.play(to)?;
        if args.json {
            let standing = thinking(&clock, &mut session, |s| s.standing())?;
            print_json(&MoveRecord {
                ply: session.plies(),
                by: who(&session, mover),
                side: mover.name(),
                to: session.position().heaps(),
                position: session.position().heaps(),
                to_move: session.to_move().name(),
                win: standing.win,
                remoteness: standing.remoteness,
                random,
            })?;
        }
    }
}

/// The JSON record of a game left unfinished.
fn quit(session: &PartizanSession) -> Result<()> {
    print_json(&ResultRecord {
        winner: None,
        winner_side: None,
        plies: session.plies(),
        quit: true,
    })
}

impl Playing for PartizanSession {
    fn position(&self) -> &Position {
        PartizanSession::position(self)
    }
    fn plies(&self) -> u64 {
        PartizanSession::plies(self)
    }
    fn level(&self) -> u8 {
        PartizanSession::level(self)
    }
    fn change_level(&mut self, level: u8) -> Result<()> {
        PartizanSession::change_level(self, level)
    }
    fn undo(&mut self) -> Result<bool> {
        PartizanSession::undo(self)
    }
    fn parse_move(&self, text: &str) -> Result<Position> {
        PartizanSession::parse_move(self, text)
    }
    fn best_move(&mut self) -> Result<Option<Position>> {
        PartizanSession::best_move(self)
    }
    fn move_number(&self, to: &Position) -> Option<usize> {
        PartizanSession::move_number(self, to)
    }
    fn list_every_move(&self) -> Result<()> {
        numbered_moves(self.moves(), usize::MAX)
    }
}

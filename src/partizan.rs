//! `check` and `solve` for partizan games: the class, a player's verdict with a winning
//! move and the remoteness, each player's winning moves, the one-heap outcome sequence
//! and canonical forms. Impartial games never come here.

use serde::Serialize;

use super::output::{label, print_json, write_heaps, write_json};
use super::stdout_error;
use sicher::answer::{PartizanAnswer, PartizanChain, PartizanPolicy, PartizanSource, Query};
use sicher::error::{Error, Result};
use sicher::game::partizan::{resolve_partizan, PartizanGame, Terminal};
use sicher::game::{Convention, Position};
use sicher::table::Table;
use sicher::theory::partizan::OutcomeSequence;
use sicher::value::{OutcomeClass, Player};

/// The partizan game GAME names with the convention flags applied, or `None` when it
/// names an impartial game (or nothing: the impartial path says what).
pub fn game(name: Option<&str>, convention: Option<Convention>) -> Result<Option<PartizanGame>> {
    let Some(name) = name else { return Ok(None) };
    let Some(game) = resolve_partizan(name)? else {
        return Ok(None);
    };
    let terminal = match (convention, &game.terminal) {
        (None, _) => return Ok(Some(game)),
        (Some(_), Terminal::Script(_)) => {
            return Err(Error::input(format!(
                "{}: --misere and --normal do not apply: its script's terminal rule says who wins",
                game.title()
            )))
        }
        (Some(Convention::Normal), _) => Terminal::Normal,
        (Some(Convention::Misere), _) => Terminal::Misere,
    };
    Ok(Some(game.with_terminal(terminal)))
}

/// The player `--left` or `--right` chose, if either.
pub fn chosen(left: bool, right: bool) -> Option<Player> {
    match (left, right) {
        (true, _) => Some(Player::Left),
        (_, true) => Some(Player::Right),
        _ => None,
    }
}

/// The one line refusing a partizan flag for an impartial game.
pub fn impartial_refuses(flag: &str) -> Error {
    Error::input(format!(
        "{flag} applies to partizan games (such as partizan-subtraction:1,3/2,3); in an impartial game both players have the same moves"
    ))
}

/// One answered partizan position, as `check --json` prints it.
#[derive(Serialize)]
struct CheckRecord<'a> {
    position: &'a [u64],
    class: char,
    #[serde(skip_serializing_if = "Option::is_none")]
    to_move: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    win: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'static str>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    winning_move: Option<Option<&'a [u64]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    remoteness: Option<Option<u32>>,
    source: &'static str,
}

/// Answers one position for `check`: with a player to move, the verdict, a winning move
/// and the remoteness; without, the class.
pub fn check_one(
    chain: &mut PartizanChain,
    position: &Position,
    to_move: Option<Player>,
    query: Query,
    json: bool,
    out: &mut Vec<u8>,
) -> Result<()> {
    let (class, class_source) = chain.class(position)?;
    let answer = match to_move {
        Some(player) => Some(chain.answer(position, player, query)?),
        None => None,
    };
    write_answer(
        position,
        class,
        class_source,
        answer.as_ref(),
        query,
        json,
        out,
    )
}

/// Answers one position for `check --table` from a partizan table alone: the class, or
/// the verdict of the player to move with a winning move (the first child the table
/// says the opponent loses); the table holds no remoteness.
pub fn check_from_table(
    table: &Table,
    position: &Position,
    to_move: Option<Player>,
    query: Query,
    json: bool,
    out: &mut Vec<u8>,
) -> Result<()> {
    let game = table
        .partizan()
        .ok_or_else(|| Error::internal("an impartial table on the partizan path"))?;
    let class = table.class(position)?;
    let answer = match to_move {
        None => None,
        Some(player) => {
            let win = class.to_move_wins(player);
            let mut best_move = None;
            if win && query.best_move {
                for child in game.children(position.heaps(), player) {
                    let child = Position::new(child);
                    if !table.wins(&child, player.opponent())? {
                        best_move = Some(child);
                        break;
                    }
                }
            }
            Some(PartizanAnswer {
                position: position.clone(),
                to_move: player,
                win,
                best_move,
                remoteness: None,
                source: PartizanSource::Table,
            })
        }
    };
    write_answer(
        position,
        class,
        PartizanSource::Table,
        answer.as_ref(),
        query,
        json,
        out,
    )
}

/// Writes one answered position as `check` prints it (a JSON line with `json`).
fn write_answer(
    position: &Position,
    class: OutcomeClass,
    class_source: PartizanSource,
    answer: Option<&PartizanAnswer>,
    query: Query,
    json: bool,
    out: &mut Vec<u8>,
) -> Result<()> {
    if json {
        let record = CheckRecord {
            position: position.heaps(),
            class: class.letter(),
            to_move: answer.map(|a| a.to_move.name()),
            win: answer.map(|a| a.win),
            label: answer.map(|a| label(a.win)),
            winning_move: answer.map(|a| a.best_move.as_ref().map(Position::heaps)),
            remoteness: answer.map(|a| a.remoteness),
            source: answer.map_or(class_source, |a| a.source).name(),
        };
        return write_json(out, &record);
    }
    write_heaps(out, position.heaps());
    out.extend_from_slice(b": ");
    match answer {
        None => out.extend_from_slice(format!("class {class}: {}", class.in_words()).as_bytes()),
        Some(answer) => out.extend_from_slice(verdict_line(answer, class, query).as_bytes()),
    }
    out.push(b'\n');
    Ok(())
}

/// `safe: Left, to move, wins in 3 (winning move: to 2 5; class N)`. A win with no
/// winning move is a position the player to move wins without moving, which is said
/// only when a move was asked for (`--no-move` leaves it unknown).
fn verdict_line(answer: &PartizanAnswer, class: OutcomeClass, query: Query) -> String {
    let who = answer.to_move.title();
    let mut line = match (answer.win, answer.remoteness) {
        (true, Some(r)) if r > 0 => format!("safe: {who}, to move, wins in {r}"),
        (true, _) => format!("safe: {who}, to move, wins"),
        (false, Some(r)) if r > 0 => format!("unsafe: {who}, to move, loses in {r} at most"),
        (false, _) => format!("unsafe: {who}, to move, loses"),
    };
    let mut notes = Vec::new();
    match &answer.best_move {
        Some(after) => {
            let mut text = b"winning move: to ".to_vec();
            write_heaps(&mut text, after.heaps());
            notes.push(String::from_utf8_lossy(&text).into_owned());
        }
        None if answer.win && query.best_move => {
            notes.push(format!("{who} has no move, which wins here"))
        }
        None => {}
    }
    notes.push(format!("class {class}"));
    line.push_str(&format!(" ({})", notes.join("; ")));
    line
}

/// The JSON record `solve` prints for a partizan position.
#[derive(Serialize)]
struct SolveRecord {
    game: String,
    position: Vec<u64>,
    class: char,
    left_moves: Vec<Vec<u64>>,
    right_moves: Vec<Vec<u64>>,
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    canonical: Option<Option<String>>,
}

/// `solve GAME HEAPS` for a partizan game: the class, each player's winning moves, and
/// with `canonical` the position's canonical form.
pub fn solve_position(
    game: &PartizanGame,
    position: &Position,
    canonical: bool,
    json: bool,
    policy: PartizanPolicy,
) -> Result<()> {
    let mut chain = PartizanChain::new(game, policy)?;
    let solution = chain.solve(position)?;
    let form = if canonical {
        Some(chain.canonical_sum(position)?)
    } else {
        None
    };
    if json {
        let heaps = |moves: &[Position]| moves.iter().map(|p| p.heaps().to_vec()).collect();
        return print_json(&SolveRecord {
            game: game.title(),
            position: position.heaps().to_vec(),
            class: solution.class.letter(),
            left_moves: heaps(&solution.left_moves),
            right_moves: heaps(&solution.right_moves),
            source: solution.source.name(),
            canonical: form,
        });
    }
    let mut out = Vec::new();
    out.extend_from_slice(format!("{}\nposition: ", game.title()).as_bytes());
    write_heaps(&mut out, position.heaps());
    out.extend_from_slice(
        format!(
            "\nclass: {} ({}; from {})\n",
            solution.class,
            solution.class.in_words(),
            solution.source.name()
        )
        .as_bytes(),
    );
    for (player, moves) in [
        (Player::Left, &solution.left_moves),
        (Player::Right, &solution.right_moves),
    ] {
        out.extend_from_slice(format!("{}'s winning moves: ", player.title()).as_bytes());
        if moves.is_empty() {
            out.extend_from_slice(b"none");
        }
        for (i, after) in moves.iter().enumerate() {
            out.extend_from_slice(if i == 0 { b"to " } else { b", to " });
            write_heaps(&mut out, after.heaps());
        }
        out.push(b'\n');
    }
    match form {
        Some(Some(form)) => out.extend_from_slice(format!("canonical form: {form}\n").as_bytes()),
        Some(None) => out.extend_from_slice(
            format!(
                "canonical form: not computed, it grows past {} games (the bound on canonical forms)\n",
                policy.form_limit
            )
            .as_bytes(),
        ),
        None => {}
    }
    write_out(&out)
}

/// The JSON record of `solve GAME` for a partizan game.
#[derive(Serialize)]
struct SequenceRecord {
    game: String,
    classes: String,
    preperiod: u64,
    period: u64,
    proved: bool,
    dominance: Option<&'static str>,
}

/// `solve GAME` for a partizan game: the one-heap outcome sequence, its period (proved or
/// observed) and dominance.
pub fn solve_game(game: &PartizanGame, limit: u64, json: bool) -> Result<()> {
    let sequence = OutcomeSequence::compute(game, limit)?;
    // A proved period answers any heap: show two periods past the pre-period (at least
    // 24 heaps); an observation shows what was computed.
    let shown = if sequence.proved && sequence.period > 0 {
        (sequence.preperiod + 2 * sequence.period).max(24)
    } else {
        sequence.outcomes.len() as u64
    };
    let classes: String = (0..shown)
        .filter_map(|n| sequence.class(n).map(OutcomeClass::letter))
        .collect();
    let dominance = sequence.dominance().map(Player::name);
    if json {
        return print_json(&SequenceRecord {
            game: game.title(),
            classes,
            preperiod: sequence.preperiod,
            period: sequence.period,
            proved: sequence.proved,
            dominance,
        });
    }
    let mut text = format!(
        "{}: outcome classes of a lone heap of 0, 1, 2, ...\n{classes}\n",
        game.title()
    );
    text.push_str(&match (sequence.period, sequence.proved) {
        (0, _) => format!(
            "no period seen in heaps up to {} (observed, not proved)\n",
            sequence.outcomes.len().saturating_sub(1)
        ),
        (p, true) => format!(
            "pre-period {}, period {p}: proved (every move takes a bounded number of tokens and never splits a heap, so a repeated window of the largest take repeats for ever); every heap size is answered from it\n",
            sequence.preperiod
        ),
        (p, false) => format!(
            "pre-period {}, period {p}: observed in heaps up to {}, not proved{}\n",
            sequence.preperiod,
            sequence.outcomes.len() - 1,
            match game.terminal {
                Terminal::Script(_) => " (a terminal script: the window argument assumes the normal or misère rule)",
                _ => "",
            }
        ),
    });
    text.push_str(&match dominance {
        Some(_) => format!(
            "dominance: {} wins every heap from {} on, whoever starts\n",
            sequence.dominance().map_or("", Player::title),
            sequence.preperiod
        ),
        None => "dominance: none (neither player wins every heap of the period)\n".into(),
    });
    write_out(text.as_bytes())
}

fn write_out(bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    lock.write_all(bytes).map_err(stdout_error)?;
    lock.flush().map_err(stdout_error)
}

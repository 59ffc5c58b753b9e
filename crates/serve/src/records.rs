//! The JSON records of `sicher check --json`, `sicher solve --json` and `sicher solve GAME
//! --json`, field for field, so that a program reads the server's answers as it reads the
//! command line's (the tests compare the two).

use serde::Serialize;
use sicher::answer::{Answer, Evidence, Solution as PositionSolution};
use sicher::game::Convention;
use sicher::search::SearchStats;
use sicher::theory::grundy::{Solution, SolvedSequence};
use sicher::value::Outcome;
use sicher::{Game, Position};

/// One answered position, as `check --json` prints it.
#[derive(Debug, Serialize)]
pub struct AnswerRecord {
    /// The position asked about (heaps ascending).
    pub position: Vec<u64>,
    /// True when the player to move wins.
    pub win: bool,
    /// `"safe"` or `"unsafe"`.
    pub label: &'static str,
    /// The position after one winning move, if any.
    #[serde(rename = "move")]
    pub winning_move: Option<Vec<u64>>,
    /// Which source answered.
    pub source: &'static str,
    /// Moves until the game ends under best play, where the source computed it.
    pub remoteness: Option<u32>,
}

impl AnswerRecord {
    /// The record of an answer.
    pub fn new(answer: &Answer) -> Self {
        let win = answer.value.is_win();
        AnswerRecord {
            position: answer.position.heaps().to_vec(),
            win,
            label: Outcome::from_win(win).label(),
            winning_move: answer.best_move.as_ref().map(|p| p.heaps().to_vec()),
            source: answer.source.name(),
            remoteness: answer.value.remoteness(),
        }
    }
}

/// A position with every winning move, as `solve --json` prints it.
#[derive(Serialize)]
pub struct SolveRecord {
    game: String,
    name: String,
    position: Vec<u64>,
    win: bool,
    label: &'static str,
    remoteness: Option<u32>,
    source: &'static str,
    method: &'static str,
    moves: Moves,
    moves_complete: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    nim_values: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nim_sum: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quotient_order: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quotient_heaps: Option<u64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    quotient_final: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    closed_form: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<SearchStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    table_bytes: Option<usize>,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes_per_second: Option<f64>,
}

/// The moves `solve` lists: the winning ones, or with the remoteness every one valued.
#[derive(Serialize)]
#[serde(untagged)]
enum Moves {
    Winning(Vec<Vec<u64>>),
    Valued(Vec<MoveRecord>),
}

/// One move with what it is worth to the mover.
#[derive(Serialize)]
struct MoveRecord {
    to: Vec<u64>,
    win: bool,
    remoteness: Option<u32>,
}

impl SolveRecord {
    /// The record of a solved position; `valued` when every move was asked for with its
    /// remoteness.
    pub fn new(
        game: &Game,
        position: &Position,
        solved: &PositionSolution,
        valued: bool,
        seconds: f64,
    ) -> Self {
        let win = solved.answer.value.is_win();
        let source = solved.answer.source.name();
        let moves = if valued {
            Moves::Valued(
                solved
                    .moves
                    .iter()
                    .map(|(to, child)| MoveRecord {
                        to: to.heaps().to_vec(),
                        win: !child.is_win(),
                        remoteness: child.remoteness().map(|r| r + 1),
                    })
                    .collect(),
            )
        } else {
            Moves::Winning(
                solved
                    .winning_moves
                    .iter()
                    .map(|m| m.heaps().to_vec())
                    .collect(),
            )
        };
        let mut record = SolveRecord {
            game: game.canonical(),
            name: game.name.clone(),
            position: position.heaps().to_vec(),
            win,
            label: Outcome::from_win(win).label(),
            remoteness: solved.answer.value.remoteness(),
            source,
            method: source,
            moves,
            moves_complete: solved.complete,
            nim_values: None,
            nim_sum: None,
            table: None,
            quotient_order: None,
            quotient_heaps: None,
            quotient_final: false,
            closed_form: None,
            stats: None,
            table_bytes: None,
            seconds,
            nodes_per_second: None,
        };
        match &solved.evidence {
            Evidence::NimValues { values, nim_sum } => {
                record.nim_values = Some(values.clone());
                record.nim_sum = Some(*nim_sum);
            }
            // The file's name only: the server's directories are its own business.
            Evidence::Table { path } => {
                record.table = path.file_name().map(|n| n.to_string_lossy().into_owned());
            }
            Evidence::MisereNim => {}
            Evidence::ClosedForm { rule } => record.closed_form = Some(rule),
            Evidence::Quotient {
                order,
                max_heap,
                periodicity,
            } => {
                record.quotient_order = Some(*order);
                record.quotient_heaps = Some(*max_heap);
                record.quotient_final = periodicity.is_some();
            }
            Evidence::Search { stats, table_bytes } => {
                record.stats = Some(*stats);
                record.table_bytes = Some(*table_bytes);
                record.nodes_per_second = Some(stats.nodes as f64 / seconds.max(1e-9));
            }
        }
        record
    }
}

/// A complete solution, as `solve GAME --json` prints it.
#[derive(Serialize)]
pub struct SolutionRecord {
    game: String,
    name: String,
    play: String,
    solved: bool,
    preperiod: Option<u64>,
    period: Option<u64>,
    saltus: Option<u64>,
    proved_at: Option<u64>,
    computed_to: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<Vec<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcomes: Option<Vec<bool>>,
    /// How many values (or outcomes) the record holds: all of them, the request's `max`
    /// bounding them already (the command line cuts its default output to 1000).
    values_total: u64,
    /// Always true here: every value is sent.
    values_complete: bool,
    closed_form: Option<&'static str>,
    note: String,
}

impl SolutionRecord {
    /// The record of a complete solution of `game`.
    pub fn new(game: &Game, solution: Solution) -> Self {
        let found = solution.periodicity;
        let note = note(game, &solution);
        let (values, outcomes, total) = match solution.sequence {
            SolvedSequence::NimValues(v) => {
                let total = v.len() as u64;
                (Some(v), None, total)
            }
            SolvedSequence::Outcomes(o) => {
                let total = o.len() as u64;
                (None, Some(o), total)
            }
        };
        SolutionRecord {
            game: solution.ruleset.clone(),
            name: game.name.clone(),
            play: solution.convention.to_string(),
            solved: solution.closed_form.is_some() || found.is_some_and(|p| p.proved_at.is_some()),
            preperiod: found.map(|f| f.preperiod),
            period: found.map(|f| f.period),
            saltus: found.map(|f| f.saltus),
            proved_at: found.and_then(|f| f.proved_at),
            computed_to: solution.computed.saturating_sub(1),
            values,
            outcomes,
            values_total: total,
            values_complete: true,
            closed_form: solution.closed_form,
            note,
        }
    }
}

/// The solution in one sentence.
pub fn note(game: &Game, solution: &Solution) -> String {
    let play = match solution.convention {
        Convention::Normal => "normal play",
        Convention::Misere => "misere play",
    };
    let head = format!("{}, {play}", game.title());
    if let Some(form) = solution.closed_form {
        return format!("{head}: solved in closed form: {form}");
    }
    let computed_to = solution.computed.saturating_sub(1);
    match solution.periodicity {
        Some(found) => match found.proved_at {
            Some(at) => format!(
                "{head}: solved: period {} from n = {}{}, proved with the values up to n = {at}",
                found.period,
                found.preperiod,
                if found.saltus > 0 {
                    format!(" with saltus {}", found.saltus)
                } else {
                    String::new()
                }
            ),
            None => format!(
                "{head}: not solved: apparently period {} from n = {} in the values up to n = {computed_to}, not proved",
                found.period, found.preperiod
            ),
        },
        None => format!("{head}: not solved: no period up to n = {computed_to}"),
    }
}

//! The JSON records of answers: what `sicher check --json`, `sicher solve --json` and
//! `sicher solve GAME --json` print and what `sicher serve` sends for the same requests,
//! defined once so that a program reads the server's answers as it reads the command
//! line's, field for field.
//!
//! They live in the answer layer, not in a front end: the command line (`sicher-cli`)
//! depends on the server (`sicher-serve`), so the server cannot reach the command line's
//! types, and both already depend on this library, which already depends on serde.

use std::borrow::Cow;
use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use super::{Answer, Evidence, Solution as PositionSolution};
use crate::game::{Convention, Game, Position};
use crate::search::SearchStats;
use crate::theory::grundy::{Solution, SolvedSequence};
use crate::value::Outcome;

/// One answered position, as `check --json` prints it.
#[derive(Debug, Serialize)]
pub struct AnswerRecord<'a> {
    /// The position asked about (heaps ascending).
    pub position: Cow<'a, [u64]>,
    /// True when the player to move wins.
    pub win: bool,
    /// `"safe"` or `"unsafe"`.
    pub label: &'static str,
    /// The position after one winning move, or `None` when there is none.
    #[serde(rename = "move")]
    pub winning_move: Option<Cow<'a, [u64]>>,
    /// Which source answered ([`SourceKind::name`](super::SourceKind::name)).
    pub source: &'static str,
    /// Moves until the game ends under best play (the winner hurrying, the loser holding
    /// out), or `None` when the answering source did not compute it.
    pub remoteness: Option<u32>,
}

impl<'a> AnswerRecord<'a> {
    /// The record of an answer, borrowing its heaps.
    pub fn new(answer: &'a Answer) -> Self {
        let win = answer.value.is_win();
        AnswerRecord {
            position: Cow::Borrowed(answer.position.heaps()),
            win,
            label: Outcome::from_win(win).label(),
            winning_move: answer.best_move.as_ref().map(|p| Cow::Borrowed(p.heaps())),
            source: answer.source.name(),
            remoteness: answer.value.remoteness(),
        }
    }

    /// The same record holding its heaps, to outlive the answer.
    pub fn into_owned(self) -> AnswerRecord<'static> {
        AnswerRecord {
            position: Cow::Owned(self.position.into_owned()),
            winning_move: self.winning_move.map(|m| Cow::Owned(m.into_owned())),
            win: self.win,
            label: self.label,
            source: self.source,
            remoteness: self.remoteness,
        }
    }
}

/// How a [`SolveRecord`] names the table that answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableName {
    /// The path as the caller gave it (the command line: the user's own file).
    Path,
    /// The file's name only (the server: its directories are its own business).
    FileName,
}

/// A position with every winning move and what the answering source knows beside, as
/// `solve --json` prints it.
#[derive(Debug, Serialize)]
pub struct SolveRecord {
    /// The game's canonical spec.
    game: String,
    /// The game as named by the caller.
    name: String,
    /// The position asked about.
    position: Vec<u64>,
    /// True when the player to move wins.
    win: bool,
    /// `"safe"` or `"unsafe"`.
    label: &'static str,
    /// Moves until the game ends under best play, or `None` when the answering source
    /// did not compute it.
    remoteness: Option<u32>,
    /// Which source answered.
    source: &'static str,
    /// The same, under the name older versions used.
    method: &'static str,
    /// Every winning move (the positions after them); with the remoteness required,
    /// every move as a [`MoveRecord`].
    moves: Moves,
    /// False when some heap was too large to list all its winning moves.
    moves_complete: bool,
    /// The heaps' nim-values, when nim-values answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    nim_values: Option<Vec<u64>>,
    /// Their XOR.
    #[serde(skip_serializing_if = "Option::is_none")]
    nim_sum: Option<u64>,
    /// The table that answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<String>,
    /// Misère quotient answers: the quotient's order.
    #[serde(skip_serializing_if = "Option::is_none")]
    quotient_order: Option<u32>,
    /// The largest heap the quotient covers.
    #[serde(skip_serializing_if = "Option::is_none")]
    quotient_heaps: Option<u64>,
    /// True when the quotient is final (every heap size, by the periodicity theorem).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    quotient_final: bool,
    /// The closed form's rule, when one answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    closed_form: Option<&'static str>,
    /// The search's statistics, when the search answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<SearchStats>,
    /// The bytes its transposition table took.
    #[serde(skip_serializing_if = "Option::is_none")]
    table_bytes: Option<usize>,
    /// How long the answer took.
    seconds: f64,
    /// The search's nodes per second.
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes_per_second: Option<f64>,
}

/// The moves `solve` lists.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Moves {
    /// The winning moves, as the positions they lead to.
    Winning(Vec<Vec<u64>>),
    /// Every move with its value, best first.
    Valued(Vec<MoveRecord>),
}

/// One move with what it is worth to the mover.
#[derive(Debug, Serialize)]
struct MoveRecord {
    /// The position the move leads to.
    to: Vec<u64>,
    /// True when the mover wins by it.
    win: bool,
    /// Moves until the game ends if it is played and both then play best.
    remoteness: Option<u32>,
}

impl SolveRecord {
    /// The record of `position` of `game` solved in `elapsed`; `valued` when every move
    /// was asked for with its remoteness.
    pub fn new(
        game: &Game,
        position: &Position,
        solved: &PositionSolution,
        valued: bool,
        elapsed: Duration,
        table_name: TableName,
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
            seconds: elapsed.as_secs_f64(),
            nodes_per_second: None,
        };
        match &solved.evidence {
            Evidence::NimValues { values, nim_sum } => {
                record.nim_values = Some(values.clone());
                record.nim_sum = Some(*nim_sum);
            }
            Evidence::Table { path } => record.table = table_named(path, table_name),
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
                record.nodes_per_second =
                    Some(stats.nodes as f64 / elapsed.as_secs_f64().max(1e-9));
            }
        }
        record
    }
}

/// The table's name as `naming` wants it.
fn table_named(path: &Path, naming: TableName) -> Option<String> {
    match naming {
        TableName::Path => Some(path.display().to_string()),
        TableName::FileName => path.file_name().map(|n| n.to_string_lossy().into_owned()),
    }
}

/// A complete solution of a one-heap ruleset, as `solve GAME --json` prints it.
#[derive(Debug, Serialize)]
pub struct SolutionRecord<'a> {
    /// The ruleset's canonical spec.
    game: String,
    /// The game as named by the caller.
    name: String,
    /// `"normal"` or `"misere"`.
    play: String,
    /// True when the solution covers every heap size (proved period or closed form).
    solved: bool,
    /// Where the period starts.
    preperiod: Option<u64>,
    /// The period.
    period: Option<u64>,
    /// `s` with G(n + period) = G(n) + s from the pre-period on (0: ordinary periodicity).
    saltus: Option<u64>,
    /// The largest heap whose value the proof needed.
    proved_at: Option<u64>,
    /// Largest heap size computed.
    computed_to: u64,
    /// Normal play: G(0) up to the end of the first period, or a prefix of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<Cow<'a, [u32]>>,
    /// Misère play: whether a lone heap is safe (true: the player to move wins), as many
    /// as `values` would hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    outcomes: Option<Cow<'a, [bool]>>,
    /// How many values (or outcomes) the whole solution holds: heap 0 to the end of the
    /// first period, or all computed when no period was found.
    values_total: u64,
    /// False when `values` (or `outcomes`) is cut to a prefix.
    values_complete: bool,
    /// The closed form, when one replaces the sequence.
    closed_form: Option<&'static str>,
    /// The solution in words ([`solution_note`]).
    note: String,
}

impl<'a> SolutionRecord<'a> {
    /// The record of a complete solution of `game`, borrowing its first `shown` values
    /// (or all of them, when there are fewer).
    pub fn new(game: &Game, solution: &'a Solution, shown: usize) -> Self {
        let (values, outcomes, total) = match &solution.sequence {
            SolvedSequence::NimValues(v) => {
                (Some(Cow::Borrowed(&v[..shown.min(v.len())])), None, v.len())
            }
            SolvedSequence::Outcomes(o) => {
                (None, Some(Cow::Borrowed(&o[..shown.min(o.len())])), o.len())
            }
        };
        Self::with_sequence(game, solution, values, outcomes, total, shown >= total)
    }

    /// The record of a complete solution of `game` with every value, taking them over.
    pub fn whole(game: &Game, mut solution: Solution) -> SolutionRecord<'static> {
        let sequence = std::mem::replace(
            &mut solution.sequence,
            SolvedSequence::NimValues(Vec::new()),
        );
        let (values, outcomes, total) = match sequence {
            SolvedSequence::NimValues(v) => {
                let total = v.len();
                (Some(Cow::Owned(v)), None, total)
            }
            SolvedSequence::Outcomes(o) => {
                let total = o.len();
                (None, Some(Cow::Owned(o)), total)
            }
        };
        SolutionRecord::with_sequence(game, &solution, values, outcomes, total, true)
    }

    /// The record around a sequence already cut (or not).
    fn with_sequence(
        game: &Game,
        solution: &Solution,
        values: Option<Cow<'a, [u32]>>,
        outcomes: Option<Cow<'a, [bool]>>,
        total: usize,
        complete: bool,
    ) -> Self {
        let found = solution.periodicity;
        SolutionRecord {
            game: solution.ruleset.clone(),
            name: game.name.clone(),
            play: solution.convention.to_string(),
            solved: solution.proved(),
            preperiod: found.map(|f| f.preperiod),
            period: found.map(|f| f.period),
            saltus: found.map(|f| f.saltus),
            proved_at: found.and_then(|f| f.proved_at),
            computed_to: solution.computed.saturating_sub(1),
            values,
            outcomes,
            values_total: total as u64,
            values_complete: complete,
            closed_form: solution.closed_form,
            note: solution_note(game, solution),
        }
    }
}

/// What a complete solution of `game` is, in words: solved or not, the period and its
/// proof, or why there is none.
pub fn solution_note(game: &Game, solution: &Solution) -> String {
    let play = match solution.convention {
        Convention::Normal => "normal play",
        Convention::Misere => "misere play",
    };
    let subject = match solution.convention {
        Convention::Normal => "the nim-sequence",
        Convention::Misere => "a lone heap's outcome (safe or unsafe)",
    };
    let capital = match solution.convention {
        Convention::Normal => "The nim-sequence",
        Convention::Misere => "A lone heap's outcome (safe or unsafe)",
    };
    let head = format!("{}, {play}", game.title());
    if let Some(form) = solution.closed_form {
        return format!("{head}: solved in closed form: {form}");
    }
    let computed_to = solution.computed.saturating_sub(1);
    match solution.periodicity {
        Some(found) if found.saltus > 0 => match found.proved_at {
            Some(at) => format!(
                "{head}: solved. {capital} is arithmetic periodic: G(n + {p}) = G(n) + {s} for n >= {n0} (period {p}, saltus {s}), proved by the arithmetic-periodicity test for all-but subtraction games with the values up to n = {at}",
                p = found.period,
                s = found.saltus,
                n0 = found.preperiod
            ),
            None => format!(
                "{head}: not solved. {capital} looks arithmetic periodic, G(n + {p}) = G(n) + {s} for n >= {n0} (period {p}, saltus {s}), observed in the values up to n = {computed_to} and not proved: {}",
                if solution.arithmetic_theorem {
                    "the test needs more values (raise --max)"
                } else {
                    "no arithmetic-periodicity theorem covers this ruleset"
                },
                p = found.period,
                s = found.saltus,
                n0 = found.preperiod
            ),
        },
        Some(found) => match found.proved_at {
            Some(at) => format!(
                "{head}: solved. {} has period {} from n = {}, proved by the periodicity theorem with the values up to n = {at}",
                capital, found.period, found.preperiod
            ),
            None => format!(
                "{head}: not solved. {} looks periodic with period {} from n = {} in the values up to n = {computed_to}, but {}",
                capital,
                found.period,
                found.preperiod,
                if solution.no_theorem {
                    "no periodicity theorem covers this ruleset, so that is not a proof"
                } else {
                    "the theorem needs more values to prove it (raise --max)"
                }
            ),
        },
        None => format!(
            "{head}: not solved. No period found in {subject} up to n = {computed_to}{}",
            if solution.no_theorem {
                " (and no periodicity theorem covers this ruleset)"
            } else {
                "; raise --max to look further"
            }
        ),
    }
}

//! The Sprague-Grundy side of `check` and `solve`: the `--method` choice, complete
//! solutions (`solve GAME` with no heaps) and normal-play answers by XOR of nim-values.

use clap::{Args, ValueEnum};
use serde::Serialize;

use std::io::Write;
use std::path::PathBuf;

use super::output::{label, progress_bar, verdict, Answer};
use super::stdout_error;
use crate::error::{Error, Result};
use crate::game::{Convention, Game, Position};
use crate::grundy::fast_path::{applies, NimOracle};
use crate::grundy::solution::{default_max, solve, Sequence, Solution};
use crate::table::nim::NimTable;

/// Largest heap for which `--method auto` falls back to search when nim-values fail.
const AUTO_SEARCH_FALLBACK: u64 = 4096;
/// How positions are answered.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerMethod {
    /// Nim-values where Sprague-Grundy theory applies (normal play, one-heap moves), else search.
    Auto,
    /// Always the top-down search.
    Search,
    /// Always nim-values (an error where they do not apply).
    Grundy,
}

/// The `--method` and `--max` flags of `check` and `solve`.
#[derive(Args, Debug, Clone)]
pub struct MethodArgs {
    /// Search, nim-values, or whichever applies.
    #[arg(long, value_enum, default_value_t = AnswerMethod::Auto)]
    pub method: AnswerMethod,
    /// Largest heap size whose nim-value (or misère outcome) may be computed; larger heaps
    /// need a proved period. Default: 1000000 (2000 for rulesets without a fast engine).
    #[arg(long, value_name = "N")]
    pub max: Option<u64>,
    /// Answer from this nim-value table (`nim-values --write`) instead of computing.
    #[arg(long, value_name = "FILE")]
    pub nim_table: Option<PathBuf>,
}

impl MethodArgs {
    fn max_for(&self, game: &Game) -> u64 {
        self.max.unwrap_or_else(|| default_max(&game.ruleset))
    }

    /// The nim-value oracle that answers positions up to heap `largest`, or `None` when
    /// the search should answer instead.
    pub fn oracle(&self, game: &Game, largest: u64) -> Result<Option<NimOracle>> {
        if let Some(path) = &self.nim_table {
            if !applies(game) || self.method == AnswerMethod::Search {
                return Err(Error::input(
                    "--nim-table answers normal play of one-heap rulesets with the grundy method",
                ));
            }
            let oracle = NimOracle::from_table(&game.ruleset, NimTable::open(path)?)?;
            if !covers(&oracle, largest) {
                return Err(Error::input(format!(
                    "{}: heap {largest} is beyond the {} values stored and the table holds no proved period",
                    path.display(),
                    oracle.computed()
                )));
            }
            return Ok(Some(oracle));
        }
        match self.method {
            AnswerMethod::Search => Ok(None),
            AnswerMethod::Grundy if !applies(game) => Err(Error::input(format!(
                "--method grundy needs normal play of a ruleset whose moves change one heap; {} is {}",
                game.ruleset,
                if game.ruleset.moves_one_heap() {
                    "played misère here"
                } else {
                    "a coupled-move ruleset"
                }
            ))),
            AnswerMethod::Grundy => {
                NimOracle::new(&game.ruleset, largest, self.max_for(game).saturating_add(1))
                    .map(Some)
            }
            // Falling back is safe, the search answers the same question, but only worth it
            // for heaps a search can finish; past that the nim-values' reason is the answer.
            AnswerMethod::Auto if applies(game) => {
                match NimOracle::new(&game.ruleset, largest, self.max_for(game).saturating_add(1)) {
                    Ok(oracle) => Ok(Some(oracle)),
                    Err(_) if largest <= AUTO_SEARCH_FALLBACK => Ok(None),
                    Err(error) => Err(error),
                }
            }
            AnswerMethod::Auto => Ok(None),
        }
    }
}

/// True when `oracle` can answer a position with heaps up to `largest`.
pub fn covers(oracle: &NimOracle, largest: u64) -> bool {
    oracle.periodicity().is_some() || largest < oracle.computed() || oracle.closed_form()
}

/// Answers one position through nim-values, as `check` prints it.
pub fn answer(oracle: &NimOracle, position: &Position) -> Answer {
    let verdict = oracle.verdict(position);
    Answer::new(
        position,
        verdict.win,
        verdict.winning_move.map(|m| m.after),
        "grundy",
    )
}

/// The JSON record of `solve` on a position answered by nim-values.
#[derive(Serialize)]
struct PositionRecord {
    game: String,
    position: Vec<u64>,
    win: bool,
    label: &'static str,
    method: &'static str,
    nim_values: Vec<u64>,
    nim_sum: u64,
    /// Every winning move, or one per heap for heaps too large to scan (see `moves_complete`).
    moves: Vec<Vec<u64>>,
    /// False when some heap was too large to list all its winning moves.
    moves_complete: bool,
}

/// Options scanned per heap, at most, to list all of its winning moves.
const LIST_ALL_LIMIT: u64 = 1 << 22;

/// `solve` on a position by nim-values: the verdict and every winning move (one per heap
/// for heaps too large to scan).
pub fn solve_position(
    game: &Game,
    oracle: &NimOracle,
    position: &Position,
    json: bool,
) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let heaps = position.heaps();
    let nim_values: Vec<u64> = heaps.iter().map(|&h| oracle.value(h)).collect();
    let nim_sum = nim_values.iter().fold(0, |acc, &v| acc ^ v);
    let mut moves = Vec::new();
    let mut moves_complete = true;
    let mut last = None;
    for (&h, &v) in heaps.iter().zip(&nim_values) {
        if nim_sum == 0 || last == Some(h) {
            continue;
        }
        last = Some(h);
        let target = v ^ nim_sum;
        // An option may have a larger value than its heap (mex promises only the smaller
        // ones), so listing all moves scans every heap; a lone move needs `target < v`.
        let options = oracle
            .all_options_with_value(h, target, LIST_ALL_LIMIT)
            .unwrap_or_else(|| {
                moves_complete = false;
                let reachable = target < v;
                reachable
                    .then(|| oracle.option_with_value(h, target))
                    .flatten()
                    .into_iter()
                    .collect()
            });
        for leaves in options {
            let mut rest = heaps.to_vec();
            if let Some(i) = rest.iter().position(|&x| x == h) {
                rest.remove(i);
            }
            rest.extend_from_slice(&leaves);
            moves.push(Position::new(rest));
        }
    }
    // Moves on different heaps can meet in one position.
    moves.sort();
    moves.dedup();
    let win = nim_sum != 0;
    if json {
        return write_json(
            &mut out,
            &PositionRecord {
                game: game.canonical(),
                position: heaps.to_vec(),
                win,
                label: label(win),
                method: "grundy",
                nim_values,
                nim_sum,
                moves: moves.iter().map(|m| m.heaps().to_vec()).collect(),
                moves_complete,
            },
        );
    }
    writeln!(
        out,
        "{} ({}) {position}: {}",
        game.name,
        game.convention,
        verdict(win)
    )
    .map_err(stdout_error)?;
    let values: Vec<String> = nim_values.iter().map(u64::to_string).collect();
    writeln!(out,
        "nim-values {} (XOR {nim_sum}): by Sprague-Grundy theory the position is unsafe exactly when the XOR is 0",
        values.join(" ")
    ).map_err(stdout_error)?;
    if win {
        let list: Vec<String> = moves.iter().map(|m| format!("to {m}")).collect();
        let count = if moves_complete {
            format!("{}", moves.len())
        } else {
            format!("{}; one per heap too large to list all", moves.len())
        };
        writeln!(out, "winning moves ({count}): {}", list.join("; ")).map_err(stdout_error)?;
    } else {
        writeln!(
            out,
            "no winning move: every move leaves a safe position for the opponent"
        )
        .map_err(stdout_error)?;
    }
    Ok(())
}

/// The JSON record of a complete solution.
#[derive(Serialize)]
struct SolutionRecord {
    game: String,
    play: String,
    /// True when the solution covers every heap size (proved period or closed form).
    solved: bool,
    preperiod: Option<u64>,
    period: Option<u64>,
    proved_at: Option<u64>,
    /// Largest heap size computed.
    computed_to: u64,
    /// Normal play: G(0) up to the end of the first period.
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<Vec<u32>>,
    /// Misère play: whether a lone heap is safe (true: the player to move wins).
    #[serde(skip_serializing_if = "Option::is_none")]
    outcomes: Option<Vec<bool>>,
    closed_form: Option<&'static str>,
    note: String,
}

/// `solve GAME` with no heaps: the complete solution of a one-heap ruleset.
pub fn solve_game(game: &Game, args: &MethodArgs, json: bool, quiet: bool) -> Result<()> {
    if args.method == AnswerMethod::Search {
        return Err(Error::input(
            "a complete solution comes from nim-values or lone-heap outcomes, not from the search; drop --method search or give heaps",
        ));
    }
    let max = args.max_for(game);
    let bar = progress_bar(max.saturating_add(1), quiet, "heaps");
    let solution = solve(game, max, &mut |done| bar.set_position(done))?;
    bar.finish_and_clear();
    let note = describe(&solution);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (values, outcomes) = match &solution.sequence {
        Sequence::NimValues(v) => (Some(v.clone()), None),
        Sequence::Outcomes(o) => (None, Some(o.clone())),
    };
    if json {
        let found = solution.periodicity;
        return write_json(
            &mut out,
            &SolutionRecord {
                game: solution.ruleset.clone(),
                play: solution.convention.to_string(),
                solved: solution.proved(),
                preperiod: found.map(|f| f.preperiod),
                period: found.map(|f| f.period),
                proved_at: found.and_then(|f| f.proved_at),
                computed_to: solution.computed.saturating_sub(1),
                values,
                outcomes,
                closed_form: solution.closed_form,
                note,
            },
        );
    }
    writeln!(out, "{note}").map_err(stdout_error)?;
    if let Some(found) = solution.periodicity {
        let n0 = found.preperiod as usize;
        let end = n0 + found.period as usize;
        let show = |from: usize, to: usize| -> String {
            match &solution.sequence {
                Sequence::NimValues(v) => v[from..to]
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
                Sequence::Outcomes(o) => o[from..to]
                    .iter()
                    .map(|&w| if w { "S" } else { "U" })
                    .collect::<Vec<_>>()
                    .join(" "),
            }
        };
        let what = match solution.sequence {
            Sequence::NimValues(_) => "G",
            Sequence::Outcomes(_) => "outcome",
        };
        if n0 > 0 {
            writeln!(out, "pre-period, {what}(0..={}): {}", n0 - 1, show(0, n0))
                .map_err(stdout_error)?;
        } else {
            writeln!(out, "pre-period: empty").map_err(stdout_error)?;
        }
        writeln!(out, "period, {what}({n0}..={}): {}", end - 1, show(n0, end))
            .map_err(stdout_error)?;
        match solution.sequence {
            Sequence::NimValues(_) => writeln!(
                out,

                "G(n) = G({n0} + (n - {n0}) mod {}) for n >= {n0}; a position is unsafe (the player to move loses) exactly when the XOR of its heaps' values is 0",
                found.period
            ),
            Sequence::Outcomes(_) => writeln!(out,
                "S: a lone heap of that size is safe (the player to move wins); U: unsafe (the player to move loses)"
            ),
        }
        .map_err(stdout_error)?;
    }
    Ok(())
}

/// One paragraph saying what the solution is, in words.
fn describe(solution: &Solution) -> String {
    let play = match solution.convention {
        Convention::Normal => "normal play",
        Convention::Misere => "misère play",
    };
    let subject = match solution.convention {
        Convention::Normal => "the nim-sequence",
        Convention::Misere => "a lone heap's outcome (safe or unsafe)",
    };
    let capital = match solution.convention {
        Convention::Normal => "The nim-sequence",
        Convention::Misere => "A lone heap's outcome (safe or unsafe)",
    };
    let head = format!("{} ({play})", solution.ruleset);
    if let Some(form) = solution.closed_form {
        return format!("{head}: solved in closed form: {form}");
    }
    let computed_to = solution.computed.saturating_sub(1);
    match solution.periodicity {
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

/// Writes one JSON record on its own line.
fn write_json<T: Serialize>(out: &mut impl Write, record: &T) -> Result<()> {
    serde_json::to_writer(&mut *out, record)
        .map_err(|e| Error::input(format!("cannot encode JSON: {e}")))?;
    writeln!(out).map_err(stdout_error)
}

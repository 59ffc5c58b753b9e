//! `solve GAME` with no heaps: the complete solution of a one-heap ruleset (its
//! nim-sequence or lone-heap outcomes, period and proof), in words and as JSON.

use serde::Serialize;

use std::io::Write;

use super::output::{progress_bar, write_numbers};
use super::stdout_error;
use sicher::error::Result;
use sicher::game::{Convention, Game};
use sicher::theory::grundy::{default_max, solve_with_threads, Solution, SolvedSequence};

/// The JSON record of a complete solution.
#[derive(Serialize)]
struct SolutionRecord<'a> {
    game: String,
    /// The game as named on the command line.
    name: String,
    play: String,
    /// True when the solution covers every heap size (proved period or closed form).
    solved: bool,
    preperiod: Option<u64>,
    period: Option<u64>,
    /// `s` with G(n + period) = G(n) + s from the pre-period on (0: ordinary periodicity).
    saltus: Option<u64>,
    proved_at: Option<u64>,
    /// Largest heap size computed.
    computed_to: u64,
    /// Normal play: G(0) up to the end of the first period, or its first
    /// [`SHOWN_VALUES`] without `--all-values`.
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<&'a [u32]>,
    /// Misère play: whether a lone heap is safe (true: the player to move wins), as many
    /// as `values` holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    outcomes: Option<&'a [bool]>,
    /// How many values (or outcomes) the whole record holds: heap 0 to the end of the
    /// first period, or all computed when no period was found.
    values_total: u64,
    /// False when `values` (or `outcomes`) is cut to its first [`SHOWN_VALUES`];
    /// `--all-values` prints them all.
    values_complete: bool,
    closed_form: Option<&'static str>,
    note: String,
}

/// How many values of each part a complete solution shows without `--all-values`.
pub const SHOWN_VALUES: usize = 1000;

/// `solve GAME` with no heaps: the complete solution of a one-heap ruleset, its
/// nim-values on `threads` threads (by default the idle cores').
pub fn solve_game(
    game: &Game,
    max: Option<u64>,
    json: bool,
    quiet: bool,
    all_values: bool,
    threads: Option<u32>,
) -> Result<()> {
    let max = max.unwrap_or_else(|| default_max(&game.ruleset));
    let bar = progress_bar(max.saturating_add(1), quiet, "heaps");
    let threads = threads.map_or_else(crate::nim_values::default_threads, |n| n as usize);
    let solution = solve_with_threads(game, max, threads, &mut |done| bar.set_position(done))?;
    bar.finish_and_clear();
    let note = describe(game, &solution);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let total = match &solution.sequence {
        SolvedSequence::NimValues(v) => v.len(),
        SolvedSequence::Outcomes(o) => o.len(),
    };
    // A period can be 149 459 values long (0.16): a bounded prefix by default, with the
    // pre-period, period and saltus that say the rest.
    let shown = if all_values {
        total
    } else {
        total.min(SHOWN_VALUES)
    };
    let (values, outcomes) = match &solution.sequence {
        SolvedSequence::NimValues(v) => (Some(&v[..shown]), None),
        SolvedSequence::Outcomes(o) => (None, Some(&o[..shown])),
    };
    if json {
        let found = solution.periodicity;
        return super::output::write_json(
            &mut out,
            &SolutionRecord {
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
                values_complete: shown == total,
                closed_form: solution.closed_form,
                note,
            },
        );
    }
    writeln!(out, "{note}").map_err(stdout_error)?;
    if let Some(found) = solution.periodicity {
        let n0 = found.preperiod as usize;
        let end = n0 + found.period as usize;
        // Written straight into one buffer: a sequence can hold a million values, and a
        // string per value cost more than computing them (0.16's period is 149 459 long).
        let show_values = |line: &mut Vec<u8>, from: usize, to: usize| match &solution.sequence {
            SolvedSequence::NimValues(v) => {
                write_numbers(line, v[from..to].iter().map(|&x| x.into()))
            }
            SolvedSequence::Outcomes(o) => {
                for (i, &w) in o[from..to].iter().enumerate() {
                    if i > 0 {
                        line.push(b' ');
                    }
                    line.push(if w { b'S' } else { b'U' });
                }
            }
        };
        let mut cut = false;
        let mut show = |line: &mut Vec<u8>, from: usize, to: usize| {
            let end = if all_values {
                to
            } else {
                to.min(from + SHOWN_VALUES)
            };
            show_values(line, from, end);
            if end < to {
                cut = true;
                line.extend_from_slice(format!(" … ({} more)", to - end).as_bytes());
            }
        };
        let what = match solution.sequence {
            SolvedSequence::NimValues(_) => "G",
            SolvedSequence::Outcomes(_) => "outcome",
        };
        let mut line = Vec::new();
        if n0 > 0 {
            line.extend_from_slice(format!("pre-period, {what}(0..={}): ", n0 - 1).as_bytes());
            show(&mut line, 0, n0);
        } else {
            line.extend_from_slice(b"pre-period: empty");
        }
        line.extend_from_slice(format!("\nperiod, {what}({n0}..={}): ", end - 1).as_bytes());
        show(&mut line, n0, end);
        line.push(b'\n');
        if cut {
            line.extend_from_slice(
                format!("(at most {SHOWN_VALUES} values of each part shown; --all-values prints every one)\n")
                    .as_bytes(),
            );
        }
        out.write_all(&line).map_err(stdout_error)?;
        match solution.sequence {
            SolvedSequence::NimValues(_) if found.saltus > 0 => writeln!(
                out,
                "G(n) = G({n0} + (n - {n0}) mod {p}) + {s}·floor((n - {n0}) / {p}) for n >= {n0}; a position is unsafe (the player to move loses) exactly when the XOR of its heaps' values is 0",
                p = found.period,
                s = found.saltus
            ),
            SolvedSequence::NimValues(_) => writeln!(
                out,

                "G(n) = G({n0} + (n - {n0}) mod {}) for n >= {n0}; a position is unsafe (the player to move loses) exactly when the XOR of its heaps' values is 0",
                found.period
            ),
            SolvedSequence::Outcomes(_) => writeln!(out,
                "S: a lone heap of that size is safe (the player to move wins); U: unsafe (the player to move loses)"
            ),
        }
        .map_err(stdout_error)?;
    }
    Ok(())
}

/// One paragraph saying what the solution is, in words.
fn describe(game: &Game, solution: &Solution) -> String {
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

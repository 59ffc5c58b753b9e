//! `solve GAME` with no heaps: the complete solution of a one-heap ruleset (its
//! nim-sequence or lone-heap outcomes, period and proof), in words and as JSON.

use std::io::Write;

use super::output::{progress_bar, write_numbers};
use super::stdout_error;
use sicher::answer::{solution_note, SolutionRecord};
use sicher::error::Result;
use sicher::game::Game;
use sicher::theory::grundy::{default_max, solve_with_threads, SolvedSequence};

/// How many values of each part a complete solution shows without `--all-values`.
pub const SHOWN_VALUES: usize = 1000;

/// `solve GAME` with no heaps: the complete solution of a one-heap ruleset, its
/// nim-values on `threads` threads (by default one per core).
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
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // A period can be 149 459 values long (0.16): a bounded prefix by default, with the
    // pre-period, period and saltus that say the rest.
    let shown = if all_values { usize::MAX } else { SHOWN_VALUES };
    if json {
        return super::output::write_json(&mut out, &SolutionRecord::new(game, &solution, shown));
    }
    writeln!(out, "{}", solution_note(game, &solution)).map_err(stdout_error)?;
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

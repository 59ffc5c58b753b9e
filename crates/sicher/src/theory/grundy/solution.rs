//! Complete solutions of one-heap rulesets: the nim-sequence (normal play) or the lone-heap
//! outcomes (misère play without splitting), with its ultimate period and, where a
//! theorem allows, the proof.

use std::ops::ControlFlow;

use super::arithmetic::{find_arithmetic, prove_all_but};
use super::period::{find_apparent, PeriodFinder, Periodicity, ProofBound};
use super::values::{check_request, engine, Method, Nimber, Values};
use crate::error::{Error, Hint, Result};
use crate::game::{Convention, Game, Ruleset, SubtractionFamily};

/// Heaps computed before the first look for a period; later looks come every 1/64 more
/// (a look costs a pass over the candidate periods, cheap next to computing the values,
/// and values computed past the proof are wasted).
const FIRST_CHECKPOINT: u64 = 256;

/// What a complete solution found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolvedSequence {
    /// Normal play: nim-values (the pre-period and one period when periodic).
    NimValues(Vec<Nimber>),
    /// Misère play: whether a lone heap is safe (the player to move wins), same layout.
    Outcomes(Vec<bool>),
}

/// A game's complete solution, or how far the search for one got.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The ruleset's canonical spec.
    pub ruleset: String,
    /// Normal or misère.
    pub convention: Convention,
    /// Heap sizes computed: `0..computed`.
    pub computed: u64,
    /// The ultimate period, proved or apparent, if one showed up.
    pub periodicity: Option<Periodicity>,
    /// True when no periodicity theorem covers this ruleset.
    pub no_theorem: bool,
    /// True when the theorem that covers it is the arithmetic-periodicity test for all-but
    /// subtraction games (a period with a saltus), not the periodicity theorem.
    pub arithmetic_theorem: bool,
    /// A closed form replacing the sequence (Nim).
    pub closed_form: Option<&'static str>,
    /// The pre-period then one period (when a period is known), else empty.
    pub sequence: SolvedSequence,
}

impl Solution {
    /// True when a period is known and proved.
    pub fn proved(&self) -> bool {
        self.closed_form.is_some() || self.periodicity.is_some_and(|p| p.proved_at.is_some())
    }
}

/// Default number of heap sizes `solve` computes when looking for a period.
pub fn default_max(ruleset: &Ruleset) -> u64 {
    if super::values::SparseSpace::new(ruleset).is_some() {
        1_000_000
    } else if matches!(ruleset, Ruleset::Custom(_)) {
        // Rules of a script or a program: each heap's options are listed by the
        // interpreter, whose arrays cost the square of their size to fill, so the
        // sequence costs the cube of its length (2 000 heaps of Kayles as a script took
        // 10 s of CPU; 1 000 take about one).
        1_000
    } else {
        // The plain mex engine is quadratic or worse in the heap size.
        2_000
    }
}

/// Solves `game` (normal or misère) computing at most heap sizes `0..=max`; `progress`
/// hears how many heap sizes are done.
pub fn solve(game: &Game, max: u64, progress: &mut dyn FnMut(u64)) -> Result<Solution> {
    solve_with_threads(game, max, 1, progress)
}

/// [`solve`], computing nim-values on `threads` threads where the engine can share its
/// work (the same solution for any count).
pub fn solve_with_threads(
    game: &Game,
    max: u64,
    threads: usize,
    progress: &mut dyn FnMut(u64),
) -> Result<Solution> {
    let len = max.saturating_add(1);
    check_request(&game.ruleset, len)?;
    match game.convention {
        Convention::Normal => solve_normal(&game.ruleset, len, threads, progress),
        Convention::Misere => solve_misere(&game.ruleset, len, progress),
    }
}

/// For an all-but subtraction game, the largest size it leaves out (`t` of the
/// arithmetic-periodicity test, [`prove_all_but`]).
pub(super) fn all_but_largest_excluded(ruleset: &Ruleset) -> Option<u64> {
    match ruleset {
        Ruleset::InfiniteSubtraction(family @ SubtractionFamily::AllBut(_)) => {
            family.all_from().map(|from| from - 1)
        }
        _ => None,
    }
}

/// The arithmetic periodicity the values of an all-but game show, when they prove it.
pub(super) fn proved_arithmetic(values: Values<'_>, t: u64) -> Option<Periodicity> {
    let widened;
    let values = match values {
        Values::Wide(values) => values,
        // The engines of all-but games hold 32-bit values; others are widened here.
        Values::Narrow(_) => {
            widened = values.to_vec(0, values.len());
            &widened[..]
        }
    };
    let mut found = find_arithmetic(values)?;
    found.proved_at = Some(prove_all_but(values, &found, t)?);
    Some(found)
}

fn next_checkpoint(at: u64) -> u64 {
    at + (at / 64).max(FIRST_CHECKPOINT)
}

fn solve_normal(
    ruleset: &Ruleset,
    len: u64,
    threads: usize,
    progress: &mut dyn FnMut(u64),
) -> Result<Solution> {
    let mut solution = Solution {
        ruleset: ruleset.spec(),
        convention: Convention::Normal,
        computed: 0,
        periodicity: None,
        no_theorem: false,
        arithmetic_theorem: false,
        closed_form: None,
        sequence: SolvedSequence::NimValues(Vec::new()),
    };
    if ruleset.nim_values_are_sizes() {
        solution.closed_form = Some(
            "G(n) = n for every n: a position is unsafe exactly when the XOR of its heaps is 0",
        );
        return Ok(solution);
    }
    let bound = ProofBound::for_ruleset(ruleset);
    let all_but = all_but_largest_excluded(ruleset);
    solution.no_theorem = bound.is_none() && all_but.is_none();
    solution.arithmetic_theorem = all_but.is_some();
    let mut sequence = engine(ruleset, Method::Fast, len)?;
    sequence.set_threads(threads);
    // The looks below come more often than the engine's, so they find any proof first.
    sequence.leave_periods_to_caller();
    let mut finder = bound.map(PeriodFinder::new);
    let mut target = FIRST_CHECKPOINT.min(len);
    loop {
        ruleset.prepare(target - 1)?;
        sequence.extend_to(target as usize);
        progress(target);
        if let Some(finder) = &mut finder {
            if let Some(found) = sequence.values().find_with(finder) {
                solution.periodicity = Some(found);
                break;
            }
        }
        if let Some(t) = all_but {
            if let Some(found) = proved_arithmetic(sequence.values(), t) {
                solution.periodicity = Some(found);
                break;
            }
        }
        if target == len {
            solution.periodicity = sequence.values().find_apparent_or_arithmetic();
            break;
        }
        target = next_checkpoint(target).min(len);
    }
    // The finder's tables go before the values are widened to 32 bits.
    drop(finder);
    solution.computed = sequence.values().len() as u64;
    if let Some(found) = solution.periodicity {
        let keep = (found.preperiod + found.period) as usize;
        solution.sequence = SolvedSequence::NimValues(sequence.into_prefix(keep));
    }
    Ok(solution)
}

/// Misère play of a ruleset whose moves never leave two heaps: a lone heap's outcome
/// depends only on its options' outcomes, so the same window argument applies.
fn solve_misere(ruleset: &Ruleset, len: u64, progress: &mut dyn FnMut(u64)) -> Result<Solution> {
    ruleset.prepare(len - 1)?;
    if ruleset.parts_up_to(len - 1) > 1 {
        return Err(Error::input(format!(
            "no complete misère solution for {ruleset}: its moves split heaps"
        ))
        .with_hint(Hint::UseQuotient(ruleset.spec())));
    }
    let mut solution = Solution {
        ruleset: ruleset.spec(),
        convention: Convention::Misere,
        computed: 0,
        periodicity: None,
        no_theorem: false,
        arithmetic_theorem: false,
        closed_form: None,
        sequence: SolvedSequence::Outcomes(Vec::new()),
    };
    if ruleset.nim_values_are_sizes() {
        solution.closed_form = Some("a lone heap is unsafe only at size 1 (misère Nim: a position is unsafe exactly when its XOR is 0 with some heap above 1, or 1 with every heap at most 1)");
        return Ok(solution);
    }
    let bound = ProofBound::for_ruleset(ruleset);
    solution.no_theorem = bound.is_none();
    let mut outcomes: Vec<bool> = Vec::new();
    outcomes.try_reserve_exact(len as usize).map_err(|_| {
        Error::resource(format!("not enough memory for {len} outcomes")).with_hint(Hint::LowerMax)
    })?;
    let mut finder = bound.map(PeriodFinder::new);
    let mut target = FIRST_CHECKPOINT.min(len);
    loop {
        ruleset.prepare(target - 1)?;
        while (outcomes.len() as u64) < target {
            push_lone_heap_outcome(ruleset, &mut outcomes);
        }
        progress(target);
        if let Some(finder) = &mut finder {
            if let Some(found) = finder.check(&outcomes) {
                solution.periodicity = Some(found);
                break;
            }
        }
        if target == len {
            solution.periodicity = find_apparent(&outcomes);
            break;
        }
        target = next_checkpoint(target).min(len);
    }
    solution.computed = outcomes.len() as u64;
    if let Some(found) = solution.periodicity {
        outcomes.truncate((found.preperiod + found.period) as usize);
        solution.sequence = SolvedSequence::Outcomes(outcomes);
    }
    Ok(solution)
}

/// Appends whether a lone heap of the next size is safe in misère play, from the smaller
/// heaps' outcomes (rulesets that never split a heap).
fn push_lone_heap_outcome(ruleset: &Ruleset, outcomes: &mut Vec<bool>) {
    let n = outcomes.len() as u64;
    // No move at all (including the empty heap) wins in misère play.
    let mut any = false;
    let mut win = false;
    let _ = ruleset.for_each_heap_option(n, |parts| {
        any = true;
        // Leaving nothing hands the opponent a position without moves: their win.
        let option_wins = parts.first().is_none_or(|&h| outcomes[h as usize]);
        if option_wins {
            ControlFlow::Continue(())
        } else {
            win = true;
            ControlFlow::Break(())
        }
    });
    outcomes.push(!any || win);
}

/// Whether a lone heap of each size `0..len` is safe in misère play, for rulesets that
/// never split a heap.
pub fn lone_heap_outcomes(ruleset: &Ruleset, len: u64) -> Result<Vec<bool>> {
    ruleset.prepare(len.saturating_sub(1))?;
    if ruleset.parts_up_to(len.saturating_sub(1)) > 1 || !ruleset.moves_one_heap() {
        return Err(Error::input(format!(
            "{ruleset}: a lone heap's misère outcome alone says little when moves split heaps or change several"
        )));
    }
    let mut outcomes: Vec<bool> = Vec::new();
    outcomes
        .try_reserve_exact(usize::try_from(len).unwrap_or(usize::MAX))
        .map_err(|_| {
            Error::resource(format!("not enough memory for {len} outcomes"))
                .with_hint(Hint::LowerMax)
        })?;
    while (outcomes.len() as u64) < len {
        push_lone_heap_outcome(ruleset, &mut outcomes);
    }
    Ok(outcomes)
}

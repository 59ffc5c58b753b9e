//! Why a position has its value, in the terms of the theory that answered: each heap's
//! nim-value and their XOR, each heap's element of the misère quotient and the quotient's
//! verdict, the closed form's rule; and the game's period with the heap where its proof
//! closed. Periods and quotients are computed once per game and kept (a few dozen games,
//! a few kilobytes each).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use serde::Serialize;
use sicher::answer::{on_the_fly_budget, Evidence, SourceKind};
use sicher::game::Convention;
use sicher::theory::grundy::{default_max, solve};
use sicher::theory::quotient::{compute_as_far_as, MisereQuotient};
use sicher::{Game, Position, Ruleset};

use crate::report::Report;
use crate::work::Allowance;

/// Largest heap a period is looked for up to in the panel (a request's budget applies too).
const PERIOD_MAX: u64 = 20_000;
/// Largest heap a misère quotient is built to for the panel.
const QUOTIENT_MAX: u64 = 300;
/// Games whose periods and quotients are kept.
const KEPT: usize = 64;

/// The "why" panel's facts.
#[derive(Serialize, Default)]
pub struct Why {
    /// Which source answered: `grundy`, `quotient`, `closed-form`, `table` or `search`.
    pub source: &'static str,
    /// That source, in words.
    pub source_words: String,
    /// Normal play: each heap's nim-value, in the position's order (ascending heaps).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nim_values: Option<Vec<u64>>,
    /// Their XOR: 0 exactly when the player to move loses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nim_sum: Option<u64>,
    /// Misère play: the quotient's account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quotient: Option<QuotientWhy>,
    /// The closed form's rule, where one answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The game's period, where one is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<PeriodWhy>,
}

/// Each heap's element of the misère quotient and what their product says.
#[derive(Serialize, Clone)]
pub struct QuotientWhy {
    /// The quotient's order.
    pub order: u32,
    /// Its presentation, e.g. `a, b | a^2 = 1, b^3 = b`.
    pub presentation: String,
    /// The unsafe elements.
    pub p_portion: String,
    /// Each heap's element (normal form), in the position's order.
    pub elements: Vec<String>,
    /// The position's element.
    pub element: String,
    /// True when that element is in the P-portion (the player to move loses).
    pub unsafe_element: bool,
    /// Heaps up to this are covered (or every heap when `final_quotient`).
    pub heaps_covered: u64,
    /// True when the periodicity theorem makes it exact for every heap.
    pub final_quotient: bool,
}

/// The period of the game's nim-sequence (normal play) or lone-heap outcomes (misère).
#[derive(Serialize, Clone)]
pub struct PeriodWhy {
    /// The period's first heap.
    pub preperiod: Option<u64>,
    /// Its length.
    pub period: Option<u64>,
    /// The arithmetic period's increment (0: ordinary).
    pub saltus: Option<u64>,
    /// The heap whose value closed the proof, when proved.
    pub proved_at: Option<u64>,
    /// Heaps looked at.
    pub computed_to: u64,
    /// The solution in one sentence.
    pub note: String,
}

/// The panel for a report of `game`.
pub fn why(game: &Game, report: &Report, allowance: &Allowance) -> Why {
    let mut why = Why {
        source: report.source.name(),
        source_words: words(report.source).to_string(),
        ..Why::default()
    };
    match &report.evidence {
        Evidence::NimValues { values, nim_sum } => {
            why.nim_values = Some(values.clone());
            why.nim_sum = Some(*nim_sum);
        }
        Evidence::MisereNim => {
            why.rule = Some("Bouton's misère Nim: the player to move loses exactly when the nim-sum is 0 with a heap above 1, or 1 with every heap at most 1".into());
        }
        Evidence::ClosedForm { rule } => why.rule = Some((*rule).to_string()),
        Evidence::Quotient { .. } => why.quotient = quotient_why(game, &report.position, allowance),
        Evidence::Table { .. } | Evidence::Search { .. } => {}
    }
    why.period = period(game, allowance);
    why
}

/// The answering source in words.
fn words(source: SourceKind) -> &'static str {
    match source {
        SourceKind::NimValues => "Sprague-Grundy theory: the XOR of the heaps' nim-values",
        SourceKind::Quotient => "misère theory: Bouton's rule or the game's misère quotient",
        SourceKind::ClosedForm => "a closed form",
        SourceKind::Table => "an endgame table",
        SourceKind::Search => "the search (no theory reaches this position)",
    }
}

fn kept<T: Clone>(cache: &Mutex<HashMap<String, T>>, key: &str) -> Option<T> {
    cache
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(key)
        .cloned()
}

fn keep<T>(cache: &Mutex<HashMap<String, T>>, key: String, value: T) {
    let mut map = cache.lock().unwrap_or_else(PoisonError::into_inner);
    if map.len() >= KEPT {
        map.clear();
    }
    map.insert(key, value);
}

/// The game's period, computed once (within the request's deadline; a game whose period
/// the budget does not reach is remembered as having none found).
fn period(game: &Game, allowance: &Allowance) -> Option<PeriodWhy> {
    static PERIODS: OnceLock<Mutex<HashMap<String, Option<PeriodWhy>>>> = OnceLock::new();
    let cache = PERIODS.get_or_init(Mutex::default);
    let key = game.canonical();
    if let Some(found) = kept(cache, &key) {
        return found;
    }
    if allowance.expired() {
        return None;
    }
    // A script's options are made for every heap up to the largest before anything is
    // computed, at the script's pace: a smaller range for them.
    let max = match game.ruleset {
        Ruleset::Custom(_) => crate::catalog::SCRIPT_MAX_HEAP,
        _ => PERIOD_MAX.min(default_max(&game.ruleset)),
    };
    let found = allowance
        .attempt(|| solve(game, max, &mut |_| allowance.check()))
        .and_then(Result::ok)
        .map(|solution| {
            let p = solution.periodicity;
            PeriodWhy {
                preperiod: p.map(|p| p.preperiod),
                period: p.map(|p| p.period),
                saltus: p.map(|p| p.saltus),
                proved_at: p.and_then(|p| p.proved_at),
                computed_to: solution.computed.saturating_sub(1),
                note: sicher::answer::solution_note(game, &solution),
            }
        });
    keep(cache, key, found.clone());
    found
}

/// The quotient's account of a misère position of a one-heap ruleset.
fn quotient_why(game: &Game, position: &Position, allowance: &Allowance) -> Option<QuotientWhy> {
    if game.convention != Convention::Misere {
        return None;
    }
    let quotient = quotient(game, position, allowance)?;
    let heaps = position.heaps();
    let elements: Option<Vec<u32>> = heaps.iter().map(|&h| quotient.heap_element(h)).collect();
    let elements = elements?;
    let element = quotient.element(heaps)?;
    Some(QuotientWhy {
        order: quotient.order,
        presentation: quotient.presentation(),
        p_portion: quotient.p_portion_text(),
        elements: elements
            .iter()
            .map(|&x| quotient.normal_forms[x as usize].clone())
            .collect(),
        element: quotient.normal_forms[element as usize].clone(),
        unsafe_element: quotient.p_portion[element as usize],
        heaps_covered: quotient.max_heap,
        final_quotient: quotient.is_final(),
    })
}

/// The misère quotient covering the position's heaps, kept per ruleset and rebuilt
/// further when a larger heap needs it.
fn quotient(
    game: &Game,
    position: &Position,
    allowance: &Allowance,
) -> Option<Arc<MisereQuotient>> {
    static QUOTIENTS: OnceLock<Mutex<HashMap<String, Arc<MisereQuotient>>>> = OnceLock::new();
    let cache = QUOTIENTS.get_or_init(Mutex::default);
    let key = game.ruleset.spec();
    let largest = position.heaps().iter().copied().max().unwrap_or(0);
    if let Some(q) = kept(cache, &key) {
        if q.is_final() || q.max_heap >= largest {
            return Some(q);
        }
    }
    if largest > QUOTIENT_MAX || allowance.expired() {
        return None;
    }
    let mut budget = on_the_fly_budget();
    budget.deadline = Some(std::time::Instant::now() + std::time::Duration::from_millis(500));
    let target = largest.max(QUOTIENT_MAX.min(64));
    let (q, _stopped) = compute_as_far_as(&game.ruleset, target, &budget).ok()?;
    let q = Arc::new(q);
    keep(cache, key, Arc::clone(&q));
    (q.is_final() || q.max_heap >= largest).then_some(q)
}

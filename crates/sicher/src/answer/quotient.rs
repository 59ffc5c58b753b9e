//! Answers misère play of one-heap rulesets by theory: misère Nim by Bouton's rule at any
//! heap size, every other ruleset through its misère quotient (Plambeck and Siegel),
//! computed on the fly up to the largest heap asked about, within a budget, or read from
//! a stored quotient. Where the quotient cannot be built in budget, positions pass on to
//! the next source.

use std::ops::ControlFlow;

use super::{Answer, Evidence, Oracle, Query, Remoteness, Solution, SourceKind};
use crate::error::Result;
use crate::game::{Game, Heap, Position, Ruleset};
use crate::theory::quotient::{self, Budget, MisereQuotient, QuotientError};
use crate::value::{Outcome, Value};

/// A budget for quotients built while answering: small enough that a ruleset whose
/// quotient grows wild gives up within about a second and leaves the position to the next
/// source (`sicher quotient` builds with the full default budget). Guiles (0.15) needs
/// more than 8 rebuilds per heap to become final; at 24 or 32, Daisies (4.7) took 2 and
/// 19 seconds to give up on heap 23 against under one at 16.
pub fn on_the_fly_budget() -> Budget {
    Budget {
        max_order: 256,
        max_pairs: 300_000,
        max_rebuilds: 16,
        ..Budget::default()
    }
}

/// The largest heap a quotient is built to on the fly (Kayles: about half a second);
/// larger heaps pass on to the next source rather than stall the answer.
pub const ON_THE_FLY_MAX_HEAP: Heap = 1000;

/// Misère Nim's rule, or a misère quotient grown as positions need it.
pub struct QuotientSource {
    ruleset: Ruleset,
    rule: Rule,
    /// The largest heap a quotient is built to on the fly.
    ceiling: Heap,
    /// Why the last position declined was not answered.
    declined: Option<String>,
}

enum Rule {
    /// Bouton's misère Nim rule: every heap size.
    MisereNim,
    /// A quotient and how it may grow.
    Quotient {
        quotient: Option<Box<MisereQuotient>>,
        /// The smallest heap the construction could not reach within its budget.
        failed_at: Option<Heap>,
        /// Why it could not.
        stop: Option<quotient::Stop>,
        /// `None` for a stored quotient, which never grows.
        budget: Option<Budget>,
    },
}

impl QuotientSource {
    /// The source for misère play of `game`'s one-heap ruleset, computing quotients
    /// within `budget`; `None` for games it cannot answer (normal play, coupled moves).
    pub fn new(game: &Game, budget: Budget) -> Option<Self> {
        if game.terminal_is_win() && game.ruleset.moves_one_heap() {
            let rule = if game.ruleset.nim_values_are_sizes() {
                Rule::MisereNim
            } else {
                Rule::Quotient {
                    quotient: None,
                    failed_at: None,
                    stop: None,
                    budget: Some(budget),
                }
            };
            return Some(QuotientSource {
                ruleset: game.ruleset.clone(),
                rule,
                ceiling: ON_THE_FLY_MAX_HEAP,
                declined: None,
            });
        }
        None
    }

    /// A source answering from a stored quotient only.
    pub fn stored(game: &Game, quotient: MisereQuotient) -> Self {
        QuotientSource {
            ruleset: game.ruleset.clone(),
            rule: Rule::Quotient {
                quotient: Some(Box::new(quotient)),
                failed_at: None,
                stop: None,
                budget: None,
            },
            ceiling: 0,
            declined: None,
        }
    }

    /// Builds quotients on the fly no further than heap `ceiling` (at most
    /// `ON_THE_FLY_MAX_HEAP`): where the positions asked about are known to stay small,
    /// growth by doubling must not run into a heap whose quotient is out of reach.
    pub fn with_ceiling(mut self, ceiling: Heap) -> Self {
        self.ceiling = ceiling.min(ON_THE_FLY_MAX_HEAP);
        self
    }

    /// The quotient covering heaps up to `largest`, computing it if needed; `None` when
    /// it cannot be had. A final quotient covers every heap; for a heap beyond the
    /// ceiling, quotients are grown by doubling up to the ceiling in search of one.
    fn covering(&mut self, largest: Heap) -> Option<&MisereQuotient> {
        let ceiling = self.ceiling;
        let Rule::Quotient {
            quotient,
            failed_at,
            stop,
            budget,
        } = &mut self.rule
        else {
            return None;
        };
        let covers = |q: &MisereQuotient| q.is_final() || q.max_heap >= largest;
        if !quotient.as_deref().is_some_and(covers) {
            let budget = budget.as_ref()?;
            let beyond = largest > ceiling;
            let mut covered = quotient.as_ref().map_or(0, |q| q.max_heap);
            loop {
                // Grow by doubling, so a batch of growing heaps costs little more than
                // its largest, and a final quotient is found near the least heap range
                // that proves it; never to a heap the budget could not reach before.
                let target = if beyond {
                    covered.saturating_mul(2).max(64).min(ceiling)
                } else {
                    largest.max(covered.saturating_mul(2)).min(ceiling)
                };
                let target = failed_at.map_or(target, |failed| target.min(failed - 1));
                if target <= covered || (!beyond && target < largest) {
                    break;
                }
                match quotient::compute(&self.ruleset, target, budget) {
                    Ok(q) => *quotient = Some(Box::new(q)),
                    Err(QuotientError::Incomplete {
                        partial,
                        heap,
                        stop: why,
                    }) => {
                        *failed_at = Some(heap);
                        *stop = Some(why);
                        if partial.max_heap > covered {
                            *quotient = Some(partial);
                        }
                    }
                    Err(QuotientError::Unsupported(_)) => {
                        *failed_at = Some(1);
                        break;
                    }
                }
                covered = quotient.as_ref().map_or(0, |q| q.max_heap);
                if quotient.as_deref().is_some_and(covers) || !beyond {
                    break;
                }
            }
        }
        quotient.as_deref().filter(|q| covers(q))
    }

    /// Why heap `largest` is beyond the quotient, in words.
    fn why_not(&self, largest: Heap) -> String {
        let Rule::Quotient {
            quotient,
            failed_at,
            stop,
            budget,
        } = &self.rule
        else {
            return String::new();
        };
        let covered = quotient.as_ref().map_or(0, |q| q.max_heap);
        let of = format!("the misère quotient of {}", self.ruleset);
        match (budget, failed_at, stop) {
            (None, _, _) => format!(
                "{of} read from the file covers heaps up to {covered} and is not final, so not heap {largest}"
            ),
            (Some(_), Some(failed), Some(stop)) => format!(
                "{of}, built on the fly, stopped at heap {failed} ({stop}), so it covers heaps up to {covered}, not heap {largest}"
            ),
            _ => format!(
                "{of} is built on the fly to heap {} at most, and is not final there, so it does not cover heap {largest}",
                self.ceiling.max(covered)
            ),
        }
    }

    /// The outcome and one winning move, or `None` when not covered.
    fn decide(&mut self, heaps: &[Heap]) -> Option<(bool, Option<Vec<Heap>>)> {
        if let Rule::MisereNim = self.rule {
            return Some((
                quotient::nim::outcome(heaps),
                quotient::nim::winning_move(heaps),
            ));
        }
        if heaps.is_empty() {
            // No move: in misère play the player to move has won.
            return Some((true, None));
        }
        let ruleset = self.ruleset.clone();
        let largest = heaps.last().copied().unwrap_or(0);
        if self.covering(largest).is_none() {
            self.declined = Some(self.why_not(largest));
            return None;
        }
        self.declined = None;
        let q = self.covering(largest)?;
        let win = q.outcome(heaps)?;
        Some((
            win,
            if win {
                q.winning_move(&ruleset, heaps)
            } else {
                None
            },
        ))
    }

    /// Every winning move: children whose product lies in the P-portion (for misère Nim,
    /// the rule's few candidates per heap), and false when a heap beyond the computed
    /// range of a final quotient had only one move per kind of option tried.
    fn winning_moves(&mut self, heaps: &[Heap]) -> (Vec<Position>, bool) {
        let mut moves = Vec::new();
        let mut complete = true;
        let mut previous = None;
        for (i, &h) in heaps.iter().enumerate() {
            if previous == Some(h) {
                continue;
            }
            previous = Some(h);
            let rest: Vec<Heap> = heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
            let mut try_leaving = |parts: &[Heap], source: &mut Self| {
                let mut after = rest.clone();
                after.extend(parts.iter().copied().filter(|&p| p > 0));
                let after = Position::new(after);
                if source.decide(after.heaps()).is_some_and(|(win, _)| !win) {
                    moves.push(after);
                }
            };
            match self.rule {
                Rule::MisereNim => {
                    // A P-position either has a heap above 1 and nim-sum 0, or only
                    // heaps of at most 1: the heap goes to its nim-sum partner, or to 0 or 1.
                    let sum = heaps.iter().fold(0, |a, &x| a ^ x);
                    for target in [h ^ sum, 0, 1] {
                        if target < h {
                            try_leaving(&[target], self);
                        }
                    }
                }
                Rule::Quotient { .. } => {
                    let mut options = Vec::new();
                    let ruleset = self.ruleset.clone();
                    let push = |parts: &[Heap]| {
                        options.push(parts.to_vec());
                        ControlFlow::Continue(())
                    };
                    // Beyond the computed heaps of a final quotient: one option per way of
                    // leaving heaps of the same elements, not all of them.
                    match self.covering(h) {
                        Some(q) => complete &= q.for_each_heap_option(&ruleset, h, push).1,
                        None => {
                            let _ = ruleset.for_each_heap_option(h, push);
                        }
                    }
                    for parts in options {
                        try_leaving(&parts, self);
                    }
                }
            }
        }
        moves.sort();
        moves.dedup();
        (moves, complete)
    }
}

impl Oracle for QuotientSource {
    fn kind(&self) -> SourceKind {
        SourceKind::Quotient
    }

    fn declined(&self) -> Option<String> {
        self.declined.clone()
    }

    fn quotient(&self) -> Option<&MisereQuotient> {
        match &self.rule {
            Rule::Quotient { quotient, .. } => quotient.as_deref(),
            Rule::MisereNim => None,
        }
    }

    fn answer(&mut self, position: &Position, query: Query) -> Result<Option<Answer>> {
        // A quotient says who wins, not how fast.
        if query.remoteness == Remoteness::Required {
            return Ok(None);
        }
        Ok(self.decide(position.heaps()).map(|(win, best)| Answer {
            position: position.clone(),
            value: Value::Outcome(Outcome::from_win(win)),
            best_move: best.filter(|_| query.best_move).map(Position::new),
            source: SourceKind::Quotient,
        }))
    }

    fn solve(&mut self, position: &Position, query: Query) -> Result<Option<Solution>> {
        let Some(answer) = self.answer(position, query)? else {
            return Ok(None);
        };
        let (winning_moves, complete) = if answer.value.is_win() {
            self.winning_moves(position.heaps())
        } else {
            (Vec::new(), true)
        };
        let evidence = match &self.rule {
            Rule::MisereNim => Evidence::MisereNim,
            Rule::Quotient { quotient, .. } => Evidence::Quotient {
                order: quotient.as_ref().map_or(0, |q| q.order),
                max_heap: quotient.as_ref().map_or(0, |q| q.max_heap),
                periodicity: quotient.as_ref().and_then(|q| q.periodicity),
            },
        };
        Ok(Some(Solution {
            answer,
            winning_moves,
            moves: Vec::new(),
            complete,
            evidence,
        }))
    }
}

//! The theory the remoteness search orders moves by, where the answer layer has it: the
//! misère quotient of a one-heap ruleset, built as far as the positions asked about
//! need (normal play and misère Nim need none: the search's own nim-values are exact
//! there).

use super::super::quotient::{on_the_fly_budget, ON_THE_FLY_MAX_HEAP};
use crate::game::{Game, Heap};
use crate::search::Outcomes;
use crate::theory::quotient::{self, QuotientError};
use crate::Cancel;

/// The exact outcomes of a misère quotient covering heaps up to `largest`, built within
/// the budget of quotients built while answering; `None` where the game has none (normal
/// play, coupled moves, misère Nim) or it cannot be had in budget.
pub fn misere_outcomes(game: &Game, largest: Heap) -> Option<Outcomes> {
    misere_outcomes_until(game, largest, None)
}

/// True when `game` has a misère quotient the search can be handed for heaps up to
/// `largest` (which the construction may still fail to reach in budget).
fn has_quotient(game: &Game, largest: Heap) -> bool {
    game.terminal_is_win()
        && game.ruleset.moves_one_heap()
        && !game.ruleset.nim_values_are_sizes()
        && largest <= ON_THE_FLY_MAX_HEAP
}

/// [`misere_outcomes`], given up (`None`) once `cancel` is set.
fn misere_outcomes_until(game: &Game, largest: Heap, cancel: Option<Cancel>) -> Option<Outcomes> {
    if !has_quotient(game, largest) {
        return None;
    }
    let budget = quotient::Budget {
        cancel,
        ..ordering_budget()
    };
    match quotient::compute(&game.ruleset, largest.max(1), &budget) {
        Ok(q) => Some(Outcomes::from_quotient(&q)),
        Err(QuotientError::Incomplete { partial, .. }) if partial.max_heap >= largest => {
            Some(Outcomes::from_quotient(&partial))
        }
        Err(_) => None,
    }
}

/// The on-the-fly budget with half its rebuilds per heap: a quotient that only orders
/// moves must come cheap, and where it grows wild (Grundy's game in misère play) the
/// search must not wait for it to give up (8 rebuilds: 87 ms on the remoteness suite's
/// misère Grundy position, against 155 ms at 16, for the same nodes).
fn ordering_budget() -> quotient::Budget {
    quotient::Budget {
        max_rebuilds: 8,
        ..on_the_fly_budget()
    }
}

/// The quotient handed to a search so far, grown by doubling as larger heaps come.
#[derive(Clone, Default)]
pub(super) struct Grown {
    /// Heaps covered by the outcomes last handed over.
    covered: Heap,
    /// The smallest heap the construction could not reach.
    failed_at: Option<Heap>,
}

impl Grown {
    /// True when [`Grown::grow`] would build a quotient for a position whose largest
    /// heap is `largest`.
    pub(super) fn would_grow(&self, game: &Game, largest: Heap) -> bool {
        largest > self.covered
            && self.failed_at.is_none_or(|failed| largest < failed)
            && has_quotient(game, self.target(largest))
    }

    /// The heap a quotient for `largest` is built to: at least double the last, so that
    /// a run of growing positions builds few.
    fn target(&self, largest: Heap) -> Heap {
        largest
            .max(self.covered.saturating_mul(2))
            .min(ON_THE_FLY_MAX_HEAP.max(largest))
    }

    /// New outcomes to hand over before a position whose largest heap is `largest`, when
    /// what was handed over does not cover it and more can be had; `cancel` stops the
    /// construction (and then nothing is learned).
    pub(super) fn grow(
        &mut self,
        game: &Game,
        largest: Heap,
        cancel: Option<Cancel>,
    ) -> Option<Outcomes> {
        if !self.would_grow(game, largest) {
            return None;
        }
        // One construction: it builds heap by heap, so where it cannot reach the target
        // it keeps what covers `largest` (a second try to `largest` would repeat it,
        // and did: misère Grundy's wild quotient was given up on twice, 84 ms in all).
        match misere_outcomes_until(game, self.target(largest), cancel) {
            Some(outcomes) => {
                self.covered = outcomes.max_heap();
                Some(outcomes)
            }
            None => {
                self.failed_at = Some(largest);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{resolve, Convention};

    #[test]
    fn a_cancelled_construction_hands_over_nothing_and_learns_nothing() {
        let game = resolve("kayles")
            .unwrap()
            .with_convention(Convention::Misere);
        let mut grown = Grown::default();
        assert!(grown.would_grow(&game, 20));
        let cancel = Cancel::default();
        cancel.cancel();
        let mut cancelled = grown.clone();
        assert!(cancelled.grow(&game, 20, Some(cancel)).is_none());
        // Whoever cancels drops this `Grown`; the one kept still builds.
        let outcomes = grown.grow(&game, 20, None).expect("Kayles' quotient");
        assert!(outcomes.max_heap() >= 20);
        assert!(!grown.would_grow(&game, 20));
        let normal = game.with_convention(Convention::Normal);
        assert!(!Grown::default().would_grow(&normal, 20));
    }
}

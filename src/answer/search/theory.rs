//! The theory the remoteness search orders moves by, where the answer layer has it: the
//! misère quotient of a one-heap ruleset, built as far as the positions asked about
//! need (normal play and misère Nim need none: the search's own nim-values are exact
//! there).

use super::super::quotient::{on_the_fly_budget, ON_THE_FLY_MAX_HEAP};
use crate::game::{Game, Heap};
use crate::search::Outcomes;
use crate::theory::quotient::{self, QuotientError};

/// The exact outcomes of a misère quotient covering heaps up to `largest`, built within
/// the budget of quotients built while answering; `None` where the game has none (normal
/// play, coupled moves, misère Nim) or it cannot be had in budget.
pub fn misere_outcomes(game: &Game, largest: Heap) -> Option<Outcomes> {
    if !game.terminal_is_win()
        || !game.ruleset.moves_one_heap()
        || game.ruleset.nim_values_are_sizes()
        || largest > ON_THE_FLY_MAX_HEAP
    {
        return None;
    }
    match quotient::compute(&game.ruleset, largest.max(1), &ordering_budget()) {
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
#[derive(Default)]
pub(super) struct Grown {
    /// Heaps covered by the outcomes last handed over.
    covered: Heap,
    /// The smallest heap the construction could not reach.
    failed_at: Option<Heap>,
}

impl Grown {
    /// New outcomes to hand over before a position whose largest heap is `largest`, when
    /// what was handed over does not cover it and more can be had.
    pub(super) fn grow(&mut self, game: &Game, largest: Heap) -> Option<Outcomes> {
        if largest <= self.covered || self.failed_at.is_some_and(|failed| largest >= failed) {
            return None;
        }
        let target = largest
            .max(self.covered.saturating_mul(2))
            .min(ON_THE_FLY_MAX_HEAP.max(largest));
        let outcomes = misere_outcomes(game, target).or_else(|| misere_outcomes(game, largest));
        match outcomes {
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

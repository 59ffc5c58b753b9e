//! Backward labelling: every unsafe position marks the positions that move to it as safe.
//!
//! A position still unmarked when its tier comes has no unsafe child (all children lie
//! in lower tiers, already done), so it is unsafe unless it is a misère terminal. Parents
//! lie in higher tiers, so marking them never races with a read in the current tier.
//! Cheapest where unsafe positions are rare or have few parents ([`super::parents`]).

use std::sync::atomic::AtomicU64;

use super::drive::{Reach, TierLabeller};
use super::parents::{for_each_parent, Limits};
use super::tiers::{has_move, visit_tier, Scratch, Tiers};
use super::window::Window;
use crate::domain::Ranker;
use crate::game::Game;

/// Labels a tier from the marks of earlier tiers and marks the parents of its unsafe
/// positions.
pub(crate) struct Backward<'a> {
    game: &'a Game,
    ranker: &'a Ranker,
}

impl<'a> Backward<'a> {
    pub(crate) fn new(game: &'a Game, ranker: &'a Ranker) -> Self {
        Backward { game, ranker }
    }

    /// Backward labelling reads only the tier itself and marks parents up to the largest
    /// take above.
    pub(crate) fn reach(game: &Game) -> Reach {
        Reach {
            back: Some(0),
            ahead: game.ruleset.max_take(),
        }
    }
}

impl TierLabeller<AtomicU64> for Backward<'_> {
    fn label_tier(&self, bits: &Window<AtomicU64>, tier: u64, main: &mut Scratch) -> u64 {
        let (game, ranker) = (self.game, self.ranker);
        visit_tier(
            game,
            Tiers::of(ranker),
            tier,
            main,
            |scratch, rank, heaps| {
                if bits.is_safe(rank) {
                    return;
                }
                if game.terminal_is_win() && !has_move(game, heaps) {
                    bits.set_safe(rank);
                    return;
                }
                let limits = Limits::of(ranker, heaps);
                let total = heaps.iter().sum();
                for_each_parent(
                    &game.ruleset,
                    heaps,
                    limits,
                    &mut scratch.slots,
                    |removed, added| {
                        bits.set_safe(ranker.rank_after_move(heaps, total, removed, added))
                    },
                );
            },
        )
    }
}

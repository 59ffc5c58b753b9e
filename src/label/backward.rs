//! Backward labelling: every unsafe position marks the positions that move to it as safe.
//!
//! A position still unmarked when its tier comes has no unsafe child (all children lie
//! in lower tiers, already done), so it is unsafe unless it is a misère terminal. Parents
//! lie in higher tiers, so marking them never races with a read in the current tier.
//! Cheapest where unsafe positions are rare or have few parents ([`super::parents`]).

use super::bits::{Labels, SharedBits};
use super::parents::{for_each_parent, Limits};
use super::tiers::{for_each_position, has_move};
use crate::domain::Ranker;
use crate::error::Result;
use crate::game::Game;

pub(crate) fn label(
    game: &Game,
    ranker: &Ranker,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Labels> {
    let bits = SharedBits::new(ranker.count())?;
    for_each_position(game, ranker, progress, |scratch, rank, heaps| {
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
            |removed, added| bits.set_safe(ranker.rank_after_move(heaps, total, removed, added)),
        );
    });
    Ok(bits.into_labels())
}

//! Forward labelling: a position is safe when one of its moves reaches an unsafe one.

use std::ops::ControlFlow;

use super::bits::{Labels, SharedBits};
use super::tiers::{child_into, for_each_position};
use crate::domain::Ranker;
use crate::game::Game;

pub(crate) fn label(game: &Game, ranker: &Ranker, progress: &(dyn Fn(u64) + Sync)) -> Labels {
    let bits = SharedBits::new(ranker.count());
    for_each_position(game, ranker, progress, |scratch, rank, heaps| {
        let mut any_move = false;
        let found_unsafe = game
            .ruleset
            .for_each_move(heaps, |removed, added| {
                any_move = true;
                child_into(heaps, removed, added, &mut scratch.work);
                if bits.is_safe(ranker.rank_unchecked(&scratch.work)) {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            })
            .is_break();
        let safe = if any_move {
            found_unsafe
        } else {
            game.terminal_is_win()
        };
        if safe {
            bits.set_safe(rank);
        }
    });
    bits.into_labels()
}

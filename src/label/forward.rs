//! Forward labelling: a position is safe when one of its moves reaches an unsafe one.

use std::ops::ControlFlow;

use super::bits::{Labels, SharedBits};
use super::tiers::for_each_position;
use crate::domain::Ranker;
use crate::game::Game;

pub(crate) fn label(game: &Game, ranker: &Ranker, progress: &(dyn Fn(u64) + Sync)) -> Labels {
    let bits = SharedBits::new(ranker.count());
    for_each_position(game, ranker, progress, |_, rank, heaps| {
        let total = heaps.iter().sum();
        let mut any_move = false;
        let found_unsafe = game
            .ruleset
            .for_each_move(heaps, |removed, added| {
                any_move = true;
                if bits.is_safe(ranker.rank_after_move(heaps, total, removed, added)) {
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

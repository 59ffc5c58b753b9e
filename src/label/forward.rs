//! Forward labelling: a position is safe when one of its moves reaches an unsafe one.

use std::ops::ControlFlow;

use super::bits::{Labels, SharedBits};
use super::tiers::for_each_position;
use crate::domain::{Ranker, Strides};
use crate::game::{Game, Ruleset};

pub(crate) fn label(game: &Game, ranker: &Ranker, progress: &(dyn Fn(u64) + Sync)) -> Labels {
    let bits = SharedBits::new(ranker.count());
    // Ranking children from scratch dominated labelling; one-heap moves on `--total`
    // domains can instead be ranked from the parent's runs.
    let strides = match ranker {
        Ranker::Total(p) if !matches!(game.ruleset, Ruleset::Wythoff | Ruleset::Moore(_)) => {
            Some(Strides::new(p))
        }
        _ => None,
    };
    for_each_position(game, ranker, progress, |scratch, rank, heaps| {
        let total = heaps.iter().sum();
        let mut any_move = false;
        if let Some(strides) = &strides {
            scratch.runs.load(strides, heaps);
        }
        let runs = &mut scratch.runs;
        let found_unsafe = game
            .ruleset
            .for_each_move(heaps, |removed, added| {
                any_move = true;
                let child = strides
                    .as_ref()
                    .and_then(|strides| runs.child_rank(strides, removed[0], added))
                    .unwrap_or_else(|| ranker.rank_after_move(heaps, total, removed, added));
                if bits.is_safe(child) {
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

//! The baseline labeller the others are measured against: a `Vec<bool>` over the domain,
//! one thread, every position scanning its moves in rank order.

use std::ops::ControlFlow;

use super::bits::{out_of_memory, Labels};
use super::tiers::child_into;
use crate::domain::Ranker;
use crate::error::Result;
use crate::game::Game;

pub(crate) fn label(
    game: &Game,
    ranker: &Ranker,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Labels> {
    let count = ranker.count();
    let mut safe = Vec::new();
    safe.try_reserve_exact(count as usize)
        .map_err(|_| out_of_memory("the plain labeller's flags", count))?;
    safe.resize(count as usize, false);
    let mut child = Vec::new();
    let mut heaps = Vec::new();
    let mut padded = match ranker {
        Ranker::Heaps(t) => vec![0; t.heaps()],
        Ranker::Total(_) => Vec::new(),
    };
    for rank in 0..count {
        let current: &[u64] = match ranker {
            Ranker::Heaps(tuples) => {
                if rank > 0 {
                    tuples.advance(&mut padded);
                }
                let start = padded.iter().position(|&h| h != 0).unwrap_or(padded.len());
                &padded[start..]
            }
            Ranker::Total(partitions) => {
                partitions.unrank(rank, &mut heaps);
                &heaps
            }
        };
        let mut any_move = false;
        let found_unsafe = game
            .ruleset
            .for_each_move(current, |removed, added| {
                any_move = true;
                child_into(current, removed, added, &mut child);
                if safe[ranker.rank_unchecked(&child) as usize] {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            })
            .is_break();
        safe[rank as usize] = if any_move {
            found_unsafe
        } else {
            game.terminal_is_win()
        };
        if rank % (1 << 16) == 0xFFFF {
            progress(1 << 16);
        }
    }
    progress(count % (1 << 16));
    let mut words = Vec::new();
    words
        .try_reserve_exact(count.div_ceil(64) as usize)
        .map_err(|_| out_of_memory("the labels", count))?;
    words.resize(count.div_ceil(64) as usize, 0u64);
    for (rank, _) in safe.iter().enumerate().filter(|(_, &s)| s) {
        words[rank / 64] |= 1 << (rank % 64);
    }
    Ok(Labels::from_words(words, count))
}

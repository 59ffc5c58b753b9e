//! The baseline labeller the others are measured against: a `Vec<bool>` over the domain,
//! one thread, every position scanning its moves in rank order.

use std::ops::ControlFlow;

use super::bits::{out_of_memory, Labels};
use crate::domain::Ranker;
use crate::error::Result;
use crate::game::{child_into, Game};

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
    let mut walk = Walk::new(ranker);
    for rank in 0..count {
        let current = walk.position(ranker, rank);
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

/// The baseline remoteness labeller: a `Vec<u32>` over the domain, one thread, every
/// position scanning all of its moves in rank order, children ranked from scratch.
pub(crate) fn label_remoteness(
    game: &Game,
    ranker: &Ranker,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<super::Remotenesses> {
    let count = ranker.count();
    let mut remoteness: Vec<u32> = Vec::new();
    remoteness
        .try_reserve_exact(count as usize)
        .map_err(|_| out_of_memory("the remotenesses", count))?;
    let misere = game.terminal_is_win();
    let mut child = Vec::new();
    let mut walk = Walk::new(ranker);
    for rank in 0..count {
        let heaps = walk.position(ranker, rank);
        let (mut shortest_win, mut longest) = (None::<u32>, None::<u32>);
        let _ = game.ruleset.for_each_move(heaps, |removed, added| {
            child_into(heaps, removed, added, &mut child);
            let r = remoteness[ranker.rank_unchecked(&child) as usize];
            // A child is unsafe at even remoteness in normal play, odd in misère play.
            if (r % 2 == 1) == misere {
                shortest_win = Some(shortest_win.map_or(r, |s| s.min(r)));
            }
            longest = Some(longest.map_or(r, |l| l.max(r)));
            ControlFlow::Continue(())
        });
        remoteness.push(match (shortest_win, longest) {
            (Some(r), _) | (None, Some(r)) => r + 1,
            (None, None) => 0,
        });
        if rank % (1 << 16) == 0xFFFF {
            progress(1 << 16);
        }
    }
    progress(count % (1 << 16));
    Ok(super::Remotenesses::new(remoteness, game.convention))
}

/// Visits a domain's positions in rank order without allocating: tuples step to the
/// next, partitions unrank (as one writes it first).
struct Walk {
    padded: Vec<u64>,
    heaps: Vec<u64>,
}

impl Walk {
    fn new(ranker: &Ranker) -> Self {
        Walk {
            padded: match ranker {
                Ranker::Heaps(t) => vec![0; t.heaps()],
                Ranker::Total(_) => Vec::new(),
            },
            heaps: Vec::new(),
        }
    }

    /// The position of `rank`; ranks must come in order from 0.
    fn position(&mut self, ranker: &Ranker, rank: u64) -> &[u64] {
        match ranker {
            Ranker::Heaps(tuples) => {
                if rank > 0 {
                    tuples.advance(&mut self.padded);
                }
                let start = self
                    .padded
                    .iter()
                    .position(|&h| h != 0)
                    .unwrap_or(self.padded.len());
                &self.padded[start..]
            }
            Ranker::Total(partitions) => {
                partitions.unrank(rank, &mut self.heaps);
                &self.heaps
            }
        }
    }
}

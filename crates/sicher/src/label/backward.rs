//! Backward labelling: every unsafe position marks the positions that move to it as safe.
//!
//! A position still unmarked when its tier comes has no unsafe child (all children lie
//! in lower tiers, already done), so it is unsafe unless it is a misère terminal. Parents
//! lie in higher tiers, so marking them never races with a read in the current tier.
//! Cheapest where unsafe positions are rare or have few parents ([`super::parents`]).

use std::sync::atomic::AtomicU64;

use super::drive::{Reach, TierLabeller};
use super::parents::bounds_of;
use super::tiers::{has_move, visit_tier, Scratch, Tiers, BLOCK};
use super::window::Window;
use crate::domain::{BoundedTuples, Ranker, TupleParents};
use crate::game::{Game, Heap};

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

impl Backward<'_> {
    /// Labels a block of ranks of a `--heaps` domain in rank order, visiting only the
    /// positions no mark reached: a word of marks at a time.
    fn label_block(&self, bits: &Window<AtomicU64>, tuples: &BoundedTuples, block: u64) -> u64 {
        let ranks = block * BLOCK..tuples.count().min((block + 1) * BLOCK);
        let (game, ranker) = (self.game, self.ranker);
        let mut padded = Vec::new();
        let mut slots = Vec::new();
        let mut parents = TupleParents::default();
        let mut at = ranks.start;
        while at < ranks.end {
            // Marks reach later ranks only: each word is read again after a position in
            // it marked its parents.
            let unmarked = !bits.word(at) >> (at % 64) << (at % 64);
            if unmarked == 0 {
                at = (at / 64 + 1) * 64;
                continue;
            }
            let rank = at / 64 * 64 + u64::from(unmarked.trailing_zeros());
            if rank >= ranks.end {
                break;
            }
            tuples.unrank(rank, &mut padded);
            let start = padded.iter().position(|&h| h != 0).unwrap_or(padded.len());
            let heaps = &padded[start..];
            at = rank + 1;
            if game.terminal_is_win() && !has_move(game, heaps) {
                bits.set_safe(rank);
                continue;
            }
            parents.load(tuples, heaps);
            let bounds = bounds_of(ranker, heaps);
            let total = heaps.iter().sum();
            game.ruleset
                .for_each_parent(heaps, bounds, &mut slots, |removed, added| {
                    let parent = parents
                        .parent_rank(tuples, removed, added)
                        .unwrap_or_else(|| ranker.rank_after_move(heaps, total, removed, added));
                    // One thread labels the blocks: no read-modify-write needed.
                    bits.set_safe_alone(parent);
                });
        }
        ranks.end - ranks.start
    }

    /// Decides the position `heaps` of rank `rank`, which no mark reached: unsafe (or a
    /// misère terminal); an unsafe position marks its parents.
    #[inline]
    fn position(&self, bits: &Window<AtomicU64>, rank: u64, heaps: &[Heap], slots: &mut Vec<Heap>) {
        let (game, ranker) = (self.game, self.ranker);
        if game.terminal_is_win() && !has_move(game, heaps) {
            bits.set_safe(rank);
            return;
        }
        let bounds = bounds_of(ranker, heaps);
        let total = heaps.iter().sum();
        game.ruleset
            .for_each_parent(heaps, bounds, slots, |removed, added| {
                bits.set_safe(ranker.rank_after_move(heaps, total, removed, added))
            });
    }
}

impl TierLabeller<AtomicU64> for Backward<'_> {
    fn label_tier(&self, bits: &Window<AtomicU64>, tier: u64, main: &mut Scratch) -> u64 {
        let (game, ranker) = (self.game, self.ranker);
        if let Ranker::Heaps(tuples) = ranker {
            if tuples.heaps() > 1 {
                return self.label_block(bits, tuples, tier);
            }
        }
        visit_tier(
            game,
            Tiers::of(ranker, false),
            tier,
            main,
            |scratch, rank, heaps| {
                if !bits.is_safe(rank) {
                    self.position(bits, rank, heaps, &mut scratch.slots);
                }
            },
        )
    }
}

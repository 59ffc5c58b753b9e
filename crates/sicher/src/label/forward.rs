//! Forward labelling: a position is safe when one of its moves reaches an unsafe one.

use std::sync::atomic::AtomicU64;

use super::drive::{Reach, TierLabeller};
use super::kernel::{decide, safe_by_moves};
use super::options::Options;
use super::tiers::{visit_tier, visit_tier_runs, Scratch, Tiers};
use super::window::Window;
use crate::domain::{Partitions, Ranker, Runs, Strides};
use crate::game::Game;

/// Labels a tier by scanning each position's moves; reads the tiers its moves reach.
pub(crate) struct Forward<'a> {
    game: &'a Game,
    ranker: &'a Ranker,
    /// One-heap moves on `--total` domains: children ranked from the parent's runs.
    runs: Option<(&'a Partitions, Strides, Options)>,
}

impl<'a> Forward<'a> {
    pub(crate) fn new(game: &'a Game, ranker: &'a Ranker) -> Self {
        // Ranking children from scratch dominated labelling; one-heap moves on `--total`
        // domains are ranked from the parent's runs instead.
        let runs = match ranker {
            Ranker::Total(partitions) => Options::new(&game.ruleset, partitions.total())
                .map(|options| (partitions, Strides::new(partitions), options)),
            Ranker::Heaps(_) => None,
        };
        Forward { game, ranker, runs }
    }

    /// Forward labelling reads children (up to the largest take below) and writes only
    /// the tier itself.
    pub(crate) fn reach(game: &Game) -> Reach {
        Reach {
            back: game.ruleset.max_take(),
            ahead: Some(0),
        }
    }

    /// Bytes of the tables built for the domain (stride sums and heap options).
    pub(crate) fn table_bytes(game: &Game, ranker: &Ranker) -> u64 {
        let Ranker::Total(p) = ranker else { return 0 };
        if !game.ruleset.moves_one_heap() {
            return 0;
        }
        let width = p.total() + 1;
        (width * width + width) * 8 + Options::bytes(&game.ruleset, p.total())
    }
}

impl TierLabeller<AtomicU64> for Forward<'_> {
    fn label_tier(&self, bits: &Window<AtomicU64>, tier: u64, main: &mut Scratch) -> u64 {
        let game = self.game;
        if let Some((partitions, strides, options)) = &self.runs {
            return visit_tier_runs(game, partitions, strides, tier, main, |runs, rank| {
                if decide(scan(options, runs, strides, bits), game.terminal_is_win()) {
                    bits.set_safe(rank);
                }
            });
        }
        let ranker = self.ranker;
        visit_tier(
            game,
            Tiers::of(ranker, false),
            tier,
            main,
            |_, rank, heaps| {
                let total = heaps.iter().sum();
                let safe = safe_by_moves(
                    &game.ruleset,
                    heaps,
                    game.terminal_is_win(),
                    |removed, added| {
                        bits.is_safe(ranker.rank_after_move(heaps, total, removed, added))
                    },
                );
                if safe {
                    bits.set_safe(rank);
                }
            },
        )
    }
}

/// Whether the loaded position has a move to an unsafe position; `None` when it has no
/// move at all.
#[inline]
pub(crate) fn scan(
    options: &Options,
    runs: &mut Runs,
    strides: &Strides,
    bits: &Window<AtomicU64>,
) -> Option<bool> {
    // Most positions are safe and stop at their first move to an unsafe one. The
    // unsafe positions of either convention are mostly those of nim-value 0, so the
    // moves to nim-value 0 are tried first; the full scan then decides.
    let mut value = 0;
    for i in 0..runs.len() {
        if runs.count(i) % 2 == 1 {
            value ^= options.nim(runs.value(i));
        }
    }
    if value != 0 {
        for i in 0..runs.len() {
            let h = runs.value(i);
            for option in options.with_nim(h, value ^ options.nim(h)) {
                if !bits.is_safe(runs.replace(strides, i, option.taken, option.parts())) {
                    return Some(true);
                }
            }
        }
    }
    let mut any_move = false;
    // Largest heaps first: the shares above the heap taken, cached per tokens taken,
    // then grow one run at a time and stop where the scan stops.
    for i in 0..runs.len() {
        let h = runs.value(i);
        let heap_options = options.of(h);
        any_move |= !heap_options.is_empty();
        let tried = value ^ options.nim(h);
        for option in heap_options {
            // An option's note is the nim-value of the parts it leaves.
            if value != 0 && option.note == tried {
                continue;
            }
            if !bits.is_safe(runs.replace(strides, i, option.taken, option.parts())) {
                return Some(true);
            }
        }
    }
    any_move.then_some(false)
}

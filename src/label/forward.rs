//! Forward labelling: a position is safe when one of its moves reaches an unsafe one.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicU64;

use super::drive::{Reach, TierLabeller};
use super::tiers::{visit_tier, visit_tier_runs, Scratch, Tiers};
use super::window::Window;
use crate::domain::incremental::MAX_PUT_BACK;
use crate::domain::{Partitions, Ranker, Runs, Strides};
use crate::game::{Game, Heap, Ruleset};

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
        let mut options = 0u64;
        for h in 0..width {
            let _ = game.ruleset.for_each_heap_option(h, |_| {
                options += 1;
                ControlFlow::Continue(())
            });
        }
        // Stride sums; each option, with about as many nim-value bounds as options.
        let strides = (width * width + width) * 8;
        strides + options * (std::mem::size_of::<HeapOption>() + 8) as u64 + width * 32
    }
}

impl TierLabeller<AtomicU64> for Forward<'_> {
    fn label_tier(&self, bits: &Window<AtomicU64>, tier: u64, main: &mut Scratch) -> u64 {
        let game = self.game;
        if let Some((partitions, strides, options)) = &self.runs {
            return visit_tier_runs(game, partitions, strides, tier, main, |runs, rank| {
                let safe = match options.scan(runs, strides, bits) {
                    Some(found_unsafe) => found_unsafe,
                    None => game.terminal_is_win(),
                };
                if safe {
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
            },
        )
    }
}

/// One option of a lone heap: the tokens it takes and the parts it leaves.
#[derive(Clone, Copy)]
struct HeapOption {
    /// Nim-value of the parts left (normal play).
    nim: u32,
    len: u8,
    taken: Heap,
    /// Ascending, non-zero.
    parts: [Heap; MAX_PUT_BACK],
}

/// Every option of every heap size up to `T`, listed once instead of regenerated for
/// every heap of every position, with the heap sizes' nim-values.
struct Options {
    /// `list[first[h]..first[h + 1]]`: the options of a heap of size `h`, by nim-value.
    first: Vec<usize>,
    list: Vec<HeapOption>,
    /// Normal-play nim-value of a lone heap of each size.
    nim: Vec<u32>,
    /// `by_nim[at[h] + v]`: where the options of `h` with nim-value `v` start within
    /// `list`, for `v` up to one past the largest (`at[h + 1]` ends the entries of `h`).
    by_nim: Vec<usize>,
    at: Vec<usize>,
}

impl Options {
    /// `None` unless every move changes one heap into at most [`MAX_PUT_BACK`] smaller ones.
    fn new(ruleset: &Ruleset, total: Heap) -> Option<Self> {
        if !ruleset.moves_one_heap() {
            return None;
        }
        let mut first = vec![0];
        let mut list = Vec::new();
        let mut nim: Vec<u32> = Vec::new();
        let (mut by_nim, mut at) = (Vec::new(), vec![0]);
        for h in 0..=total {
            let shaped = ruleset.for_each_heap_option(h, |left| {
                let mut option = HeapOption {
                    nim: 0,
                    len: 0,
                    taken: h,
                    parts: [0; MAX_PUT_BACK],
                };
                for &part in left.iter().filter(|&&p| p != 0) {
                    if option.len as usize == MAX_PUT_BACK || part >= h {
                        return ControlFlow::Break(());
                    }
                    option.parts[option.len as usize] = part;
                    option.len += 1;
                    option.taken -= part;
                    option.nim ^= nim[part as usize];
                }
                option.parts[..option.len as usize].sort_unstable();
                list.push(option);
                ControlFlow::Continue(())
            });
            if shaped.is_break() {
                return None;
            }
            let options = &mut list[first[h as usize]..];
            options.sort_by_key(|o| o.nim);
            // The options' nim-values are sorted, so the mex is the first gap.
            let mut mex = 0;
            for o in options.iter() {
                if o.nim == mex {
                    mex += 1;
                } else if o.nim > mex {
                    break;
                }
            }
            nim.push(mex);
            let base = first[h as usize];
            let largest = options.last().map_or(0, |o| o.nim + 1);
            by_nim.extend((0..=largest).map(|v| base + options.partition_point(|o| o.nim < v)));
            at.push(by_nim.len());
            first.push(list.len());
        }
        Some(Options {
            first,
            list,
            nim,
            by_nim,
            at,
        })
    }

    /// Whether the loaded position has a move to an unsafe position; `None` when it has
    /// no move at all.
    #[inline]
    fn scan(&self, runs: &mut Runs, strides: &Strides, bits: &Window<AtomicU64>) -> Option<bool> {
        // Most positions are safe and stop at their first move to an unsafe one. The
        // unsafe positions of either convention are mostly those of nim-value 0, so the
        // moves to nim-value 0 are tried first; the full scan then decides.
        let mut value = 0;
        for i in 0..runs.len() {
            if runs.count(i) % 2 == 1 {
                value ^= self.nim[runs.value(i) as usize];
            }
        }
        if value != 0 {
            for i in 0..runs.len() {
                let h = runs.value(i) as usize;
                let target = (value ^ self.nim[h]) as usize;
                let bounds = &self.by_nim[self.at[h]..self.at[h + 1]];
                if target + 1 >= bounds.len() {
                    continue;
                }
                for option in &self.list[bounds[target]..bounds[target + 1]] {
                    let parts = &option.parts[..option.len as usize];
                    if !bits.is_safe(runs.replace(strides, i, option.taken, parts)) {
                        return Some(true);
                    }
                }
            }
        }
        let mut any_move = false;
        // Largest heaps first: the shares above the heap taken, cached per tokens taken,
        // then grow one run at a time and stop where the scan stops.
        for i in 0..runs.len() {
            let h = runs.value(i) as usize;
            let options = &self.list[self.first[h]..self.first[h + 1]];
            any_move |= !options.is_empty();
            let tried = value ^ self.nim[h];
            for option in options {
                if value != 0 && option.nim == tried {
                    continue;
                }
                let parts = &option.parts[..option.len as usize];
                if !bits.is_safe(runs.replace(strides, i, option.taken, parts)) {
                    return Some(true);
                }
            }
        }
        any_move.then_some(false)
    }
}

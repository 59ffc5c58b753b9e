//! Remoteness labelling, retrograde: how many moves best play takes from every position
//! of a domain.
//!
//! Retrograde, tier by tier (children first): a position still unmarked when its turn
//! comes has no unsafe child, so it is unsafe (or a misère terminal): its remoteness is
//! one more than the largest of its children's, all final. Each unsafe position then
//! offers its remoteness plus one to its parents ([`super::parents`]), which keep the
//! smallest offer (an atomic minimum): a safe position's remoteness is one more than the
//! smallest among its unsafe children, all in earlier tiers. Only unsafe positions scan
//! their moves and parents, so the work follows the unsafe positions, not every edge of
//! the game graph (measured: on misère Kayles `--total 60`, 13% of the positions are
//! unsafe, and a forward scan of every move of every position took 1.7 times as long).
//! The result does not depend on the thread count. Domains labelled in memory whose
//! remotenesses fit a byte are labelled in byte cells (endgame tables for the search:
//! a quarter of the memory to fault in and keep in cache); the labeller notices a
//! remoteness that does not fit and its caller labels again in four-byte cells.
//!
//! On `--total` domains of one-heap moves, children are listed from each heap size's
//! options and parents by runs of equal heaps, both ranked from the position's runs
//! (`domain/incremental.rs`). All ranks of a position are gathered before any
//! label is read: the labels span megabytes, and their reads, issued together, overlap
//! instead of missing the cache one after another.

use std::sync::atomic::{AtomicBool, Ordering};

use super::bits::{out_of_memory, Labels};
use super::drive::{Reach, TierLabeller};
use super::kernel::gather_children;
use super::options::Options;
use super::parents::{bounds_of, for_each_merged_parent_rank, merge_shapes};
use super::tiers::{visit_tier, Scratch, Tiers};
use super::window::{RemotenessCell, Window};
use crate::domain::{ChildRanks, Ranker};
use crate::error::Result;
use crate::game::{Convention, Game, OptionShape};
use crate::value::{Outcome, Value};

/// The remoteness of every position of a domain, by rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remotenesses {
    values: Vec<u32>,
    convention: Convention,
}

impl Remotenesses {
    /// Wraps remotenesses by rank.
    pub fn new(values: Vec<u32>, convention: Convention) -> Self {
        Remotenesses { values, convention }
    }

    /// Number of positions.
    pub fn entries(&self) -> u64 {
        self.values.len() as u64
    }

    /// The remoteness of rank `rank`.
    pub fn remoteness(&self, rank: u64) -> u32 {
        self.values[rank as usize]
    }

    /// The value (outcome and remoteness) of rank `rank`.
    pub fn value(&self, rank: u64) -> Value {
        Value::remote(self.remoteness(rank), self.convention)
    }

    /// The remotenesses, by rank.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The largest remoteness.
    pub fn rmax(&self) -> u32 {
        self.values.iter().copied().max().unwrap_or(0)
    }

    /// How many positions have each remoteness `0..=rmax`.
    pub fn histogram(&self) -> Vec<u64> {
        let mut counts = vec![0u64; self.rmax() as usize + 1];
        for &r in &self.values {
            counts[r as usize] += 1;
        }
        counts
    }

    /// The outcomes the remotenesses imply, packed as outcome labels.
    pub fn outcomes(&self) -> Result<Labels> {
        let count = self.entries();
        let mut words = Vec::new();
        words
            .try_reserve_exact(count.div_ceil(64) as usize)
            .map_err(|_| out_of_memory("the labels", count))?;
        words.resize(count.div_ceil(64) as usize, 0u64);
        for (rank, &r) in self.values.iter().enumerate() {
            if Outcome::from_remoteness(r, self.convention).is_win() {
                words[rank / 64] |= 1 << (rank % 64);
            }
        }
        Ok(Labels::from_words(words, count))
    }
}

/// Labels a tier's remotenesses: each unsafe position reads its children, then offers
/// its remoteness plus one to its parents.
pub(crate) struct Retrograde<'a> {
    game: &'a Game,
    ranker: &'a Ranker,
    children: ChildRanks,
    /// One-heap moves on `--total` domains: every heap size's options, listed once.
    options: Option<Options>,
    /// `--total` domains whose parents merge heaps: the shapes they are merged back from.
    merges: Option<Vec<OptionShape>>,
    /// Some remoteness did not fit the cells: the labels are incomplete.
    overflowed: AtomicBool,
}

impl<'a> Retrograde<'a> {
    pub(crate) fn new(game: &'a Game, ranker: &'a Ranker) -> Self {
        let (options, merges) = match ranker {
            Ranker::Total(p) => (
                Options::new(&game.ruleset, p.total()),
                merge_shapes(&game.ruleset, p.total()),
            ),
            Ranker::Heaps(_) => (None, None),
        };
        Retrograde {
            game,
            ranker,
            children: ChildRanks::new(ranker),
            options,
            merges,
            overflowed: AtomicBool::new(false),
        }
    }

    /// True when some remoteness did not fit the cells it was labelled in (the labels
    /// are then incomplete: label again in wider ones).
    pub(crate) fn overflowed(&self) -> bool {
        self.overflowed.load(Ordering::Relaxed)
    }

    /// Children lie up to the largest take below, parents as far above.
    pub(crate) fn reach(game: &Game) -> Reach {
        let take = game.ruleset.max_take();
        Reach {
            back: take,
            ahead: take,
        }
    }

    /// Bytes of the tables built for the domain (stride sums and heap options for
    /// `--total`).
    pub(crate) fn table_bytes(game: &Game, ranker: &Ranker) -> u64 {
        match ranker {
            Ranker::Total(p) => {
                let width = p.total() + 1;
                let options = match game.ruleset.moves_one_heap() {
                    true => Options::bytes(&game.ruleset, p.total()),
                    false => 0,
                };
                (width * width + width) * 8 + options
            }
            Ranker::Heaps(_) => 0,
        }
    }
}

impl<C: RemotenessCell> TierLabeller<C> for Retrograde<'_> {
    // Relaxed is enough: tiers are separated by rayon joins, which order all accesses,
    // and offers within a tier only go to positions labelled later.
    fn label_tier(&self, cells: &Window<C>, tier: u64, main: &mut Scratch) -> u64 {
        let (game, ranker) = (self.game, self.ranker);
        let terminal_win = game.terminal_is_win();
        visit_tier(
            game,
            Tiers::of(ranker, false),
            tier,
            main,
            |scratch, rank, heaps| {
                // Reached by an offer (safe), or labelling already failed: nothing to do.
                if cells.slot(rank).remoteness() != C::UNKNOWN || self.overflowed() {
                    return;
                }
                let ranks = scratch.children.get_or_insert_with(|| self.children.fork());
                let gathered = &mut scratch.ranks;
                gather_children(
                    &game.ruleset,
                    self.options.as_ref(),
                    ranker,
                    ranks,
                    heaps,
                    gathered,
                    |child| cells.prefetch(child),
                );
                // Ranked first, read after: the reads miss the cache and overlap this way.
                let longest = gathered
                    .iter()
                    .map(|&child| cells.slot(child).remoteness())
                    .max();
                let remoteness = match longest {
                    Some(longest) => longest.saturating_add(1),
                    None => 0,
                };
                // The offer to the parents, one more, must fit below the unknown mark too.
                if remoteness.saturating_add(1) >= C::UNKNOWN {
                    self.overflowed.store(true, Ordering::Relaxed);
                    return;
                }
                cells.slot(rank).set_remoteness(remoteness);
                if longest.is_none() && terminal_win {
                    // A misère terminal is safe: it offers nothing.
                    return;
                }
                let offer = remoteness + 1;
                let bounds = bounds_of(ranker, heaps);
                let ranks = scratch.children.as_mut().expect("loaded above");
                let gathered = &mut scratch.ranks;
                gathered.clear();
                let merged =
                    for_each_merged_parent_rank(self.merges.as_deref(), ranks, bounds, |rank| {
                        cells.prefetch(rank);
                        gathered.push(rank)
                    });
                if !merged {
                    let slots = &mut scratch.slots;
                    game.ruleset
                        .for_each_parent(heaps, bounds, slots, |removed, added| {
                            gathered.push(ranks.parent_rank(ranker, heaps, removed, added));
                        });
                }
                for &parent in gathered.iter() {
                    cells.slot(parent).offer(offer);
                }
            },
        )
    }
}

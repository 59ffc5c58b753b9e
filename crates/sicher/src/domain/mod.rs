//! Bounded domains of positions and their ranking bijections onto table entries.
//!
//! A table has exactly one entry per position of its domain, so ranks run over
//! `0..count()` with no gaps: [`BoundedTuples`] for `--heaps K --max N`, [`Partitions`]
//! for `--total T`.
//!
//! # Files
//!
//! - `tuples.rs`: [`BoundedTuples`], sorted tuples of at most `K` heaps each at most `N`,
//!   ranked by the combinatorial number system.
//! - `partitions.rs`: [`Partitions`], multisets of at most `T` tokens in all, ranked tier
//!   by tier of equal total.
//! - `child.rs`: the heaps a move leaves, walked in order without building the position.
//! - `child_ranks.rs`: ranking every child of a position from the position's own rank,
//!   in either domain.
//! - `incremental.rs`: the children of a `--total` position ranked from runs of equal
//!   heaps, one subtraction per run.
//! - `walk.rs`: a domain's positions in rank order without unranking each one.

mod child;
mod child_ranks;
pub(crate) mod incremental;
mod partitions;
mod tuples;
mod walk;

use std::fmt;

use crate::error::{Error, Hint, Result};
use crate::game::{Game, Heap, Position};
pub(crate) use child::ChildHeaps;
pub(crate) use child_ranks::ChildRanks;
pub(crate) use incremental::{Runs, Strides};
pub use partitions::Partitions;
pub use tuples::{BoundedTuples, MAX_ENTRIES};
pub(crate) use tuples::{TupleChildren, TupleParents};
pub(crate) use walk::Positions;

/// Which positions a table covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Domain {
    /// Every multiset of at most `heaps` heaps, each of size at most `max`.
    Heaps {
        /// Most heaps in a position.
        heaps: u32,
        /// Largest heap size.
        max: Heap,
    },
    /// Every multiset of positive heaps with at most `total` tokens.
    Total {
        /// Most tokens in a position.
        total: u64,
    },
}

impl Domain {
    /// The largest heap any of its positions holds.
    pub fn max_heap(&self) -> Heap {
        match *self {
            Domain::Heaps { max, .. } => max,
            Domain::Total { total } => total,
        }
    }

    /// The most heaps any of its positions holds.
    pub fn most_heaps(&self) -> u64 {
        match *self {
            Domain::Heaps { heaps, .. } => u64::from(heaps),
            Domain::Total { total } => total,
        }
    }

    /// The flags that select this domain, as typed on the command line.
    pub fn flags(&self) -> String {
        match self {
            Domain::Heaps { heaps, max } => format!("--heaps {heaps} --max {max}"),
            Domain::Total { total } => format!("--total {total}"),
        }
    }

    /// A file-name fragment naming this domain, such as `heaps3-max255` or `total60`.
    pub fn slug(&self) -> String {
        match self {
            Domain::Heaps { heaps, max } => format!("heaps{heaps}-max{max}"),
            Domain::Total { total } => format!("total{total}"),
        }
    }

    /// Refuses domains the game's moves could leave: splitting moves add heaps, so only
    /// `--total` bounds them, and a script's option that leaves more tokens than its heap
    /// breaks a bound on the total. Readies the options of the domain's heaps first (a
    /// script is run for each; its failure is the error).
    pub fn check_game(&self, game: &Game) -> Result<()> {
        let largest = match *self {
            Domain::Heaps { max, .. } => max,
            Domain::Total { total } => total,
        };
        game.ruleset.prepare(largest)?;
        if let Domain::Total { total } = *self {
            game.ruleset.check_total(total)?;
        }
        if matches!(self, Domain::Heaps { .. }) && game.ruleset.parts_up_to(largest) > 1 {
            return Err(Error::input(format!(
                "{} splits heaps, so a position can outgrow a bound on its heaps",
                game.title()
            ))
            .with_hint(Hint::UseTotal));
        }
        Ok(())
    }
}

impl fmt::Display for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Domain::Heaps { heaps: 1, max } => write!(f, "one heap of at most {max}"),
            Domain::Heaps { heaps, max } => write!(f, "at most {heaps} heaps of at most {max}"),
            Domain::Total { total: 1 } => write!(f, "at most 1 token in all"),
            Domain::Total { total } => write!(f, "at most {total} tokens in all"),
        }
    }
}

/// A domain with its ranking tables built.
#[derive(Clone, Debug)]
pub enum Ranker {
    /// `--heaps K --max N`.
    Heaps(BoundedTuples),
    /// `--total T`.
    Total(Partitions),
}

impl Ranker {
    /// Builds the ranking tables for a domain.
    pub fn new(domain: Domain) -> Result<Self> {
        Ok(match domain {
            Domain::Heaps { heaps, max } => Ranker::Heaps(BoundedTuples::new(heaps, max)?),
            Domain::Total { total } => Ranker::Total(Partitions::new(total)?),
        })
    }

    /// The domain ranked.
    pub fn domain(&self) -> Domain {
        match self {
            Ranker::Heaps(t) => Domain::Heaps {
                heaps: t.heaps() as u32,
                max: t.max(),
            },
            Ranker::Total(p) => Domain::Total { total: p.total() },
        }
    }

    /// Number of positions (table entries).
    pub fn count(&self) -> u64 {
        match self {
            Ranker::Heaps(t) => t.count(),
            Ranker::Total(p) => p.count(),
        }
    }

    /// The largest total of any position in the domain.
    pub fn max_total(&self) -> u64 {
        match self {
            Ranker::Heaps(t) => t.heaps() as u64 * t.max(),
            Ranker::Total(p) => p.total(),
        }
    }

    /// Bytes the ranking tables take.
    pub fn table_bytes(&self) -> u64 {
        match self {
            Ranker::Heaps(t) => t.table_bytes(),
            Ranker::Total(p) => p.table_bytes(),
        }
    }

    /// Rank of ascending heaps known to lie in the domain (zeros allowed; for `--heaps`
    /// at most `K` entries).
    #[inline]
    pub fn rank_unchecked(&self, heaps: &[Heap]) -> u64 {
        match self {
            Ranker::Heaps(t) => t.rank(heaps),
            Ranker::Total(p) => p.rank(heaps),
        }
    }

    /// True when ascending zero-free heaps lie in the domain.
    #[inline]
    pub fn contains(&self, heaps: &[Heap]) -> bool {
        match self {
            Ranker::Heaps(t) => t.contains(heaps),
            Ranker::Total(p) => p.contains(heaps),
        }
    }

    /// Rank of the position a move leads to (children of domain positions stay in the
    /// domain), without building it; `parent_total` is the sum of `heaps`.
    #[inline]
    pub fn rank_after_move(
        &self,
        heaps: &[Heap],
        parent_total: Heap,
        removed: &[usize],
        added: &[Heap],
    ) -> u64 {
        let mut scratch = [0; child::MAX_ADDED];
        let child = ChildHeaps::new(heaps, removed, added, &mut scratch);
        match self {
            Ranker::Heaps(t) => t.rank_ascending(child.len(), child),
            Ranker::Total(p) => p.rank_descending(child.total(parent_total), child.rev()),
        }
    }

    /// Rank of a position, or `None` when it lies outside the domain.
    #[inline]
    pub fn rank(&self, position: &Position) -> Option<u64> {
        let heaps = position.heaps();
        self.contains(heaps).then(|| self.rank_unchecked(heaps))
    }

    /// The position of rank `rank` (`rank < count()`).
    pub fn unrank(&self, rank: u64) -> Position {
        let mut heaps = Vec::new();
        match self {
            Ranker::Heaps(t) => t.unrank(rank, &mut heaps),
            Ranker::Total(p) => p.unrank(rank, &mut heaps),
        }
        Position::new(heaps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;
    use proptest::prelude::*;

    #[test]
    fn splitting_games_are_refused_on_heaps_domains() {
        let heaps = Domain::Heaps { heaps: 2, max: 5 };
        for name in ["kayles", "grundy", "dawson-kayles"] {
            let err = heaps.check_game(&resolve(name).unwrap()).unwrap_err();
            // The hint the binary words as `--total`.
            assert_eq!(err.hint(), Some(&Hint::UseTotal), "{err}");
        }
        for name in [
            "nim",
            "wythoff",
            "moore-2",
            "subtraction-1-3-4",
            "octal:0.33",
        ] {
            heaps.check_game(&resolve(name).unwrap()).unwrap();
        }
        assert!(resolve("octal:4.07")
            .unwrap()
            .ruleset
            .splits_without_taking());
        assert!(!resolve("kayles").unwrap().ruleset.splits_without_taking());
    }

    proptest! {
        #[test]
        fn heaps_rank_unrank_roundtrip(k in 1u32..6, n in 0u64..40, seed in any::<u64>()) {
            let ranker = Ranker::new(Domain::Heaps { heaps: k, max: n }).unwrap();
            let rank = seed % ranker.count();
            let position = ranker.unrank(rank);
            prop_assert_eq!(ranker.rank(&position), Some(rank));
        }

        #[test]
        fn total_rank_unrank_roundtrip(t in 0u64..50, seed in any::<u64>()) {
            let ranker = Ranker::new(Domain::Total { total: t }).unwrap();
            let rank = seed % ranker.count();
            let position = ranker.unrank(rank);
            prop_assert!(position.total() <= t as u128);
            prop_assert_eq!(ranker.rank(&position), Some(rank));
        }

        #[test]
        fn positions_outside_are_refused(heaps in proptest::collection::vec(0u64..20, 0..6)) {
            let position = Position::new(heaps);
            let ranker = Ranker::new(Domain::Heaps { heaps: 3, max: 10 }).unwrap();
            let inside = position.heaps().len() <= 3 && position.heaps().iter().all(|&h| h <= 10);
            prop_assert_eq!(ranker.rank(&position).is_some(), inside);
            let ranker = Ranker::new(Domain::Total { total: 30 }).unwrap();
            prop_assert_eq!(ranker.rank(&position).is_some(), position.total() <= 30);
        }
    }
}

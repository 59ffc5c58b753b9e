//! Ranking every child of one position from the position's own rank, in either domain:
//! finding a winning move or a remoteness scans the children, and ranking each from
//! scratch dominated the scan.

use std::sync::Arc;

use super::incremental::MAX_PUT_BACK;
use super::{Ranker, Runs, Strides, TupleChildren};
use crate::game::Heap;

/// Incremental child ranking for one ranker, reused from position to position.
pub enum ChildRanks {
    /// `--heaps` domains.
    Heaps(TupleChildren),
    /// `--total` domains: the stride sums (shared between threads) and the loaded runs.
    Total(Arc<Strides>, Runs),
}

impl ChildRanks {
    /// Ready for positions of `ranker`'s domain.
    pub fn new(ranker: &Ranker) -> Self {
        match ranker {
            Ranker::Heaps(_) => ChildRanks::Heaps(TupleChildren::default()),
            Ranker::Total(p) => ChildRanks::Total(Arc::new(Strides::new(p)), Runs::default()),
        }
    }

    /// Another ranker for the same domain, sharing the stride sums (one per thread).
    pub fn fork(&self) -> Self {
        match self {
            ChildRanks::Heaps(_) => ChildRanks::Heaps(TupleChildren::default()),
            ChildRanks::Total(strides, _) => {
                ChildRanks::Total(Arc::clone(strides), Runs::default())
            }
        }
    }

    /// Loads the position whose children come next (ascending, zero-free heaps).
    pub fn load(&mut self, ranker: &Ranker, heaps: &[Heap]) {
        match (self, ranker) {
            (ChildRanks::Heaps(c), Ranker::Heaps(t)) => c.load(t, heaps),
            (ChildRanks::Total(strides, runs), Ranker::Total(_)) => runs.load(strides, heaps),
            // Built by `ChildRanks::new` for this very ranker.
            (ChildRanks::Heaps(_), Ranker::Total(_))
            | (ChildRanks::Total(..), Ranker::Heaps(_)) => {}
        }
    }

    /// Rank of the child the move `(removed, added)` of the loaded `heaps` leads to:
    /// incrementally where the move's shape allows, from scratch otherwise.
    #[inline(always)]
    pub fn rank(
        &mut self,
        ranker: &Ranker,
        heaps: &[Heap],
        removed: &[usize],
        added: &[Heap],
    ) -> u64 {
        let quick = match (&mut *self, ranker) {
            (ChildRanks::Heaps(c), Ranker::Heaps(t)) => c.child_rank(t, removed, added),
            (ChildRanks::Total(strides, runs), Ranker::Total(_)) => match removed {
                &[removed] => runs.child_rank(strides, heaps, removed, added),
                _ => None,
            },
            (ChildRanks::Heaps(_), Ranker::Total(_))
            | (ChildRanks::Total(..), Ranker::Heaps(_)) => None,
        };
        quick.unwrap_or_else(|| ranker.rank_after_move(heaps, heaps.iter().sum(), removed, added))
    }

    /// Rank of the parent of the loaded `heaps` that lacks the heaps at `removed` and has
    /// `added` instead (a retrograde labeller's step): incrementally when
    /// it merges heaps into one larger heap, from scratch otherwise.
    #[inline(always)]
    pub fn parent_rank(
        &mut self,
        ranker: &Ranker,
        heaps: &[Heap],
        removed: &[usize],
        added: &[Heap],
    ) -> u64 {
        if let (ChildRanks::Total(strides, runs), &[joined]) = (&mut *self, added) {
            let mut values = [0; MAX_PUT_BACK];
            if removed.len() <= MAX_PUT_BACK && removed.iter().all(|&i| heaps[i] < joined) {
                for (value, &i) in values.iter_mut().zip(removed) {
                    *value = heaps[i];
                }
                let values = &values[..removed.len()];
                let merged: Heap = values.iter().sum();
                return runs.merge_rank(strides, values, joined - merged);
            }
        }
        ranker.rank_after_move(heaps, heaps.iter().sum(), removed, added)
    }
}

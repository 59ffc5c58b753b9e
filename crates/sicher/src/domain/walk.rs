//! Walking a domain's positions in rank order without unranking each one: what a pass
//! over a whole table body (the writer's predictions) needs.

use super::Ranker;
use crate::game::Heap;

/// Steps through the positions of consecutive ranks without unranking each.
pub struct Positions<'a> {
    ranker: &'a Ranker,
    rank: u64,
    /// The position of `rank`: ascending, zero-padded to K heaps for `--heaps`.
    heaps: Vec<Heap>,
}

impl<'a> Positions<'a> {
    /// Starts at `rank` (`rank < count`).
    pub fn new(ranker: &'a Ranker, rank: u64) -> Self {
        let mut positions = Positions {
            ranker,
            rank,
            heaps: Vec::new(),
        };
        positions.unrank();
        positions
    }

    fn unrank(&mut self) {
        self.heaps.clear();
        self.heaps
            .extend_from_slice(self.ranker.unrank(self.rank).heaps());
        if let Ranker::Heaps(t) = self.ranker {
            let pad = t.heaps() - self.heaps.len();
            self.heaps.splice(0..0, std::iter::repeat_n(0, pad));
        }
    }

    /// The current position's heaps (ascending; zeros only with `--heaps`).
    pub fn heaps(&self) -> &[Heap] {
        &self.heaps
    }

    /// Moves to the next rank, which must exist.
    pub fn advance(&mut self) {
        self.rank += 1;
        match self.ranker {
            Ranker::Total(p) => {
                let total: Heap = self.heaps.iter().sum();
                if p.tier(total).end == self.rank {
                    self.unrank();
                } else {
                    p.advance(&mut self.heaps);
                }
            }
            // Colexicographic successor of `a_i + i`: raise the first heap below its
            // right neighbour (the last one below the maximum), zero the ones before it.
            Ranker::Heaps(t) => {
                let k = self.heaps.len();
                let mut i = 0;
                while i + 1 < k && self.heaps[i] == self.heaps[i + 1] {
                    i += 1;
                }
                if i + 1 == k && self.heaps[i] >= t.max() {
                    self.unrank();
                    return;
                }
                self.heaps[i] += 1;
                self.heaps[..i].fill(0);
            }
        }
    }
}

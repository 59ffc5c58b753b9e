//! Endgame tables for the remoteness search: every position of a bounded domain with its
//! remoteness, labelled bottom-up on the fly, handed to the search as its [`Endgame`].
//!
//! Which domain pays for itself is decided from where a short search spent its nodes
//! ([`choose`]): the labeller visits every position of a domain once, a search only
//! those it needs, perhaps many times, so a table pays where the search is dense.

use crate::domain::{Domain, Partitions, Ranker};
use crate::error::{Error, Result};
use crate::game::{Game, Heap, Position};
use crate::label::Plan;
use crate::search::Endgame;

/// Most positions a table built on the fly labels, per thread labelling it (about a
/// fifth of a second's work on one core for misère Kayles).
const MAX_POSITIONS_PER_THREAD: u64 = 1 << 20;
/// Positions labelled for the work of one expanded by the search: what a table costs a
/// search that has a node budget (see [`DENSE`]).
pub const LABELLED_PER_NODE: u64 = 3;
/// Positions expanded per position of a tier, in the tiers a short search has already
/// finished, at which a table of small totals is worth labelling: the labeller settles
/// a position in about a third of the time the search takes to expand one.
const DENSE: f64 = 0.5;
/// Tiers within this many tokens of the busiest one may still be filling.
const SETTLING: usize = 4;
/// Fewest positions of the finished tiers for a density to mean something.
const SAMPLE: u64 = 256;
/// The top `1 / (LEFT_TO_SEARCH + threads)` of a position's tokens is left to the
/// search: near the root it needs few positions of each tier. Each thread more moves
/// work from the search to the labeller, which shares it out better (on the remoteness
/// suite, labelling runs about 1.6 times faster on two threads, the search 1.2 to 1.4
/// times). Misère Kayles 10..14 (60 tokens), fastest times of 7: on one thread, a
/// table of 45 tokens (the top quarter left) 229 ms, of 48 tokens (a fifth) 213 ms; on
/// two threads, 45 tokens 190 ms, 50 tokens (a sixth) 140 ms.
const LEFT_TO_SEARCH: u64 = 4;

/// Remotenesses of every position of a domain, by rank.
pub(super) struct Labelled {
    ranker: Ranker,
    /// One byte per position where every remoteness fits, which keeps probes in cache.
    values: Values,
}

enum Values {
    Narrow(Vec<u8>),
    Wide(Vec<u32>),
}

/// Positions below which a table is labelled on one thread: the threads meet at every
/// tier, and on small tables that costs about what they share (on the remoteness suite,
/// Wythoff's 210 276 positions gained nothing on two threads).
const PARALLEL_MIN_POSITIONS: u64 = 1 << 18;

impl Labelled {
    /// Labels every position of `domain` with `threads` workers (`None`: one per core).
    pub(super) fn label(game: &Game, domain: Domain, threads: Option<usize>) -> Result<Self> {
        let mut plan = Plan::new(game, domain, None, threads)?.with_remoteness();
        if plan.ranker().count() < PARALLEL_MIN_POSITIONS {
            plan = plan.with_threads(Some(1));
        }
        let ranker = plan.ranker().clone();
        if let Some(values) = plan.run_narrow_remoteness()? {
            return Ok(Labelled {
                ranker,
                values: Values::Narrow(values),
            });
        }
        let labelled = plan.run(&|_| {})?;
        let remoteness = labelled
            .remoteness
            .ok_or_else(|| Error::internal("a remoteness plan labels remotenesses"))?;
        let values = if remoteness.rmax() < u32::from(u8::MAX) {
            Values::Narrow(remoteness.values().iter().map(|&r| r as u8).collect())
        } else {
            Values::Wide(remoteness.values().to_vec())
        };
        Ok(Labelled { ranker, values })
    }

    /// Positions labelled.
    pub(super) fn positions(&self) -> u64 {
        self.ranker.count()
    }
}

impl Endgame for Labelled {
    fn max_total(&self) -> u64 {
        self.ranker.max_total()
    }

    #[inline]
    fn remoteness(&self, heaps: &[Heap]) -> Option<u32> {
        if !self.ranker.contains(heaps) {
            return None;
        }
        let rank = self.ranker.rank_unchecked(heaps) as usize;
        match &self.values {
            Values::Narrow(values) => values.get(rank).map(|&r| u32::from(r)),
            Values::Wide(values) => values.get(rank).copied(),
        }
    }
}

/// The domain worth labelling for searches from `position` (canonical: heaps that can
/// move) on `threads` threads, given the positions a search from it expanded so far by
/// tier of tokens (`tiers`), within `bytes` of memory and `most_positions` positions
/// (`has_table`: the search has a smaller one already); `None` when no table pays.
///
/// Rules whose moves never add a heap keep every position within as many heaps as
/// the root has, none larger than its largest: where that whole domain is small, it is
/// labelled, and the search becomes one look-up. Rules that split heaps get every
/// position of at most `T` tokens, where the search is dense in the tiers it finished.
pub(super) fn choose(
    game: &Game,
    position: &Position,
    tiers: &[u64],
    bytes: u64,
    threads: usize,
    most_positions: u64,
    has_table: bool,
) -> Option<Domain> {
    let heaps = position.heaps();
    let largest = heaps.last().copied()?;
    let max_positions = most_positions_on(threads).min(most_positions);
    let threads = threads.max(1) as u64;
    let domain = if game.ruleset.splits() {
        let total = u64::try_from(position.total()).ok()?;
        let ceiling = total - total.div_ceil(LEFT_TO_SEARCH + threads);
        // A search that already has a table expands nothing in the tiers it covers: the
        // density that chose it stands.
        if !has_table && !dense(tiers) {
            return None;
        }
        let partitions = Partitions::new(ceiling.min(tiers.len() as u64)).ok()?;
        // The largest total within the size cap and the memory given: a smaller table
        // where memory is short, rather than none (without one, a search in a starved
        // transposition table grows exponentially).
        return (1..=partitions.total())
            .rev()
            .filter(|&t| partitions.tier(t).end <= max_positions)
            .map(|total| Domain::Total { total })
            .find(|&domain| fits(game, domain, bytes));
    } else {
        let count = multisets(heaps.len() as u64, largest)?;
        if count > max_positions {
            return None;
        }
        Domain::Heaps {
            heaps: heaps.len() as u32,
            max: largest,
        }
    };
    fits(game, domain, bytes).then_some(domain)
}

/// Most positions a table labelled on `threads` threads holds, whatever the budget.
pub(super) fn most_positions_on(threads: usize) -> u64 {
    MAX_POSITIONS_PER_THREAD.saturating_mul(threads.max(1) as u64)
}

/// True when labelling `domain` with remotenesses takes at most `bytes` and covers some
/// position.
fn fits(game: &Game, domain: Domain, bytes: u64) -> bool {
    Plan::new(game, domain, None, None).is_ok_and(|plan| {
        let plan = plan.with_remoteness();
        plan.bytes_needed() <= bytes && plan.ranker().count() > 0
    })
}

/// True when the tiers a search has finished (those well below its busiest) hold about
/// as many expansions as positions.
fn dense(tiers: &[u64]) -> bool {
    let Some(busiest) = (0..tiers.len()).max_by_key(|&t| tiers[t]) else {
        return false;
    };
    let Some(settled) = busiest.checked_sub(SETTLING) else {
        return false;
    };
    let Ok(partitions) = Partitions::new(settled as u64) else {
        return false;
    };
    let (mut expanded, mut positions) = (0u64, 0u64);
    for t in (1..=settled).rev() {
        let tier = partitions.tier(t as u64);
        expanded += tiers[t];
        positions += tier.end - tier.start;
        if positions >= SAMPLE {
            break;
        }
    }
    positions >= SAMPLE && expanded as f64 >= DENSE * positions as f64
}

/// Multisets of at most `k` heaps of sizes up to `max` (the `--heaps k --max max`
/// domain), or `None` beyond `u64`.
fn multisets(k: u64, max: Heap) -> Option<u64> {
    // C(max + k, k), computed exactly step by step.
    let mut count: u64 = 1;
    for i in 1..=k {
        count = count.checked_mul(max.checked_add(i)?)? / i;
    }
    Some(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Convention;

    /// Where memory is short, the table shrinks to fit it rather than being left out:
    /// without one, a search in a starved transposition table grows exponentially
    /// (misère Kayles 10..14 took over a minute at `--hash 4` against a third of a
    /// second at `--hash 6`, where a table of 40 tokens fitted).
    #[test]
    fn a_small_memory_bound_gets_a_smaller_table() {
        let game = crate::game::resolve("kayles")
            .unwrap()
            .with_convention(Convention::Misere);
        let position = Position::new(vec![10, 11, 12, 13, 14]);
        // A search that expanded many positions of every tier.
        let tiers = vec![1_000_000; 61];
        let total = |bytes: u64| match choose(&game, &position, &tiers, bytes, 1, u64::MAX, false) {
            Some(Domain::Total { total }) => Some(total),
            Some(other) => panic!("{other:?}"),
            None => None,
        };
        let roomy = total(256 << 20).unwrap();
        let tight = total(1 << 20).unwrap();
        assert!(tight < roomy, "{tight} {roomy}");
        let plan = Plan::new(&game, Domain::Total { total: tight }, None, None).unwrap();
        assert!(plan.with_remoteness().bytes_needed() <= 1 << 20);
        assert_eq!(total(0), None);
    }
}

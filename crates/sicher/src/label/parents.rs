//! The parents of a position within a domain: the game model lists them
//! ([`Ruleset::for_each_parent`]) within the domain's bounds; on `--total` domains,
//! parents that merge heaps are listed and ranked by runs of equal heaps instead.

use crate::domain::{ChildRanks, Ranker, Runs, Strides};
use crate::game::{Heap, OptionShape, ParentBounds, Ruleset};

/// The bounds of `ranker`'s domain for parents of `heaps`.
pub(crate) fn bounds_of(ranker: &Ranker, heaps: &[Heap]) -> ParentBounds {
    match ranker {
        Ranker::Heaps(t) => ParentBounds {
            cap: t.max(),
            max_heaps: t.heaps(),
            budget: Heap::MAX,
        },
        Ranker::Total(p) => ParentBounds {
            cap: p.total(),
            max_heaps: usize::MAX,
            budget: p.total() - heaps.iter().sum::<Heap>(),
        },
    }
}

/// The shapes of the options a ruleset's parents are merged back from, taking at most
/// `cap` tokens, for [`for_each_merged_parent_rank`]; `None` when its parents raise heaps
/// instead. Listed once per labeller, so the per-position loop reads a slice.
pub(crate) fn merge_shapes(ruleset: &Ruleset, cap: Heap) -> Option<Vec<OptionShape>> {
    if ruleset.reversible() || !ruleset.has_option_shapes() {
        return None;
    }
    let mut shapes = Vec::new();
    ruleset.for_each_option_shape(cap, |shape| shapes.push(shape));
    Some(shapes)
}

/// Calls `visit(rank)` with the rank of every parent of the position loaded in `ranks`
/// (as [`Ruleset::for_each_parent`] lists them, once per way) when its parents merge
/// heaps (`shapes` from [`merge_shapes`]) on a `--total` domain; returns false, visiting
/// nothing, otherwise.
///
/// Parents are listed by runs of equal heaps rather than by heaps, and ranked from the
/// runs they merge, which costs a few lookups instead of a walk over the runs between.
pub(crate) fn for_each_merged_parent_rank(
    shapes: Option<&[OptionShape]>,
    ranks: &mut ChildRanks,
    bounds: ParentBounds,
    mut visit: impl FnMut(u64),
) -> bool {
    let (Some(shapes), ChildRanks::Total(strides, runs)) = (shapes, ranks) else {
        return false;
    };
    let cap = bounds.cap;
    // Shapes come by tokens taken: no parent takes more than the budget or the cap.
    let most = bounds.budget.min(cap);
    for shape in shapes.iter().take_while(|shape| shape.taken <= most) {
        let t = shape.taken;
        match shape.parts {
            0 => {
                if (runs.heaps() as usize) < bounds.max_heaps {
                    merge_runs(runs, strides, &[], t, cap, &mut visit);
                }
            }
            1 => {
                for i in 0..runs.len() {
                    merge_runs(runs, strides, &[i], t, cap, &mut visit);
                }
            }
            2 => runs.pair_merge_ranks(strides, t, shape.unequal, cap, &mut visit),
            _ => run_triples(runs, strides, t, cap, &mut visit),
        }
    }
    true
}

/// Visits the rank of the parent merging one heap of each run in `from` (largest index
/// first) and `t` tokens, when the merged heap is at most `cap`.
fn merge_runs(
    runs: &mut Runs,
    strides: &Strides,
    from: &[usize],
    t: Heap,
    cap: Heap,
    visit: &mut impl FnMut(u64),
) {
    let joined = from.iter().map(|&i| runs.value(i)).sum::<Heap>() + t;
    if joined <= cap {
        visit(runs.merge_runs_rank(strides, from, t));
    }
}

/// Triples of heaps by run, smallest first, merged with `t` tokens into at most `cap`.
fn run_triples(
    runs: &mut Runs,
    strides: &Strides,
    t: Heap,
    cap: Heap,
    visit: &mut impl FnMut(u64),
) {
    for a in (0..runs.len()).rev() {
        for b in (0..=a).rev() {
            if b == a && runs.count(a) < 2 {
                continue;
            }
            for c in (0..=b).rev() {
                let needed = 1 + u64::from(b == c) + u64::from(a == c);
                if c == b && runs.count(c) < needed {
                    continue;
                }
                if runs.value(a) + runs.value(b) + runs.value(c) + t > cap {
                    break;
                }
                merge_runs(runs, strides, &[a, b, c], t, cap, visit);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Domain, Partitions};
    use crate::game::resolve;

    /// The parents listed by runs and ranked from them are the parents listed by heaps
    /// and ranked from scratch, as often each.
    #[test]
    fn merged_parents_by_runs_are_the_parents_by_heaps() {
        let total = 16;
        let ranker = crate::domain::Ranker::new(Domain::Total { total }).unwrap();
        let partitions = Partitions::new(total).unwrap();
        for spec in [
            "kayles",
            "grundy",
            "octal:0.137",
            "octal:4.07",
            "octal:0.007",
            "octal:0.6",
            "hex:0.F",
            "hex:0.8F",
            "octal:0.15",
        ] {
            let ruleset = resolve(spec).unwrap().ruleset;
            let mut ranks = ChildRanks::new(&ranker);
            let (mut heaps, mut slots) = (Vec::new(), Vec::new());
            let mut listed = 0;
            for rank in 0..partitions.count() {
                partitions.unrank(rank, &mut heaps);
                ranks.load(&ranker, &heaps);
                let limits = bounds_of(&ranker, &heaps);
                let mut by_runs = Vec::new();
                assert!(for_each_merged_parent_rank(
                    merge_shapes(&ruleset, total).as_deref(),
                    &mut ranks,
                    limits,
                    |r| { by_runs.push(r) }
                ));
                let mut by_heaps = Vec::new();
                ruleset.for_each_parent(&heaps, limits, &mut slots, |removed, added| {
                    let sum = heaps.iter().sum();
                    by_heaps.push(ranker.rank_after_move(&heaps, sum, removed, added));
                });
                by_runs.sort_unstable();
                by_heaps.sort_unstable();
                assert_eq!(by_runs, by_heaps, "{spec} {heaps:?}");
                listed += by_runs.len();
            }
            assert!(listed > 1000, "{spec}: {listed}");
        }
        let nim = resolve("nim").unwrap().ruleset;
        let mut ranks = ChildRanks::new(&ranker);
        let limits = bounds_of(&ranker, &[1]);
        assert!(!for_each_merged_parent_rank(
            merge_shapes(&nim, total).as_deref(),
            &mut ranks,
            limits,
            |_| {}
        ));
    }
}

//! The parents of a position: every position of the domain one move before it. Retrograde
//! labelling propagates from a position to its parents.
//!
//! Moves that only lower heaps (Nim, subtraction, Wythoff, Moore) are undone by raising
//! heaps, including empty slots; take-and-break moves and Grundy's splits are undone by
//! merging the heaps a move left (one, two or three of them, or none for a heap taken
//! whole) into one heap holding them and the tokens taken. A parent is reported as the
//! heaps it removes from the position and the heaps it adds (as moves are), so callers
//! rank it without building it. A parent may be visited more than once; every parent is
//! visited.

use crate::domain::{ChildRanks, Ranker, Runs, Strides};
use crate::game::{Heap, Ruleset, TakeBreakCode, MOORE_MAX_K};

/// What a parent must respect to lie in the domain.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Largest heap size.
    cap: Heap,
    /// Most heaps.
    max_heaps: usize,
    /// Tokens a parent may have beyond the position's.
    budget: Heap,
}

impl Limits {
    /// The limits of `ranker`'s domain for parents of `heaps`.
    pub(crate) fn of(ranker: &Ranker, heaps: &[Heap]) -> Self {
        match ranker {
            Ranker::Heaps(t) => Limits {
                cap: t.max(),
                max_heaps: t.heaps(),
                budget: Heap::MAX,
            },
            Ranker::Total(p) => Limits {
                cap: p.total(),
                max_heaps: usize::MAX,
                budget: p.total() - heaps.iter().sum::<Heap>(),
            },
        }
    }
}

/// Calls `visit(removed, added)` for every parent of `heaps` (ascending, zero-free) that
/// lies within `limits`: the parent is `heaps` without the heaps at `removed` (ascending
/// indices) and with `added`.
pub(crate) fn for_each_parent(
    ruleset: &Ruleset,
    heaps: &[Heap],
    limits: Limits,
    slots: &mut Vec<Heap>,
    visit: impl FnMut(&[usize], &[Heap]),
) {
    match ruleset {
        Ruleset::Nim | Ruleset::Subtraction(_) | Ruleset::Wythoff | Ruleset::Moore(_) => {
            let touched = ruleset.heaps_touched() as usize;
            let empty_slots = limits
                .max_heaps
                .saturating_sub(heaps.len())
                .min(usize::try_from(limits.budget).unwrap_or(usize::MAX))
                .min(touched);
            slots.clear();
            slots.extend((0..empty_slots).map(|_| 0));
            slots.extend_from_slice(heaps);
            let mut raise = Raise {
                slots,
                empty_slots,
                cap: limits.cap,
                mark: visit,
            };
            raise.parents(ruleset, limits.budget);
        }
        Ruleset::TakeBreak(code) => {
            let mut merge = Merge {
                heaps,
                limits,
                visit,
            };
            merge.take_break(code);
        }
        Ruleset::Grundy => {
            let mut merge = Merge {
                heaps,
                limits,
                visit,
            };
            merge.pairs(0, true);
        }
    }
}

/// Calls `visit(rank)` with the rank of every parent of the position loaded in `ranks`
/// (as [`for_each_parent`] lists them, once per way) when its parents merge heaps on a
/// `--total` domain; returns false, visiting nothing, otherwise.
///
/// Parents are listed by runs of equal heaps rather than by heaps, and ranked from the
/// runs they merge, which costs a few lookups instead of a walk over the runs between.
pub(crate) fn for_each_merged_parent_rank(
    ruleset: &Ruleset,
    ranks: &mut ChildRanks,
    limits: Limits,
    mut visit: impl FnMut(u64),
) -> bool {
    let ChildRanks::Total(strides, runs) = ranks else {
        return false;
    };
    let cap = limits.cap;
    match ruleset {
        Ruleset::TakeBreak(code) => {
            let last = code
                .last_nonzero()
                .unwrap_or(Heap::MAX)
                .min(limits.budget)
                .min(cap);
            for t in 0..=last {
                let digit = code.digit(t);
                if digit & 1 != 0 && t >= 1 && (runs.heaps() as usize) < limits.max_heaps {
                    merge_runs(runs, strides, &[], t, cap, &mut visit);
                }
                if digit & 2 != 0 && t >= 1 {
                    for i in 0..runs.len() {
                        merge_runs(runs, strides, &[i], t, cap, &mut visit);
                    }
                }
                if digit & 4 != 0 {
                    runs.pair_merge_ranks(strides, t, false, cap, &mut visit);
                }
                if digit & 8 != 0 {
                    run_triples(runs, strides, t, cap, &mut visit);
                }
            }
        }
        Ruleset::Grundy => runs.pair_merge_ranks(strides, 0, true, cap, &mut visit),
        _ => return false,
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

/// Undoes splits: merges heaps of a position, with the tokens a move took, into one.
struct Merge<'a, V: FnMut(&[usize], &[Heap])> {
    heaps: &'a [Heap],
    limits: Limits,
    visit: V,
}

impl<V: FnMut(&[usize], &[Heap])> Merge<'_, V> {
    /// Every parent under a take-and-break code: for each `t` tokens taken, the digit's
    /// bits say how many heaps the move left (0, 1, 2 or 3), which are merged back.
    fn take_break(&mut self, code: &TakeBreakCode) {
        let last = code
            .last_nonzero()
            .unwrap_or(Heap::MAX)
            .min(self.limits.budget)
            .min(self.limits.cap);
        for t in 0..=last {
            let digit = code.digit(t);
            if digit & 1 != 0 && t >= 1 && self.heaps.len() < self.limits.max_heaps {
                self.emit(&[], t);
            }
            if digit & 2 != 0 && t >= 1 {
                for i in run_starts(self.heaps) {
                    self.emit(&[i], t);
                }
            }
            if digit & 4 != 0 {
                self.pairs(t, false);
            }
            if digit & 8 != 0 {
                self.triples(t);
            }
        }
    }

    /// Pairs of heaps merged with `t` tokens; `unequal`: only pairs of different sizes
    /// (Grundy's game).
    fn pairs(&mut self, t: Heap, unequal: bool) {
        let heaps = self.heaps;
        let n = heaps.len();
        for i in run_starts(heaps) {
            for j in i + 1..n {
                if j > i + 1 && heaps[j] == heaps[j - 1] {
                    continue;
                }
                if unequal && heaps[i] == heaps[j] {
                    continue;
                }
                self.emit(&[i, j], t);
            }
        }
    }

    fn triples(&mut self, t: Heap) {
        let heaps = self.heaps;
        let n = heaps.len();
        for i in run_starts(heaps) {
            for j in i + 1..n {
                if j > i + 1 && heaps[j] == heaps[j - 1] {
                    continue;
                }
                for k in j + 1..n {
                    if k > j + 1 && heaps[k] == heaps[k - 1] {
                        continue;
                    }
                    self.emit(&[i, j, k], t);
                }
            }
        }
    }

    /// The parent with the heaps at `merged` (ascending indices) and `t` tokens joined
    /// into one heap, when it fits the domain.
    fn emit(&mut self, merged: &[usize], t: Heap) {
        let joined = merged.iter().map(|&i| self.heaps[i]).sum::<Heap>() + t;
        if joined > self.limits.cap || t > self.limits.budget {
            return;
        }
        (self.visit)(merged, &[joined]);
    }
}

/// Undoes moves that lower heaps: the position's heap slots raised.
struct Raise<'a, M: FnMut(&[usize], &[Heap])> {
    /// The position's heaps, ascending, with empty slots (zeros) in front.
    slots: &'a [Heap],
    /// How many of the slots are empty.
    empty_slots: usize,
    /// Largest heap size in the domain.
    cap: Heap,
    mark: M,
}

impl<M: FnMut(&[usize], &[Heap])> Raise<'_, M> {
    /// Reports the parent with slots raised as `changes` (ascending slots) says: a raised
    /// heap is removed and added at its new size, a raised empty slot only added.
    fn emit(&mut self, changes: &[(usize, Heap)]) {
        let mut removed = [0usize; MOORE_MAX_K as usize];
        let mut added = [0 as Heap; MOORE_MAX_K as usize];
        let mut r = 0;
        for (a, &(slot, value)) in changes.iter().enumerate() {
            if slot >= self.empty_slots {
                removed[r] = slot - self.empty_slots;
                r += 1;
            }
            added[a] = value;
        }
        (self.mark)(&removed[..r], &added[..changes.len()]);
    }

    fn parents(&mut self, ruleset: &Ruleset, budget: Heap) {
        match ruleset {
            Ruleset::Nim | Ruleset::Wythoff => {
                for i in run_starts(self.slots) {
                    let top = self.cap.min(self.slots[i].saturating_add(budget));
                    for v in self.slots[i] + 1..=top {
                        self.emit(&[(i, v)]);
                    }
                }
                if matches!(ruleset, Ruleset::Wythoff) {
                    self.pairs(budget);
                }
            }
            Ruleset::Subtraction(set) => {
                for i in run_starts(self.slots) {
                    for &s in set.iter().take_while(|&&s| s <= budget) {
                        let v = self.slots[i] + s;
                        if v > self.cap {
                            break;
                        }
                        self.emit(&[(i, v)]);
                    }
                }
            }
            Ruleset::Moore(k) => {
                let mut changes = [(0usize, 0 as Heap); MOORE_MAX_K as usize];
                self.subsets(*k as usize, 0, 0, budget, &mut changes);
            }
            // Splits are undone by merging heaps, not by raising them.
            Ruleset::Grundy | Ruleset::TakeBreak(_) => {}
        }
    }

    /// Wythoff's second kind of move, reversed: two slots raised by the same amount.
    fn pairs(&mut self, budget: Heap) {
        let n = self.slots.len();
        for i in run_starts(self.slots) {
            for j in i + 1..n {
                if j > i + 1 && self.slots[j] == self.slots[j - 1] {
                    continue;
                }
                let mut d = 1;
                while self.slots[j] + d <= self.cap && 2 * d <= budget {
                    self.emit(&[(i, self.slots[i] + d), (j, self.slots[j] + d)]);
                    d += 1;
                }
            }
        }
    }

    /// Moore's moves reversed: every set of 1..=k slots, each raised by a positive amount
    /// (within a run of equal slots only a prefix is chosen).
    fn subsets(
        &mut self,
        k: usize,
        start: usize,
        depth: usize,
        budget: Heap,
        changes: &mut [(usize, Heap); MOORE_MAX_K as usize],
    ) {
        if depth == k {
            return;
        }
        for i in start..self.slots.len() {
            let twin = i > 0 && self.slots[i] == self.slots[i - 1];
            let previous_chosen = depth > 0 && changes[depth - 1].0 == i - 1;
            if twin && !previous_chosen {
                continue;
            }
            let top = self.cap.min(self.slots[i].saturating_add(budget));
            for v in self.slots[i] + 1..=top {
                changes[depth] = (i, v);
                self.emit(&changes[..=depth]);
                let spent = v - self.slots[i];
                self.subsets(k, i + 1, depth + 1, budget - spent, changes);
            }
        }
    }
}

/// Slot indices that start a run of equal values: raising a later slot of a run gives the
/// same parents as raising its first.
fn run_starts(slots: &[Heap]) -> impl Iterator<Item = usize> + '_ {
    (0..slots.len()).filter(|&i| i == 0 || slots[i] != slots[i - 1])
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
                let limits = Limits::of(&ranker, &heaps);
                let mut by_runs = Vec::new();
                assert!(for_each_merged_parent_rank(
                    &ruleset,
                    &mut ranks,
                    limits,
                    |r| { by_runs.push(r) }
                ));
                let mut by_heaps = Vec::new();
                for_each_parent(&ruleset, &heaps, limits, &mut slots, |removed, added| {
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
        let limits = Limits::of(&ranker, &[1]);
        assert!(!for_each_merged_parent_rank(
            &nim,
            &mut ranks,
            limits,
            |_| {}
        ));
    }
}

//! The parents of a position: every position one move before it, within bounds on the
//! heaps and tokens it may have. Retrograde labellers propagate from a position to its
//! parents.
//!
//! Moves that only lower heaps (Nim, subtraction, Wythoff, Moore) are undone by raising
//! heaps, including empty slots; take-and-break moves and Grundy's splits are undone by
//! merging the heaps a move left (one, two or three of them, or none for a heap taken
//! whole) into one heap holding them and the tokens taken, shape by shape
//! ([`Ruleset::for_each_option_shape`]); a script's moves are undone by looking the heaps
//! a move left up among its cached options. A parent is reported as the heaps it removes
//! from the position and the heaps it adds (as moves are), so callers rank it without
//! building it. A parent may be visited more than once; every parent is visited.

use super::custom::CustomRules;
use super::{Heap, OptionShape, Ruleset, MOORE_MAX_K};

/// What a parent must respect to count: the bounds of the domain it must lie in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParentBounds {
    /// Largest heap size.
    pub cap: Heap,
    /// Most heaps.
    pub max_heaps: usize,
    /// Tokens a parent may have beyond the position's.
    pub budget: Heap,
}

impl Ruleset {
    /// Calls `visit(removed, added)` for every parent of `heaps` (ascending, zero-free)
    /// within `bounds`: the parent is `heaps` without the heaps at `removed` (ascending
    /// indices) and with `added`. `slots` is scratch, kept by the caller so the walk
    /// never allocates.
    pub fn for_each_parent(
        &self,
        heaps: &[Heap],
        bounds: ParentBounds,
        slots: &mut Vec<Heap>,
        visit: impl FnMut(&[usize], &[Heap]),
    ) {
        match self {
            Ruleset::Nim
            | Ruleset::Subtraction(_)
            | Ruleset::InfiniteSubtraction(_)
            | Ruleset::Wythoff
            | Ruleset::Moore(_) => {
                let touched = self.heaps_touched() as usize;
                let empty_slots = bounds
                    .max_heaps
                    .saturating_sub(heaps.len())
                    .min(usize::try_from(bounds.budget).unwrap_or(usize::MAX))
                    .min(touched);
                slots.clear();
                slots.extend((0..empty_slots).map(|_| 0));
                slots.extend_from_slice(heaps);
                let mut raise = Raise {
                    slots,
                    empty_slots,
                    cap: bounds.cap,
                    mark: visit,
                };
                raise.parents(self, bounds.budget);
            }
            Ruleset::TakeBreak(_) | Ruleset::Grundy => {
                let mut merge = Merge {
                    heaps,
                    bounds,
                    visit,
                };
                // No parent takes more tokens than the budget or makes a heap above the cap.
                let most = bounds.budget.min(bounds.cap);
                self.for_each_option_shape(most, |shape| merge.undo(shape));
            }
            Ruleset::Custom(custom) => {
                let mut merge = Merge {
                    heaps,
                    bounds,
                    visit,
                };
                merge.look_up(custom);
            }
        }
    }
}

/// Undoes splits: merges heaps of a position, with the tokens a move took, into one.
struct Merge<'a, V: FnMut(&[usize], &[Heap])> {
    heaps: &'a [Heap],
    bounds: ParentBounds,
    visit: V,
}

impl<V: FnMut(&[usize], &[Heap])> Merge<'_, V> {
    /// The parents that undo options of one shape: the heaps the option left (none,
    /// one, two or three of them) merged back with the tokens it took.
    fn undo(&mut self, shape: OptionShape) {
        let t = shape.taken;
        match shape.parts {
            0 => {
                if self.heaps.len() < self.bounds.max_heaps {
                    self.emit(&[], t);
                }
            }
            1 => {
                for i in run_starts(self.heaps) {
                    self.emit(&[i], t);
                }
            }
            2 => self.pairs(t, shape.unequal),
            _ => self.triples(t),
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

    /// Triples of heaps merged with `t` tokens.
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

    /// A script's parents: every way of choosing at most three heaps of the position (one
    /// per run of equal heaps at each rank, so each multiset once), each the option of
    /// some larger heap, merged back into that heap.
    fn look_up(&mut self, custom: &CustomRules) {
        let heaps = self.heaps;
        let n = heaps.len();
        let cap = self.bounds.cap;
        let mut chosen = [0usize; 3];
        let mut parts = [0 as Heap; 3];
        let undo = |this: &mut Self, chosen: &[usize], parts: &[Heap]| {
            let left: Heap = parts.iter().sum();
            let room = this.heaps.len() - chosen.len() < this.bounds.max_heaps;
            if !room {
                return;
            }
            custom.for_each_heap_with_option(parts, cap, |h| {
                // A parent with fewer tokens than the position always fits its budget.
                if h < left || h - left <= this.bounds.budget {
                    (this.visit)(chosen, &[h]);
                }
            });
        };
        undo(self, &[], &[]);
        for i in run_starts(heaps) {
            chosen[0] = i;
            parts[0] = heaps[i];
            undo(self, &chosen[..1], &parts[..1]);
            for j in i + 1..n {
                if j > i + 1 && heaps[j] == heaps[j - 1] {
                    continue;
                }
                chosen[1] = j;
                parts[1] = heaps[j];
                undo(self, &chosen[..2], &parts[..2]);
                for k in j + 1..n {
                    if k > j + 1 && heaps[k] == heaps[k - 1] {
                        continue;
                    }
                    chosen[2] = k;
                    parts[2] = heaps[k];
                    undo(self, &chosen[..3], &parts[..3]);
                }
            }
        }
    }

    /// The parent with the heaps at `merged` (ascending indices) and `t` tokens joined
    /// into one heap, when it fits the domain.
    fn emit(&mut self, merged: &[usize], t: Heap) {
        let joined = merged.iter().map(|&i| self.heaps[i]).sum::<Heap>() + t;
        if joined > self.bounds.cap || t > self.bounds.budget {
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
            Ruleset::InfiniteSubtraction(family) => {
                for i in run_starts(self.slots) {
                    let room = self.cap.saturating_sub(self.slots[i]).min(budget);
                    let _ = family.for_each_size(room, |s| {
                        self.emit(&[(i, self.slots[i] + s)]);
                        std::ops::ControlFlow::Continue(())
                    });
                }
            }
            Ruleset::Moore(k) => {
                let mut changes = [(0usize, 0 as Heap); MOORE_MAX_K as usize];
                self.subsets(*k as usize, 0, 0, budget, &mut changes);
            }
            // Splits (and a script's moves) are undone by merging heaps, not by raising them.
            Ruleset::Grundy | Ruleset::TakeBreak(_) | Ruleset::Custom(_) => {}
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
    use crate::game::{child_into, resolve, Game, Position};
    use std::collections::BTreeSet;

    /// Every multiset of heaps `1..=cap`, at most `max_heaps` of them and `total` tokens.
    fn domain(cap: Heap, max_heaps: usize, total: Heap) -> Vec<Position> {
        fn grow(
            from: Heap,
            cap: Heap,
            left: usize,
            total: Heap,
            at: &mut Vec<Heap>,
            out: &mut Vec<Position>,
        ) {
            out.push(Position::new(at.clone()));
            if left == 0 {
                return;
            }
            for h in from..=cap.min(total) {
                at.push(h);
                grow(h, cap, left - 1, total - h, at, out);
                at.pop();
            }
        }
        let mut out = Vec::new();
        grow(1, cap, max_heaps, total, &mut Vec::new(), &mut out);
        out
    }

    /// The parents listed are exactly the positions of the domain with a move to the
    /// position, on bounded heaps and on bounded totals.
    #[test]
    fn parents_are_the_positions_that_move_here() {
        for spec in [
            "nim",
            "subtraction:1,3,4",
            "wythoff",
            "moore:2",
            "kayles",
            "grundy",
            "octal:0.137",
            "octal:4.07",
            "hex:0.8F",
            "octal:0.[3]",
            "subtraction:squares",
            "subtraction:all-but:2,3",
            "subtraction:primes",
        ] {
            let game: Game = resolve(spec).unwrap();
            for (cap, max_heaps, total) in [(6, 3, Heap::MAX), (9, usize::MAX, 9)] {
                let positions = domain(cap, max_heaps, total.min(cap * max_heaps.min(9) as Heap));
                let mut expected: Vec<BTreeSet<Position>> = vec![BTreeSet::new(); positions.len()];
                let index = |p: &Position| positions.iter().position(|q| q == p);
                for (q, parent) in positions.iter().enumerate() {
                    for child in game.children_prepared(parent) {
                        if let Some(c) = index(&child) {
                            expected[c].insert(positions[q].clone());
                        }
                    }
                }
                let mut slots = Vec::new();
                let mut heaps = Vec::new();
                for (c, position) in positions.iter().enumerate() {
                    let tokens: Heap = position.heaps().iter().sum();
                    let bounds = ParentBounds {
                        cap,
                        max_heaps,
                        budget: if total == Heap::MAX {
                            Heap::MAX
                        } else {
                            total - tokens
                        },
                    };
                    let mut listed = BTreeSet::new();
                    game.ruleset.for_each_parent(
                        position.heaps(),
                        bounds,
                        &mut slots,
                        |removed, added| {
                            child_into(position.heaps(), removed, added, &mut heaps);
                            listed.insert(Position::new(heaps.clone()));
                        },
                    );
                    assert_eq!(listed, expected[c], "{spec} {position} {bounds:?}");
                }
            }
        }
    }
}

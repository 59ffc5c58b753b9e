//! Backward labelling: every unsafe position marks the positions that move to it as safe.
//!
//! A position still unmarked when its tier comes has no unsafe child (all children lie
//! in lower tiers, already done), so it is unsafe unless it is a misère terminal. Parents
//! lie in higher tiers, so marking them never races with a read in the current tier.
//! Only for rulesets whose moves lower heaps (nim, subtraction, wythoff, moore): their
//! parents are the positions with some heaps raised, including empty slots.

use super::bits::{Labels, SharedBits};
use super::tiers::{for_each_position, has_move};
use crate::domain::Ranker;
use crate::error::Result;
use crate::game::{Game, Heap, Ruleset, MOORE_MAX_K};

pub(crate) fn label(
    game: &Game,
    ranker: &Ranker,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Labels> {
    let bits = SharedBits::new(ranker.count())?;
    let touched = u64::from(game.ruleset.heaps_touched());
    for_each_position(game, ranker, progress, |scratch, rank, heaps| {
        if bits.is_safe(rank) {
            return;
        }
        if game.terminal_is_win() && !has_move(game, heaps) {
            bits.set_safe(rank);
            return;
        }
        let (cap, budget, empty_slots) = match ranker {
            Ranker::Heaps(t) => (t.max(), Heap::MAX, (t.heaps() - heaps.len()) as u64),
            Ranker::Total(p) => {
                let budget = p.total() - heaps.iter().sum::<Heap>();
                (p.total(), budget, budget.min(touched))
            }
        };
        let slots = &mut scratch.slots;
        slots.clear();
        slots.extend((0..empty_slots).map(|_| 0));
        slots.extend_from_slice(heaps);
        let mut raise = Raise {
            slots,
            cap,
            work: &mut scratch.work,
            mark: |parent: &[Heap]| bits.set_safe(ranker.rank_unchecked(parent)),
        };
        raise.parents(&game.ruleset, budget);
    });
    Ok(bits.into_labels())
}

/// Enumerates the parents of one position: its heap slots raised as a move's inverse.
struct Raise<'a, M: FnMut(&[Heap])> {
    /// The position's heaps, ascending, with empty slots (zeros) in front.
    slots: &'a [Heap],
    /// Largest heap size in the domain.
    cap: Heap,
    work: &'a mut Vec<Heap>,
    mark: M,
}

impl<M: FnMut(&[Heap])> Raise<'_, M> {
    fn emit(&mut self, changes: &[(usize, Heap)]) {
        self.work.clear();
        self.work.extend_from_slice(self.slots);
        for &(i, v) in changes {
            self.work[i] = v;
        }
        self.work.sort_unstable();
        (self.mark)(self.work);
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
            Ruleset::Grundy | Ruleset::TakeBreak(_) => {
                unreachable!("backward labelling is refused for {ruleset}")
            }
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

//! The normal-play fast path: a position of a one-heap ruleset is unsafe exactly when the
//! XOR of its heaps' nim-values is 0, and a winning move lowers one heap's value to make
//! it 0. Heaps beyond the values computed use the proved periodic form.

use std::ops::ControlFlow;

use super::period::{Periodicity, ProofBound};
use super::solution::{all_but_largest_excluded, proved_arithmetic};
use super::values::{check_request, engine, Method, Nimber, Sequence};
use crate::error::{Error, Hint, Result};
use crate::game::{Convention, Game, Heap, Position, Ruleset};
use crate::theory::invariant::{self, HeapInvariant};

/// Heaps up to this size are simply computed; above it sicher first looks for a proved
/// period, which makes every heap size cheap.
const DIRECT_LIMIT: u64 = 1 << 16;

/// Nim-values of every heap size for one ruleset, looked up: computed ones (grown on
/// demand), and beyond them the proved periodic form when there is one. Theory, not an
/// answer source: the answer layer's `NimSource` asks it.
pub struct NimValueLookup {
    ruleset: Ruleset,
    /// The values computed so far; `None` for Nim and for stored values.
    sequence: Option<Box<dyn Sequence>>,
    /// Most values the sequence may hold.
    max_len: u64,
    /// Values read from elsewhere (a nim-value table), standing in for the sequence.
    stored: Option<Vec<Nimber>>,
    periodicity: Option<Periodicity>,
    bound: Option<ProofBound>,
    /// For an all-but subtraction game, the largest size it leaves out: its arithmetic
    /// periodicity is proved instead ([`super::prove_all_but`]).
    all_but: Option<u64>,
}

/// A move that leaves the opponent an unsafe position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinningMove {
    /// The heap moved on.
    pub heap: Heap,
    /// The heaps it leaves (ascending, possibly none).
    pub leaves: Vec<Heap>,
    /// The position after the move.
    pub after: Position,
}

/// The fast path's answer for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// True when the position is safe (the player to move wins).
    pub win: bool,
    /// XOR of the heaps' nim-values (64 bits: Nim heaps are their own values).
    pub nim_sum: u64,
    /// A winning move, when the position is safe.
    pub winning_move: Option<WinningMove>,
}

/// True when the fast path can answer positions of `game`: normal play of a one-heap ruleset.
pub fn applies(game: &Game) -> bool {
    game.convention == Convention::Normal && game.ruleset.moves_one_heap()
}

impl NimValueLookup {
    /// Prepares nim-values for heaps up to `largest`, computing at most `max_len` values:
    /// when `largest` is beyond that, a period must be proved within them.
    pub fn new(ruleset: &Ruleset, largest: Heap, max_len: u64) -> Result<Self> {
        let mut lookup = Self::growing(ruleset, max_len)?;
        lookup.cover(largest)?;
        Ok(lookup)
    }

    /// A lookup with no values yet, that computes at most `max_len` of them as
    /// [`cover`](Self::cover) asks.
    pub fn growing(ruleset: &Ruleset, max_len: u64) -> Result<Self> {
        check_request(ruleset, max_len)?;
        let sequence = if ruleset.nim_values_are_sizes() {
            None
        } else {
            Some(engine(ruleset, Method::Fast, max_len.min(DIRECT_LIMIT))?)
        };
        Ok(NimValueLookup {
            ruleset: ruleset.clone(),
            sequence,
            max_len,
            stored: None,
            periodicity: None,
            bound: ProofBound::for_ruleset(ruleset),
            all_but: all_but_largest_excluded(ruleset),
        })
    }

    /// True when every heap up to `largest` has a known value.
    pub fn covers(&self, largest: Heap) -> bool {
        self.closed_form() || self.periodicity.is_some() || largest < self.computed()
    }

    /// Extends the values until heaps up to `largest` are covered: computed directly up
    /// to 65 536, beyond it only as far as a proved period needs.
    pub fn cover(&mut self, largest: Heap) -> Result<()> {
        if self.covers(largest) {
            return Ok(());
        }
        let ruleset = &self.ruleset;
        let Some(sequence) = self.sequence.as_mut() else {
            return Err(Error::input(format!(
                "heap {largest} is beyond the {} values stored, and they come with no proved period",
                self.computed()
            )));
        };
        let wanted = largest.saturating_add(1);
        if self.bound.is_none() && self.all_but.is_none() && wanted > self.max_len {
            // Only computing every value up to the heap could answer: refuse at once.
            return Err(Error::input(format!(
                "heap {largest} is beyond the {} nim-values sicher may compute, and {ruleset} has no periodicity theorem",
                self.max_len
            ))
            .with_hint(Hint::MoreValuesOrSearch));
        }
        let done = sequence.values().len() as u64;
        let mut target = wanted.min(DIRECT_LIMIT).max(done + 1).min(self.max_len);
        loop {
            ruleset.prepare(target.saturating_sub(1))?;
            sequence.extend_to(target as usize);
            if target >= wanted {
                return Ok(());
            }
            if let Some(bound) = self.bound {
                if let Some(found) = sequence.values().find_proved(bound) {
                    self.periodicity = Some(found);
                    return Ok(());
                }
            }
            if let Some(t) = self.all_but {
                if let Some(found) = proved_arithmetic(sequence.values(), t) {
                    self.periodicity = Some(found);
                    return Ok(());
                }
            }
            if target >= self.max_len {
                let why = if self.bound.is_none() && self.all_but.is_none() {
                    format!("{ruleset} has no periodicity theorem")
                } else {
                    format!("no period of {ruleset} is proved within them")
                };
                return Err(Error::input(format!(
                    "heap {largest} is beyond the {} nim-values sicher may compute, and {why}",
                    self.max_len
                ))
                .with_hint(Hint::MoreValuesOrSearch));
            }
            target = (target + target / 8).min(wanted).min(self.max_len);
        }
    }

    /// Answers from stored values `G(0..values.len())` of `ruleset` (read from a
    /// nim-value table, say) and the period they were stored with. A period is used
    /// beyond the values only as far as its proof reaches: one whose proof needs more
    /// values than are given is refused as damaged (it would make the lift of a huge
    /// heap's option underflow).
    pub fn from_values(
        ruleset: &Ruleset,
        values: Vec<Nimber>,
        periodicity: Option<Periodicity>,
    ) -> Result<Self> {
        let bound = ProofBound::for_ruleset(ruleset);
        if let (Some(found), Some(bound)) = (periodicity, bound) {
            if bound.needed_len(found.preperiod, found.period) > values.len() as u64 {
                return Err(Error::damaged(
                    "its period's proof needs more values than it stores",
                ));
            }
        }
        Ok(NimValueLookup {
            ruleset: ruleset.clone(),
            sequence: None,
            max_len: 0,
            periodicity,
            bound,
            all_but: all_but_largest_excluded(ruleset),
            stored: Some(values),
        })
    }

    /// Heap sizes whose values are known without the period: `0..computed`.
    pub fn computed(&self) -> u64 {
        match (&self.stored, &self.sequence) {
            (Some(values), _) => values.len() as u64,
            (None, Some(sequence)) => sequence.values().len() as u64,
            (None, None) => 0,
        }
    }

    fn stored(&self, h: u64) -> Option<Nimber> {
        match (&self.stored, &self.sequence) {
            (Some(values), _) => values.get(h as usize).copied(),
            (None, Some(sequence)) => sequence.values().get(h as usize),
            (None, None) => None,
        }
    }

    /// True for Nim, whose values are the heap sizes themselves.
    pub fn closed_form(&self) -> bool {
        self.ruleset.nim_values_are_sizes()
    }

    /// The proved period used beyond the computed values, if any.
    pub fn periodicity(&self) -> Option<Periodicity> {
        self.periodicity
    }

    /// G(h).
    pub fn value(&self, h: Heap) -> u64 {
        if self.closed_form() {
            return h;
        }
        match self.stored(h) {
            Some(v) => u64::from(v),
            None => {
                // Callers check `covers` first; a heap nothing covers counts as 0 rather
                // than aborting.
                let Some(found) = self.periodicity else {
                    return 0;
                };
                let base = self.stored(found.reduce(h)).map_or(0, u64::from);
                base.saturating_add(found.shift(h))
            }
        }
    }

    /// Answers a position: its nim-sum, and a winning move when it is safe.
    pub fn verdict(&self, position: &Position) -> Verdict {
        let heaps = position.heaps();
        let nim_sum = heaps.iter().fold(0, |acc, &h| acc ^ self.value(h));
        let winning_move =
            invariant::winning_move(self, &self.ruleset, heaps).map(|found| WinningMove {
                heap: found.heap,
                leaves: found.leaves,
                after: Position::from_canonical(found.after),
            });
        Verdict {
            win: nim_sum != 0,
            nim_sum,
            winning_move,
        }
    }

    /// Every option of a lone heap `h` with nim-value `target`, when `h` lies within the
    /// computed values and has at most `limit` options; `None` otherwise.
    pub fn all_options_with_value(
        &self,
        h: Heap,
        target: u64,
        limit: u64,
    ) -> Option<Vec<Vec<Heap>>> {
        if self.closed_form() {
            return Some(self.option_with_value(h, target).into_iter().collect());
        }
        if h >= self.computed() {
            return None;
        }
        let mut found = Vec::new();
        let mut scanned = 0u64;
        let flow = self.ruleset.for_each_heap_option(h, |parts| {
            scanned += 1;
            if scanned > limit {
                return ControlFlow::Break(());
            }
            if parts.iter().fold(0, |acc, &p| acc ^ self.value(p)) == target {
                found.push(parts.to_vec());
            }
            ControlFlow::Continue(())
        });
        flow.is_continue().then_some(found)
    }

    /// An option of a lone heap `h` (the heaps it leaves) with nim-value `target`.
    ///
    /// A huge heap is first brought down by whole periods to `h'` at or above the point
    /// where the periodicity proof's induction runs: there the options of `h'` and `h` have
    /// the same values, and an option of `h'` lifts back to `h` by adding the difference to
    /// its largest part (which is past the pre-period, so keeps its value).
    pub fn option_with_value(&self, h: Heap, target: u64) -> Option<Vec<Heap>> {
        if self.closed_form() {
            return (target < h).then(|| {
                if target == 0 {
                    Vec::new()
                } else {
                    vec![target]
                }
            });
        }
        if let (Some(found), Some(_)) = (self.periodicity, self.all_but) {
            if h >= self.computed() {
                return self.all_but_option(h, target, found);
            }
        }
        let (small, lift) = match (self.periodicity, self.bound) {
            (Some(found), Some(bound)) if h >= self.computed() => {
                let start = bound.needed_len(found.preperiod, found.period);
                let reduced = start + (h - start) % found.period;
                (reduced, h - reduced)
            }
            _ => (h, 0),
        };
        let mut answer = None;
        let _ = self.ruleset.for_each_heap_option(small, |parts| {
            if parts.iter().fold(0, |acc, &p| acc ^ self.value(p)) == target {
                let mut parts = parts.to_vec();
                if let Some(last) = parts.last_mut() {
                    *last += lift;
                }
                parts.sort_unstable();
                answer = Some(parts);
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        answer
    }

    /// An option of a huge heap `h` of an all-but game with value `target`: a heap `m`
    /// with G(m) = target, found from the arithmetic periodic form (each value is taken
    /// by few heaps), such that `h - m` may be taken.
    fn all_but_option(&self, h: Heap, target: u64, found: Periodicity) -> Option<Vec<Heap>> {
        let Ruleset::InfiniteSubtraction(family) = &self.ruleset else {
            return None;
        };
        let (n0, p, s) = (found.preperiod, found.period, found.saltus);
        let allowed = |m: u64| m < h && family.contains(h - m);
        let early = (0..n0.min(self.computed())).filter(|&m| self.value(m) == target);
        let periodic = (n0..n0 + p).filter_map(|r| {
            let base = self.value(r);
            let k = target.checked_sub(base)?;
            (s > 0 && k % s == 0).then(|| r.checked_add(p.checked_mul(k / s)?))?
        });
        early
            .chain(periodic)
            .find(|&m| allowed(m))
            .map(|m| if m == 0 { Vec::new() } else { vec![m] })
    }
}

/// Normal play's nim-sum as a theory's invariant: a heap's element is its nim-value, XOR
/// combines them, and nim-sum 0 is unsafe. A winning move lowers one heap's value to the
/// rest's nim-sum, so the option is looked up by value (through the proved period for
/// heaps beyond the computed values).
impl HeapInvariant for NimValueLookup {
    type Element = u64;

    fn identity(&self) -> u64 {
        0
    }

    fn element(&self, heap: Heap) -> Option<u64> {
        // Callers check `covers` first, as for `value`.
        Some(self.value(heap))
    }

    fn combine(&self, a: u64, b: u64) -> u64 {
        a ^ b
    }

    fn is_unsafe(&self, nim_sum: u64) -> bool {
        nim_sum == 0
    }

    fn direct_option(&self, heap: Heap, rest: u64) -> Option<Option<Vec<Heap>>> {
        Some(
            (rest < self.value(heap))
                .then(|| self.option_with_value(heap, rest))
                .flatten(),
        )
    }
}

//! One-heap domains (`--heaps 1 --max N`) at memory speed.
//!
//! Rank `n` is the lone heap of size `n` (rank 0 the empty position), and one-heap
//! domains refuse rules that split, so every option of a heap leaves one smaller heap or
//! none. Past the largest take `L`, the options of `n` are `n - t` for the same takes `t`
//! whatever `n`, so `safe(n) = OR over t of unsafe(n - t)`: 64 outcomes at a time follow
//! from earlier words shifted by each take. Takes below 64 also read the word being
//! built; those reads are resolved [`CHUNK`] bits at a time through a table of every way
//! the earlier bits can fall.
//!
//! The outcomes past `L` are a function of the `L` before them, so they are eventually
//! periodic, and the periodicity theorem ([`crate::theory::grundy::period`], one part, take `L`)
//! proves a period from a finite stretch; once proved, the rest of the domain is copied
//! from one period earlier. Both ways give the exact table.

use std::ops::ControlFlow;

use super::bits::{out_of_memory, Labels};
use super::kernel::safe_by_moves;
use super::Derivation;
use crate::error::Result;
use crate::game::{Game, Heap};
use crate::theory::grundy::{PeriodFinder, ProofBound};

/// Bits resolved per table lookup inside a word.
const CHUNK: u32 = 8;
/// Heap sizes past which no period is looked for: the outcomes are kept as one `bool`
/// each for the period finder up to here, and longer periods gain little.
const LOOK_MAX: u64 = 1 << 16;
/// Heaps labelled before the first look for a period.
const FIRST_LOOK: u64 = 256;
/// Words between two progress reports.
const PROGRESS_WORDS: usize = 1 << 14;

/// Bytes the one-heap labeller holds for a domain of `count` positions.
pub(crate) fn estimate_bytes(count: u64) -> u64 {
    // The words, and the outcomes and period keys the finder keeps while it looks.
    count.div_ceil(64) * 8 + LOOK_MAX.min(count) * 9
}

/// Labels the lone heaps `0..=max`; `shortcut` allows a proved period to finish the job.
pub(crate) fn label(
    game: &Game,
    max: Heap,
    shortcut: bool,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Labels, Derivation)> {
    let count = max + 1;
    let len = usize::try_from(count.div_ceil(64)).unwrap_or(usize::MAX);
    let mut words: Vec<u64> = Vec::new();
    words
        .try_reserve_exact(len)
        .map_err(|_| out_of_memory("the labels", count))?;
    words.resize(len, 0);
    let mut labeller = OneHeap {
        game,
        count,
        words,
        done: 0,
        reported: 0,
        progress,
    };
    let derivation = labeller.run(shortcut);
    labeller.report_all();
    Ok((Labels::from_words(labeller.words, count), derivation))
}

struct OneHeap<'a> {
    game: &'a Game,
    count: u64,
    words: Vec<u64>,
    /// Words finished.
    done: usize,
    /// Positions reported to `progress`.
    reported: u64,
    progress: &'a (dyn Fn(u64) + Sync),
}

impl OneHeap<'_> {
    fn run(&mut self, shortcut: bool) -> Derivation {
        let Some(take) = self.game.ruleset.max_take() else {
            self.scalar_to(self.count);
            return Derivation::Retrograde;
        };
        // Heaps up to the largest take may remove themselves whole: labelled one by one,
        // to a word boundary.
        let head = (take + 1).div_ceil(64).max(1) * 64;
        self.scalar_to(head.min(self.count));
        if self.done == self.words.len() {
            return Derivation::Retrograde;
        }
        let Some(takes) = uniform_takes(self.game, take) else {
            self.scalar_to(self.count);
            return Derivation::Retrograde;
        };
        if takes.is_empty() {
            // Past the largest take no heap has a move: every one is a terminal position.
            let fill = if self.game.terminal_is_win() { !0 } else { 0 };
            self.words[self.done..].fill(fill);
            self.done = self.words.len();
            self.clear_tail();
            return Derivation::Retrograde;
        }
        let engine = Engine::new(&takes);
        let bound = ProofBound::for_ruleset(&self.game.ruleset).filter(|_| shortcut);
        if let Some(bound) = bound {
            if let Some(derivation) = self.look_for_period(&engine, bound) {
                return derivation;
            }
        }
        self.words_to(&engine, self.words.len());
        self.clear_tail();
        Derivation::Words
    }

    /// Labels words up to checkpoints, looking for a proved period at each; copies the
    /// rest of the domain from it when one is found.
    fn look_for_period(&mut self, engine: &Engine, bound: ProofBound) -> Option<Derivation> {
        let mut finder = PeriodFinder::new(bound);
        let mut seen: Vec<bool> = Vec::new();
        let mut target = FIRST_LOOK;
        loop {
            let end = target.min(self.count).min(LOOK_MAX);
            let end_words = (end.div_ceil(64) as usize).min(self.words.len());
            self.words_to(engine, end_words);
            let known = (end_words as u64 * 64).min(self.count);
            seen.extend((seen.len() as u64..known).map(|n| self.safe(n)));
            if let Some(found) = finder.check(&seen) {
                // Heap `n` shares heap `n - step`'s outcome for `n - step >= preperiod`;
                // a step of at least 64 reads only finished words.
                let step = found.period * 64u64.div_ceil(found.period);
                let from = (found.preperiod + step).div_ceil(64) as usize;
                self.words_to(engine, from.min(self.words.len()));
                self.copy_period(step);
                self.clear_tail();
                return Some(Derivation::Period(found));
            }
            if known >= self.count || known >= LOOK_MAX {
                return None;
            }
            target = known + (known / 64).max(FIRST_LOOK);
        }
    }

    /// True when heap `n` (already labelled) is safe.
    #[inline]
    fn safe(&self, n: u64) -> bool {
        self.words[(n / 64) as usize] >> (n % 64) & 1 == 1
    }

    /// Labels heaps one at a time from their moves up to `end` (a word boundary or the
    /// end of the domain), as the plain labeller does.
    fn scalar_to(&mut self, end: u64) {
        let start = self.done as u64 * 64;
        for n in start..end {
            let heaps = [n];
            let position: &[Heap] = if n == 0 { &[] } else { &heaps };
            let safe = safe_by_moves(
                &self.game.ruleset,
                position,
                self.game.terminal_is_win(),
                |_, added| self.safe(added.iter().copied().find(|&a| a != 0).unwrap_or(0)),
            );
            if safe {
                self.words[(n / 64) as usize] |= 1 << (n % 64);
            }
        }
        self.done = (end.div_ceil(64) as usize).min(self.words.len());
        self.report();
    }

    /// Labels whole words up to word `end` with the word engine.
    fn words_to(&mut self, engine: &Engine, end: usize) {
        while self.done < end {
            let stop = end.min(self.done + PROGRESS_WORDS);
            for w in self.done..stop {
                self.words[w] = !engine.unsafe_word(&self.words, w);
            }
            self.done = stop;
            self.report();
        }
    }

    /// Copies every remaining word from `step` heaps earlier (`step >= 64`).
    fn copy_period(&mut self, step: u64) {
        let (d, r) = ((step / 64) as usize, (step % 64) as u32);
        while self.done < self.words.len() {
            let stop = self.words.len().min(self.done + PROGRESS_WORDS);
            let words = &mut self.words;
            if r == 0 {
                for w in self.done..stop {
                    words[w] = words[w - d];
                }
            } else {
                for w in self.done..stop {
                    words[w] = words[w - d - 1] >> (64 - r) | words[w - d] << r;
                }
            }
            self.done = stop;
            self.report();
        }
    }

    /// Zeroes the bits past the last heap, as [`Labels`] requires.
    fn clear_tail(&mut self) {
        let used = self.count % 64;
        if used != 0 {
            if let Some(last) = self.words.last_mut() {
                *last &= (1u64 << used) - 1;
            }
        }
    }

    fn report(&mut self) {
        let finished = (self.done as u64 * 64).min(self.count);
        if finished > self.reported {
            (self.progress)(finished - self.reported);
            self.reported = finished;
        }
    }

    fn report_all(&mut self) {
        self.done = self.words.len();
        self.report();
    }
}

/// The takes `t` that every heap past `take` has (each leaving `n - t`), or `None` when
/// the moves of heaps just past `take` do not show one such set (the ruleset is then
/// labelled heap by heap).
fn uniform_takes(game: &Game, take: Heap) -> Option<Vec<Heap>> {
    let takes_of = |n: Heap| -> Option<Vec<Heap>> {
        let mut takes = Vec::new();
        let mut whole = false;
        let _ = game.ruleset.for_each_move(&[n], |_, added| {
            match added
                .iter()
                .copied()
                .filter(|&a| a != 0)
                .collect::<Vec<_>>()[..]
            {
                [x] if x < n => takes.push(n - x),
                _ => whole = true,
            }
            ControlFlow::Continue(())
        });
        takes.sort_unstable();
        takes.dedup();
        (!whole).then_some(takes)
    };
    let first = takes_of(take + 1)?;
    // The rule past the largest take is the same at any size: two more samples guard
    // against a ruleset that breaks the pattern.
    for n in [take + 2, 2 * take + 65] {
        if takes_of(n)? != first {
            return None;
        }
    }
    Some(first)
}

/// Builds 64 outcomes at a time from earlier words.
struct Engine {
    /// Takes below 64, which also read the word being built.
    near: Vec<u32>,
    /// Takes of 64 or more as (whole words back, bits back within a word).
    far: Vec<(usize, u32)>,
    /// `resolve[e]`: the unsafe bits of a chunk whose bits are safe by earlier heaps
    /// where `e` has a 1, every take below [`CHUNK`] inside the chunk applied.
    resolve: Vec<u8>,
}

impl Engine {
    fn new(takes: &[Heap]) -> Self {
        let near: Vec<u32> = takes
            .iter()
            .filter(|&&t| t < 64)
            .map(|&t| t as u32)
            .collect();
        let far = takes
            .iter()
            .filter(|&&t| t >= 64)
            .map(|&t| ((t / 64) as usize, (t % 64) as u32))
            .collect();
        let resolve = (0..1u32 << CHUNK)
            .map(|e| {
                let mut unsafe_bits = 0u32;
                for i in 0..CHUNK {
                    let by_chunk = near
                        .iter()
                        .filter(|&&t| t <= i)
                        .any(|&t| unsafe_bits >> (i - t) & 1 == 1);
                    if e >> i & 1 == 0 && !by_chunk {
                        unsafe_bits |= 1 << i;
                    }
                }
                unsafe_bits as u8
            })
            .collect();
        Engine { near, far, resolve }
    }

    /// The unsafe bits of word `w`, every earlier word (at least one) finished.
    #[inline]
    fn unsafe_word(&self, safe: &[u64], w: usize) -> u64 {
        let previous = !safe[w - 1];
        let mut known = 0u64;
        for &t in &self.near {
            known |= previous >> (64 - t);
        }
        for &(d, r) in &self.far {
            known |= if r == 0 {
                !safe[w - d]
            } else {
                !safe[w - d - 1] >> (64 - r) | !safe[w - d] << r
            };
        }
        let mut built = 0u64;
        for c in (0..64).step_by(CHUNK as usize) {
            let mut reach = known;
            for &t in &self.near {
                reach |= built << t;
            }
            let e = (reach >> c) as usize & ((1 << CHUNK) - 1);
            built |= u64::from(self.resolve[e]) << c;
        }
        built
    }
}

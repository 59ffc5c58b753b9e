//! Heaps as both top-down engines key them: the [`HeapArena`] that holds the heaps of
//! every position on a search's stack, each heap size's key code (zero for dead heaps),
//! cached for small sizes, and the nim-sum guess that orders moves.
//!
//! Dropping a heap that can never move is exact for the verdict and for remoteness: it
//! adds no move and takes none away, so every line of play keeps its length. Cancelling
//! a pair of equal heaps is exact for the verdict only (the answering moves are moves,
//! and they count), so the boolean solver may XOR codes while the remoteness search
//! always adds them.

use crate::game::{Game, Heap, Position};
use crate::search::guide::NimGuide;
use crate::search::key::{heap_code, Combine, Key};
use crate::theory::quotient::tame::misere_nim_safe;

/// Largest heap whose key code is cached.
pub const CODE_CACHE: u64 = 1 << 16;

/// The key code of heap `h`: zero for empty heaps and, when simplifying, for heaps
/// that can never move.
#[inline]
pub fn heap_code_for(game: &Game, simplify: bool, h: Heap) -> Key {
    if h == 0 || (simplify && game.is_dead(h)) {
        Key::default()
    } else {
        heap_code(h)
    }
}

/// The key code of `h`, from the cache when it is there.
#[inline]
pub fn cached_code(codes: &[Key], game: &Game, simplify: bool, h: Heap) -> Key {
    match codes.get(h as usize) {
        Some(&code) => code,
        None => heap_code_for(game, simplify, h),
    }
}

/// XOR of the nim-values of a position's heaps and how many exceed 1 (`UNKNOWN` when
/// some heap has no computed value): the guess of which children are unsafe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NimSum {
    xor: u32,
    big: u32,
}

impl NimSum {
    /// The nim-sum of no heaps.
    pub const ZERO: NimSum = NimSum { xor: 0, big: 0 };
    /// Some heap has no known nim-value.
    pub const UNKNOWN: NimSum = NimSum {
        xor: u32::MAX,
        big: u32::MAX,
    };

    /// Adds (or, XOR being its own inverse, removes) a heap of nim-value `value`.
    #[inline]
    pub fn toggle(self, value: Option<u32>, adding: bool) -> NimSum {
        match value {
            Some(v) if self != NimSum::UNKNOWN => NimSum {
                xor: self.xor ^ v,
                big: match (v > 1, adding) {
                    (false, _) => self.big,
                    (true, true) => self.big + 1,
                    (true, false) => self.big - 1,
                },
            },
            _ => NimSum::UNKNOWN,
        }
    }

    /// The guess that the position is unsafe: the nim-sum is zero, or in misère play
    /// with only heaps of value 0 and 1 left, an odd number of 1s (misère Nim's rule).
    #[inline]
    pub fn guess_unsafe(self, misere: bool) -> bool {
        if self == NimSum::UNKNOWN {
            false
        } else if misere {
            !misere_nim_safe(u64::from(self.xor), self.big > 0)
        } else {
            self.xor == 0
        }
    }
}

/// The heaps of every position on a search's stack, one position after another, each
/// position's heaps canonical (sorted, dead heaps dropped, and with XOR keys equal pairs
/// cancelled), beside what keying them needs: each heap size's key code and, with a
/// guide, its nim-value. Both top-down engines search over one; the hot loop pushes and
/// truncates it and never allocates once it has grown.
pub struct HeapArena {
    /// The heaps, position after position; a frame knows where its own begin.
    pub heaps: Vec<Heap>,
    /// Key codes of heap sizes below its length (zero for dead heaps).
    codes: Vec<Key>,
    /// Nim-values that guide move ordering, when asked for and computable.
    pub guide: Option<NimGuide>,
    /// Dead heaps are dropped (and, with XOR keys, equal pairs cancel).
    simplify: bool,
    /// How heap codes combine into a position's key.
    pub combine: Combine,
}

impl HeapArena {
    /// An empty arena keying with `combine`, dropping dead heaps when `simplify`.
    pub fn new(guide: Option<NimGuide>, simplify: bool, combine: Combine) -> Self {
        HeapArena {
            heaps: Vec::new(),
            codes: Vec::new(),
            guide,
            simplify,
            combine,
        }
    }

    /// Caches key codes, and nim-values when there is a guide, up to the largest heap of
    /// `position`: no move ever makes a heap larger than the largest one present.
    pub fn prepare(&mut self, game: &Game, position: &Position) {
        let largest = position.heaps().last().copied().unwrap_or(0);
        let wanted = largest.saturating_add(1).min(CODE_CACHE);
        for h in self.codes.len() as u64..wanted {
            self.codes.push(heap_code_for(game, self.simplify, h));
        }
        if let Some(guide) = self.guide.as_mut() {
            guide.extend_to(largest);
        }
    }

    /// The code heap `h` contributes to a key: zero for heaps that can never move.
    #[inline]
    pub fn code(&self, game: &Game, h: Heap) -> Key {
        cached_code(&self.codes, game, self.simplify, h)
    }

    /// The nim-sum of the heaps from `start` on; `UNKNOWN` without a guide.
    pub fn nim_sum(&self, start: usize) -> NimSum {
        let Some(guide) = self.guide.as_ref() else {
            return NimSum::UNKNOWN;
        };
        self.heaps[start..]
            .iter()
            .fold(NimSum::ZERO, |sum, &h| sum.toggle(guide.value(h), true))
    }

    /// Appends the canonical form of `heaps` and returns its key.
    pub fn push_canonical(&mut self, game: &Game, heaps: impl Iterator<Item = Heap>) -> Key {
        let start = self.heaps.len();
        let mut key = Key::default();
        for h in heaps {
            let code = self.code(game, h);
            if code.is_empty() {
                continue;
            }
            key = self.combine.add(key, code);
            self.heaps.push(h);
        }
        self.canonicalise(start);
        key
    }

    /// Appends the canonical form of a child of the position held at `parent`: the
    /// parent's heaps but the removed ones, and the live heaps the move adds. `ops` is
    /// the move as both engines store it: the indices of the heaps it removes, then the
    /// heaps it adds; `removed` says how many of the first kind. Returns where the child
    /// begins.
    #[inline]
    pub fn push_child(
        &mut self,
        game: &Game,
        parent: std::ops::Range<usize>,
        ops: &[Heap],
        removed: usize,
    ) -> usize {
        let start = self.heaps.len();
        let (removed, added) = ops.split_at(removed);
        for i in 0..parent.len() {
            if !removed.contains(&(i as Heap)) {
                let h = self.heaps[parent.start + i];
                self.heaps.push(h);
            }
        }
        for &h in added {
            if !cached_code(&self.codes, game, self.simplify, h).is_empty() {
                self.heaps.push(h);
            }
        }
        self.canonicalise(start);
        start
    }

    /// Sorts the heaps from `start` on and, with XOR keys, removes equal pairs.
    fn canonicalise(&mut self, start: usize) {
        let len = normalise(&mut self.heaps[start..], self.combine == Combine::Xor);
        self.heaps.truncate(start + len);
    }
}

/// Sorts heaps and, when `cancel_pairs`, removes equal pairs; returns the new length.
fn normalise(heaps: &mut [Heap], cancel_pairs: bool) -> usize {
    heaps.sort_unstable();
    if !cancel_pairs {
        return heaps.len();
    }
    let mut write = 0;
    let mut read = 0;
    while read < heaps.len() {
        if read + 1 < heaps.len() && heaps[read] == heaps[read + 1] {
            read += 2;
        } else {
            heaps[write] = heaps[read];
            write += 1;
            read += 1;
        }
    }
    write
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_cancels_pairs() {
        let mut heaps = [5, 3, 5, 5, 1, 3];
        let len = normalise(&mut heaps, true);
        assert_eq!(&heaps[..len], &[1, 5]);
    }
}

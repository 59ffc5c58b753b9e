//! Heaps as both top-down engines key them: each heap size's key code (zero for dead
//! heaps), cached for small sizes, and the nim-sum guess that orders moves.
//!
//! Dropping a heap that can never move is exact for the verdict and for remoteness: it
//! adds no move and takes none away, so every line of play keeps its length. Cancelling
//! a pair of equal heaps is exact for the verdict only (the answering moves are moves,
//! and they count), so the boolean solver may XOR codes while the remoteness search
//! always adds them.

use crate::game::{Game, Heap, Position};
use crate::search::guide::NimGuide;
use crate::search::key::{heap_code, Key};
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

/// Caches key codes, and nim-values when there is a guide, up to the largest heap of
/// `position`: no move ever makes a heap larger than the largest one present.
pub fn prepare(
    codes: &mut Vec<Key>,
    guide: Option<&mut NimGuide>,
    game: &Game,
    simplify: bool,
    position: &Position,
) {
    let largest = position.heaps().last().copied().unwrap_or(0);
    let wanted = largest.saturating_add(1).min(CODE_CACHE);
    for h in codes.len() as u64..wanted {
        codes.push(heap_code_for(game, simplify, h));
    }
    if let Some(guide) = guide {
        guide.extend_to(largest);
    }
}

/// The nim-sum of `heaps`; `UNKNOWN` without a guide.
pub fn nim_sum(guide: Option<&NimGuide>, heaps: &[Heap]) -> NimSum {
    let Some(guide) = guide else {
        return NimSum::UNKNOWN;
    };
    heaps
        .iter()
        .fold(NimSum::ZERO, |sum, &h| sum.toggle(guide.value(h), true))
}

/// Appends to the heap arena a child of the position held at `parent` in it: the
/// parent's heaps but the removed ones, then the added heaps that are live (`live`),
/// unsorted. `ops` is the move as both engines store it: the indices of the heaps it
/// removes, then the heaps it adds (`added` of them).
#[inline]
pub fn push_child(
    arena: &mut Vec<Heap>,
    parent: std::ops::Range<usize>,
    ops: &[Heap],
    removed: usize,
    live: impl Fn(Heap) -> bool,
) {
    let (removed, added) = ops.split_at(removed);
    for i in 0..parent.len() {
        if !removed.contains(&(i as Heap)) {
            let h = arena[parent.start + i];
            arena.push(h);
        }
    }
    arena.extend(added.iter().copied().filter(|&h| live(h)));
}

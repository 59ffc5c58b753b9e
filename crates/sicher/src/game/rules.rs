//! Rulesets and their move generators.
//!
//! Generators call a visitor once per move instead of building a list, so the hot
//! search loop never allocates: a move is reported as the indices of the heaps it
//! removes from the (sorted) position and the heaps it puts back.

use std::fmt;
use std::ops::ControlFlow;

use super::code::{Radix, TakeBreakCode};
use super::custom::CustomRules;
use super::subtraction::SubtractionFamily;
use crate::error::{Error, Hint, Result};

/// Largest `k` accepted for Moore's Nim_k (moves then touch at most this many heaps).
pub const MOORE_MAX_K: u32 = 16;

/// One kind of option of a lone heap: take `taken` tokens and leave `parts` heaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionShape {
    /// Tokens the option takes.
    pub taken: u64,
    /// Heaps it leaves, each non-empty: 0 (the heap taken whole), 1, 2 or 3.
    pub parts: u8,
    /// The two heaps left must differ (Grundy's game).
    pub unequal: bool,
}

/// The rules of a heap game, independent of the play convention.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ruleset {
    /// An octal or hexadecimal take-and-break code.
    TakeBreak(TakeBreakCode),
    /// Take `s` tokens from one heap, for `s` in this sorted set of distinct positive sizes.
    Subtraction(Vec<u64>),
    /// Take any positive number of tokens from one heap.
    Nim,
    /// Split one heap into two unequal non-empty heaps.
    Grundy,
    /// Take any number from one heap, or the same number from two heaps.
    Wythoff,
    /// Take positive numbers of tokens from between 1 and `k` heaps at once.
    Moore(u32),
    /// Take `s` tokens from one heap, for `s` in an infinite set named by a rule (the
    /// squares, the primes, every size but a few, ...).
    InfiniteSubtraction(SubtractionFamily),
    /// The options of a lone heap of each size, as a function (a script) says: checked
    /// and cached per process, read from the cache by every engine.
    Custom(CustomRules),
}

/// What a ruleset's moves can do: the facts the engines decide by. Each capability names
/// every ruleset (no catch-all arm), so adding a ruleset makes the compiler list every
/// capability to state; engines ask these instead of matching on rulesets themselves.
impl Ruleset {
    /// Most heaps one move changes: 1 for one-heap rulesets, 2 for Wythoff, `k` for Moore.
    pub fn heaps_touched(&self) -> u32 {
        match self {
            Ruleset::TakeBreak(_)
            | Ruleset::Subtraction(_)
            | Ruleset::InfiniteSubtraction(_)
            | Ruleset::Custom(_)
            | Ruleset::Nim
            | Ruleset::Grundy => 1,
            Ruleset::Wythoff => 2,
            Ruleset::Moore(k) => *k,
        }
    }

    /// True when every move changes exactly one heap, so Sprague-Grundy theory applies
    /// and, in normal play, a pair of equal heaps cancels.
    pub fn moves_one_heap(&self) -> bool {
        self.heaps_touched() == 1
    }

    /// Most tokens one move removes, or `None` when there is no bound.
    pub fn max_take(&self) -> Option<u64> {
        match self {
            Ruleset::TakeBreak(code) => code.last_nonzero(),
            Ruleset::Subtraction(set) => set.last().copied(),
            Ruleset::Grundy => Some(0),
            // Infinite sets, and a script's options, take without a bound known up front.
            Ruleset::Nim
            | Ruleset::Wythoff
            | Ruleset::Moore(_)
            | Ruleset::InfiniteSubtraction(_)
            | Ruleset::Custom(_) => None,
        }
    }

    /// Most heaps a move leaves where it took one: 1 when moves only shrink heaps, 2 or
    /// 3 when they split. A script's options may leave up to [`MAX_PARTS`] heaps, which
    /// is what it counts as, whatever its options (see [`Ruleset::parts_up_to`]).
    ///
    /// [`MAX_PARTS`]: super::MAX_PARTS
    pub fn max_parts(&self) -> u32 {
        match self {
            Ruleset::TakeBreak(code) => code.max_parts(),
            Ruleset::Grundy => 2,
            Ruleset::Custom(_) => super::MAX_PARTS as u32,
            Ruleset::Subtraction(_)
            | Ruleset::InfiniteSubtraction(_)
            | Ruleset::Nim
            | Ruleset::Wythoff
            | Ruleset::Moore(_) => 1,
        }
    }

    /// Most heaps an option of a heap up to `max` leaves: [`Ruleset::max_parts`], or for
    /// a script what its options up to `max` do (after [`Ruleset::prepare`]).
    pub fn parts_up_to(&self, max: u64) -> u32 {
        match self {
            Ruleset::Custom(custom) => custom.most_parts_up_to(max),
            _ => self.max_parts(),
        }
    }

    /// True when some move leaves more heaps than it took, so a bound on the number of
    /// heaps is not kept by play.
    pub fn splits(&self) -> bool {
        self.max_parts() > 1
    }

    /// True when some move splits a heap without removing a token, keeping the total (a
    /// script may: it counts as doing so).
    pub fn splits_without_taking(&self) -> bool {
        match self {
            Ruleset::TakeBreak(code) => code.splits_without_taking(),
            Ruleset::Grundy | Ruleset::Custom(_) => true,
            Ruleset::Subtraction(_)
            | Ruleset::InfiniteSubtraction(_)
            | Ruleset::Nim
            | Ruleset::Wythoff
            | Ruleset::Moore(_) => false,
        }
    }

    /// True when a position's parents can be enumerated by running moves backwards
    /// (raising heaps), as the backward labeller does.
    pub fn reversible(&self) -> bool {
        match self {
            Ruleset::Nim
            | Ruleset::Subtraction(_)
            | Ruleset::InfiniteSubtraction(_)
            | Ruleset::Wythoff
            | Ruleset::Moore(_) => true,
            Ruleset::TakeBreak(_) | Ruleset::Grundy | Ruleset::Custom(_) => false,
        }
    }

    /// True when every option is one of a few shapes ([`Ruleset::for_each_option_shape`]),
    /// so parents are found by undoing shapes; false for a script, whose parents are
    /// looked up among its cached options instead.
    pub fn has_option_shapes(&self) -> bool {
        match self {
            Ruleset::Custom(_) => false,
            Ruleset::TakeBreak(_)
            | Ruleset::Subtraction(_)
            | Ruleset::InfiniteSubtraction(_)
            | Ruleset::Nim
            | Ruleset::Grundy
            | Ruleset::Wythoff
            | Ruleset::Moore(_) => true,
        }
    }

    /// True when the nim-value of a heap is its size (Nim, and Moore's Nim_1, which is
    /// Nim), so no sequence is computed.
    pub fn nim_values_are_sizes(&self) -> bool {
        match self {
            Ruleset::Nim | Ruleset::Moore(1) => true,
            Ruleset::TakeBreak(_)
            | Ruleset::Subtraction(_)
            | Ruleset::InfiniteSubtraction(_)
            | Ruleset::Custom(_)
            | Ruleset::Grundy
            | Ruleset::Wythoff
            | Ruleset::Moore(_) => false,
        }
    }

    /// Makes the options of every heap up to `largest` ready before an engine's loops
    /// read them: a script is run for every heap size not asked yet (its failure is the
    /// error, naming the script and the heap), the primes are sieved. Every entry point
    /// calls it with the largest heap it will meet; moves only lead to smaller heaps.
    pub fn prepare(&self, largest: u64) -> Result<()> {
        match self {
            Ruleset::Custom(custom) => custom.prepare(largest),
            Ruleset::InfiniteSubtraction(family) => {
                if let Some(limit) = family.largest_heap().filter(|&limit| largest > limit) {
                    return Err(Error::resource(format!(
                        "{self}: heap {largest} is above {limit}, the largest whose options sicher lists"
                    ))
                    .with_hint(Hint::LowerMax));
                }
                family.prepare(largest);
                Ok(())
            }
            Ruleset::TakeBreak(_)
            | Ruleset::Subtraction(_)
            | Ruleset::Nim
            | Ruleset::Grundy
            | Ruleset::Wythoff
            | Ruleset::Moore(_) => Ok(()),
        }
    }

    /// True when the options of a lone heap of size `h` can be read without running
    /// anything that may fail: always, but for a script's heaps not readied by
    /// [`Ruleset::prepare`].
    pub fn is_ready(&self, h: u64) -> bool {
        match self {
            Ruleset::Custom(custom) => custom.is_ready(h),
            _ => true,
        }
    }

    /// Refuses a bound on the total tokens that play could break: a script whose option of
    /// some heap up to `total` leaves more tokens than the heap held (after
    /// [`Ruleset::prepare`]). Every other ruleset only removes tokens.
    pub fn check_total(&self, total: u64) -> Result<()> {
        let Ruleset::Custom(custom) = self else {
            return Ok(());
        };
        match custom.first_growing_option(total) {
            None => Ok(()),
            Some((h, parts)) => {
                let list: Vec<String> = parts.iter().map(u64::to_string).collect();
                Err(Error::input(format!(
                    "{}: heap {h} has the option {}, which holds more tokens than the heap, so play can leave a bound on the total tokens",
                    custom.name(),
                    list.join(" ")
                )))
            }
        }
    }

    /// Whether a lone heap of size `h` has any move at all. Heaps without moves never
    /// change under a one-heap ruleset, so they can be dropped from any position.
    pub fn heap_has_move(&self, h: u64) -> bool {
        match self {
            Ruleset::Nim | Ruleset::Wythoff | Ruleset::Moore(_) => h > 0,
            Ruleset::Grundy => h >= 3,
            Ruleset::Subtraction(set) => set.first().is_some_and(|&s| s <= h),
            Ruleset::InfiniteSubtraction(family) => family.smallest() <= h,
            Ruleset::Custom(custom) => custom.has_option(h),
            Ruleset::TakeBreak(_) => {
                let mut found = false;
                let _ = self.for_each_heap_option(h, |_| {
                    found = true;
                    ControlFlow::Break(())
                });
                found
            }
        }
    }

    /// Visits every option of a lone heap of size `h` as the heaps left behind (no
    /// zeros, ascending). Only meaningful for one-heap rulesets; for Wythoff and Moore
    /// it visits the Nim options, which are exactly their one-heap moves.
    pub fn for_each_heap_option<F>(&self, h: u64, mut visit: F) -> ControlFlow<()>
    where
        F: FnMut(&[u64]) -> ControlFlow<()>,
    {
        match self {
            Ruleset::Nim | Ruleset::Wythoff | Ruleset::Moore(_) => {
                if h > 0 {
                    visit(&[])?;
                }
                for left in 1..h {
                    visit(&[left])?;
                }
            }
            Ruleset::Subtraction(set) => {
                for &s in set.iter().take_while(|&&s| s <= h) {
                    if s == h {
                        visit(&[])?;
                    } else {
                        visit(&[h - s])?;
                    }
                }
            }
            Ruleset::InfiniteSubtraction(family) => {
                family.for_each_size(h, |s| if s == h { visit(&[]) } else { visit(&[h - s]) })?;
            }
            Ruleset::Custom(custom) => custom.for_each_option(h, visit)?,
            Ruleset::Grundy => {
                for a in 1..h.div_ceil(2) {
                    visit(&[a, h - a])?;
                }
            }
            Ruleset::TakeBreak(code) => {
                let last = code.last_nonzero().map_or(h, |last| last.min(h));
                for t in 0..=last {
                    let digit = code.digit(t);
                    if digit == 0 {
                        continue;
                    }
                    let rest = h - t;
                    if digit & 1 != 0 && rest == 0 {
                        visit(&[])?;
                    }
                    if digit & 2 != 0 && rest >= 1 && t >= 1 {
                        visit(&[rest])?;
                    }
                    if digit & 4 != 0 && rest >= 2 {
                        for a in 1..=rest / 2 {
                            visit(&[a, rest - a])?;
                        }
                    }
                    if digit & 8 != 0 && rest >= 3 {
                        for a in 1..=rest / 3 {
                            for b in a..=(rest - a) / 2 {
                                visit(&[a, b, rest - a - b])?;
                            }
                        }
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Visits the shape of every kind of option of a lone heap that takes at most
    /// `max_taken` tokens, by tokens taken, then by heaps left: a heap of size `h` has an
    /// option of shape `s` for every way of leaving `s.parts` non-empty heaps (unequal
    /// ones, when `s.unequal`) from `h - s.taken` tokens (all of them, when `s.parts` is
    /// 0). What engines that undo or count moves read instead of the ruleset itself. For
    /// Nim, Wythoff and Moore these are the one-heap moves, one shape per amount taken,
    /// so `max_taken` must bound them. A script's options have no shapes
    /// ([`Ruleset::has_option_shapes`]): nothing is visited.
    pub fn for_each_option_shape(&self, max_taken: u64, mut visit: impl FnMut(OptionShape)) {
        let shape = |taken, parts, unequal| OptionShape {
            taken,
            parts,
            unequal,
        };
        match self {
            Ruleset::TakeBreak(code) => {
                let last = code.last_nonzero().unwrap_or(u64::MAX).min(max_taken);
                for t in 0..=last {
                    let digit = code.digit(t);
                    // Taking nothing leaves the heap as it was: never a move.
                    if digit & 1 != 0 && t >= 1 {
                        visit(shape(t, 0, false));
                    }
                    if digit & 2 != 0 && t >= 1 {
                        visit(shape(t, 1, false));
                    }
                    if digit & 4 != 0 {
                        visit(shape(t, 2, false));
                    }
                    if digit & 8 != 0 {
                        visit(shape(t, 3, false));
                    }
                }
            }
            Ruleset::Subtraction(set) => {
                for &s in set.iter().take_while(|&&s| s <= max_taken) {
                    visit(shape(s, 0, false));
                    visit(shape(s, 1, false));
                }
            }
            Ruleset::InfiniteSubtraction(family) => {
                let _ = family.for_each_size(max_taken, |s| {
                    visit(shape(s, 0, false));
                    visit(shape(s, 1, false));
                    ControlFlow::Continue(())
                });
            }
            Ruleset::Custom(_) => {}
            Ruleset::Grundy => visit(shape(0, 2, true)),
            Ruleset::Nim | Ruleset::Wythoff | Ruleset::Moore(_) => {
                for t in 1..=max_taken {
                    visit(shape(t, 0, false));
                    visit(shape(t, 1, false));
                }
            }
        }
    }

    /// Visits every move of the position `heaps` (ascending, no zeros) as
    /// `(indices of removed heaps, heaps added)`; added heaps may include zeros.
    /// Moves that lead to the same position through equal heaps are visited once.
    pub fn for_each_move<F>(&self, heaps: &[u64], mut visit: F) -> ControlFlow<()>
    where
        F: FnMut(&[usize], &[u64]) -> ControlFlow<()>,
    {
        match self {
            Ruleset::Wythoff => {
                for i in 0..heaps.len() {
                    if i > 0 && heaps[i] == heaps[i - 1] {
                        continue;
                    }
                    for left in 0..heaps[i] {
                        visit(&[i], &[left])?;
                    }
                }
                for i in 0..heaps.len() {
                    if i > 0 && heaps[i] == heaps[i - 1] {
                        continue;
                    }
                    for j in i + 1..heaps.len() {
                        if j > i + 1 && heaps[j] == heaps[j - 1] {
                            continue;
                        }
                        for d in 1..=heaps[i] {
                            visit(&[i, j], &[heaps[i] - d, heaps[j] - d])?;
                        }
                    }
                }
            }
            Ruleset::Moore(k) => {
                let mut chosen = [0usize; MOORE_MAX_K as usize];
                let mut left = [0u64; MOORE_MAX_K as usize];
                moore_moves(heaps, *k as usize, 0, 0, &mut chosen, &mut left, &mut visit)?;
            }
            Ruleset::TakeBreak(_)
            | Ruleset::Subtraction(_)
            | Ruleset::InfiniteSubtraction(_)
            | Ruleset::Custom(_)
            | Ruleset::Nim
            | Ruleset::Grundy => {
                for i in 0..heaps.len() {
                    if i > 0 && heaps[i] == heaps[i - 1] {
                        continue;
                    }
                    self.for_each_heap_option(heaps[i], |parts| visit(&[i], parts))?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The canonical inline spec, e.g. `octal:0.77`, `subtraction:1,3,4`,
    /// `subtraction:squares` or, for a script, `script:` and a hash of its text.
    pub fn spec(&self) -> String {
        self.to_string()
    }
}

/// Enumerates Moore moves: subsets of at most `k` heaps, each lowered. Within a run of
/// equal heaps only a prefix is chosen and the new sizes never decrease along it, so
/// each resulting position is produced once.
fn moore_moves<F>(
    heaps: &[u64],
    k: usize,
    start: usize,
    depth: usize,
    chosen: &mut [usize; MOORE_MAX_K as usize],
    left: &mut [u64; MOORE_MAX_K as usize],
    visit: &mut F,
) -> ControlFlow<()>
where
    F: FnMut(&[usize], &[u64]) -> ControlFlow<()>,
{
    if depth == k {
        return ControlFlow::Continue(());
    }
    for i in start..heaps.len() {
        let follows_chosen_twin =
            i > 0 && heaps[i] == heaps[i - 1] && depth > 0 && chosen[depth - 1] == i - 1;
        if i > 0 && heaps[i] == heaps[i - 1] && !follows_chosen_twin {
            continue;
        }
        let lowest = if follows_chosen_twin {
            left[depth - 1]
        } else {
            0
        };
        for value in lowest..heaps[i] {
            chosen[depth] = i;
            left[depth] = value;
            visit(&chosen[..=depth], &left[..=depth])?;
            moore_moves(heaps, k, i + 1, depth + 1, chosen, left, visit)?;
        }
    }
    ControlFlow::Continue(())
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ruleset::TakeBreak(code) => match code.radix() {
                Radix::Octal => write!(f, "octal:{code}"),
                Radix::Hex => write!(f, "hex:{code}"),
            },
            Ruleset::Subtraction(set) => {
                let list: Vec<String> = set.iter().map(u64::to_string).collect();
                write!(f, "subtraction:{}", list.join(","))
            }
            Ruleset::Nim => f.write_str("nim"),
            Ruleset::Grundy => f.write_str("grundy"),
            Ruleset::Wythoff => f.write_str("wythoff"),
            Ruleset::Moore(k) => write!(f, "moore:{k}"),
            Ruleset::InfiniteSubtraction(family) => write!(f, "subtraction:{family}"),
            Ruleset::Custom(custom) => write!(f, "{custom}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(rules: &Ruleset, h: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let _ = rules.for_each_heap_option(h, |parts| {
            out.push(parts.to_vec());
            ControlFlow::Continue(())
        });
        out.sort();
        out
    }

    /// Expanding the shapes gives each heap's options, as the generator lists them.
    #[test]
    fn shapes_are_the_options() {
        for spec in [
            "kayles",
            "grundy",
            "nim",
            "wythoff",
            "moore:2",
            "octal:0.137",
            "octal:4.07",
            "octal:0.6",
            "hex:0.8F",
            "hex:0.F",
            "octal:0.[3]",
            "subtraction:1,3,4",
            "subtraction:squares",
            "subtraction:primes",
            "subtraction:all-but:1,2",
            "subtraction:fibonacci",
        ] {
            let rules = crate::game::resolve(spec).unwrap().ruleset;
            for h in 0..=24u64 {
                let mut from_shapes = Vec::new();
                rules.for_each_option_shape(h, |s| {
                    let rest = h - s.taken;
                    let mut parts = Vec::new();
                    let split = |parts: &mut Vec<Vec<u64>>, v: Vec<u64>| {
                        if v.iter().all(|&p| p > 0) && !(s.unequal && v[0] == v[1]) {
                            parts.push(v);
                        }
                    };
                    match s.parts {
                        0 if rest == 0 => parts.push(vec![]),
                        1 if rest > 0 => parts.push(vec![rest]),
                        2 => (1..=rest / 2).for_each(|a| split(&mut parts, vec![a, rest - a])),
                        3 => (1..=rest / 3).for_each(|a| {
                            (a..=(rest - a) / 2)
                                .for_each(|b| split(&mut parts, vec![a, b, rest - a - b]))
                        }),
                        _ => {}
                    }
                    from_shapes.extend(parts);
                });
                from_shapes.sort();
                assert_eq!(from_shapes, options(&rules, h), "{spec} {h}");
            }
        }
    }

    #[test]
    fn kayles_options_of_four() {
        let kayles = Ruleset::TakeBreak(TakeBreakCode::parse("0.77", Radix::Octal).unwrap());
        assert_eq!(
            options(&kayles, 4),
            vec![vec![1, 1], vec![1, 2], vec![2], vec![3]]
        );
    }

    #[test]
    fn moore_reaches_exactly_the_brute_force_children() {
        let heaps = [2u64, 2, 3, 3];
        let canon = |mut v: Vec<u64>| {
            v.retain(|&h| h > 0);
            v.sort();
            v
        };
        let mut generated = std::collections::BTreeSet::new();
        let _ = Ruleset::Moore(2).for_each_move(&heaps, |removed, added| {
            let kept = heaps
                .iter()
                .enumerate()
                .filter(|(i, _)| !removed.contains(i));
            generated.insert(canon(
                kept.map(|(_, &h)| h).chain(added.iter().copied()).collect(),
            ));
            ControlFlow::Continue(())
        });
        // Brute force: every vector below or equal to the heaps, differing in 1..=2 places.
        let mut expected = std::collections::BTreeSet::new();
        for code in 0..(3 * 3 * 4 * 4) {
            let mut rest = code;
            let child: Vec<u64> = heaps
                .iter()
                .map(|&h| {
                    let v = rest % (h + 1);
                    rest /= h + 1;
                    v
                })
                .collect();
            let changed = child.iter().zip(&heaps).filter(|(c, h)| c != h).count();
            if (1..=2).contains(&changed) {
                expected.insert(canon(child));
            }
        }
        assert_eq!(generated, expected);
    }
}

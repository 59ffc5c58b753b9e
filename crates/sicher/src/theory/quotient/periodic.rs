//! Final misère quotients: the periodicity theorem for pretending functions.
//!
//! # The theorem (sources)
//!
//! Plambeck and Siegel, "Misère quotients for impartial games" (JCTA 115, 2008), prove
//! for octal games with finitely many non-zero code digits that once the pretending
//! function `Φ` (heap size ↦ element of the quotient) has repeated with period `p` from
//! heap `n0` over a long enough stretch, `Φ(n + p) = Φ(n)` for every `n ≥ n0` and the
//! quotient of heaps `1..=N` is the quotient of every heap size; MisereSolver reports it
//! as "solution found at heap N" with the period and pre-period (Plambeck's notes on
//! MisereSolver, 2006; Siegel, "Misère games and misère quotients", Games of No Chance
//! 5, 2017, which proves it). It is the misère form of Guy and Smith's periodicity test
//! for nim-values (1956), and its proof is theirs:
//!
//! *Lemma.* In a closed set `A`, a game whose options have, as a set, the same images in
//! `Q(A)` as the options of a game `H ∈ A` (both none, or the same elements) is
//! indistinguishable from `H` next to every sum of `A` and its own copies; adding it to
//! the alphabet leaves the quotient as it is, and it takes `H`'s element.
//!
//! *The stretch.* Let `k` be the most tokens a move removes, `m` the most heaps it
//! leaves, and suppose `Φ(x) = Φ(x - p)` in `Q_N` for every `x` in `n0 + p ..= N`, with
//! `n0 ≥ 1` and `N ≥ m(n0 + p) + k`. For heap `n = N + 1` (then by induction every
//! larger heap): an option of `n` removes `t ≤ k` tokens and leaves at most `m` heaps
//! summing to `n - t`, so its largest part is at least `(n - k) / m ≥ n0 + p`; taking `p`
//! off that part gives an option of heap `n - p` with the same element. Conversely an
//! option of `n - p` has a part of at least `(n - p - k) / m ≥ n0`, and adding `p` to it
//! gives an option of `n` with the same element. So heaps `n` and `n - p` have the same
//! option images in `Q_{n-1} = Q_N`, and by the lemma `Φ(n) = Φ(n - p)` and
//! `Q_n = Q_N`. (`n0 ≥ 1` keeps parts non-empty, so each move keeps its kind.)
//!
//! The check here asks for the whole stretch `n0 + p ..= N` in the computed quotient,
//! which is the hypothesis of the argument above; it applies to octal and hexadecimal
//! codes whose digits stop (`k` finite) and to finite subtraction sets (`m = 1`).
//! For octal codes (`m = 2`) that is one heap more than Guy and Smith's normal-play
//! bound `2(n0 + p) + k - 1` and one heap less than MisereSolver's generic periodicity
//! checker asks (`2(n0 + p) + k + 1`, a safety margin it applies in normal play too);
//! hexadecimal codes (`m = 3`) and subtraction sets rest on the argument above, not
//! on the published octal theorem; `tests/quotient.rs` checks one of each against brute
//! force beyond the heaps it was proved from, as it checks octal codes.

use std::ops::ControlFlow;

use crate::game::Ruleset;

/// A misère quotient's period (of its pretending function), proved for every heap size;
/// the nim-values' period is [`crate::theory::grundy::Periodicity`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuotientPeriod {
    /// `Φ(n + period) = Φ(n)` for every heap `n ≥ preperiod` (at least 1).
    pub preperiod: u64,
    /// The period `p`.
    pub period: u64,
    /// The least heap range `1..=N` the theorem needed: `m(n0 + p) + k`.
    pub proved_at: u64,
}

impl QuotientPeriod {
    /// The heap of at most `preperiod + period - 1` whose element heap `h` has.
    #[inline]
    pub fn fold(&self, h: u64) -> u64 {
        if h < self.preperiod + self.period {
            h
        } else {
            self.preperiod + (h - self.preperiod) % self.period
        }
    }
}

/// `(k, m)`: most tokens a move removes and most heaps it leaves, when the theorem
/// applies to the ruleset.
fn reach(ruleset: &Ruleset) -> Option<(u64, u64)> {
    match ruleset {
        Ruleset::Subtraction(set) => set.last().map(|&k| (k, 1)),
        Ruleset::TakeBreak(code) if !code.repeats() => {
            Some((code.last_nonzero()?, u64::from(code.max_parts())))
        }
        _ => None,
    }
}

/// The least period (with its least pre-period) that the theorem proves from the
/// pretending function of heaps `1..=N` (`elements[h - 1]` is `Φ(h)` in `Q_N`), if any.
pub fn find(ruleset: &Ruleset, elements: &[u32]) -> Option<QuotientPeriod> {
    let (k, m) = reach(ruleset)?;
    let n = elements.len() as u64;
    let phi = |h: u64| elements[h as usize - 1];
    for p in 1..=n / m {
        // The largest x with Φ(x) ≠ Φ(x - p) fixes the least n0: x < n0 + p.
        let bad = (p + 1..=n).rev().find(|&x| phi(x) != phi(x - p));
        let n0 = bad.map_or(1, |x| x + 1 - p).max(1);
        let need = m.checked_mul(n0 + p)?.checked_add(k)?;
        if need <= n {
            return Some(QuotientPeriod {
                preperiod: n0,
                period: p,
                proved_at: need,
            });
        }
    }
    None
}

/// Visits options of a lone heap `h` beyond the computed heaps of a final quotient, one
/// per way of leaving heaps of the same elements: every part of size `n0 + p` or more
/// but the largest is brought down into `n0 .. n0 + p` (same element), so `O(k (n0 + p))`
/// options for octal codes instead of `O(k h)`. Every option visited is a real move.
pub fn for_each_folded_option<F>(
    ruleset: &Ruleset,
    period: &QuotientPeriod,
    h: u64,
    mut visit: F,
) -> ControlFlow<()>
where
    F: FnMut(&[u64]) -> ControlFlow<()>,
{
    let Ruleset::TakeBreak(code) = ruleset else {
        // Subtraction: a handful of options.
        return ruleset.for_each_heap_option(h, visit);
    };
    let small = period.preperiod + period.period;
    let last = code.last_nonzero().map_or(h, |last| last.min(h));
    for t in 0..=last {
        let digit = code.digit(t);
        let rest = h - t;
        if digit & 1 != 0 && rest == 0 {
            visit(&[])?;
        }
        if digit & 2 != 0 && rest >= 1 && t >= 1 {
            visit(&[rest])?;
        }
        if digit & 4 != 0 {
            for a in 1..=(rest / 2).min(small - 1) {
                visit(&[a, rest - a])?;
            }
        }
        if digit & 8 != 0 {
            for a in 1..=(rest / 3).min(small - 1) {
                for b in a..=((rest - a) / 2).min(small - 1) {
                    visit(&[a, b, rest - a - b])?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_keeps_small_heaps_and_reduces_large_ones() {
        let p = QuotientPeriod {
            preperiod: 5,
            period: 4,
            proved_at: 20,
        };
        assert_eq!(p.fold(3), 3);
        assert_eq!(p.fold(8), 8);
        assert_eq!(p.fold(9), 5);
        assert_eq!(p.fold(1_000_003), 7);
    }

    #[test]
    fn a_period_needs_its_stretch() {
        let kayles = crate::game::parse_spec("octal:0.77").unwrap().ruleset;
        // Period 2 from heap 1 over 10 heaps: m (n0 + p) + k = 2 * 3 + 2 = 8 heaps suffice.
        let phi: Vec<u32> = (1..=10).map(|h| (h % 2) as u32).collect();
        let found = find(&kayles, &phi).unwrap();
        assert_eq!((found.preperiod, found.period, found.proved_at), (1, 2, 8));
        // The same pattern over 7 heaps proves nothing.
        assert_eq!(find(&kayles, &phi[..7]), None);
        // Rules whose code repeats forever are never final this way.
        let nim = crate::game::parse_spec("nim").unwrap().ruleset;
        assert_eq!(find(&nim, &phi), None);
    }
}

//! Ultimate periods of heap sequences, and when a theorem turns a finite check into a proof.
//!
//! The periodicity theorem (Guy and Smith for octal codes): if no move removes more than
//! `t` tokens and every move leaves at most `k` heaps, and G(n + p) = G(n) for all
//! `n0 <= n < k*n0 + (k-1)*p + t` (with `n0 >= 1`), then G(n + p) = G(n) for every
//! `n >= n0`. For `k = 2` this is the octal theorem's `2*n0 + p + t`. Proof, by induction
//! on `N >= k*n0 + k*p + t`: an option of `N` leaves at most `k` parts summing to at least
//! `N - t >= k*(n0 + p)`, so its largest part `x` has `x - p >= n0 >= 1`, and replacing `x`
//! by `x - p` is an option of `N - p` with the same value (same removal, same number of
//! non-empty parts). Conversely the largest part `y` of an option of `N - p` has
//! `y >= n0`, and `y + p < N`, so `y -> y + p` maps it back. Hence both have the same
//! option values. For `k = 1` (subtraction games, take-only codes) this is the familiar
//! "a window of `t` equal values repeats forever", and it holds for any sequence defined by
//! the outcomes of the options alone, so it also proves misère single-heap outcomes.
//! Grundy's game and codes whose digits never end have no such theorem: sicher reports
//! their apparent periods as unproven.

use crate::game::Ruleset;

/// The parameters of the periodicity theorem for a ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofBound {
    /// Most heaps any move leaves.
    pub parts: u64,
    /// Most tokens any move removes.
    pub take: u64,
}

impl ProofBound {
    /// The theorem's parameters for `ruleset`, or `None` when no theorem applies.
    pub fn for_ruleset(ruleset: &Ruleset) -> Option<Self> {
        match ruleset {
            Ruleset::TakeBreak(_) | Ruleset::Subtraction(_) => Some(ProofBound {
                parts: u64::from(ruleset.max_parts()),
                take: ruleset.max_take()?,
            }),
            // Grundy's splits must be unequal, which the induction's shift does not keep;
            // Nim, Wythoff and Moore take without bound.
            Ruleset::Grundy | Ruleset::Nim | Ruleset::Wythoff | Ruleset::Moore(_) => None,
        }
    }

    /// How many values (indices `0..len`) the theorem needs to prove period `period` from
    /// `preperiod`: the check runs `n0 <= n < k*n0 + (k-1)*p + t`, plus `p` to compare with.
    pub fn needed_len(&self, preperiod: u64, period: u64) -> u64 {
        let n0 = preperiod.max(1);
        let k = self.parts.max(1);
        k.saturating_mul(n0)
            .saturating_add(k.saturating_mul(period))
            .saturating_add(self.take)
    }
}

/// An ultimate period found in a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Periodicity {
    /// The smallest `n0` with `s(n + p) = s(n)` for all `n >= n0`.
    pub preperiod: u64,
    /// The smallest such `p`.
    pub period: u64,
    /// The largest heap size whose value the proof used, when a theorem proves it; `None`
    /// when the period is only apparent in the values computed.
    pub proved_at: Option<u64>,
}

impl Periodicity {
    /// The index whose value a heap of size `h` shares (itself below the pre-period).
    pub fn reduce(&self, h: u64) -> u64 {
        if h < self.preperiod {
            h
        } else {
            self.preperiod + (h - self.preperiod) % self.period
        }
    }
}

/// The smallest period `p` (and its exact pre-period) that the theorem `bound` proves from
/// the values `seq`, if any.
///
/// Periods are tried in increasing order; a wrong `p` usually fails within a few values of
/// the end, and the first proved `p` is the ultimate period (every true period is a
/// multiple of it, with the same pre-period, and needs at least as many values).
pub fn find_proved<T: PartialEq>(seq: &[T], bound: ProofBound) -> Option<Periodicity> {
    let len = seq.len() as u64;
    let mut period = 1;
    while bound.needed_len(0, period) <= len {
        let preperiod = last_disagreement(seq, period);
        if bound.needed_len(preperiod, period) <= len {
            return Some(Periodicity {
                preperiod,
                period,
                proved_at: Some(bound.needed_len(preperiod, period) - 1),
            });
        }
        period += 1;
    }
    None
}

/// A period the values show without proof: the smallest `p` whose agreement covers at
/// least as many values as the two-part theorem with no removal would want.
pub fn find_apparent<T: PartialEq>(seq: &[T]) -> Option<Periodicity> {
    find_proved(seq, ProofBound { parts: 2, take: 0 }).map(|found| Periodicity {
        proved_at: None,
        ..found
    })
}

/// The smallest `n0` such that `seq[n + p] == seq[n]` for all `n0 <= n < len - p`.
fn last_disagreement<T: PartialEq>(seq: &[T], period: u64) -> u64 {
    let p = period as usize;
    if p >= seq.len() {
        return 0;
    }
    let (head, tail) = (&seq[..seq.len() - p], &seq[p..]);
    head.iter()
        .zip(tail)
        .rposition(|(a, b)| a != b)
        .map_or(0, |i| i as u64 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_period_and_preperiod() {
        let seq: Vec<u32> = (0..200).map(|n| if n < 5 { 9 } else { n % 3 }).collect();
        let found = find_proved(&seq, ProofBound { parts: 2, take: 2 }).unwrap();
        assert_eq!((found.preperiod, found.period), (5, 3));
        assert_eq!(found.proved_at, Some(2 * 5 + 2 * 3 + 2 - 1));
        assert_eq!(found.reduce(100), 5 + (95 % 3));
    }

    #[test]
    fn short_data_proves_nothing() {
        let seq = [0u32, 1, 0, 1, 0, 1];
        assert_eq!(find_proved(&seq, ProofBound { parts: 2, take: 3 }), None);
    }
}

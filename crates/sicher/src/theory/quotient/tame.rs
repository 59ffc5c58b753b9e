//! Genus and tameness (Conway, On Numbers and Games, ch. 12; Winning Ways ch. 13).
//!
//! The genus of `G` is `g^{γ0 γ1 γ2 ...}`: `g` the normal-play nim-value and `γk` the
//! misère Grundy value of `G + 2 + ... + 2` (`k` copies of `*2`); the sequence ends
//! alternating two values. Misère Grundy values obey `G⁻(X + *1) = G⁻(X) ⊕ 1`, so
//! `γ0 = mex γ0(G')` (1 with no option) and `γk = mex({γk(G')} ∪ {γ(k-1), γ(k-1) ⊕ 1})`:
//! a heap's genus follows exactly from its options' genera. An option that is one heap
//! has that heap's genus; one made of several heaps has a genus here only when every
//! part lies in the verified tame range, where sums behave as in misère Nim.
//!
//! A heap range is *tame* when misère play of every sum of its heaps is misère Nim
//! played on the nim-values, with the heaps of genus `0^{120}` or `1^{031}` counting as
//! the "fickle" heaps of size 0 and 1 and every other heap as a "firm" heap (genus
//! `g^{g, g⊕2}`, like a sum of nim heaps containing one of size 2 or more). That is
//! exactly the claim that the misère Nim quotient (elements: nim-sum, and whether a firm
//! heap is present) predicts every outcome, so it is established by the same
//! transition-table verification as any quotient, over the heaps in range together
//! with the nim heaps below the next power of two (so the genera built on it, which add
//! `*2`s, are covered). The reported range is established, not final.

use std::collections::HashSet;
use std::fmt;

use super::budget::Budget;
use super::monoid::Table;
use super::verify::{verify, Generator, Verdict};
use super::{QuotientError, MAX_HEAPS};
use crate::game::{OptionTable, Ruleset};
use crate::theory::grundy::MexSet;
use crate::theory::invariant::{self, HeapInvariant};

/// A genus `g^{γ0 γ1 ...}`; the last two `γ`s repeat forever.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Genus {
    /// Normal-play nim-value.
    pub nim_value: u64,
    /// `γ0, γ1, ...` up to where the last two alternate.
    pub gammas: Vec<u64>,
}

impl Genus {
    /// The genus of a tame position with this nim-value, firm or fickle.
    pub fn tame(nim_value: u64, firm: bool) -> Self {
        let gammas = match (firm, nim_value) {
            (false, 0) => vec![1, 2, 0],
            (false, _) => vec![0, 3, 1],
            (true, g) => vec![g, g ^ 2],
        };
        Genus { nim_value, gammas }
    }

    /// `γk` for any `k`.
    pub fn gamma(&self, k: usize) -> u64 {
        let len = self.gammas.len();
        if k < len {
            self.gammas[k]
        } else {
            self.gammas[len - 2 + (k - (len - 2)) % 2]
        }
    }

    /// The genus of a game whose options have these genera.
    pub fn from_options(nim_value: u64, options: &[&Genus]) -> Self {
        let longest = options.iter().map(|o| o.gammas.len()).max().unwrap_or(0);
        let mut gammas = Vec::new();
        let mut values = MexSet::new();
        let first = if options.is_empty() {
            1
        } else {
            options.iter().for_each(|o| values.insert(o.gamma(0)));
            values.mex()
        };
        gammas.push(first);
        let mut k = 1;
        loop {
            values.clear();
            options.iter().for_each(|o| values.insert(o.gamma(k)));
            let prev = gammas[k - 1];
            values.insert(prev);
            values.insert(prev ^ 1);
            gammas.push(values.mex());
            // Past every option's own tail the recursion only depends on (γ(k-1), k mod 2).
            if k >= longest + 3 && gammas[k] == gammas[k - 2] && gammas[k - 1] == gammas[k - 3] {
                break;
            }
            k += 1;
        }
        let mut len = gammas.len();
        while len > 2 && gammas[len - 1] == gammas[len - 3] && {
            // Dropping the last value keeps every later one predictable.
            (len - 1..gammas.len()).all(|j| gammas[j] == gammas[j - 2])
        } {
            len -= 1;
        }
        gammas.truncate(len.max(2));
        Genus { nim_value, gammas }
    }
}

impl fmt::Display for Genus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tail: Vec<String> = self.gammas.iter().map(|g| g.to_string()).collect();
        let sep = if self.gammas.iter().any(|&g| g >= 10) {
            ","
        } else {
            ""
        };
        write!(f, "{}^{{{}}}", self.nim_value, tail.join(sep))
    }
}

/// Nim-values, genera and the tame range of a one-heap ruleset's heaps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TameAnalysis {
    /// The ruleset's canonical spec.
    pub ruleset: String,
    /// Heaps `1..=max_heap` were analysed.
    pub max_heap: u64,
    /// `nim_values[h - 1]`: normal-play nim-value of heap `h`.
    pub nim_values: Vec<u64>,
    /// `genus[h - 1]`, when computable (see the module doc).
    pub genus: Vec<Option<Genus>>,
    /// `firm[h - 1]`: heap `h` counts as a firm heap (meaningful within the tame range).
    pub firm: Vec<bool>,
    /// Every sum of heaps `1..=tame_through` is misère Nim on the nim-values.
    pub tame_through: u64,
}

/// Computes nim-values, genera and the tame range for heaps `1..=max_heap`.
pub fn analyse(
    ruleset: &Ruleset,
    max_heap: u64,
    budget: &Budget,
) -> Result<TameAnalysis, QuotientError> {
    if max_heap <= MAX_HEAPS {
        ruleset
            .prepare(max_heap)
            .map_err(|e| QuotientError::Unsupported(e.to_string()))?;
    }
    let table = match max_heap <= MAX_HEAPS {
        true => OptionTable::new(ruleset, max_heap),
        false => None,
    };
    let Some(table) = table else {
        return Err(QuotientError::Unsupported(format!(
            "genus analysis needs a one-heap ruleset and at most {MAX_HEAPS} heaps, not {ruleset} up to {max_heap}"
        )));
    };
    let mut nim = vec![0u64];
    let mut genus: Vec<Option<Genus>> = vec![Some(Genus::tame(0, false))];
    let mut firm = vec![false];
    let mut tame_through = 0u64;
    let mut tame_open = true;
    let mut keys: HashSet<(u32, Vec<u32>)> = HashSet::new();
    let mut bits = 2u32;
    let mut seen = MexSet::new();
    for h in 1..=max_heap as usize {
        let options = table.of(h as u64);
        seen.clear();
        for option in options {
            seen.insert(option.parts().iter().fold(0, |a, &p| a ^ nim[p as usize]));
        }
        let g = seen.mex();
        nim.push(g);
        let option_genera: Option<Vec<Genus>> = options
            .iter()
            .map(|option| match option.parts() {
                [] => Some(Genus::tame(0, false)),
                [one] => genus[*one as usize].clone(),
                many if many.iter().all(|&p| p <= tame_through) => Some(Genus::tame(
                    many.iter().fold(0, |a, &p| a ^ nim[p as usize]),
                    many.iter().any(|&p| firm[p as usize]),
                )),
                _ => None,
            })
            .collect();
        let this = option_genera.map(|list| {
            let refs: Vec<&Genus> = list.iter().collect();
            Genus::from_options(g, &refs)
        });
        let is_firm = this.as_ref().is_some_and(|x| x.gamma(0) == g);
        firm.push(is_firm);
        if tame_open {
            let shaped = this
                .as_ref()
                .is_some_and(|x| *x == Genus::tame(g, is_firm) && (is_firm || g <= 1));
            if shaped {
                while 1u64 << bits <= g.max(3) {
                    bits += 1;
                    keys.clear();
                }
                let element = |g: u64, f: bool| ((g << 1) | f as u64) as u32;
                let mut option_elements: Vec<u32> = options
                    .iter()
                    .map(|option| {
                        let parts = option.parts();
                        element(
                            parts.iter().fold(0, |a, &p| a ^ nim[p as usize]),
                            parts.iter().any(|&p| firm[p as usize]),
                        )
                    })
                    .collect();
                option_elements.sort_unstable();
                option_elements.dedup();
                let key = (element(g, is_firm), option_elements);
                let new_generator = !keys.contains(&key);
                keys.insert(key);
                let valid = !new_generator || {
                    if (2u64 << bits) > budget.max_order as u64 {
                        false
                    } else {
                        verify_tame(&keys, bits, budget)
                    }
                };
                if valid {
                    tame_through = h as u64;
                } else {
                    tame_open = false;
                }
            } else {
                tame_open = false;
            }
        }
        genus.push(this);
    }
    Ok(TameAnalysis {
        ruleset: ruleset.to_string(),
        max_heap,
        nim_values: nim[1..].to_vec(),
        genus: genus[1..].to_vec(),
        firm: firm[1..].to_vec(),
        tame_through,
    })
}

/// Verifies the misère Nim quotient on `bits`-bit nim-values against the heaps' pairs
/// plus every nim heap below `2^bits`. A verification stopped by the budget (too many
/// pairs, or the deadline) proves nothing, so the game is then not taken as tame.
fn verify_tame(keys: &HashSet<(u32, Vec<u32>)>, bits: u32, budget: &Budget) -> bool {
    let (q, p, mut generators) = misere_nim(bits);
    generators.extend(keys.iter().map(|(e, opts)| Generator {
        heap: 0,
        element: *e,
        options: opts.clone(),
    }));
    matches!(
        verify(&q, &p, &generators, budget, false),
        Ok(Verdict::Valid)
    )
}

/// The misère Nim quotient on `bits`-bit nim-values (element `2v + firm`), its
/// P-portion, and a generator for every nim heap below `2^bits`.
fn misere_nim(bits: u32) -> (Table, Vec<bool>, Vec<Generator>) {
    let order = 2usize << bits;
    let mut cells = vec![0u32; order * order];
    for a in 0..order {
        for b in 0..order {
            cells[a * order + b] = (((a >> 1) ^ (b >> 1)) << 1 | ((a | b) & 1)) as u32;
        }
    }
    let q = Table::from_parts(order, 0, cells);
    // P-positions: fickle with nim-sum 1, or firm with nim-sum 0.
    let p: Vec<bool> = (0..order).map(|x| x == 2 || x == 1).collect();
    let element = |v: u32| (v << 1) | (v >= 2) as u32;
    let generators = (1..(1u32 << bits))
        .map(|a| Generator {
            heap: 0,
            element: element(a),
            options: (0..a).map(element).collect(),
        })
        .collect();
    (q, p, generators)
}

impl TameAnalysis {
    fn heap(&self, h: u64) -> Option<(u64, bool)> {
        match h {
            0 => Some((0, false)),
            h if h <= self.tame_through => {
                Some((self.nim_values[h as usize - 1], self.firm[h as usize - 1]))
            }
            _ => None,
        }
    }

    /// Misère outcome by the misère Nim rule on nim-values: `Some(true)` when the player
    /// to move wins, `None` when a heap lies beyond the tame range.
    pub fn outcome(&self, heaps: &[u64]) -> Option<bool> {
        invariant::outcome(self, heaps)
    }
}

/// The tame misère rule as a theory's invariant: a heap's element is its nim-value and
/// whether it is firm (nim-value 2 or more somewhere below it, in the tame sense), XOR and
/// "any firm" combine them, and misère Nim's rule decides.
impl HeapInvariant for TameAnalysis {
    type Element = (u64, bool);

    fn identity(&self) -> (u64, bool) {
        (0, false)
    }

    fn element(&self, heap: u64) -> Option<(u64, bool)> {
        self.heap(heap)
    }

    fn combine(&self, a: (u64, bool), b: (u64, bool)) -> (u64, bool) {
        (a.0 ^ b.0, a.1 || b.1)
    }

    fn is_unsafe(&self, (nim_sum, firm): (u64, bool)) -> bool {
        !misere_nim_safe(nim_sum, firm)
    }
}

impl TameAnalysis {
    /// A winning move within the tame range, as the position after it.
    pub fn winning_move(&self, ruleset: &Ruleset, heaps: &[u64]) -> Option<Vec<u64>> {
        invariant::winning_move(self, ruleset, heaps).map(|found| found.after)
    }
}

/// Misère Nim's rule on nim-values (Bouton; Conway's tame games): whether the player
/// to move wins a tame position of nim-sum `nim_sum`, `firm` when some heap is firm (a
/// heap of nim-value 2 or more, in misère Nim). Without a firm heap the position is
/// fickle heaps of values 0 and 1 only, lost exactly when an odd number are 1 (nim-sum
/// 1); with one, it is lost exactly at nim-sum 0, as in normal play.
#[inline]
pub(crate) fn misere_nim_safe(nim_sum: u64, firm: bool) -> bool {
    if firm {
        nim_sum != 0
    } else {
        nim_sum != 1
    }
}

/// The tame misère rule on the heaps' nim-values alone, each heap of value 2 or more
/// counting as firm: whether the player to move wins. Exact for misère Nim (the values
/// are the sizes) and for heaps whose genus is that of a nim heap of their value.
#[inline]
pub(crate) fn tame_misere_safe(values: impl IntoIterator<Item = u64>) -> bool {
    let (mut nim_sum, mut firm) = (0, false);
    for v in values {
        nim_sum ^= v;
        firm |= v >= 2;
    }
    misere_nim_safe(nim_sum, firm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::theory::quotient::budget::Stop;

    /// The rule on values is the rule on nim-sum and firmness, and misère Nim's.
    #[test]
    fn tame_rule_on_values() {
        assert!(tame_misere_safe([]));
        assert!(!tame_misere_safe([1]));
        assert!(tame_misere_safe([1, 1]));
        assert!(!tame_misere_safe([1, 1, 1]));
        assert!(tame_misere_safe([2]));
        assert!(!tame_misere_safe([2, 2]));
        assert!(!tame_misere_safe([1, 2, 3]));
        assert!(tame_misere_safe([1, 2, 2]));
        assert!(!misere_nim_safe(0, true));
        assert!(!misere_nim_safe(1, false));
        assert!(misere_nim_safe(0, false));
    }

    /// A verification walks its whole closure unless stopped: it looks at the deadline
    /// and the cancel flag as it goes (issue #35: the time limit of `quotient octal:0.16`
    /// was overrun by the seconds one verification took), and says why it stopped.
    #[test]
    fn verification_stops_at_the_deadline_and_on_cancel() {
        let (q, p, generators) = misere_nim(5);
        let free = Budget::default();
        assert!(matches!(
            verify(&q, &p, &generators, &free, false),
            Ok(Verdict::Valid)
        ));
        assert!(matches!(
            verify(&q, &p, &generators, &free, true),
            Ok(Verdict::Valid)
        ));
        let late = Budget {
            deadline: Some(std::time::Instant::now()),
            ..Budget::default()
        };
        let cancelled = Budget {
            cancel: Some(crate::Cancel::new()),
            ..Budget::default()
        };
        cancelled.cancel.as_ref().unwrap().cancel();
        for budget in [&late, &cancelled] {
            for witness in [false, true] {
                assert!(matches!(
                    verify(&q, &p, &generators, budget, witness),
                    Err(Stop::Time)
                ));
            }
        }
        let few_pairs = Budget {
            max_pairs: 100,
            ..Budget::default()
        };
        assert!(matches!(
            verify(&q, &p, &generators, &few_pairs, false),
            Err(Stop::Pairs)
        ));
    }
}

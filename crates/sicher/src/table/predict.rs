//! Predicted outcomes: what theory says of a position, so a compressed outcome table
//! stores only where the truth differs (the residual), which is mostly zero bits.
//!
//! - **Nim-sum** (normal play, rules that move on one heap): unsafe exactly when the XOR
//!   of the heaps' nim-values is 0. Sprague-Grundy theory makes this exact.
//! - **Tame misère** (misère play, one-heap rules, `--heaps` domains): when every heap
//!   has nim-value 0 or 1, unsafe exactly when an odd number have value 1; otherwise as
//!   in normal play. Exact for Nim and every tame game.
//! - **Moore** (Moore's Nim_k): unsafe when every binary digit is set in a multiple of
//!   k + 1 heaps; in misère play, when all heaps are 0 or 1, when the number of ones is
//!   1 more than a multiple of k + 1.
//! - **Quotient** (misère play, one-heap rules, `--total` domains): a finite commutative
//!   monoid learned from the outcomes of the small positions, an estimate of the game's
//!   misère quotient (Plambeck-Siegel): each heap size maps to an element, a position to
//!   the product of its heaps' elements, and a set of elements are unsafe. The model is
//!   stored in the header, so the reader uses it as written.
//!
//! A prediction is a function of the position alone, the same in the writer and the
//! reader; the header records which one was used and a checksum of the tables behind it.

use super::format::{checksum, Prediction};
use crate::domain::Domain;
use crate::game::{Convention, Game, Heap, Ruleset};
use crate::theory::closed::moore;
use crate::theory::grundy::{nim_values, Method};
use crate::theory::quotient::learn::MAX_ELEMENTS;

/// Largest heap size whose nim-values a predictor computes.
const MAX_VALUES: u64 = 1 << 24;

/// A prediction ready to use.
#[derive(Clone, Debug)]
pub(crate) enum Predictor {
    /// Nothing predicted: the residual is the outcome itself.
    None,
    /// Unsafe when the nim-sum is 0; `values` are G(0..=max), `None` when heaps are their
    /// own values.
    NimSum { values: Option<Vec<u32>> },
    /// The misère rule of tame games.
    Tame { values: Option<Vec<u32>> },
    /// Moore's Nim_k.
    Moore { modulus: u32, misere: bool },
    /// A learned quotient.
    Quotient {
        phi: Vec<u8>,
        mul: Vec<u8>,
        n: usize,
        unsafe_elements: Box<[bool; 256]>,
    },
}

fn largest_heap(domain: Domain) -> u64 {
    match domain {
        Domain::Heaps { max, .. } => max,
        Domain::Total { total } => total,
    }
}

/// G(0..=largest) of a one-heap ruleset, `None` inside when heaps are their own values.
fn values_for(ruleset: &Ruleset, largest: u64) -> Result<Option<Vec<u32>>, String> {
    if ruleset.nim_values_are_sizes() {
        return Ok(None);
    }
    if largest >= MAX_VALUES {
        return Err(format!("nim-values of heaps up to {largest}"));
    }
    nim_values(ruleset, Method::Fast, largest + 1)
        .map(Some)
        .map_err(|e| e.to_string())
}

impl Predictor {
    /// Builds the predictor a header names for its game and domain; an error says why it
    /// does not fit them.
    pub(crate) fn build(
        prediction: &Prediction,
        game: &Game,
        domain: Domain,
    ) -> Result<Self, String> {
        let one_heap = game.ruleset.moves_one_heap();
        let largest = largest_heap(domain);
        Ok(match prediction {
            Prediction::None => Predictor::None,
            Prediction::NimSum if one_heap && game.convention == Convention::Normal => {
                Predictor::NimSum {
                    values: values_for(&game.ruleset, largest)?,
                }
            }
            Prediction::TameMisere if one_heap && game.convention == Convention::Misere => {
                Predictor::Tame {
                    values: values_for(&game.ruleset, largest)?,
                }
            }
            Prediction::Moore => match game.ruleset {
                Ruleset::Moore(k) => Predictor::Moore {
                    modulus: k + 1,
                    misere: game.convention == Convention::Misere,
                },
                _ => return Err("the Moore prediction belongs to Moore's Nim".into()),
            },
            Prediction::Quotient(model) => {
                let n = model.elements();
                if n == 0 || n > MAX_ELEMENTS || n * n != model.mul.len() {
                    return Err("impossible quotient size".into());
                }
                if model.phi.len() as u64 != largest + 1 {
                    return Err("quotient does not cover the domain's heaps".into());
                }
                if model.mul.iter().chain(&model.phi).any(|&e| e as usize >= n) {
                    return Err("quotient element out of range".into());
                }
                let mut unsafe_elements = Box::new([false; 256]);
                for (e, flag) in unsafe_elements.iter_mut().enumerate().take(n) {
                    *flag = model.unsafe_bits[e / 8] >> (e % 8) & 1 == 1;
                }
                Predictor::Quotient {
                    phi: model.phi.clone(),
                    mul: model.mul.clone(),
                    n,
                    unsafe_elements,
                }
            }
            _ => return Err("the prediction does not fit the game".into()),
        })
    }

    /// True when nothing is predicted.
    pub(crate) fn is_none(&self) -> bool {
        matches!(self, Predictor::None)
    }

    /// A checksum of the tables behind the prediction, stored in the header so a reader
    /// whose nim-values differ from the writer's refuses the table.
    pub(crate) fn check(&self) -> u64 {
        let bytes: Vec<u8> = match self {
            // Format 2 headers hold 0 here.
            Predictor::None => return 0,
            Predictor::NimSum { values } | Predictor::Tame { values } => {
                let tag = if matches!(self, Predictor::NimSum { .. }) {
                    1
                } else {
                    2
                };
                std::iter::once(tag)
                    .chain(values.iter().flatten().flat_map(|v| v.to_le_bytes()))
                    .collect()
            }
            Predictor::Moore { modulus, misere } => vec![3, *modulus as u8, u8::from(*misere)],
            Predictor::Quotient {
                phi,
                mul,
                unsafe_elements,
                n,
            } => std::iter::once(4)
                .chain(phi.iter().copied())
                .chain(mul.iter().copied())
                .chain(unsafe_elements[..*n].iter().map(|&u| u8::from(u)))
                .collect(),
        };
        checksum(&bytes)
    }

    /// True when the position a move leads to from ascending `heaps` is predicted safe;
    /// `scratch` holds the child's heaps when the prediction needs them in order.
    #[inline]
    pub(crate) fn safe_after(
        &self,
        heaps: &[Heap],
        removed: &[usize],
        added: &[Heap],
        scratch: &mut Vec<Heap>,
    ) -> bool {
        match self {
            Predictor::Quotient { .. } => {
                crate::game::child_into(heaps, removed, added, scratch);
                return self.safe(scratch);
            }
            // XOR is its own inverse: the parent's sum, less the removed, plus the added.
            Predictor::NimSum { values } => {
                let parent = heaps.iter().fold(0, |x, &h| x ^ nim_value(values, h));
                let sum = removed
                    .iter()
                    .map(|&i| heaps.get(i).copied().unwrap_or(0))
                    .chain(added.iter().copied())
                    .fold(parent, |x, h| x ^ nim_value(values, h));
                return sum != 0;
            }
            _ => {}
        }
        // The other predictions are symmetric functions of the heaps: no need to build
        // the child in order.
        let kept = heaps
            .iter()
            .enumerate()
            .filter(|(i, _)| !removed.contains(i))
            .map(|(_, &h)| h)
            .chain(added.iter().copied());
        self.symmetric(kept)
    }

    /// True when the position of ascending heaps (zeros allowed) is predicted safe.
    #[inline]
    pub(crate) fn safe(&self, heaps: &[Heap]) -> bool {
        match self {
            Predictor::Quotient {
                phi,
                mul,
                n,
                unsafe_elements,
            } => {
                let mut e = 0usize;
                for &h in heaps {
                    let g = phi.get(h as usize).map_or(0, |&g| g as usize);
                    e = mul.get(e * n + g).map_or(0, |&x| x as usize);
                }
                !unsafe_elements[e]
            }
            _ => self.symmetric(heaps.iter().copied()),
        }
    }

    /// The predictions that do not depend on the heaps' order.
    #[inline]
    fn symmetric(&self, heaps: impl Iterator<Item = Heap> + Clone) -> bool {
        match self {
            Predictor::None | Predictor::Quotient { .. } => false,
            Predictor::NimSum { values } => heaps.fold(0, |x, h| x ^ nim_value(values, h)) != 0,
            Predictor::Tame { values } => {
                crate::theory::quotient::tame::tame_misere_safe(heaps.map(|h| nim_value(values, h)))
            }
            Predictor::Moore { modulus, misere } => {
                let convention = if *misere {
                    Convention::Misere
                } else {
                    Convention::Normal
                };
                !moore::is_unsafe_in(heaps, modulus - 1, convention)
            }
        }
    }
}

/// G(h): from the values, or `h` itself when heaps are their own values.
#[inline(always)]
fn nim_value(values: &Option<Vec<u32>>, h: Heap) -> u64 {
    match values {
        None => h,
        Some(values) => values.get(h as usize).map_or(0, |&v| u64::from(v)),
    }
}

/// The exact prediction a writer uses for outcome tables of `game` over `domain` when
/// its caller gave none: the theory that decides every position where there is one (the
/// nim-sum, Moore's rule), the tame misère rule otherwise for one-heap rules, else none.
/// A learned misère quotient is the caller's to give (see `theory/quotient/learn.rs`).
pub(crate) fn choose(game: &Game, domain: Domain) -> Prediction {
    let fits = |p: Prediction| {
        Predictor::build(&p, game, domain)
            .ok()
            .map(|_| p)
            .unwrap_or(Prediction::None)
    };
    if let Ruleset::Moore(_) = game.ruleset {
        return Prediction::Moore;
    }
    if !game.ruleset.moves_one_heap() {
        return Prediction::None;
    }
    if game.convention == Convention::Normal {
        return fits(Prediction::NimSum);
    }
    fits(Prediction::TameMisere)
}

/// Positions of `domain` whose outcome `prediction` gets wrong, and how many there are
/// (the labeller's outcomes are the truth).
#[cfg(test)]
pub(crate) fn mispredicted(game: &Game, domain: Domain, prediction: &Prediction) -> (u64, u64) {
    use crate::domain::Ranker;
    use crate::label::{label, Strategy};
    let ranker = Ranker::new(domain).unwrap();
    let labels = label(game, &ranker, Strategy::auto(&game.ruleset), &|_| {}).unwrap();
    let predictor = Predictor::build(prediction, game, domain).unwrap();
    let wrong = (0..ranker.count())
        .filter(|&r| predictor.safe(ranker.unrank(r).heaps()) != labels.is_safe(r))
        .count() as u64;
    (wrong, ranker.count())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;

    #[test]
    fn exact_theories_predict_every_position() {
        for (name, convention) in [
            ("kayles", Convention::Normal),
            ("grundy", Convention::Normal),
            ("nim", Convention::Misere),
            ("moore-2", Convention::Normal),
            ("moore-2", Convention::Misere),
        ] {
            let game = resolve(name).unwrap().with_convention(convention);
            let domain = if game.ruleset.splits() {
                Domain::Total { total: 25 }
            } else {
                Domain::Heaps { heaps: 3, max: 20 }
            };
            let prediction = choose(&game, domain);
            assert_eq!(
                mispredicted(&game, domain, &prediction).0,
                0,
                "{name} {convention}"
            );
        }
    }
}

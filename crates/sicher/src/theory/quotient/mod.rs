//! Misère quotients of one-heap rulesets (octal, hexadecimal and subtraction codes,
//! Nim, Grundy's game): the commutative monoid that answers misère play of every sum of
//! heaps up to a size by multiplying elements, as Sprague-Grundy values answer normal
//! play by XOR.
//!
//! # Theory (sources)
//!
//! For a set `A` of positions closed under sums and options, `G ≡ H` when
//! `o(G + X) = o(H + X)` for every `X` in `A`; the classes form a commutative monoid `Q`
//! with a distinguished *P-portion* (the classes of P-positions). Here `A` is every sum
//! of heaps of sizes `1..=N` (Plambeck, "Taming the wild in impartial combinatorial
//! games", Integers 5, 2005; Plambeck and Siegel, "Misère quotients for impartial
//! games", JCTA 115, 2008). Construction and verification follow the published
//! descriptions of MisereSolver (Plambeck, "Advances in losing", 2006; Siegel's answers
//! on the miseregames blog, 2007: candidates whose least failures increase, reduction
//! at every stage, a verification theorem) and Siegel's valid transition tables; see
//! `construct.rs` and `verify.rs` (module docs) for the algorithm. No code was consulted.
//!
//! # What is proved
//!
//! A [`MisereQuotient`] for heaps `1..=N` is **exact for every position whose heaps are
//! at most `N`**: it is accepted only after the verification theorem checked every
//! transition pair of that closure. When the pretending function has repeated long
//! enough for the periodicity theorem (`periodic.rs`: Plambeck and Siegel 2008, after Guy
//! and Smith), the quotient is **final**: exact for every heap size, with
//! `Φ(n + p) = Φ(n)` from the pre-period on ([`MisereQuotient::periodicity`]). Otherwise
//! it is *established for heaps ≤ N* and says nothing about larger heaps.
//! Misère Nim ([`nim`]) is final for all heap sizes (Bouton 1902). Tameness
//! ([`tame`]) is established for the heap range it reports, by the same verification
//! applied to the misère Nim quotient.
//!
//! # Files
//!
//! - `monoid.rs`: tables, products with cyclic monoids, reduction by indistinguishability.
//! - `extend.rs`: least representatives and the outcome rows of one more heap.
//! - `verify.rs`: the transition-table check and the least mispredicted position.
//! - `construct.rs`: the heap-by-heap driver: extension, and recalibration when it fails.
//! - `budget.rs`: the [`Budget`] that bounds a construction, why it [`Stop`]s, and the
//!   memory estimates of tables and verifications.
//! - `stage.rs`: the quotient of the heaps accepted so far, and the views of heaps and
//!   options the driver, recalibration and layouts share.
//! - `recalibrate.rs`: the search for the relations of `Q_{n-1}` that heap `n` breaks.
//! - `layout.rs`: candidates rebuilt from a presentation with relations dropped or
//!   weakened.
//! - `congruence.rs`: imposing relations on a product of cycles.
//! - `presentation.rs`: generators, relations and normal forms.
//! - `options.rs`: the game's option table as the construction reads it.
//! - `answer.rs`: outcomes and winning moves from a quotient.
//! - `periodic.rs`: the periodicity theorem that makes a quotient final.
//! - `nim.rs`: Bouton's misère Nim rule.
//! - `tame.rs`: genus, tameness and the tame misère rule.
//! - `learn.rs`: the quotient a table learns from its small positions, to predict
//!   outcomes with.

mod answer;
mod budget;
mod congruence;
mod construct;
mod extend;
mod layout;
pub(crate) mod learn;
mod monoid;
pub mod nim;
mod options;
mod periodic;
mod presentation;
mod recalibrate;
mod stage;
pub mod tame;
mod verify;

use std::fmt;
use std::ops::ControlFlow;

use crate::game::Ruleset;

pub use budget::{Budget, Stop};
pub use periodic::QuotientPeriod;

/// Largest heap range a construction accepts.
pub const MAX_HEAPS: u64 = 1 << 16;

/// The misère quotient of the heaps `1..=max_heap` of a ruleset, as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereQuotient {
    /// The ruleset's canonical spec, e.g. `octal:0.77`.
    pub ruleset: String,
    /// Heaps `1..=max_heap` are covered: exact for every sum of them.
    pub max_heap: u64,
    /// Number of elements.
    pub order: u32,
    /// The element of the empty position.
    pub identity: u32,
    /// Multiplication table, row-major: `table[a * order + b]` is `ab`.
    pub table: Vec<u32>,
    /// `p_portion[x]`: positions with element `x` are P-positions (unsafe to move in).
    pub p_portion: Vec<bool>,
    /// `heap_elements[h - 1]` is the element of a lone heap of size `h`.
    pub heap_elements: Vec<u32>,
    /// Heaps whose elements are the presentation's generators `a, b, c, ...`.
    pub generator_heaps: Vec<u64>,
    /// The presentation's relations, e.g. `a^2 = 1`.
    pub relations: Vec<String>,
    /// Every element's normal form as a word in the generators.
    pub normal_forms: Vec<String>,
    /// Heaps at which the presentation changed, ascending.
    pub changes: Vec<u64>,
    /// Heaps that split elements of the previous quotient and needed recalibration.
    pub recalibrations: Vec<u64>,
    /// When the periodicity theorem applies: the quotient is final, exact for every heap
    /// size, and heaps beyond `max_heap` take the element of [`QuotientPeriod::fold`].
    pub periodicity: Option<QuotientPeriod>,
}

/// How far a construction has come: reported once per heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The heap just established.
    pub heap: u64,
    /// The heap range asked for.
    pub target: u64,
    /// The quotient's order after it.
    pub order: u32,
}

/// Why a quotient could not be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuotientError {
    /// The ruleset or range is not one this module handles.
    Unsupported(String),
    /// A budget stopped the construction at `heap`; `partial` covers the heaps below.
    Incomplete {
        /// The quotient of heaps `1..heap`.
        partial: Box<MisereQuotient>,
        /// The heap whose stage was abandoned.
        heap: u64,
        /// Which budget ran out.
        stop: Stop,
    },
}

impl fmt::Display for QuotientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuotientError::Unsupported(why) => f.write_str(why),
            QuotientError::Incomplete {
                partial,
                heap,
                stop,
            } => write!(
                f,
                "misère quotient of {} stopped at heap {heap} ({stop}); established for heaps up to {} with order {}",
                partial.ruleset, partial.max_heap, partial.order
            ),
        }
    }
}

impl std::error::Error for QuotientError {}

/// Where and why a construction stopped before its last heap.
pub type Stopped = Option<(u64, Stop)>;

/// The quotient of heaps `1..=max_heap`, or of the heaps `budget` let the construction
/// reach, with the heap where it stopped and why; an error only for rules it cannot take.
pub fn compute_as_far_as(
    ruleset: &Ruleset,
    max_heap: u64,
    budget: &Budget,
) -> Result<(MisereQuotient, Stopped), String> {
    compute_as_far_as_with_progress(ruleset, max_heap, budget, &mut |_| {})
}

/// [`compute_as_far_as`], calling `progress` after each heap.
pub fn compute_as_far_as_with_progress(
    ruleset: &Ruleset,
    max_heap: u64,
    budget: &Budget,
    progress: &mut dyn FnMut(Progress),
) -> Result<(MisereQuotient, Stopped), String> {
    match compute_with_progress(ruleset, max_heap, budget, progress) {
        Ok(quotient) => Ok((quotient, None)),
        Err(QuotientError::Incomplete {
            partial,
            heap,
            stop,
        }) => Ok((*partial, Some((heap, stop)))),
        Err(QuotientError::Unsupported(why)) => Err(why),
    }
}

/// Computes the misère quotient of heaps `1..=max_heap` under `budget`.
pub fn compute(
    ruleset: &Ruleset,
    max_heap: u64,
    budget: &Budget,
) -> Result<MisereQuotient, QuotientError> {
    compute_with_progress(ruleset, max_heap, budget, &mut |_| {})
}

/// [`compute`], calling `progress` after each heap (the caller decides whether and how
/// often to show it; the construction never prints).
pub fn compute_with_progress(
    ruleset: &Ruleset,
    max_heap: u64,
    budget: &Budget,
    progress: &mut dyn FnMut(Progress),
) -> Result<MisereQuotient, QuotientError> {
    if !ruleset.moves_one_heap() {
        return Err(QuotientError::Unsupported(format!(
            "misère quotients need rules that move one heap at a time, not {ruleset}"
        )));
    }
    if max_heap > MAX_HEAPS {
        return Err(QuotientError::Unsupported(format!(
            "misère quotients cover at most {MAX_HEAPS} heap sizes, not {max_heap}"
        )));
    }
    ruleset
        .prepare(max_heap)
        .map_err(|e| QuotientError::Unsupported(e.to_string()))?;
    let opts = options::HeapOptions::new(ruleset, max_heap as u32);
    let mut builder = construct::Builder::new(budget.clone());
    let mut changes = Vec::new();
    let mut last = String::new();
    for n in 1..=max_heap {
        let step = if budget.past_deadline() {
            Err(Stop::Time)
        } else {
            builder.step(&opts)
        };
        let changed = match step {
            Ok(changed) => changed,
            Err(stop) => {
                return Err(QuotientError::Incomplete {
                    partial: Box::new(assemble(ruleset, &builder, changes)),
                    heap: n,
                    stop,
                })
            }
        };
        progress(Progress {
            heap: n,
            target: max_heap,
            order: monoid::Monoid::order(&builder.stage.q) as u32,
        });
        if !changed {
            continue;
        }
        let text = presentation::present(&builder.stage.q, &builder.stage.element).text();
        if text != last {
            changes.push(n);
            last = text;
        }
    }
    Ok(assemble(ruleset, &builder, changes))
}

fn assemble(ruleset: &Ruleset, builder: &construct::Builder, changes: Vec<u64>) -> MisereQuotient {
    use monoid::Monoid;
    let stage = &builder.stage;
    let presentation = presentation::present(&stage.q, &stage.element);
    MisereQuotient {
        ruleset: ruleset.to_string(),
        max_heap: stage.n() as u64,
        order: stage.q.order() as u32,
        identity: stage.q.identity(),
        table: stage.q.cells().to_vec(),
        p_portion: stage.p.clone(),
        heap_elements: stage.element[1..].to_vec(),
        generator_heaps: presentation.generator_heaps.clone(),
        relations: presentation
            .relations
            .iter()
            .map(|(l, r)| {
                format!(
                    "{} = {}",
                    presentation::word_text(l),
                    presentation::word_text(r)
                )
            })
            .collect(),
        normal_forms: presentation
            .normal_forms
            .iter()
            .map(|w| presentation::word_text(w))
            .collect(),
        changes,
        recalibrations: builder.recalibrated.iter().map(|&h| h as u64).collect(),
        periodicity: periodic::find(ruleset, &stage.element[1..]),
    }
}

impl MisereQuotient {
    /// The product of two elements.
    #[inline]
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.table[a as usize * self.order as usize + b as usize]
    }

    /// The element of heap `h` (`h = 0` is the identity), if within range: up to
    /// `max_heap`, or any size when the quotient is final.
    #[inline]
    pub fn heap_element(&self, h: u64) -> Option<u32> {
        match h {
            0 => Some(self.identity),
            h if h <= self.max_heap => Some(self.heap_elements[h as usize - 1]),
            h => self
                .periodicity
                .map(|period| self.heap_elements[period.fold(h) as usize - 1]),
        }
    }

    /// True when the periodicity theorem made the quotient exact for every heap size.
    pub fn is_final(&self) -> bool {
        self.periodicity.is_some()
    }

    /// Looks for the periodicity theorem's proof in the heaps computed (for a quotient
    /// read back from a file, which stores the pretending function but not the proof).
    pub fn prove_final(&mut self, ruleset: &Ruleset) {
        self.periodicity = periodic::find(ruleset, &self.heap_elements);
    }

    /// Visits the options of a lone heap `h`: all of them, or beyond `max_heap` of a final
    /// quotient one per way of leaving heaps of the same elements
    /// (`periodic.rs`); the flag says which.
    pub fn for_each_heap_option<F>(
        &self,
        ruleset: &Ruleset,
        h: u64,
        visit: F,
    ) -> (ControlFlow<()>, bool)
    where
        F: FnMut(&[u64]) -> ControlFlow<()>,
    {
        match self.periodicity {
            Some(period) if h > self.max_heap => (
                periodic::for_each_folded_option(ruleset, &period, h, visit),
                false,
            ),
            _ => (ruleset.for_each_heap_option(h, visit), true),
        }
    }

    /// The element of a position (heaps in any order), if every heap is within range.
    pub fn element(&self, heaps: &[u64]) -> Option<u32> {
        heaps.iter().try_fold(self.identity, |acc, &h| {
            self.heap_element(h).map(|x| self.mul(acc, x))
        })
    }

    /// Misère outcome: `Some(true)` when the player to move wins (safe), `None` when a
    /// heap is beyond `max_heap`.
    pub fn outcome(&self, heaps: &[u64]) -> Option<bool> {
        self.element(heaps).map(|x| !self.p_portion[x as usize])
    }

    /// The P-portion's elements (the unsafe ones), as their normal forms.
    pub fn p_portion_forms(&self) -> Vec<String> {
        (0..self.order as usize)
            .filter(|&x| self.p_portion[x])
            .map(|x| self.normal_forms[x].clone())
            .collect()
    }

    /// Each heap's element, heaps 1 to `max_heap`, as its normal form.
    pub fn heap_element_forms(&self) -> Vec<String> {
        self.heap_elements
            .iter()
            .map(|&x| self.normal_forms[x as usize].clone())
            .collect()
    }

    /// The presentation in the papers' notation, e.g. `a, b | a^2 = 1, b^3 = b`.
    pub fn presentation(&self) -> String {
        if self.generator_heaps.is_empty() {
            return "| (trivial)".to_string();
        }
        let names: Vec<String> = (0..self.generator_heaps.len())
            .map(presentation::generator_name)
            .collect();
        format!("{} | {}", names.join(", "), self.relations.join(", "))
    }

    /// The P-portion as normal forms, e.g. `{a, b^2}`.
    pub fn p_portion_text(&self) -> String {
        let words: Vec<&str> = (0..self.order as usize)
            .filter(|&x| self.p_portion[x])
            .map(|x| self.normal_forms[x].as_str())
            .collect();
        format!("{{{}}}", words.join(", "))
    }
}

impl From<QuotientError> for crate::error::Error {
    /// Rules the construction does not take are bad input; a budget that ran out is a
    /// refused resource.
    fn from(error: QuotientError) -> Self {
        match error {
            QuotientError::Unsupported(why) => crate::error::Error::input(why),
            incomplete @ QuotientError::Incomplete { .. } => {
                crate::error::Error::resource(incomplete.to_string())
            }
        }
    }
}

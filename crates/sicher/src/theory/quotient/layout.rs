//! Layouts: the relations a recalibration candidate assumes, and the candidate they
//! build.
//!
//! A layout says how each heap enters the candidate: a *fresh* generator with its own
//! cycle `x^(r+d) = x^r` (from its outcome rows, at least as long as asked), or a *word*
//! in earlier fresh generators. It also lists *relations* between fresh generators,
//! `u = v`, each imposed at the stage of its largest generator. The candidate is built
//! heap by heap: a fresh heap multiplies the monoid so far by its cycle, with outcomes
//! from its rows; the relations due at that stage are then imposed as a congruence
//! ([`super::congruence`]). Rows computed over a monoid that only identifies what the
//! assumed relations identify are exact as long as those relations hold, so the
//! candidate is right exactly when its relations are; the verification theorem decides.
//!
//! The layout that rebuilds a quotient `Q` ([`Layout::rebuilding`]) takes `Q`'s
//! presentation: its generators fresh with `Q`'s cycles, every other heap the word of
//! its normal form, and every relation between different generators. It rebuilds `Q`
//! itself (the relations present `Q`), never the product of all cycles that a layout
//! without relations builds, so a recalibration only pays for the relations it drops.

use super::budget::{Budget, Stop};
use super::congruence::{quotient, Congruence};
use super::extend::{representatives, rows, RepOptions};
use super::monoid::{partition, Action, Monoid, Partition, Product, Table};
use super::options::HeapOptions;
use super::presentation;
use super::stage::{classes_of, distinct_heaps, option_elements, Stage, View};
use super::verify::{mispredicts, verify, Verdict};

/// A product of fresh heaps' generators: `(fresh heap, exponent)`.
pub(crate) type Word = Vec<(u32, u64)>;

/// How heap `h` enters a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A generator of its own; its cycle comes from its rows, at least this long.
    Fresh { min_r: u32, d_mult: u32 },
    /// A product of fresh generators.
    Word(Word),
}

/// An assumed relation `lhs = rhs` between fresh generators.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Relation {
    pub lhs: Word,
    pub rhs: Word,
    /// The largest fresh heap involved: the stage that imposes it.
    pub stage: u32,
}

impl Relation {
    /// True when fresh heap `h` occurs in the relation.
    pub fn involves(&self, h: u32) -> bool {
        self.lhs.iter().chain(&self.rhs).any(|&(f, _)| f == h)
    }
}

/// Heaps `1..kinds.len()` and the relations assumed between them.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// `kinds[h]` for `h >= 1` (`kinds[0]` is unused).
    pub kinds: Vec<Kind>,
    /// Assumed relations; `None` once dropped (indices stay stable for the search).
    pub relations: Vec<Option<Relation>>,
}

impl Layout {
    /// The layout that rebuilds `stage` (heaps `1..=n`), with heap `n + 1` fresh.
    pub fn rebuilding(stage: &Stage) -> Layout {
        let mut layout = Layout::of(stage);
        layout.kinds.push(Kind::Fresh {
            min_r: 0,
            d_mult: 1,
        });
        layout
    }

    /// The layout of `stage`'s presentation (heaps `1..=n`).
    pub fn of(stage: &Stage) -> Layout {
        let q = &stage.q;
        let presentation = presentation::present(q, &stage.element);
        let gens: Vec<u32> = presentation
            .generator_heaps
            .iter()
            .map(|&h| h as u32)
            .collect();
        let word = |exps: &[u32]| -> Word {
            exps.iter()
                .zip(&gens)
                .filter(|&(&e, _)| e > 0)
                .map(|(&e, &h)| (h, u64::from(e)))
                .collect()
        };
        let mut kinds = vec![Kind::Word(Vec::new())];
        for h in 1..=stage.n() {
            if gens.contains(&h) {
                let (min_r, d_mult) = cycle_in(q, stage.element[h as usize]);
                kinds.push(Kind::Fresh { min_r, d_mult });
            } else {
                // A word in the generators of smaller heaps (a normal form may use a
                // later generator where that is shorter): the candidate builds heaps
                // in order, and a word can only use the fresh heaps built before it.
                let x = stage.element[h as usize];
                kinds.push(Kind::Word(word(&presentation.earliest_forms[x as usize])));
            }
        }
        let relations = presentation
            .relations
            .iter()
            .filter_map(|(l, r)| {
                let (lhs, rhs) = (word(l), word(r));
                let mut heaps = lhs.iter().chain(&rhs).map(|&(h, _)| h);
                let first = heaps.next()?;
                // A power of one generator equal to another is its cycle, which the
                // generator's own kind keeps (and a recalibration may lengthen).
                if heaps.clone().all(|h| h == first) {
                    return None;
                }
                let stage = heaps.fold(first, u32::max);
                Some(Relation { lhs, rhs, stage })
            })
            .map(Some)
            .collect();
        Layout { kinds, relations }
    }
}

/// `(r, d)` with `x^(r+d) = x^r` and no shorter such cycle.
fn cycle_in(q: &Table, x: u32) -> (u32, u32) {
    let mut seen = vec![u32::MAX; q.order()];
    let mut power = q.identity();
    let mut e = 0u32;
    loop {
        if seen[power as usize] != u32::MAX {
            let r = seen[power as usize];
            return (r, e - r);
        }
        seen[power as usize] = e;
        power = q.mul(power, x);
        e += 1;
    }
}

/// A built candidate: its reduced stage, the cycle each fresh heap got, and the
/// relations it could not impose.
pub(crate) struct Candidate {
    pub stage: Stage,
    pub cycles: Vec<Option<(u32, u32)>>,
    /// Relations (by index) whose merge crossed `P` and were left out.
    pub refused: Vec<usize>,
}

/// The monoid of the heaps built so far: a table times pending cycles.
struct Partial {
    base: Action,
    cycles: Vec<(u32, u32)>,
    /// `P` of `Product::new(&base, &cycles)`.
    p: Vec<bool>,
    /// `element[h]` for the heaps built so far (`element[0]` is the identity).
    element: Vec<u32>,
    /// Elements of each built heap's options.
    options: Vec<Vec<u32>>,
    /// Fresh heaps with their elements.
    fresh: Vec<(u32, u32)>,
}

impl Partial {
    fn product(&self) -> Product<'_, Action> {
        Product::new(&self.base, &self.cycles)
    }

    fn eval(&self, word: &Word) -> u32 {
        let product = self.product();
        let mut x = product.identity();
        for &(h, e) in word {
            let g = self
                .fresh
                .iter()
                .find(|&&(f, _)| f == h)
                .map(|&(_, g)| g)
                .expect("a layout's words use earlier fresh heaps");
            for _ in 0..e {
                x = product.mul(x, g);
            }
        }
        x
    }

    /// Imposes the relations due at this stage and renumbers everything by the quotient.
    fn impose(&mut self, due: &[(usize, &Relation)], refused: &mut Vec<usize>) {
        let gens: Vec<u32> = self.fresh.iter().map(|&(_, g)| g).collect();
        let pairs: Vec<(usize, u32, u32)> = due
            .iter()
            .map(|&(i, rel)| (i, self.eval(&rel.lhs), self.eval(&rel.rhs)))
            .collect();
        let product = self.product();
        let mut congruence = Congruence::new(product.order());
        for (i, a, b) in pairs {
            if !congruence.merge(&product, &self.p, &gens, a, b) {
                refused.push(i);
            }
        }
        let (table, p, class) = quotient(&product, &self.p, &gens, &congruence);
        let map = |x: &u32| class[*x as usize];
        self.element = self.element.iter().map(map).collect();
        for s in &mut self.options {
            *s = s.iter().map(map).collect();
            s.sort_unstable();
            s.dedup();
        }
        for f in &mut self.fresh {
            f.1 = class[f.1 as usize];
        }
        self.base = table;
        self.cycles.clear();
        self.p = p;
    }
}

/// A candidate built but not yet tabulated: the product of its heaps with the relations
/// imposed, and the indistinguishability partition that reduces it. It answers for a
/// position without the reduced table, whose `order²` cells are the largest part of a
/// large candidate.
pub(crate) struct Built {
    partial: Partial,
    /// The generators the partition is stable under: the heaps' elements.
    gens: Vec<u32>,
    /// The partition, when it was needed to know the order is within the bound.
    partition: Option<Partition>,
    cycles: Vec<Option<(u32, u32)>>,
    refused: Vec<usize>,
}

impl Built {
    /// True when the candidate mispredicts `position` (heap sizes), as
    /// [`mispredicts`] on the reduced candidate would say.
    pub fn mispredicts(&self, position: &[u32]) -> bool {
        let partial = &self.partial;
        mispredicts(
            &partial.product(),
            &partial.p,
            &partial.element,
            &partial.options,
            position,
        )
    }

    /// The reduced candidate, within the memory budget.
    pub fn finish(self, budget: &Budget) -> Result<Candidate, Stop> {
        let partial = &self.partial;
        let product = partial.product();
        let partition = match self.partition {
            Some(partition) => partition,
            None => partition(&product, &partial.p, &self.gens, budget)?,
        };
        if budget.past_deadline() {
            return Err(Stop::Time);
        }
        budget.check_table(partition.order(), self.gens.len())?;
        let (q, qp, class) = partition.table(&product, &partial.p);
        let stage = Stage {
            element: partial.element.iter().map(|&x| class[x as usize]).collect(),
            options: partial
                .options
                .iter()
                .map(|s| classes_of(s, &class))
                .collect(),
            q,
            p: qp,
        };
        Ok(Candidate {
            stage,
            cycles: self.cycles,
            refused: self.refused,
        })
    }
}

/// Builds and reduces the candidate of a layout (heaps `1..kinds.len()`).
pub(crate) fn build(
    layout: &Layout,
    opts: &HeapOptions,
    budget: &Budget,
) -> Result<Candidate, Stop> {
    let built = build_unreduced(layout, opts, budget, &[])?;
    built.expect("no position to rule out").finish(budget)
}

/// Builds the candidate of a layout (heaps `1..kinds.len()`) up to its partition; `Err`
/// when a budget refuses it, the order bound included. `Ok(None)` when the candidate
/// mispredicts a position of `rule_out`, found as soon as the last heap's outcome rows
/// are in: the relations imposed at that stage only merge elements on the same side of
/// `P`, so they cannot change the answer, and are not imposed for nothing.
#[allow(clippy::needless_range_loop)] // heaps index several per-heap tables at once
pub(crate) fn build_unreduced(
    layout: &Layout,
    opts: &HeapOptions,
    budget: &Budget,
    rule_out: &[&[u32]],
) -> Result<Option<Built>, Stop> {
    let n = layout.kinds.len() - 1;
    let mut partial = Partial {
        base: Action::from_parts(0, Vec::new(), vec![(0, 0)]),
        cycles: Vec::new(),
        p: vec![false],
        element: vec![0],
        options: vec![Vec::new()],
        fresh: Vec::new(),
    };
    let mut cycle_of: Vec<Option<(u32, u32)>> = vec![None; n + 1];
    let mut refused = Vec::new();
    for h in 1..=n {
        // A candidate of many heaps over a large product takes seconds to build: the
        // deadline is checked heap by heap, not only between candidates.
        if budget.past_deadline() {
            return Err(Stop::Time);
        }
        let heap_options = opts.of_heap(h as u32);
        match &layout.kinds[h] {
            Kind::Word(word) => {
                let x = partial.eval(word);
                partial.element.push(x);
            }
            Kind::Fresh { min_r, d_mult } => {
                let product = partial.product();
                let reps = representatives(&product, &distinct_heaps(&partial.element, h as u32));
                let s_h = option_elements(&product, &partial.element, heap_options);
                let view = View {
                    element: &partial.element,
                    options: &partial.options,
                };
                // The candidate has `order × rows` elements: rows beyond the candidate
                // budget are not computed.
                let order = product.order() as u64;
                let cap = budget.max_candidate / order;
                if cap < u64::from(min_r.saturating_add(*d_mult)) {
                    return Err(Stop::Candidate(order * u64::from(min_r + d_mult)));
                }
                let ro = RepOptions::new(&product, &view, reps);
                let found = rows(
                    &product,
                    &partial.p,
                    &ro,
                    &s_h,
                    !heap_options.is_empty(),
                    (*min_r, *d_mult),
                    budget.max_rows.min(cap.min(u64::from(u32::MAX)) as u32),
                )
                .map_err(|_| {
                    if cap < u64::from(budget.max_rows) {
                        Stop::Candidate(order * (cap + 1))
                    } else {
                        Stop::Rows
                    }
                })?;
                let size = product.order() as u64 * u64::from(found.preperiod + found.period);
                if size > budget.max_candidate {
                    return Err(Stop::Candidate(size));
                }
                budget.check_product(size, partial.fresh.len() + 1)?;
                let old = product.order();
                let mut next = Vec::with_capacity(size as usize);
                for row in &found.rows {
                    next.extend_from_slice(&row[..old]);
                }
                partial.p = next;
                partial.cycles.push((found.preperiod, found.period));
                cycle_of[h] = Some((found.preperiod, found.period));
                let x = partial.product().cycle_generator(partial.cycles.len() - 1);
                partial.element.push(x);
                partial.fresh.push((h as u32, x));
                let due: Vec<(usize, &Relation)> = layout
                    .relations
                    .iter()
                    .enumerate()
                    .filter_map(|(i, r)| r.as_ref().map(|r| (i, r)))
                    .filter(|(_, r)| r.stage == h as u32)
                    .collect();
                if h == n && !rule_out.is_empty() {
                    let s_h = option_elements(&partial.product(), &partial.element, heap_options);
                    partial.options.push(s_h);
                    let product = partial.product();
                    let wrong = rule_out.iter().any(|w| {
                        mispredicts(&product, &partial.p, &partial.element, &partial.options, w)
                    });
                    partial.options.pop();
                    if wrong {
                        return Ok(None);
                    }
                }
                if !due.is_empty() {
                    partial.impose(&due, &mut refused);
                }
            }
        }
        let s_h = option_elements(&partial.product(), &partial.element, heap_options);
        partial.options.push(s_h);
    }
    let product = partial.product();
    let mut gens: Vec<u32> = partial.element[1..].to_vec();
    gens.sort_unstable();
    gens.dedup();
    budget.check_product(product.order() as u64, gens.len())?;
    // A product within the order bound cannot reduce past it: its partition waits until
    // the candidate survives the look at known failures.
    let partition = if product.order() <= budget.max_order as usize {
        None
    } else {
        Some(partition(&product, &partial.p, &gens, budget)?)
    };
    Ok(Some(Built {
        gens,
        partial,
        partition,
        cycles: cycle_of,
        refused,
    }))
}

/// The least mispredicted position of a candidate (heaps descending), `None` when the
/// verification theorem accepts it.
pub(crate) fn least_failure(stage: &Stage, budget: &Budget) -> Result<Option<Vec<u32>>, Stop> {
    match verify(&stage.q, &stage.p, &stage.generators(), budget, true)? {
        Verdict::Valid => Ok(None),
        Verdict::Invalid(w) => Ok(Some(w.unwrap_or_default())),
    }
}

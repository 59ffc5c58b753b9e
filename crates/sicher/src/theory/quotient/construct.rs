//! Heap-by-heap construction of the misère quotient, with the budget that bounds it.
//!
//! Stage `n` extends the quotient `Q_{n-1}` of heaps `1..n` by heap `n`:
//!
//! 1. **Extension.** Most heaps are an element `Q_{n-1}` already has: the first outcome
//!    row of `rep(y) + H_n` names it, and the closure of `verify`, extended by heap `n`
//!    alone, confirms it (`extend_within`). Otherwise `extend::rows` computes the
//!    outcome rows of `rep(y) + k·H_n` over `Q_{n-1}` and their period `(r, d)`; the
//!    candidate `Q_{n-1} × C(r, d)` is reduced by indistinguishability and checked by
//!    `verify`. When heap `n`'s element is a product of older heaps' elements the
//!    extension was conservative (the presentation keeps its generators); otherwise
//!    heap `n` is a new generator.
//! 2. **Recalibration.** The check fails when heap `n` tells apart positions that
//!    `Q_{n-1}` identifies (misère Kayles does this at heap 9: `5 + 5 ≡ 0` among heaps
//!    below 9 but not once 9 is there). The construction then looks for the relations
//!    of `Q_{n-1}` that heap `n` breaks, rebuilding candidates from `Q_{n-1}`'s
//!    presentation with some relations dropped or weakened ([`super::layout`],
//!    [`super::recalibrate`]).
//!
//! Every accepted quotient has passed the verification theorem for its heap range, so
//! it is exact there whatever route produced it. Budgets are counts, never times.

use super::extend::{representatives, rows, HeapView, RepOptions};
use super::monoid::{partition, Monoid, Product, Table};
use super::options::HeapOptions;
use super::recalibrate::recalibrate;
use super::verify::{Closure, Generator, TooManyNodes};

/// Deterministic limits on a construction; exceeding one stops it with
/// [`super::Stop`], keeping the quotient of the heaps finished so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Largest order a quotient may reach.
    pub max_order: u32,
    /// Largest unreduced candidate (product of cycles) a recalibration may build.
    pub max_candidate: u64,
    /// Largest number of transition pairs one verification may visit.
    pub max_pairs: u64,
    /// Largest number of candidates rebuilt while recalibrating one heap.
    pub max_rebuilds: u32,
    /// Longest preperiod plus period looked for in one heap's rows.
    pub max_rows: u32,
    /// Largest memory, in bytes, that the construction may take: the candidate being
    /// built (its product, table and verification, estimated before their large
    /// allocations) together with [`Budget::held_memory`].
    pub max_memory: u64,
    /// Bytes already held when a candidate is estimated: the accepted quotient with its
    /// verified closure, and the candidates a recalibration keeps while it builds the
    /// next. The construction counts these itself; a fresh budget holds 0.
    pub held_memory: u64,
    /// When to stop, wherever the construction is (checked before each heap and each
    /// rebuild); `None`, the default, keeps the construction deterministic.
    pub deadline: Option<std::time::Instant>,
    /// Stops the construction as the deadline does, once set from another thread (a
    /// search that no longer needs the quotient it was building beside it).
    pub cancel: Option<Cancel>,
}

impl Budget {
    /// True once the deadline, if any, has passed or the construction was cancelled.
    pub fn past_deadline(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| std::time::Instant::now() >= deadline)
            || self.cancel.as_ref().is_some_and(Cancel::is_set)
    }

    /// Refuses work estimated to take `bytes` when that and what is held already come
    /// to more than `max_memory` (the stop gives the total).
    pub(crate) fn check_memory(&self, bytes: u64) -> Result<(), Stop> {
        let total = bytes.saturating_add(self.held_memory);
        if total > self.max_memory {
            return Err(Stop::Memory(total));
        }
        Ok(())
    }

    /// This budget while `bytes` more are held (a candidate kept alive meanwhile).
    pub(crate) fn holding(&self, bytes: u64) -> Budget {
        Budget {
            held_memory: self.held_memory.saturating_add(bytes),
            ..self.clone()
        }
    }

    /// Refuses a reduced quotient whose table and verification (with `generators` heap
    /// generators) would take more than `max_memory` bytes.
    pub(crate) fn check_table(&self, order: usize, generators: usize) -> Result<(), Stop> {
        self.check_memory(table_bytes(order) + verification_bytes(order, generators))
    }

    /// Refuses a product of `elements` elements with `generators` generators whose
    /// construction (rows, congruence, reduction) would exceed `max_memory` bytes.
    pub(crate) fn check_product(&self, elements: u64, generators: usize) -> Result<(), Stop> {
        // Per element: outcome bits, union-find, classes and representatives (about 40
        // bytes), and one step per generator in the reduction's refinement.
        self.check_memory(elements.saturating_mul(40 + 8 * generators as u64))
    }
}

/// Bytes of a reduced quotient of `order` elements: its table (4 bytes a cell) and the
/// verification's bit rows of `P` (one bit a cell).
pub(crate) fn table_bytes(order: usize) -> u64 {
    let order = order as u64;
    order * order * 4 + order * order.div_ceil(64) * 8
}

/// Bytes a verification of a quotient of `order` elements adds to its table and bit
/// rows, at most: per heap generator and element, where its term set lies and the set.
pub(crate) fn verification_bytes(order: usize, generators: usize) -> u64 {
    let order = order as u64;
    generators as u64 * order * (4 + order.div_ceil(64) * 8)
}

/// A flag another thread sets to stop a construction; budgets holding the same flag
/// are equal.
#[derive(Clone, Debug, Default)]
pub struct Cancel(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Cancel {
    /// Stops every construction holding this flag at its next check.
    pub fn set(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// True once set.
    pub fn is_set(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl PartialEq for Cancel {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_order: 10_000,
            max_candidate: 1 << 20,
            max_pairs: 2_000_000,
            max_rebuilds: 5000,
            max_rows: 256,
            max_memory: 2048 << 20,
            held_memory: 0,
            deadline: None,
            cancel: None,
        }
    }
}

/// Why a construction stopped before its last heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The quotient would exceed `max_order` (the order reached is given).
    Order(u64),
    /// A recalibration candidate would exceed `max_candidate`.
    Candidate(u64),
    /// A verification visited more than `max_pairs` transition pairs.
    Pairs,
    /// Recalibration used up `max_rebuilds`.
    Rebuilds,
    /// A heap's rows showed no period within `max_rows`.
    Rows,
    /// A candidate, with what the construction held meanwhile, would need more memory
    /// than `max_memory` (the bytes estimated).
    Memory(u64),
    /// No single change of the layout moved the least failure further on.
    Stuck,
    /// The deadline passed.
    Time,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Order(order) => write!(f, "the quotient would reach order {order}"),
            Stop::Candidate(size) => {
                write!(f, "a recalibration candidate would have {size} elements")
            }
            Stop::Pairs => f.write_str("a verification visited too many transition pairs"),
            Stop::Memory(bytes) => write!(
                f,
                "a candidate would need about {} MiB with what the construction holds, more than its memory bound",
                bytes.div_ceil(1 << 20)
            ),
            Stop::Rebuilds => f.write_str("recalibration used up its rebuilds"),
            Stop::Rows => f.write_str("a heap's rows showed no period in the rows allowed"),
            Stop::Stuck => f.write_str("no change of the layout moved the first failure on"),
            Stop::Time => f.write_str("it ran past its time limit"),
        }
    }
}

/// The accepted quotient of heaps `1..=n`.
#[derive(Clone)]
pub(crate) struct Stage {
    pub q: Table,
    pub p: Vec<bool>,
    /// `element[h]` for `h` in `0..=n` (`element[0]` is the identity).
    pub element: Vec<u32>,
    /// `options[h]`: elements of heap `h`'s options.
    pub options: Vec<Vec<u32>>,
}

impl Stage {
    fn first() -> Self {
        let q = Table::trivial();
        Stage {
            element: vec![q.identity()],
            options: vec![Vec::new()],
            p: vec![false],
            q,
        }
    }

    pub fn n(&self) -> u32 {
        self.element.len() as u32 - 1
    }

    pub fn generators(&self) -> Vec<Generator> {
        (1..self.element.len())
            .map(|h| Generator {
                heap: h as u32,
                element: self.element[h],
                options: self.options[h].clone(),
            })
            .collect()
    }
}

/// Heaps as a stage (or a candidate being built) sees them.
pub(crate) struct View<'a> {
    pub element: &'a [u32],
    pub options: &'a [Vec<u32>],
}

impl HeapView for View<'_> {
    fn element(&self, h: u32) -> u32 {
        self.element[h as usize]
    }
    fn option_elements(&self, h: u32) -> &[u32] {
        &self.options[h as usize]
    }
}

/// The options of `stage`'s representatives, computed into `cache` on first use.
fn rep_options_of<'a>(stage: &Stage, cache: &'a mut Option<RepOptions>) -> &'a RepOptions {
    cache.get_or_insert_with(|| {
        let reps = representatives(&stage.q, &distinct_heaps(&stage.element, stage.n() + 1));
        let view = View {
            element: &stage.element,
            options: &stage.options,
        };
        RepOptions::new(&stage.q, &view, reps)
    })
}

/// One distinct element per heap below `n`, with the smallest heap that has it.
pub(crate) fn distinct_heaps(element: &[u32], below: u32) -> Vec<(u32, u32)> {
    let mut seen = std::collections::HashSet::new();
    (1..below)
        .filter(|&h| seen.insert(element[h as usize]))
        .map(|h| (h, element[h as usize]))
        .collect()
}

/// The distinct elements of a heap's options (each a list of parts).
pub(crate) fn option_elements<M: Monoid>(m: &M, element: &[u32], options: &[Vec<u32>]) -> Vec<u32> {
    let mut out: Vec<u32> = options
        .iter()
        .map(|parts| {
            parts
                .iter()
                .fold(m.identity(), |acc, &h| m.mul(acc, element[h as usize]))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The distinct classes of `elements` under a reduction's `class` map, ascending (an
/// option set carried into the reduced quotient).
pub(crate) fn classes_of(elements: &[u32], class: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = elements.iter().map(|&x| class[x as usize]).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The construction's progress: accepted stage and what it recorded.
pub(crate) struct Builder {
    pub stage: Stage,
    /// The verified transition closure of `stage`.
    closure: Closure<'static>,
    /// The options of `stage`'s representatives, kept while heaps extend it
    /// conservatively (`None`: not computed for this stage yet).
    rep_options: Option<RepOptions>,
    budget: Budget,
    /// Heaps whose stage needed recalibration.
    pub recalibrated: Vec<u32>,
}

impl Builder {
    pub fn new(budget: Budget) -> Self {
        let stage = Stage::first();
        Builder {
            closure: Closure::new(&stage.q, &stage.p),
            rep_options: None,
            stage,
            budget,
            recalibrated: Vec::new(),
        }
    }

    /// Adds heap `n = stage.n() + 1`; true when the table changed (so the presentation
    /// may have changed).
    pub fn step(&mut self, opts: &HeapOptions) -> Result<bool, Stop> {
        let n = self.stage.n() + 1;
        // Heap n's options as elements of the current stage, and whether it has a move.
        let s_n = option_elements(&self.stage.q, &self.stage.element, opts.of_heap(n));
        let has_move = !opts.of_heap(n).is_empty();
        if self.extend_within(n, &s_n, has_move)? {
            return Ok(false);
        }
        // The accepted stage and its closure (a copy of the table, its bit rows and term
        // sets) stay alive while the candidates of heap `n` are built.
        let order = self.stage.q.order();
        let held = self
            .budget
            .holding(2 * table_bytes(order) + verification_bytes(order, self.stage.n() as usize));
        if let Some(stage) = self.extend(&s_n, has_move, &held)? {
            self.accept(stage);
            return Ok(true);
        }
        self.recalibrated.push(n);
        let stage = recalibrate(&self.stage, opts, &held)?;
        let mut closure = Closure::new(&stage.q, &stage.p);
        let valid = closure
            .add(&stage.generators(), self.budget.max_pairs)
            .map_err(|TooManyNodes| Stop::Pairs)?;
        debug_assert!(valid, "recalibration accepts only verified candidates");
        self.closure = closure;
        self.accept(stage);
        Ok(true)
    }

    /// Stage 1, first try: heap `n` is an element `Q_{n-1}` already has. The first row
    /// of `rep(y) + H_n` must be that element's row of `P`; as `Q_{n-1}` is reduced, at
    /// most one element has it, and the closure extended by heap `n` decides. On success
    /// the stage keeps its table, numbering and representatives (a word with heap `n`
    /// comes after every word of smaller heaps).
    fn extend_within(&mut self, n: u32, s_n: &[u32], has_move: bool) -> Result<bool, Stop> {
        let stage = &self.stage;
        let rep_options = rep_options_of(stage, &mut self.rep_options);
        let q = &stage.q;
        let shift = rep_options.shift(q, s_n);
        let first = rep_options.next_row(&stage.p, &shift, has_move);
        let order = &rep_options.reps.order;
        let Some(x) = order.iter().copied().find(|&x| {
            order
                .iter()
                .all(|&y| first[y as usize] == stage.p[q.mul(y, x) as usize])
        }) else {
            return Ok(false);
        };
        let generator = Generator {
            heap: n,
            element: x,
            options: s_n.to_vec(),
        };
        let valid = self
            .closure
            .add(&[generator], self.budget.max_pairs)
            .map_err(|TooManyNodes| Stop::Pairs)?;
        if !valid {
            // The closure now holds a mispredicted pair: `extend` and `recalibrate`, which
            // come next, build their own.
            return Ok(false);
        }
        self.stage.element.push(x);
        self.stage.options.push(s_n.to_vec());
        Ok(true)
    }

    /// Stage 1 of the module doc: the conservative route over the reduced quotient,
    /// when heap `n` is not an element `Q_{n-1}` has.
    fn extend(
        &mut self,
        s_n: &[u32],
        has_move: bool,
        budget: &Budget,
    ) -> Result<Option<Stage>, Stop> {
        let old = &self.stage;
        let q = &old.q;
        let found = rows(
            q,
            &old.p,
            rep_options_of(old, &mut self.rep_options),
            s_n,
            has_move,
            (0, 1),
            budget.max_rows,
        )
        .map_err(|_| Stop::Rows)?;
        let cycle = (found.preperiod, found.period);
        let product = Product::new(q, &[cycle]);
        let mut p = Vec::with_capacity(product.order());
        for row in &found.rows {
            p.extend_from_slice(row);
        }
        let x_n = product.cycle_generator(0);
        let mut gens: Vec<u32> = old.element[1..].to_vec();
        gens.push(x_n);
        gens.sort_unstable();
        gens.dedup();
        budget.check_product(product.order() as u64, gens.len())?;
        let part = partition(&product, &p, &gens, budget.max_order as usize)
            .map_err(|order| Stop::Order(order as u64))?;
        // The accepted candidate's closure keeps a copy of its table.
        budget.check_table(part.order(), gens.len())?;
        budget
            .holding(table_bytes(part.order()))
            .check_table(part.order(), gens.len())?;
        let (q2, p2, class) = part.table(&product, &p);
        if q2.order() == q.order() {
            // `Q_{n-1}` embeds in the reduced candidate (its elements stay told apart),
            // so equal orders mean heap `n` is an element `Q_{n-1}` has: the one
            // `extend_within` tried, whose closure failed.
            return Ok(None);
        }
        let mut element: Vec<u32> = old.element.iter().map(|&x| class[x as usize]).collect();
        element.push(class[x_n as usize]);
        let mut options: Vec<Vec<u32>> =
            old.options.iter().map(|s| classes_of(s, &class)).collect();
        options.push(classes_of(s_n, &class));
        let stage = Stage {
            q: q2,
            p: p2,
            element,
            options,
        };
        let mut closure = Closure::new(&stage.q, &stage.p);
        let valid = closure
            .add(&stage.generators(), budget.max_pairs)
            .map_err(|TooManyNodes| Stop::Pairs)?;
        if !valid {
            return Ok(None);
        }
        self.closure = closure;
        Ok(Some(stage))
    }

    /// Takes the new stage.
    fn accept(&mut self, stage: Stage) {
        self.stage = stage;
        self.rep_options = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_memory_counts_against_the_bound() {
        let budget = Budget {
            max_memory: 1000,
            ..Budget::default()
        };
        assert_eq!(budget.check_memory(1000), Ok(()));
        let holding = budget.holding(600).holding(300);
        assert_eq!(holding.held_memory, 900);
        assert_eq!(holding.check_memory(100), Ok(()));
        // The stop gives the total, which is over the bound.
        assert_eq!(holding.check_memory(101), Err(Stop::Memory(1001)));
        assert_eq!(
            budget.holding(u64::MAX).check_memory(1),
            Err(Stop::Memory(u64::MAX))
        );
        assert_eq!(table_bytes(64), 64 * 64 * 4 + 64 * 8);
    }
}

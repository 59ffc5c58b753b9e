//! Heap-by-heap construction of the misère quotient, within a [`Budget`].
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

use super::budget::{table_bytes, verification_bytes, Budget, Stop};
use super::extend::{representatives, rows, RepOptions};
use super::monoid::{partition, Monoid, Product};
use super::options::HeapOptions;
use super::recalibrate::recalibrate;
use super::stage::{classes_of, distinct_heaps, option_elements, Stage, View};
use super::verify::{Closure, Generator};

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
        let valid = closure.add(&stage.generators(), &self.budget)?;
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
        let valid = self.closure.add(&[generator], &self.budget)?;
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
        let part = partition(&product, &p, &gens, budget)?;
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
        let valid = closure.add(&stage.generators(), budget)?;
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

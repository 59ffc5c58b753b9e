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
//!    below 9 but not once 9 is there). The construction then rebuilds the candidate
//!    from a *layout* that keeps every earlier identification explicit: each heap is
//!    either a fresh generator with its own cycle `x^(r+d) = x^r` or a word in earlier
//!    fresh generators, and the candidate is the product of the cycles, with outcomes
//!    from the same rows, reduced and verified. While it fails, the identification to
//!    drop is found by trying each relation that involves a heap of the least
//!    mispredicted position (lengthening a cycle's preperiod or period, or freeing a
//!    heap from its word) and keeping the change whose least failure lies furthest on
//!    in colexicographic order, as MisereSolver's candidates do (their least failures
//!    increase strictly).
//!
//! Every accepted quotient has passed the verification theorem for its heap range, so
//! it is exact there whatever route produced it. Budgets are counts, never times.

use super::extend::{representatives, rows, HeapView, RepOptions};
use super::monoid::{reachable, reduce, Monoid, Product, Table};
use super::options::HeapOptions;
use super::verify::{verify, Closure, Generator, TooManyNodes, Verdict};

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
    /// When to stop, wherever the construction is (checked before each heap and each
    /// rebuild); `None`, the default, keeps the construction deterministic.
    pub deadline: Option<std::time::Instant>,
}

impl Budget {
    /// True once the deadline, if any, has passed.
    pub fn past_deadline(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| std::time::Instant::now() >= deadline)
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_order: 10_000,
            max_candidate: 1 << 20,
            max_pairs: 2_000_000,
            max_rebuilds: 400,
            max_rows: 256,
            deadline: None,
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
            Stop::Rebuilds => f.write_str("recalibration used up its rebuilds"),
            Stop::Rows => f.write_str("a heap's rows showed no period in the rows allowed"),
            Stop::Stuck => f.write_str("no change of the layout moved the first failure on"),
            Stop::Time => f.write_str("it ran past its time limit"),
        }
    }
}

/// How heap `h` enters the recalibration layout.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A generator of its own; its cycle comes from its rows, at least this long.
    Fresh { min_r: u32, d_mult: u32 },
    /// A product of fresh generators: `(fresh heap, exponent)`.
    Word(Vec<(u32, u64)>),
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

    fn generators(&self) -> Vec<Generator> {
        (1..self.element.len())
            .map(|h| Generator {
                heap: h as u32,
                element: self.element[h],
                options: self.options[h].clone(),
            })
            .collect()
    }
}

struct View<'a> {
    element: &'a [u32],
    options: &'a [Vec<u32>],
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
fn distinct_heaps(element: &[u32], below: u32) -> Vec<(u32, u32)> {
    let mut seen = std::collections::HashSet::new();
    (1..below)
        .filter(|&h| seen.insert(element[h as usize]))
        .map(|h| (h, element[h as usize]))
        .collect()
}

fn option_elements<M: Monoid>(m: &M, element: &[u32], options: &[Vec<u32>]) -> Vec<u32> {
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

/// The construction's progress: accepted stage, layout, and what it recorded.
pub(crate) struct Builder {
    pub stage: Stage,
    /// The verified transition closure of `stage`.
    closure: Closure,
    /// The options of `stage`'s representatives, kept while heaps extend it
    /// conservatively (`None`: not computed for this stage yet).
    rep_options: Option<RepOptions>,
    kinds: Vec<Kind>,
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
            kinds: vec![Kind::Word(Vec::new())],
            budget,
            recalibrated: Vec::new(),
        }
    }

    /// Adds heap `n = stage.n() + 1`; true when the table changed or heap `n` is a new
    /// generator (so the presentation may have changed).
    pub fn step(&mut self, opts: &HeapOptions) -> Result<bool, Stop> {
        let n = self.stage.n() + 1;
        // Heap n's options as elements of the current stage, and whether it has a move.
        let s_n = option_elements(&self.stage.q, &self.stage.element, opts.of_heap(n));
        let has_move = !opts.of_heap(n).is_empty();
        if let Some(word) = self.extend_within(n, &s_n, has_move)? {
            self.kinds.push(Kind::Word(word));
            return Ok(false);
        }
        if let Some(stage) = self.extend(&s_n, has_move)? {
            self.accept(stage, None);
            return Ok(true);
        }
        self.recalibrated.push(n);
        let (stage, kinds) = self.recalibrate(n, opts)?;
        let mut closure = Closure::new(&stage.q, &stage.p);
        let valid = closure
            .add(&stage.generators(), self.budget.max_pairs)
            .map_err(|TooManyNodes| Stop::Pairs)?;
        debug_assert!(valid, "recalibration accepts only verified candidates");
        self.closure = closure;
        self.accept(stage, Some(kinds));
        Ok(true)
    }

    /// Stage 1, first try: heap `n` is an element `Q_{n-1}` already has. The first row
    /// of `rep(y) + H_n` must be that element's row of `P`; as `Q_{n-1}` is reduced, at
    /// most one element has it, and the closure extended by heap `n` decides. On success
    /// the stage keeps its table, numbering and representatives (a word with heap `n`
    /// comes after every word of smaller heaps), and the heap's word in the fresh
    /// generators is returned.
    fn extend_within(
        &mut self,
        n: u32,
        s_n: &[u32],
        has_move: bool,
    ) -> Result<Option<Vec<(u32, u64)>>, Stop> {
        let stage = &self.stage;
        let rep_options = rep_options_of(stage, &mut self.rep_options);
        let q = &stage.q;
        let first = rep_options.next_row(q, &stage.p, s_n, has_move);
        let order = &rep_options.reps.order;
        let Some(x) = order.iter().copied().find(|&x| {
            order
                .iter()
                .all(|&y| first[y as usize] == stage.p[q.mul(y, x) as usize])
        }) else {
            return Ok(None);
        };
        let word = Self::word_of(
            &self.kinds,
            rep_options.reps.word[x as usize]
                .as_deref()
                .unwrap_or_default(),
        );
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
            return Ok(None);
        }
        self.stage.element.push(x);
        self.stage.options.push(s_n.to_vec());
        Ok(Some(word))
    }

    /// Stage 1 of the module doc: the conservative route over the reduced quotient,
    /// when heap `n` is not an element `Q_{n-1}` has.
    fn extend(&mut self, s_n: &[u32], has_move: bool) -> Result<Option<Stage>, Stop> {
        let old = &self.stage;
        let q = &old.q;
        let found = rows(
            q,
            &old.p,
            rep_options_of(old, &mut self.rep_options),
            s_n,
            has_move,
            (0, 1),
            self.budget.max_rows,
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
        let (q2, p2, class) = reduce(&product, &p, &gens, self.budget.max_order as usize)
            .map_err(|order| Stop::Order(order as u64))?;
        if q2.order() == q.order() {
            // `Q_{n-1}` embeds in the reduced candidate (its elements stay told apart),
            // so equal orders mean heap `n` is an element `Q_{n-1}` has: the one
            // `extend_within` tried, whose closure failed.
            return Ok(None);
        }
        let mut element: Vec<u32> = old.element.iter().map(|&x| class[x as usize]).collect();
        element.push(class[x_n as usize]);
        let mut options: Vec<Vec<u32>> = old
            .options
            .iter()
            .map(|s| {
                let mut v: Vec<u32> = s.iter().map(|&x| class[x as usize]).collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect();
        let mut s_new: Vec<u32> = s_n.iter().map(|&x| class[x as usize]).collect();
        s_new.sort_unstable();
        s_new.dedup();
        options.push(s_new);
        let stage = Stage {
            q: q2,
            p: p2,
            element,
            options,
        };
        let mut closure = Closure::new(&stage.q, &stage.p);
        let valid = closure
            .add(&stage.generators(), self.budget.max_pairs)
            .map_err(|TooManyNodes| Stop::Pairs)?;
        if !valid {
            return Ok(None);
        }
        self.closure = closure;
        Ok(Some(stage))
    }

    /// Stage 2 of the module doc.
    fn recalibrate(&self, n: u32, opts: &HeapOptions) -> Result<(Stage, Vec<Kind>), Stop> {
        let mut kinds = self.kinds.clone();
        kinds.push(Kind::Fresh {
            min_r: 0,
            d_mult: 1,
        });
        let mut rebuilds = 0u32;
        let mut attempt = self.build(&kinds, opts)?;
        loop {
            let failure = match attempt.verdict {
                None => return Ok((attempt.stage, kinds)),
                Some(ref w) => w.clone(),
            };
            let near = self.suspects(&kinds, &failure);
            let far: Vec<u32> = (1..=n).rev().filter(|h| !near.contains(h)).collect();
            let mut best: Option<(Vec<u32>, Vec<Kind>, Attempt)> = None;
            // One relation at a time, near suspects first; then pairs of near suspects.
            let singles = |tier: &[u32]| -> Vec<Vec<Kind>> {
                tier.iter()
                    .flat_map(|&h| self.changes(&kinds, &attempt, h))
                    .collect()
            };
            let pairs = || -> Vec<Vec<Kind>> {
                let mut out = Vec::new();
                for (i, &h) in near.iter().enumerate() {
                    for first in self.changes(&kinds, &attempt, h) {
                        for &g in &near[i + 1..] {
                            out.extend(self.changes(&first, &attempt, g));
                        }
                    }
                }
                out
            };
            for tier in 0..3 {
                let layouts = match tier {
                    0 => singles(&near),
                    1 => singles(&far),
                    _ => pairs(),
                };
                for changed in layouts {
                    rebuilds += 1;
                    if rebuilds > self.budget.max_rebuilds {
                        return Err(Stop::Rebuilds);
                    }
                    if self.budget.past_deadline() {
                        return Err(Stop::Time);
                    }
                    let next = match self.build(&changed, opts) {
                        Ok(next) => next,
                        // A change that blows a budget is just not taken.
                        Err(Stop::Candidate(_) | Stop::Order(_) | Stop::Pairs) => continue,
                        Err(stop) => return Err(stop),
                    };
                    match next.verdict {
                        None => return Ok((next.stage, changed)),
                        Some(ref w) => {
                            let better =
                                *w > failure && best.as_ref().is_none_or(|(b, _, _)| w > b);
                            if better {
                                best = Some((w.clone(), changed, next));
                            }
                        }
                    }
                }
                if best.is_some() {
                    break;
                }
            }
            match best {
                Some((_, changed, next)) => {
                    kinds = changed;
                    attempt = next;
                }
                None => return Err(Stop::Stuck),
            }
        }
    }

    /// Heaps whose relations the least failure used: its heaps, and the fresh heaps in
    /// the words of its word heaps, largest first.
    fn suspects(&self, kinds: &[Kind], failure: &[u32]) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        for &h in failure {
            if !out.contains(&h) {
                out.push(h);
            }
            if let Kind::Word(word) = &kinds[h as usize] {
                for &(f, _) in word {
                    if !out.contains(&f) {
                        out.push(f);
                    }
                }
            }
        }
        out.sort_unstable_by(|a, b| b.cmp(a));
        out
    }

    /// Layouts one relation away from `kinds` at heap `h`.
    fn changes(&self, kinds: &[Kind], attempt: &Attempt, h: u32) -> Vec<Vec<Kind>> {
        let mut out = Vec::new();
        match &kinds[h as usize] {
            Kind::Fresh { min_r, d_mult } => {
                let (r, _) = attempt.cycles[h as usize].unwrap_or((*min_r, 1));
                for (min_r, d_mult) in [(r + 1, *d_mult), (*min_r, d_mult * 2), (r + 2, *d_mult)] {
                    let mut k = kinds.to_vec();
                    k[h as usize] = Kind::Fresh { min_r, d_mult };
                    out.push(k);
                }
            }
            Kind::Word(_) => {
                for (min_r, d_mult) in [(0, 1), (1, 1), (2, 1), (0, 2)] {
                    let mut k = kinds.to_vec();
                    k[h as usize] = Kind::Fresh { min_r, d_mult };
                    out.push(k);
                }
            }
        }
        out
    }

    /// Builds, reduces and verifies the candidate of a layout (heaps `1..kinds.len()`).
    fn build(&self, kinds: &[Kind], opts: &HeapOptions) -> Result<Attempt, Stop> {
        let n = kinds.len() - 1;
        let trivial = Table::trivial();
        let mut cycles: Vec<(u32, u32)> = Vec::new();
        let mut fresh: Vec<u32> = Vec::new();
        let mut cycle_of: Vec<Option<(u32, u32)>> = vec![None; n + 1];
        let mut p = vec![false];
        let mut element = vec![0u32; n + 1];
        let mut options: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
        for h in 1..=n {
            match &kinds[h] {
                Kind::Word(word) => {
                    let product = Product::new(&trivial, &cycles);
                    let mut exps = vec![0u64; cycles.len()];
                    for &(f, e) in word {
                        let j = fresh
                            .iter()
                            .position(|&g| g == f)
                            .expect("words use earlier fresh heaps");
                        exps[j] += e;
                    }
                    element[h] = product.element(0, &exps);
                }
                Kind::Fresh { min_r, d_mult } => {
                    let product = Product::new(&trivial, &cycles);
                    let reps = representatives(&product, &distinct_heaps(&element, h as u32));
                    let s_h = option_elements(&product, &element, opts.of_heap(h as u32));
                    let view = View {
                        element: &element,
                        options: &options,
                    };
                    let found = rows(
                        &product,
                        &p,
                        &RepOptions::new(&product, &view, reps),
                        &s_h,
                        !opts.of_heap(h as u32).is_empty(),
                        (*min_r, *d_mult),
                        self.budget.max_rows,
                    )
                    .map_err(|_| Stop::Rows)?;
                    let size = product.order() as u64 * (found.preperiod + found.period) as u64;
                    if size > self.budget.max_candidate {
                        return Err(Stop::Candidate(size));
                    }
                    let old = product.order();
                    let mut next = Vec::with_capacity(size as usize);
                    for row in &found.rows {
                        next.extend_from_slice(&row[..old]);
                    }
                    p = next;
                    cycles.push((found.preperiod, found.period));
                    cycle_of[h] = Some((found.preperiod, found.period));
                    fresh.push(h as u32);
                    element[h] = Product::new(&trivial, &cycles).cycle_generator(cycles.len() - 1);
                }
            }
            let product = Product::new(&trivial, &cycles);
            options[h] = option_elements(&product, &element, opts.of_heap(h as u32));
        }
        let product = Product::new(&trivial, &cycles);
        let mut gens: Vec<u32> = element[1..].to_vec();
        gens.sort_unstable();
        gens.dedup();
        let (q, qp, class) = reduce(&product, &p, &gens, self.budget.max_order as usize)
            .map_err(|order| Stop::Order(order as u64))?;
        let stage = Stage {
            element: element.iter().map(|&x| class[x as usize]).collect(),
            options: options
                .iter()
                .map(|s| {
                    let mut v: Vec<u32> = s.iter().map(|&x| class[x as usize]).collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                })
                .collect(),
            q,
            p: qp,
        };
        let verdict = match verify(
            &stage.q,
            &stage.p,
            &stage.generators(),
            self.budget.max_pairs,
            true,
        ) {
            Ok(Verdict::Valid) => None,
            Ok(Verdict::Invalid(w)) => Some(w.unwrap_or_default()),
            Err(TooManyNodes) => return Err(Stop::Pairs),
        };
        Ok(Attempt {
            stage,
            verdict,
            cycles: cycle_of,
        })
    }

    /// Takes the new stage and records how heap `n` enters future layouts.
    fn accept(&mut self, stage: Stage, kinds: Option<Vec<Kind>>) {
        let n = stage.n();
        if let Some(kinds) = kinds {
            self.kinds = kinds;
            self.kinds.truncate(n as usize);
        }
        let older: Vec<(u32, u32)> = distinct_heaps(&stage.element, n);
        let gens: Vec<u32> = older.iter().map(|&(_, e)| e).collect();
        let x_n = stage.element[n as usize];
        let kind = if reachable(&stage.q, &gens).contains(&x_n) {
            let reps = representatives(&stage.q, &older);
            Kind::Word(Self::word_of(
                &self.kinds,
                reps.word[x_n as usize].as_deref().unwrap_or_default(),
            ))
        } else {
            Kind::Fresh {
                min_r: 0,
                d_mult: 1,
            }
        };
        self.kinds.push(kind);
        self.stage = stage;
        self.rep_options = None;
    }

    /// A sum of heaps as exponents of the fresh heaps of the layout `kinds`.
    fn word_of(kinds: &[Kind], heaps: &[u32]) -> Vec<(u32, u64)> {
        let mut sum: Vec<(u32, u64)> = Vec::new();
        for &h in heaps {
            let parts: Vec<(u32, u64)> = match &kinds[h as usize] {
                Kind::Fresh { .. } => vec![(h, 1)],
                Kind::Word(w) => w.clone(),
            };
            for (f, e) in parts {
                match sum.iter_mut().find(|(g, _)| *g == f) {
                    Some((_, total)) => *total += e,
                    None => sum.push((f, e)),
                }
            }
        }
        sum
    }
}

/// A rebuilt candidate: its reduced stage, its least failure (`None` when valid), and
/// the cycle each fresh heap got.
struct Attempt {
    stage: Stage,
    verdict: Option<Vec<u32>>,
    cycles: Vec<Option<(u32, u32)>>,
}

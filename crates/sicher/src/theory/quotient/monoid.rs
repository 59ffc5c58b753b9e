//! Finite commutative monoids: full multiplication tables, products of a table with
//! cyclic monoids, and the reduction of a bipartite monoid `(M, P)` to its
//! indistinguishability quotient (`x ~ y` iff `xz ∈ P ⇔ yz ∈ P` for every `z`).

use hashbrown::HashMap;

use super::budget::{Budget, Stop};

/// What the construction needs from a finite commutative monoid.
pub(crate) trait Monoid {
    /// Number of elements; elements are `0..order`.
    fn order(&self) -> usize;
    /// The identity element.
    fn identity(&self) -> u32;
    /// The product of two elements.
    fn mul(&self, a: u32, b: u32) -> u32;
}

/// A finite commutative monoid stored as its full multiplication table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Table {
    order: usize,
    identity: u32,
    cells: Vec<u32>,
}

impl Table {
    /// The one-element monoid.
    pub fn trivial() -> Self {
        Table {
            order: 1,
            identity: 0,
            cells: vec![0],
        }
    }

    /// A table from its parts (`cells[a * order + b]` is `ab`).
    pub fn from_parts(order: usize, identity: u32, cells: Vec<u32>) -> Self {
        debug_assert_eq!(cells.len(), order * order);
        Table {
            order,
            identity,
            cells,
        }
    }

    /// The cells, row by row.
    pub fn cells(&self) -> &[u32] {
        &self.cells
    }
}

impl Monoid for Table {
    fn order(&self) -> usize {
        self.order
    }
    fn identity(&self) -> u32 {
        self.identity
    }
    #[inline]
    fn mul(&self, a: u32, b: u32) -> u32 {
        self.cells[a as usize * self.order + b as usize]
    }
}

/// A finite commutative monoid given by its generators' action: element 0 is the
/// identity and every other element was first reached from an earlier one by one
/// generator. A product follows the second factor's path from the identity, so it costs
/// the depth of that element instead of a table of `order²` cells: what a candidate
/// under construction needs, whose intermediate monoids can have thousands of elements.
pub(crate) struct Action {
    generators: usize,
    /// `act[x * generators + g]` is `x` times generator `g`.
    act: Vec<u32>,
    /// How each element was first reached: (earlier element, generator index).
    parent: Vec<(u32, u32)>,
}

impl Action {
    /// An action from its parts (`parent[0]` is ignored: element 0 is the identity).
    pub fn from_parts(generators: usize, act: Vec<u32>, parent: Vec<(u32, u32)>) -> Self {
        debug_assert_eq!(act.len(), generators * parent.len());
        Action {
            generators,
            act,
            parent,
        }
    }
}

impl Monoid for Action {
    fn order(&self) -> usize {
        self.parent.len()
    }
    fn identity(&self) -> u32 {
        0
    }
    #[inline]
    fn mul(&self, a: u32, b: u32) -> u32 {
        // Elements are numbered breadth-first, so the smaller one has the shorter path
        // (the monoid is commutative).
        let (mut x, mut y) = if a < b { (b, a) } else { (a, b) };
        while y != 0 {
            let (earlier, g) = self.parent[y as usize];
            x = self.act[x as usize * self.generators + g as usize];
            y = earlier;
        }
        x
    }
}

/// `base × C(r_1, d_1) × ... × C(r_k, d_k)`, where `C(r, d)` is the cyclic monoid
/// `{1, x, ..., x^(r+d-1)}` with `x^(r+d) = x^r`. An element is `b + |base| · digits`
/// with the digits in mixed radix, the last cycle most significant, so extending by one
/// more cycle keeps every old element's number.
pub(crate) struct Product<'a, B: Monoid = Table> {
    base: &'a B,
    cycles: Vec<(u32, u32)>,
    /// `strides[j]` is the weight of digit `j` (already multiplied by `|base|`).
    strides: Vec<usize>,
    /// `generators[j]` is the generator of cycle `j`.
    generators: Vec<u32>,
    order: usize,
}

impl<'a, B: Monoid> Product<'a, B> {
    /// The product of `base` with the given cycles `(r, d)`.
    pub fn new(base: &'a B, cycles: &[(u32, u32)]) -> Self {
        let mut strides = Vec::with_capacity(cycles.len());
        let mut order = base.order();
        for &(r, d) in cycles {
            strides.push(order);
            order = order.saturating_mul((r + d) as usize);
        }
        let generators = cycles
            .iter()
            .zip(&strides)
            .map(|(&(r, d), &stride)| {
                (base.identity() as usize + normalise(1, r, d) as usize * stride) as u32
            })
            .collect();
        Product {
            base,
            cycles: cycles.to_vec(),
            strides,
            generators,
            order,
        }
    }

    /// The generator of cycle `j`.
    pub fn cycle_generator(&self, j: usize) -> u32 {
        self.generators[j]
    }
}

/// The exponent `e` reduced by `x^(r+d) = x^r`.
#[inline]
pub(crate) fn normalise(e: u64, r: u32, d: u32) -> u32 {
    let (r, d) = (r as u64, d as u64);
    if e < r + d {
        e as u32
    } else {
        (r + (e - r) % d) as u32
    }
}

impl<B: Monoid> Monoid for Product<'_, B> {
    fn order(&self) -> usize {
        self.order
    }
    fn identity(&self) -> u32 {
        self.base.identity()
    }
    #[inline]
    fn mul(&self, a: u32, b: u32) -> u32 {
        let base_order = self.base.order();
        // A factor of the base alone (a base generator, say) leaves the digits alone.
        let (a, b) = if (a as usize) < base_order {
            (b, a)
        } else {
            (a, b)
        };
        let (a, b) = (a as usize, b as usize);
        if b < base_order {
            let low = a % base_order;
            return (a - low + self.base.mul(low as u32, b as u32) as usize) as u32;
        }
        // A cycle's generator moves one digit.
        let cycle = |x: usize| self.generators.iter().position(|&g| g as usize == x);
        let (a, b, j) = match (cycle(b), cycle(a)) {
            (Some(j), _) => (a, b, Some(j)),
            (None, Some(j)) => (b, a, Some(j)),
            (None, None) => (a, b, None),
        };
        if let Some(j) = j {
            let (r, d) = self.cycles[j];
            let stride = self.strides[j];
            let size = (r + d) as usize;
            let digit = a / stride % size;
            let next = if digit + 1 < size {
                digit + 1
            } else {
                r as usize
            };
            return (a - digit * stride + next * stride) as u32;
        }
        let mut id = self
            .base
            .mul((a % base_order) as u32, (b % base_order) as u32) as usize;
        let (mut ra, mut rb) = (a / base_order, b / base_order);
        for (j, &(r, d)) in self.cycles.iter().enumerate() {
            let size = (r + d) as usize;
            let e = (ra % size + rb % size) as u64;
            ra /= size;
            rb /= size;
            id += normalise(e, r, d) as usize * self.strides[j];
        }
        id as u32
    }
}

/// Elements reachable from the identity by multiplying by generators, in breadth-first
/// order (the order in which the reduced quotient numbers its elements), each with how
/// it was first reached: (index of an earlier element, generator index).
pub(crate) fn reachable<M: Monoid>(m: &M, generators: &[u32]) -> (Vec<u32>, Vec<(u32, u32)>) {
    let mut seen = vec![false; m.order()];
    let mut out = vec![m.identity()];
    let mut parent = vec![(0, 0)];
    seen[m.identity() as usize] = true;
    let mut next = 0;
    while next < out.len() {
        let x = out[next];
        for (gi, &g) in generators.iter().enumerate() {
            let y = m.mul(x, g);
            if !seen[y as usize] {
                seen[y as usize] = true;
                out.push(y);
                parent.push((next as u32, gi as u32));
            }
        }
        next += 1;
    }
    (out, parent)
}

/// The indistinguishability partition of the bipartite monoid `(m, p)` restricted to the
/// submonoid generated by some generators, before its table is built: enough to know
/// the quotient's order, and to answer for an element of `m` through `p`.
pub(crate) struct Partition {
    /// Reachable elements of `m`, breadth-first.
    elements: Vec<u32>,
    /// How each reachable element was first reached: (earlier index, generator index).
    parent: Vec<(u32, u32)>,
    /// `steps[i * generators + g]`: the index of `elements[i]` times generator `g`.
    steps: Vec<u32>,
    generators: usize,
    /// Class of each reachable element (by index), numbered by first appearance.
    class: Vec<u32>,
    order: usize,
}

impl Partition {
    /// Number of classes: the order of the quotient.
    pub fn order(&self) -> usize {
        self.order
    }

    /// The quotient table, its `P`, and the class of every element of `m`
    /// (`u32::MAX` when unreachable); `m` and `p` are those the partition was made from.
    pub fn table<M: Monoid>(&self, m: &M, p: &[bool]) -> (Table, Vec<bool>, Vec<u32>) {
        let (order, g) = (self.order, self.generators);
        let class = &self.class;
        // The first element of each class, and the class of each class's first element
        // times each generator (well defined: the partition is stable under generators).
        let mut first = vec![u32::MAX; order];
        for (i, &c) in class.iter().enumerate().rev() {
            first[c as usize] = i as u32;
        }
        let class_step: Vec<u32> = first
            .iter()
            .flat_map(|&i| {
                let at = i as usize * g;
                self.steps[at..at + g].iter().map(|&s| class[s as usize])
            })
            .collect();
        let mut of_element = vec![u32::MAX; m.order()];
        for (i, &x) in self.elements.iter().enumerate() {
            of_element[x as usize] = class[i];
        }
        // Row `b` from the row of the class of its first element's breadth-first parent,
        // which comes earlier: `(y·g)·x` is `(y·x)·g`. No product of `m` is taken, so a
        // deep element of an action costs nothing here. Class 0 is the identity's.
        let mut cells = vec![0u32; order * order];
        for (a, cell) in cells[..order].iter_mut().enumerate() {
            *cell = a as u32;
        }
        for (b, &at) in first.iter().enumerate().skip(1) {
            let (earlier, gen) = self.parent[at as usize];
            let c = class[earlier as usize] as usize;
            debug_assert!(c < b);
            let (done, rest) = cells.split_at_mut(b * order);
            let from = &done[c * order..(c + 1) * order];
            for (cell, &bc) in rest[..order].iter_mut().zip(from) {
                *cell = class_step[bc as usize * g + gen as usize];
            }
        }
        let reduced_p = first
            .iter()
            .map(|&i| p[self.elements[i as usize] as usize])
            .collect();
        let identity = of_element[m.identity() as usize];
        (
            Table::from_parts(order, identity, cells),
            reduced_p,
            of_element,
        )
    }
}

/// The indistinguishability partition of the bipartite monoid `(m, p)` restricted to the
/// submonoid generated by `generators`: the coarsest partition separating `P` from its
/// complement that is stable under multiplication by every generator (Moore's
/// refinement; since every `z` is a product of generators this is exactly
/// `xz ∈ P ⇔ yz ∈ P` for all `z`). Classes are numbered in the breadth-first order of
/// their first element, so the identity is class 0. [`Stop::Order`] with a lower bound
/// on the order once it exceeds the budget's, [`Stop::Time`] past its deadline (checked
/// each refinement round: a round over a product of millions takes a good part of a
/// second).
pub(crate) fn partition<M: Monoid>(
    m: &M,
    p: &[bool],
    generators: &[u32],
    budget: &Budget,
) -> Result<Partition, Stop> {
    let max_order = budget.max_order as usize;
    let (elements, parent) = reachable(m, generators);
    let g = generators.len();
    let mut steps = vec![0u32; elements.len() * g];
    {
        let mut index = vec![u32::MAX; m.order()];
        for (i, &x) in elements.iter().enumerate() {
            index[x as usize] = i as u32;
        }
        for (i, &x) in elements.iter().enumerate() {
            for (cell, &gen) in steps[i * g..(i + 1) * g].iter_mut().zip(generators) {
                *cell = index[m.mul(x, gen) as usize];
            }
        }
    }
    let mut class: Vec<u32> = elements.iter().map(|&x| p[x as usize] as u32).collect();
    let mut count = class
        .iter()
        .copied()
        .collect::<hashbrown::HashSet<_>>()
        .len();
    let mut signature = Vec::with_capacity(g + 1);
    let mut next = Vec::with_capacity(class.len());
    loop {
        if budget.past_deadline() {
            return Err(Stop::Time);
        }
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::with_capacity(count * 2);
        next.clear();
        for i in 0..class.len() {
            signature.clear();
            signature.push(class[i]);
            signature.extend(steps[i * g..(i + 1) * g].iter().map(|&s| class[s as usize]));
            let fresh = ids.len() as u32;
            let id = *ids.entry_ref(&signature[..]).or_insert(fresh);
            next.push(id);
        }
        let refined = ids.len();
        std::mem::swap(&mut class, &mut next);
        if refined > max_order {
            // Refinement only splits classes: the quotient has at least this many.
            return Err(Stop::Order(refined as u64));
        }
        if refined == count {
            break;
        }
        count = refined;
    }
    // Renumber classes by first appearance in breadth-first order.
    let mut renumber = vec![u32::MAX; count];
    let mut order = 0u32;
    for c in class.iter_mut() {
        if renumber[*c as usize] == u32::MAX {
            renumber[*c as usize] = order;
            order += 1;
        }
        *c = renumber[*c as usize];
    }
    let order = order as usize;
    if order > max_order {
        return Err(Stop::Order(order as u64));
    }
    Ok(Partition {
        elements,
        parent,
        steps,
        generators: g,
        class,
        order,
    })
}

/// The indistinguishability quotient of `(m, p)` over `generators` ([`partition`]):
/// the quotient table, its `P`, and the class of every element (`u32::MAX` when
/// unreachable).
#[cfg(test)]
pub(crate) fn reduce<M: Monoid>(
    m: &M,
    p: &[bool],
    generators: &[u32],
    max_order: usize,
) -> Result<(Table, Vec<bool>, Vec<u32>), Stop> {
    let budget = Budget {
        max_order: max_order as u32,
        ..Budget::default()
    };
    Ok(partition(m, p, generators, &budget)?.table(m, p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_of_cycles_multiplies_exponents() {
        let base = Table::trivial();
        let m = Product::new(&base, &[(0, 2), (1, 2)]);
        assert_eq!(m.order(), 6);
        let a = m.cycle_generator(0);
        let b = m.cycle_generator(1);
        assert_eq!(m.mul(a, a), m.identity());
        let b3 = m.mul(m.mul(b, b), b);
        assert_eq!(b3, b);
        let power = |x: u32, e: u32| (0..e).fold(m.identity(), |acc, _| m.mul(acc, x));
        assert_eq!(m.mul(power(a, 3), power(b, 5)), m.mul(a, b));
    }

    #[test]
    fn reduction_of_misere_nim_on_one_and_two() {
        // Heaps *1 = a (a^2 = 1) and *2 = b (b^3 = b); P-positions of misère Nim.
        let base = Table::trivial();
        let m = Product::new(&base, &[(0, 2), (1, 2)]);
        let p: Vec<bool> = (0..m.order() as u32)
            .map(|x| {
                let (ones, twos) = (x % 2, x / 2);
                // (ones, twos) with twos in {0, 1, 2}: nim-sum and whether a 2 is present.
                let nim = (ones ^ if twos == 1 { 2 } else { 0 }) as u64;
                if twos == 0 {
                    nim == 1
                } else {
                    nim == 0
                }
            })
            .collect();
        let gens = [m.cycle_generator(0), m.cycle_generator(1)];
        let (q, qp, _) = reduce(&m, &p, &gens, 100).unwrap();
        assert_eq!(q.order(), 6);
        assert_eq!(qp.iter().filter(|&&x| x).count(), 2);
    }
}

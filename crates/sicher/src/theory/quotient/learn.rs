//! A misère quotient *learned* from the outcomes of the small positions, as the table
//! compressor predicts outcomes with it: cheaper than the construction of
//! [`super::compute`] and never exact by proof, only a model whose mistakes the table
//! stores. It is a function of the ruleset, the learning total and the outcomes alone, so
//! a table writer that learns it again writes the same bytes.
//!
//! Elements are told apart by their outcomes next to every position of at most a third
//! of the learning total; the classes of single heaps are closed under sums into a
//! commutative monoid (at most 255 elements); heaps too large to test are placed by their
//! options.

use std::collections::HashMap;
use std::ops::ControlFlow;

use crate::domain::{Domain, Ranker};
use crate::game::{Heap, Ruleset};

/// Most elements of a learned quotient (element ids are bytes).
pub const MAX_ELEMENTS: usize = 255;

/// A learned misère quotient: heap sizes map to elements of a commutative monoid, a
/// position to the product of its heaps', and some elements are unsafe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotientModel {
    /// Largest total of the positions it was learned from.
    pub learned_total: u64,
    /// The element of each heap size `0..=largest`.
    pub phi: Vec<u8>,
    /// `mul[a * n + b]`: the product of elements `a` and `b`.
    pub mul: Vec<u8>,
    /// Bit `e` set when element `e` is unsafe.
    pub unsafe_bits: Vec<u8>,
}

impl QuotientModel {
    /// Number of elements (0 when the product table is not square).
    pub fn elements(&self) -> usize {
        let n = (self.mul.len() as f64).sqrt().round() as usize;
        if n * n == self.mul.len() && self.unsafe_bits.len() == n.div_ceil(8) {
            n
        } else {
            0
        }
    }
}

/// The outcome of the union of two positions, asked of the caller's oracle.
struct Union<'a> {
    safe: &'a mut dyn FnMut(&[Heap]) -> bool,
    scratch: Vec<Heap>,
}

impl Union<'_> {
    /// True when the union of `a` and `b` (total within the learning domain) is safe.
    fn safe(&mut self, a: &[Heap], b: &[Heap]) -> bool {
        self.scratch.clear();
        self.scratch
            .extend(a.iter().chain(b).copied().filter(|&h| h != 0));
        self.scratch.sort_unstable();
        (self.safe)(&self.scratch)
    }
}

/// Learns a quotient from the positions of at most `learn` tokens, mapping heap sizes
/// `0..=largest`: elements are told apart by their outcomes together with every
/// position of at most `learn / 3` tokens (the tests), products come from those
/// outcomes while they stay within `learn` tokens, and heaps too large to test are
/// placed by their options (the element that agrees best with the recursion
/// `unsafe = no unsafe option` against every element). `safe` answers every position of
/// at most `learn` tokens (heaps ascending, no zeros), as the labeller found them in
/// misère play of `ruleset`. `None` when the elements outgrow a byte.
pub fn learn(
    ruleset: &Ruleset,
    learn: u64,
    largest: u64,
    safe: &mut dyn FnMut(&[Heap]) -> bool,
) -> Option<QuotientModel> {
    let ranker = Ranker::new(Domain::Total { total: learn }).ok()?;
    let test_total = learn / 3;
    let limit = learn - test_total;
    let Ranker::Total(partitions) = &ranker else {
        return None;
    };
    let tests: Vec<Vec<Heap>> = (0..partitions.tier(test_total).end)
        .map(|r| ranker.unrank(r).heaps().to_vec())
        .collect();
    // Tests are in rank order, so by total: those of at most `t` tokens are a prefix.
    let prefix = |t: u64| partitions.tier(t.min(test_total)).end as usize;
    let mut oracle = Union {
        safe,
        scratch: Vec::new(),
    };
    let signature = |oracle: &mut Union, x: &[Heap], len: usize| -> Vec<bool> {
        tests[..len].iter().map(|z| oracle.safe(x, z)).collect()
    };
    let full = tests.len();
    let total = |x: &[Heap]| x.iter().sum::<Heap>();

    let mut reps: Vec<Vec<Heap>> = vec![Vec::new()];
    let mut sigs: Vec<Vec<bool>> = vec![signature(&mut oracle, &[], full)];
    let mut known: HashMap<Vec<bool>, usize> = HashMap::from([(sigs[0].clone(), 0)]);
    let mut phi = vec![0u8; largest as usize + 1];
    let mut generators: Vec<usize> = Vec::new();
    for h in 1..=limit.min(largest) {
        let sig = signature(&mut oracle, &[h], full);
        let id = match known.get(&sig) {
            Some(&id) => id,
            None if reps.len() < MAX_ELEMENTS => {
                reps.push(vec![h]);
                sigs.push(sig.clone());
                known.insert(sig, reps.len() - 1);
                reps.len() - 1
            }
            None => return None,
        };
        phi[h as usize] = id as u8;
        if !generators.contains(&id) {
            generators.push(id);
        }
    }
    // Close under multiplication by generators: `right[a][g]` is a times generator g.
    let mut right: Vec<Vec<Option<usize>>> = Vec::new();
    let mut a = 0;
    while a < reps.len() {
        let mut row = vec![None; generators.len()];
        for (gi, &g) in generators.iter().enumerate() {
            let mut union = reps[a].clone();
            union.extend_from_slice(&reps[g]);
            if total(&union) > limit {
                continue;
            }
            let sig = signature(&mut oracle, &union, full);
            row[gi] = match known.get(&sig) {
                Some(&id) => Some(id),
                None if reps.len() < MAX_ELEMENTS => {
                    union.sort_unstable();
                    reps.push(union);
                    sigs.push(sig.clone());
                    known.insert(sig, reps.len() - 1);
                    Some(reps.len() - 1)
                }
                None => None,
            };
        }
        right.push(row);
        a += 1;
    }
    let n = reps.len();
    // Products too large to test against every test: the element agreeing best with
    // the tests that still fit.
    for a in 0..n {
        for gi in 0..generators.len() {
            if right[a][gi].is_some() {
                continue;
            }
            let mut union = reps[a].clone();
            union.extend_from_slice(&reps[generators[gi]]);
            let t = total(&union);
            let len = if t <= learn { prefix(learn - t) } else { 0 };
            let sig = if len > 0 {
                signature(&mut oracle, &union, len)
            } else {
                Vec::new()
            };
            let best = (0..n).min_by_key(|&e| {
                sigs[e][..len]
                    .iter()
                    .zip(&sig)
                    .filter(|(x, y)| x != y)
                    .count()
            });
            right[a][gi] = best;
        }
    }
    let generator_of: HashMap<usize, usize> = generators
        .iter()
        .enumerate()
        .map(|(i, &g)| (g, i))
        .collect();
    let times = |x: usize, h: Heap, phi: &[u8]| -> usize {
        if h == 0 {
            return x;
        }
        generator_of
            .get(&(phi[h as usize] as usize))
            .and_then(|&gi| right[x][gi])
            .unwrap_or(x)
    };
    let mut mul = vec![0u8; n * n];
    for a in 0..n {
        for b in 0..n {
            mul[a * n + b] = reps[b].iter().fold(a, |x, &h| times(x, h, &phi)) as u8;
        }
    }
    let unsafe_element: Vec<bool> = (0..n).map(|e| !oracle.safe(&reps[e], &[])).collect();
    let product = |heaps: &[Heap], phi: &[u8]| -> usize {
        heaps.iter().fold(0usize, |x, &h| {
            mul[x * n + phi[h as usize] as usize] as usize
        })
    };
    // Heaps too large to test: placed by their options.
    let rep_children: Vec<Vec<Vec<Heap>>> = reps
        .iter()
        .map(|rep| {
            let mut children = Vec::new();
            let _ = ruleset.for_each_move(rep, |removed, added| {
                let mut child = Vec::new();
                crate::game::child_into(rep, removed, added, &mut child);
                children.push(child);
                ControlFlow::Continue(())
            });
            children
        })
        .collect();
    for h in limit.min(largest) + 1..=largest {
        let mut options = Vec::new();
        let _ = ruleset.for_each_heap_option(h, |parts| {
            let mut sorted = parts.to_vec();
            sorted.sort_unstable();
            options.push(product(&sorted, &phi));
            ControlFlow::Continue(())
        });
        let children: Vec<Vec<usize>> = rep_children
            .iter()
            .map(|c| c.iter().map(|child| product(child, &phi)).collect())
            .collect();
        let mut best = (usize::MAX, 0);
        for x in 0..n {
            let wrong = (0..n)
                .filter(|&y| {
                    let has_unsafe_option = options
                        .iter()
                        .any(|&o| unsafe_element[mul[o * n + y] as usize])
                        || children[y]
                            .iter()
                            .any(|&c| unsafe_element[mul[x * n + c] as usize]);
                    // Safe exactly when some option is unsafe (h has a move, or
                    // no option at all and misère makes it safe).
                    let safe = has_unsafe_option || (options.is_empty() && children[y].is_empty());
                    unsafe_element[mul[x * n + y] as usize] == safe
                })
                .count();
            if wrong < best.0 {
                best = (wrong, x);
            }
        }
        phi[h as usize] = best.1 as u8;
    }
    let mut unsafe_bits = vec![0u8; n.div_ceil(8)];
    for (e, &u) in unsafe_element.iter().enumerate() {
        unsafe_bits[e / 8] |= u8::from(u) << (e % 8);
    }
    Some(QuotientModel {
        learned_total: learn,
        phi,
        mul,
        unsafe_bits,
    })
}

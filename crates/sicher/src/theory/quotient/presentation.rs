//! Generators and relations of a quotient, in the notation of the papers
//! (`a, b, c | a^2 = 1, b^3 = b, ...`).
//!
//! Generators are the heaps, in increasing size, whose element is not a product of the
//! elements of smaller heaps; they are named `a`, `b`, `c`, ... in that order. Every
//! element gets a normal form, its least word in degree-then-colexicographic order;
//! the words that are not normal forms form a monoid ideal, and its minimal elements,
//! each set equal to its normal form, are the relations. They present the monoid: any
//! word rewrites to its normal form by them.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use super::monoid::{Monoid, Table};

/// A presentation: generators (by heap), relations, and normal forms.
pub(crate) struct Presentation {
    /// The heap of each generator.
    pub generator_heaps: Vec<u64>,
    /// Relations as `(word, normal form)`, each a vector of exponents.
    pub relations: Vec<(Vec<u32>, Vec<u32>)>,
    /// The normal form of every element.
    pub normal_forms: Vec<Vec<u32>>,
    /// Every element's least word among those in the fewest leading generators: an
    /// element of the heaps below a generator's never uses it or a later one.
    pub earliest_forms: Vec<Vec<u32>>,
}

/// The name of generator `i`: `a`..`z`, then `g26`, `g27`, ...
pub(crate) fn generator_name(i: usize) -> String {
    if i < 26 {
        ((b'a' + i as u8) as char).to_string()
    } else {
        format!("g{i}")
    }
}

/// A word such as `a^2bc` (`1` for the empty word).
pub(crate) fn word_text(exponents: &[u32]) -> String {
    let mut out = String::new();
    for (i, &e) in exponents.iter().enumerate() {
        if e == 0 {
            continue;
        }
        out += &generator_name(i);
        if e > 1 {
            out += &format!("^{e}");
        }
    }
    if out.is_empty() {
        out.push('1');
    }
    out
}

/// Computes the presentation of `q` with heap elements `element[1..]`.
pub(crate) fn present(q: &Table, element: &[u32]) -> Presentation {
    let mut generator_heaps = Vec::new();
    let mut gens: Vec<u32> = Vec::new();
    let mut span: HashSet<u32> = HashSet::from([q.identity()]);
    for (h, &x) in element.iter().enumerate().skip(1) {
        if span.contains(&x) {
            continue;
        }
        generator_heaps.push(h as u64);
        gens.push(x);
        // Close the span under the new generator.
        let mut frontier: Vec<u32> = span.iter().copied().collect();
        while let Some(y) = frontier.pop() {
            let z = q.mul(y, x);
            if span.insert(z) {
                frontier.push(z);
            }
        }
    }
    let g = gens.len();
    let key = |w: &Vec<u32>| {
        let degree: u32 = w.iter().sum();
        let mut reversed = w.clone();
        reversed.reverse();
        (degree, reversed)
    };
    let eval = |w: &[u32]| {
        let mut x = q.identity();
        for (i, &e) in w.iter().enumerate() {
            for _ in 0..e {
                x = q.mul(x, gens[i]);
            }
        }
        x
    };
    let normal_forms = least_words(q.order(), g, eval, key);
    // Words of the fewest leading generators first: an element that smaller heaps
    // generate gets a word in their generators alone.
    let earliest_forms = least_words(q.order(), g, eval, |w: &Vec<u32>| {
        let leading = w.iter().rposition(|&e| e > 0).map_or(0, |i| i + 1);
        (leading, key(w))
    });
    let is_normal = |w: &[u32]| normal_forms[eval(w) as usize] == w;
    let mut relations = Vec::new();
    let mut found: HashSet<Vec<u32>> = HashSet::new();
    for w in &normal_forms {
        for i in 0..g {
            let mut m = w.clone();
            m[i] += 1;
            if is_normal(&m) || found.contains(&m) {
                continue;
            }
            let minimal = (0..g).all(|j| {
                m[j] == 0 || {
                    let mut d = m.clone();
                    d[j] -= 1;
                    is_normal(&d)
                }
            });
            if minimal {
                found.insert(m.clone());
                let rhs = normal_forms[eval(&m) as usize].clone();
                relations.push((m, rhs));
            }
        }
    }
    relations.sort_by_key(|(m, _)| key(m));
    Presentation {
        generator_heaps,
        relations,
        normal_forms,
        earliest_forms,
    }
}

/// The least word of every element in the order `key` gives (zero exponents for an
/// element no word reaches). `key` must grow when a word is multiplied by a generator,
/// so that the first word of an element taken from the queue is its least.
fn least_words<K: Ord>(
    order: usize,
    g: usize,
    eval: impl Fn(&[u32]) -> u32,
    key: impl Fn(&Vec<u32>) -> K,
) -> Vec<Vec<u32>> {
    let mut least: Vec<Option<Vec<u32>>> = vec![None; order];
    let mut queue = BinaryHeap::new();
    let zero = vec![0u32; g];
    queue.push(Reverse((key(&zero), zero)));
    while let Some(Reverse((_, w))) = queue.pop() {
        let x = eval(&w);
        if least[x as usize].is_some() {
            continue;
        }
        for i in 0..g {
            let mut v = w.clone();
            v[i] += 1;
            if least[eval(&v) as usize].is_none() {
                queue.push(Reverse((key(&v), v)));
            }
        }
        least[x as usize] = Some(w);
    }
    least
        .into_iter()
        .map(|w| w.unwrap_or_else(|| vec![0; g]))
        .collect()
}

impl Presentation {
    /// `a, b | a^2 = 1, b^3 = b`.
    pub fn text(&self) -> String {
        let names: Vec<String> = (0..self.generator_heaps.len())
            .map(generator_name)
            .collect();
        let relations: Vec<String> = self
            .relations
            .iter()
            .map(|(l, r)| format!("{} = {}", word_text(l), word_text(r)))
            .collect();
        if names.is_empty() {
            return "| (trivial)".to_string();
        }
        format!("{} | {}", names.join(", "), relations.join(", "))
    }
}

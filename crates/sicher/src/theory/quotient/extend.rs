//! Extending a monoid by one more heap.
//!
//! Given a bipartite monoid `(M, P)` that predicts every position of the heaps below
//! `n`, the outcome of `Y + k·H_n` is computed for one representative `Y` of each
//! element `y` (the colexicographically least position with that element), by the
//! recursion `Y + k·H_n` is a P-position iff it has a move, no option `Y' + k·H_n` is a
//! P-position and no `Y + O + (k-1)·H_n` with `O` an option of `H_n` is one. Options of
//! a least representative have smaller representatives, so one pass in representative
//! order settles row `k` from row `k - 1`. Each row is a function of the previous one,
//! so the rows are eventually periodic: `x_n^(r+d) = x_n^r` in the candidate
//! `M × C(r, d)`. The candidate is only a guess until `verify` accepts it: when `M`
//! identifies positions that heap `n` tells apart, the rows of a representative are not
//! those of every position with its element.

use std::collections::HashMap;

use super::monoid::Monoid;

/// Least representatives of every element reached from the identity by the heaps.
/// A representative is its largest heap followed by the representative of the rest, so
/// words are kept as that first heap and a link to the rest (no word per element).
pub(crate) struct Representatives {
    /// Elements in increasing representative order.
    pub order: Vec<u32>,
    /// Per element: the largest heap of its representative (0 for the identity and
    /// unreached elements).
    pub first: Vec<u32>,
    /// Per element: the element of its representative without the first (largest) heap
    /// (`u32::MAX` for the identity and unreached elements).
    pub rest: Vec<u32>,
}

impl Representatives {
    /// The representative of `x`, heap sizes descending (`None` if unreached).
    pub fn word(&self, x: u32) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        let mut y = x;
        while self.rest[y as usize] != u32::MAX {
            out.push(self.first[y as usize]);
            y = self.rest[y as usize];
        }
        (y == self.order[0]).then_some(out)
    }
}

/// Least representatives over the given heaps; `heaps` holds `(heap, element)` with one
/// heap per element (the smallest).
///
/// Words are compared lexicographically with heap sizes descending, so a word whose
/// largest heap is `h` comes after every word of smaller heaps, and one with `j + 1`
/// copies of `h` after every one with `j`. The elements are therefore found in order
/// layer by layer: heaps ascending, then copies of the heap, each layer multiplying the
/// previous one by the heap's element in order. No word is ever compared.
pub(crate) fn representatives<M: Monoid>(m: &M, heaps: &[(u32, u32)]) -> Representatives {
    let mut first = vec![0u32; m.order()];
    let mut rest = vec![u32::MAX; m.order()];
    let mut seen = vec![false; m.order()];
    seen[m.identity() as usize] = true;
    let mut order = vec![m.identity()];
    let mut sorted = heaps.to_vec();
    sorted.sort_unstable();
    let mut layer: Vec<u32> = Vec::new();
    let mut next: Vec<u32> = Vec::new();
    for (h, e) in sorted {
        layer.clear();
        layer.extend_from_slice(&order);
        while !layer.is_empty() {
            next.clear();
            for &z in &layer {
                let y = m.mul(z, e);
                if !seen[y as usize] {
                    seen[y as usize] = true;
                    first[y as usize] = h;
                    rest[y as usize] = z;
                    next.push(y);
                }
            }
            order.extend_from_slice(&next);
            std::mem::swap(&mut layer, &mut next);
        }
    }
    Representatives { order, first, rest }
}

/// Heaps up to some size as the construction sees them: their element in the monoid
/// being extended and the elements of their options.
pub(crate) trait HeapView {
    /// The element of heap `h` (`h >= 1`).
    fn element(&self, h: u32) -> u32;
    /// Elements of heap `h`'s options.
    fn option_elements(&self, h: u32) -> &[u32];
}

/// The options of every representative as elements: what one row of the recursion
/// reads. It depends only on the monoid and the heaps below the new one, so a stage
/// keeps it for every heap that extends it conservatively.
pub(crate) struct RepOptions {
    /// The representatives the options belong to.
    pub reps: Representatives,
    /// Per element: where the elements of its representative's options (sorted and
    /// distinct) lie in `cells`.
    ranges: Vec<(u32, u32)>,
    cells: Vec<u32>,
}

impl RepOptions {
    /// The options of each representative in `reps`, read through `view`.
    ///
    /// A representative is its largest heap `h` plus the representative of the rest `z`,
    /// which comes earlier: an option moves either in `h`, giving `z` times an option of
    /// `h`, or in the rest, giving `x_h` times an option of `z`, already known. So each
    /// element costs one product per option of its largest heap and one product by a
    /// heap's element (a generator, cheap in a product of cycles) per option of the rest.
    pub fn new<M: Monoid, V: HeapView>(m: &M, view: &V, reps: Representatives) -> Self {
        let n = m.order();
        let mut cells: Vec<u32> = Vec::new();
        let mut ranges: Vec<(u32, u32)> = vec![(0, 0); n];
        let mut out = Vec::new();
        for &y in &reps.order {
            let first = reps.first[y as usize];
            let z = reps.rest[y as usize];
            if z == u32::MAX {
                let at = cells.len() as u32;
                ranges[y as usize] = (at, at);
                continue;
            }
            let x_first = view.element(first);
            out.clear();
            out.extend(view.option_elements(first).iter().map(|&s| m.mul(z, s)));
            let (from, to) = ranges[z as usize];
            out.extend(
                cells[from as usize..to as usize]
                    .iter()
                    .map(|&o| m.mul(o, x_first)),
            );
            out.sort_unstable();
            out.dedup();
            let at = cells.len() as u32;
            cells.extend_from_slice(&out);
            ranges[y as usize] = (at, cells.len() as u32);
        }
        RepOptions {
            reps,
            ranges,
            cells,
        }
    }

    /// Elements of `rep(y)`'s options, sorted and distinct.
    #[inline]
    fn options(&self, y: usize) -> &[u32] {
        let (from, to) = self.ranges[y];
        &self.cells[from as usize..to as usize]
    }

    /// `rep(y)·s` for every representative `y` and every option element `s` of a new
    /// heap, computed once for all the rows of that heap.
    pub fn shift<M: Monoid>(&self, m: &M, new_options: &[u32]) -> Shift {
        let width = new_options.len();
        let mut cells = vec![0u32; m.order() * width];
        for &y in &self.reps.order {
            let at = y as usize * width;
            for (cell, &s) in cells[at..at + width].iter_mut().zip(new_options) {
                *cell = m.mul(y, s);
            }
        }
        Shift { cells, width }
    }

    /// Row `k` from row `k - 1` (`prev`): `rep(y) + k·H` is a P-position iff it has a
    /// move and neither an option of `rep(y)` (settled earlier in this row) nor an
    /// option of `H` (read from `prev` through `shift`) leads to a P-position.
    pub fn next_row(&self, prev: &[bool], shift: &Shift, new_has_move: bool) -> Vec<bool> {
        let mut cur = vec![false; prev.len()];
        for &y in &self.reps.order {
            let yi = y as usize;
            let options = self.options(yi);
            let moves = new_has_move || !options.is_empty();
            let shifted = &shift.cells[yi * shift.width..(yi + 1) * shift.width];
            cur[yi] = moves
                && !options.iter().any(|&z| cur[z as usize])
                && !shifted.iter().any(|&v| prev[v as usize]);
        }
        cur
    }
}

/// A new heap's option elements times every representative (see [`RepOptions::shift`]).
pub(crate) struct Shift {
    /// `cells[y * width + j]` is `rep(y)·s_j`.
    cells: Vec<u32>,
    width: usize,
}

/// Outcome rows of `rep(y) + k·H` and the period found.
pub(crate) struct Rows {
    /// `rows[k][y]`: `rep(y) + k·H` is a P-position, for `k < preperiod + period`.
    pub rows: Vec<Vec<bool>>,
    /// `r` in `x^(r+d) = x^r`.
    pub preperiod: u32,
    /// `d` in `x^(r+d) = x^r`.
    pub period: u32,
}

/// The rows gave no period within `max_rows`.
pub(crate) struct NoPeriod;

/// Computes the rows of a new heap with options `new_options` (elements of `m`) and
/// whether it has a move, over the representatives' options `rep_options`;
/// `(min_r, d_mult)` force a longer preperiod or a multiple of the period.
pub(crate) fn rows<M: Monoid>(
    m: &M,
    p: &[bool],
    rep_options: &RepOptions,
    new_options: &[u32],
    new_has_move: bool,
    (min_r, d_mult): (u32, u32),
    max_rows: u32,
) -> Result<Rows, NoPeriod> {
    let n = m.order();
    let mut rows: Vec<Vec<bool>> = vec![(0..n).map(|y| p[y]).collect()];
    let mut seen: HashMap<Vec<bool>, usize> = HashMap::new();
    seen.insert(rows[0].clone(), 0);
    let shift = rep_options.shift(m, new_options);
    let (r0, d0) = loop {
        if rows.len() as u32 > max_rows {
            return Err(NoPeriod);
        }
        let prev = rows.last().expect("row 0 exists");
        let cur = rep_options.next_row(prev, &shift, new_has_move);
        let k = rows.len();
        if let Some(&j) = seen.get(&cur) {
            break (j as u32, (k - j) as u32);
        }
        seen.insert(cur.clone(), k);
        rows.push(cur);
    };
    let preperiod = r0.max(min_r);
    let period = lcm(d0, d_mult.max(1));
    let len = (preperiod + period) as usize;
    let rows = (0..len)
        .map(|k| {
            let at = if k < r0 as usize {
                k
            } else {
                r0 as usize + (k - r0 as usize) % d0 as usize
            };
            rows[at].clone()
        })
        .collect();
    Ok(Rows {
        rows,
        preperiod,
        period,
    })
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: u32, b: u32) -> u32 {
    a / gcd(a, b) * b
}

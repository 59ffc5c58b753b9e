//! The quotient of the heaps accepted so far ([`Stage`]) and the views of heaps and
//! their options that the driver (`construct.rs`), recalibration and layouts all read.
//! It imports none of them, so recalibration and layouts need nothing from the driver.

use super::extend::HeapView;
use super::monoid::{Monoid, Table};
use super::verify::Generator;

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
    /// The stage before any heap: the trivial quotient, heap 0 its identity.
    pub(super) fn first() -> Self {
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

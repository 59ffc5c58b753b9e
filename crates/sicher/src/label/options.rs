//! The labellers' view of the game model's option table: each heap size's options by
//! nim-value, with the heap sizes' nim-values. Labellers walk a position's runs of equal
//! heaps and rank each option's child from the runs, instead of generating moves and
//! sorting their parts anew for every heap of every position; in normal and misère play
//! alike, the moves to nim-value 0 are tried first.

use crate::domain::incremental::MAX_PUT_BACK;
use crate::game::{Heap, HeapOption, OptionTable, Ruleset, MAX_PARTS};
use crate::theory::grundy::MexSet;

// Every option's parts fit the incremental ranking of children.
const _: () = assert!(MAX_PARTS <= MAX_PUT_BACK);

/// Every option of every heap size up to `T`, listed once, each heap's by nim-value, with
/// the heap sizes' nim-values.
pub(crate) struct Options {
    /// The options, each noted with the nim-value of the parts it leaves, each heap's
    /// sorted by it.
    table: OptionTable<u32>,
    /// Normal-play nim-value of a lone heap of each size.
    nim: Vec<u32>,
    /// `by_nim[at[h] + v]`: where the options of `h` with nim-value `v` start within
    /// the table's list, for `v` up to one past the largest (`at[h + 1]` ends the entries
    /// of `h`).
    by_nim: Vec<usize>,
    at: Vec<usize>,
}

/// One option of a lone heap, noted with the nim-value of the parts it leaves.
pub(crate) type NimOption = HeapOption<u32>;

impl Options {
    /// `None` unless every move changes one heap into at most [`MAX_PUT_BACK`] smaller ones.
    pub(crate) fn new(ruleset: &Ruleset, total: Heap) -> Option<Self> {
        let mut nim: Vec<u32> = Vec::with_capacity(total as usize + 1);
        let mut seen = MexSet::new();
        // Heap by heap from the smallest: the parts' nim-values are known.
        let mut table = OptionTable::new(ruleset, total)?.with_notes(|_, options, values| {
            values.extend(
                options
                    .iter()
                    .map(|o| o.parts().iter().fold(0, |x, &p| x ^ nim[p as usize])),
            );
            seen.clear();
            for &v in values.iter() {
                seen.insert(u64::from(v));
            }
            nim.push(seen.mex() as u32);
        });
        let (mut by_nim, mut at) = (Vec::new(), vec![0]);
        for h in 0..=total {
            table.sort_by_key(h, |o| o.note);
            let options = table.of(h);
            let base = table.start(h);
            let largest = options.last().map_or(0, |o| o.note + 1);
            by_nim.extend((0..=largest).map(|v| base + options.partition_point(|o| o.note < v)));
            at.push(by_nim.len());
        }
        Some(Options {
            table,
            nim,
            by_nim,
            at,
        })
    }

    /// Bytes the options of heaps up to `total` take (what [`Options::new`] builds).
    pub(crate) fn bytes(ruleset: &Ruleset, total: Heap) -> u64 {
        let options = OptionTable::count(ruleset, total);
        // Each option, with about as many nim-value bounds as options.
        options * (std::mem::size_of::<NimOption>() + 8) as u64 + (total + 1) * 32
    }

    /// The options of a heap of size `h`, by nim-value (each option's note).
    #[inline]
    pub(crate) fn of(&self, h: Heap) -> &[NimOption] {
        self.table.of(h)
    }

    /// Normal-play nim-value of a lone heap of size `h`.
    #[inline]
    pub(crate) fn nim(&self, h: Heap) -> u32 {
        self.nim[h as usize]
    }

    /// The options of a heap of size `h` whose parts have nim-value `value`.
    #[inline]
    pub(crate) fn with_nim(&self, h: Heap, value: u32) -> &[NimOption] {
        let h = h as usize;
        let bounds = &self.by_nim[self.at[h]..self.at[h + 1]];
        let v = value as usize;
        if v + 1 >= bounds.len() {
            return &[];
        }
        &self.table.all()[bounds[v]..bounds[v + 1]]
    }
}

//! Every option of every heap size of a domain, listed once: labellers walk a
//! position's runs of equal heaps and rank each option's child from the runs, instead of
//! generating moves and sorting their parts anew for every heap of every position.

use std::ops::ControlFlow;

use crate::domain::incremental::MAX_PUT_BACK;
use crate::game::{Heap, Ruleset};
use crate::theory::grundy::MexSet;

/// One option of a lone heap: the tokens it takes and the parts it leaves.
#[derive(Clone, Copy)]
pub(crate) struct HeapOption {
    /// Nim-value of the parts left (normal play).
    pub(crate) nim: u32,
    len: u8,
    /// Tokens the option takes away.
    pub(crate) taken: Heap,
    /// Ascending, non-zero.
    parts: [Heap; MAX_PUT_BACK],
}

/// Every option of every heap size up to `T`, listed once instead of regenerated for
/// every heap of every position, with the heap sizes' nim-values.
pub(crate) struct Options {
    /// `list[first[h]..first[h + 1]]`: the options of a heap of size `h`, by nim-value.
    first: Vec<usize>,
    list: Vec<HeapOption>,
    /// Normal-play nim-value of a lone heap of each size.
    nim: Vec<u32>,
    /// `by_nim[at[h] + v]`: where the options of `h` with nim-value `v` start within
    /// `list`, for `v` up to one past the largest (`at[h + 1]` ends the entries of `h`).
    by_nim: Vec<usize>,
    at: Vec<usize>,
}

impl Options {
    /// `None` unless every move changes one heap into at most [`MAX_PUT_BACK`] smaller ones.
    pub(crate) fn new(ruleset: &Ruleset, total: Heap) -> Option<Self> {
        if !ruleset.moves_one_heap() {
            return None;
        }
        let mut first = vec![0];
        let mut list = Vec::new();
        let mut nim: Vec<u32> = Vec::new();
        let (mut by_nim, mut at) = (Vec::new(), vec![0]);
        let mut seen = MexSet::new();
        for h in 0..=total {
            let shaped = ruleset.for_each_heap_option(h, |left| {
                let mut option = HeapOption {
                    nim: 0,
                    len: 0,
                    taken: h,
                    parts: [0; MAX_PUT_BACK],
                };
                for &part in left.iter().filter(|&&p| p != 0) {
                    if option.len as usize == MAX_PUT_BACK || part >= h {
                        return ControlFlow::Break(());
                    }
                    option.parts[option.len as usize] = part;
                    option.len += 1;
                    option.taken -= part;
                    option.nim ^= nim[part as usize];
                }
                option.parts[..option.len as usize].sort_unstable();
                list.push(option);
                ControlFlow::Continue(())
            });
            if shaped.is_break() {
                return None;
            }
            let options = &mut list[first[h as usize]..];
            options.sort_by_key(|o| o.nim);
            seen.clear();
            for o in options.iter() {
                seen.insert(u64::from(o.nim));
            }
            nim.push(seen.mex() as u32);
            let base = first[h as usize];
            let largest = options.last().map_or(0, |o| o.nim + 1);
            by_nim.extend((0..=largest).map(|v| base + options.partition_point(|o| o.nim < v)));
            at.push(by_nim.len());
            first.push(list.len());
        }
        Some(Options {
            first,
            list,
            nim,
            by_nim,
            at,
        })
    }
}

impl HeapOption {
    /// The parts the option leaves, ascending, non-zero.
    #[inline]
    pub(crate) fn parts(&self) -> &[Heap] {
        &self.parts[..self.len as usize]
    }
}

impl Options {
    /// Bytes the options of heaps up to `total` take (what [`Options::new`] builds).
    pub(crate) fn bytes(ruleset: &Ruleset, total: Heap) -> u64 {
        let mut options = 0u64;
        for h in 0..=total {
            let _ = ruleset.for_each_heap_option(h, |_| {
                options += 1;
                ControlFlow::Continue(())
            });
        }
        // Each option, with about as many nim-value bounds as options.
        options * (std::mem::size_of::<HeapOption>() + 8) as u64 + (total + 1) * 32
    }

    /// The options of a heap of size `h`, by nim-value.
    #[inline]
    pub(crate) fn of(&self, h: Heap) -> &[HeapOption] {
        let h = h as usize;
        &self.list[self.first[h]..self.first[h + 1]]
    }

    /// Normal-play nim-value of a lone heap of size `h`.
    #[inline]
    pub(crate) fn nim(&self, h: Heap) -> u32 {
        self.nim[h as usize]
    }

    /// The options of a heap of size `h` whose parts have nim-value `value`.
    #[inline]
    pub(crate) fn with_nim(&self, h: Heap, value: u32) -> &[HeapOption] {
        let h = h as usize;
        let bounds = &self.by_nim[self.at[h]..self.at[h + 1]];
        let v = value as usize;
        if v + 1 >= bounds.len() {
            return &[];
        }
        &self.list[bounds[v]..bounds[v + 1]]
    }
}

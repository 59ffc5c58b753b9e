//! Every option of every heap size up to a bound, listed once: engines that visit the
//! options of many heaps (labellers, quotients, genus analysis) read them from here
//! instead of running the generator and sorting its parts anew for every heap.

use std::ops::ControlFlow;

use super::{Heap, Ruleset};

/// Most heaps one option of a lone heap leaves (hexadecimal digits with bit 8: three).
pub const MAX_PARTS: usize = 3;

/// One option of a lone heap: the tokens it takes and the heaps it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapOption {
    /// Tokens the option takes away.
    pub taken: Heap,
    len: u8,
    /// Ascending, non-zero, each smaller than the heap.
    parts: [Heap; MAX_PARTS],
}

impl HeapOption {
    /// The heaps the option leaves, ascending, non-zero.
    #[inline]
    pub fn parts(&self) -> &[Heap] {
        &self.parts[..self.len as usize]
    }
}

/// The options of every heap size `0..=max` of a one-heap ruleset, each once, in the
/// order the ruleset generates them (unless reordered with [`OptionTable::sort_by_key`]).
#[derive(Clone, Debug)]
pub struct OptionTable {
    /// `list[first[h]..first[h + 1]]`: the options of a heap of size `h`.
    first: Vec<usize>,
    list: Vec<HeapOption>,
}

impl OptionTable {
    /// The options of heaps `0..=max`; `None` unless every move changes one heap into at
    /// most [`MAX_PARTS`] smaller ones.
    pub fn new(ruleset: &Ruleset, max: Heap) -> Option<Self> {
        if !ruleset.moves_one_heap() {
            return None;
        }
        let mut first = Vec::with_capacity(max as usize + 2);
        first.push(0);
        let mut list = Vec::new();
        for h in 0..=max {
            let shaped = ruleset.for_each_heap_option(h, |left| {
                let mut option = HeapOption {
                    taken: h,
                    len: 0,
                    parts: [0; MAX_PARTS],
                };
                for &part in left.iter().filter(|&&p| p != 0) {
                    if option.len as usize == MAX_PARTS || part >= h {
                        return ControlFlow::Break(());
                    }
                    option.parts[option.len as usize] = part;
                    option.len += 1;
                    option.taken -= part;
                }
                option.parts[..option.len as usize].sort_unstable();
                list.push(option);
                ControlFlow::Continue(())
            });
            if shaped.is_break() {
                return None;
            }
            first.push(list.len());
        }
        Some(OptionTable { first, list })
    }

    /// Bytes [`OptionTable::new`] takes for heaps `0..=max`, found by counting the
    /// options without storing them.
    pub fn bytes(ruleset: &Ruleset, max: Heap) -> u64 {
        Self::count(ruleset, max) * std::mem::size_of::<HeapOption>() as u64 + (max + 2) * 8
    }

    /// How many options heaps `0..=max` have in all.
    pub fn count(ruleset: &Ruleset, max: Heap) -> u64 {
        let mut options = 0u64;
        for h in 0..=max {
            let _ = ruleset.for_each_heap_option(h, |_| {
                options += 1;
                ControlFlow::Continue(())
            });
        }
        options
    }

    /// Largest heap size listed.
    pub fn max(&self) -> Heap {
        (self.first.len() - 2) as Heap
    }

    /// The options of a heap of size `h` (at most [`OptionTable::max`]).
    #[inline]
    pub fn of(&self, h: Heap) -> &[HeapOption] {
        let h = h as usize;
        &self.list[self.first[h]..self.first[h + 1]]
    }

    /// Where the options of `h` start in [`OptionTable::all`].
    #[inline]
    pub fn start(&self, h: Heap) -> usize {
        self.first[h as usize]
    }

    /// Every option of every heap, heap by heap.
    pub fn all(&self) -> &[HeapOption] {
        &self.list
    }

    /// Reorders the options of `h` by `key`, keeping their order among equal keys: for
    /// engines that try options in an order of their own (by nim-value, say), which the
    /// game model does not know.
    pub fn sort_by_key<K: Ord>(&mut self, h: Heap, key: impl FnMut(&HeapOption) -> K) {
        let h = h as usize;
        self.list[self.first[h]..self.first[h + 1]].sort_by_key(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::resolve;

    #[test]
    fn kayles_options_of_four() {
        let kayles = resolve("kayles").unwrap().ruleset;
        let table = OptionTable::new(&kayles, 6).unwrap();
        let four: Vec<(Heap, Vec<Heap>)> = table
            .of(4)
            .iter()
            .map(|o| (o.taken, o.parts().to_vec()))
            .collect();
        assert_eq!(
            four,
            vec![(1, vec![3]), (1, vec![1, 2]), (2, vec![2]), (2, vec![1, 1])]
        );
        assert!(table.of(0).is_empty());
        assert_eq!(table.max(), 6);
        assert_eq!(
            OptionTable::count(&kayles, 6),
            table.all().len() as u64,
            "count agrees with the table"
        );
    }

    #[test]
    fn coupled_rulesets_have_no_table() {
        assert!(OptionTable::new(&Ruleset::Wythoff, 5).is_none());
        assert!(OptionTable::new(&Ruleset::Moore(2), 5).is_none());
    }
}

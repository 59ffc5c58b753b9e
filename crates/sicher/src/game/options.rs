//! Every option of every heap size up to a bound, listed once: engines that visit the
//! options of many heaps (labellers, quotients, genus analysis) read them from here
//! instead of running the generator and sorting its parts anew for every heap. An
//! engine may note something of its own on every option (the labellers: the nim-value of
//! the parts), which the game model carries without knowing what it is.

use std::ops::ControlFlow;

use super::{Heap, Ruleset};

/// Most heaps one option of a lone heap leaves (hexadecimal digits with bit 8: three).
pub const MAX_PARTS: usize = 3;

/// One option of a lone heap: the tokens it takes and the heaps it leaves, with an
/// engine's note (nothing, by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapOption<N = ()> {
    /// Tokens the option takes away.
    pub taken: Heap,
    len: u8,
    /// Ascending, non-zero, each smaller than the heap.
    parts: [Heap; MAX_PARTS],
    /// What the engine reading the table noted of the option (see
    /// [`OptionTable::with_notes`]); it lies in the option's padding when it is small.
    pub note: N,
}

impl<N> HeapOption<N> {
    /// The heaps the option leaves, ascending, non-zero.
    #[inline]
    pub fn parts(&self) -> &[Heap] {
        &self.parts[..self.len as usize]
    }
}

/// The options of every heap size `0..=max` of a one-heap ruleset, each once, in the
/// order the ruleset generates them (unless reordered with [`OptionTable::sort_by_key`]).
#[derive(Clone, Debug)]
pub struct OptionTable<N = ()> {
    /// `list[first[h]..first[h + 1]]`: the options of a heap of size `h`.
    first: Vec<usize>,
    list: Vec<HeapOption<N>>,
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
                    note: (),
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
}

impl<N: Copy> OptionTable<N> {
    /// The same options with a note on each: `notes(h, options, out)` is called for every
    /// heap size `h` from the smallest up and pushes one note per option of `h`, in order,
    /// onto the empty `out` (so a note may depend on the notes of smaller heaps).
    pub fn with_notes<M: Copy>(
        self,
        mut notes: impl FnMut(Heap, &[HeapOption<N>], &mut Vec<M>),
    ) -> OptionTable<M> {
        let mut list = Vec::with_capacity(self.list.len());
        let mut out = Vec::new();
        for h in 0..=self.max() {
            let options = self.of(h);
            out.clear();
            notes(h, options, &mut out);
            assert_eq!(out.len(), options.len(), "one note per option");
            list.extend(options.iter().zip(&out).map(|(o, &note)| HeapOption {
                taken: o.taken,
                len: o.len,
                parts: o.parts,
                note,
            }));
        }
        OptionTable {
            first: self.first,
            list,
        }
    }

    /// Largest heap size listed.
    pub fn max(&self) -> Heap {
        (self.first.len() - 2) as Heap
    }

    /// The options of a heap of size `h` (at most [`OptionTable::max`]).
    #[inline]
    pub fn of(&self, h: Heap) -> &[HeapOption<N>] {
        let h = h as usize;
        &self.list[self.first[h]..self.first[h + 1]]
    }

    /// Where the options of `h` start in [`OptionTable::all`].
    #[inline]
    pub fn start(&self, h: Heap) -> usize {
        self.first[h as usize]
    }

    /// Every option of every heap, heap by heap.
    pub fn all(&self) -> &[HeapOption<N>] {
        &self.list
    }

    /// Reorders the options of `h` by `key`, keeping their order among equal keys: for
    /// engines that try options in an order of their own (by nim-value, say), which the
    /// game model does not know.
    pub fn sort_by_key<K: Ord>(&mut self, h: Heap, key: impl FnMut(&HeapOption<N>) -> K) {
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
    fn notes_follow_their_options() {
        let kayles = resolve("kayles").unwrap().ruleset;
        let table = OptionTable::new(&kayles, 8).unwrap();
        let mut heaps = Vec::new();
        let noted = table.clone().with_notes(|h, options, out| {
            heaps.push(h);
            out.extend(
                options
                    .iter()
                    .map(|o| o.taken * 10 + o.parts().len() as Heap),
            );
        });
        assert_eq!(heaps, (0..=8).collect::<Vec<_>>());
        for h in 0..=8 {
            let pairs = table.of(h).iter().zip(noted.of(h));
            for (plain, with) in pairs {
                assert_eq!((plain.taken, plain.parts()), (with.taken, with.parts()));
                assert_eq!(with.note, plain.taken * 10 + plain.parts().len() as Heap);
            }
        }
        assert_eq!(
            std::mem::size_of::<HeapOption<u32>>(),
            std::mem::size_of::<HeapOption>(),
            "a small note lies in the padding"
        );
    }

    #[test]
    fn coupled_rulesets_have_no_table() {
        assert!(OptionTable::new(&Ruleset::Wythoff, 5).is_none());
        assert!(OptionTable::new(&Ruleset::Moore(2), 5).is_none());
    }
}

//! The digit-by-digit search behind Moore's constructive proof (Moore 1910): the moves
//! of Nim_k that leave every binary column with a multiple of k + 1 ones, found from the
//! top bit down by deciding, at each bit, which heaps start to change there and which
//! already-changed heaps get a one there.
//!
//! A heap that changes keeps the bits above its first changed bit, turns that bit from 1
//! to 0 (so it strictly decreases) and may take any bits below it: it is *free* from then
//! on. At a bit with `c` ones among the heaps not yet changed and `f` free heaps, starting
//! `m` more heaps there (each dropping a one) and setting `t` free heaps' bits gives the
//! column c − m + t ones; it must be a multiple of k + 1 with f + m ≤ k. Some such (m, t)
//! always exists (m − t covers k + 1 consecutive values, or reaches c itself), so every
//! branch ends in at least one move: the search never backtracks out of a dead end, and a
//! single move costs one pass over the bits.
//!
//! Heaps that are interchangeable, unchanged heaps of equal size or free heaps whose bits
//! so far are equal, are chosen in a fixed order, so the search does not list the same
//! position once per permutation of equal heaps; other coincidences can remain, so the
//! caller deduplicates.

use std::ops::ControlFlow;

/// Heaps that are interchangeable at one bit, and how many there are from each group on.
struct Groups {
    members: Vec<Vec<usize>>,
    /// `suffix[g]`: heaps in groups `g..`, to stop a choice that cannot be completed.
    suffix: Vec<usize>,
}

impl Groups {
    /// Groups consecutive runs of `indices` whose `key` is equal.
    fn new(indices: impl IntoIterator<Item = usize>, key: impl Fn(usize) -> u64) -> Self {
        let mut members: Vec<Vec<usize>> = Vec::new();
        for i in indices {
            match members.last_mut() {
                Some(group) if key(group[0]) == key(i) => group.push(i),
                _ => members.push(vec![i]),
            }
        }
        let mut suffix = vec![0; members.len() + 1];
        for g in (0..members.len()).rev() {
            suffix[g] = suffix[g + 1] + members[g].len();
        }
        Groups { members, suffix }
    }

    fn total(&self) -> usize {
        self.suffix[0]
    }
}

/// The search state: which heaps have changed, and the bits chosen for them so far.
struct Search<'a> {
    old: &'a [u64],
    k: usize,
    modulus: usize,
    /// Changed heaps' new sizes: the bits decided so far, zeros below.
    new: Vec<u64>,
    changed: Vec<bool>,
    free: usize,
    visit: &'a mut dyn FnMut(Vec<u64>) -> ControlFlow<()>,
}

/// Reports to `visit` every position (ascending, zeros dropped) that one move of Moore's
/// Nim_k takes `heaps` (ascending, no zeros) to with every binary column summing to a
/// multiple of k + 1 (Moore 1910: the normal-play unsafe positions), some possibly more
/// than once, until `visit` breaks. Nothing is reported when `heaps` is already such a
/// position. `k` must be at least 1.
pub(super) fn for_each_normal_move(
    heaps: &[u64],
    k: usize,
    visit: &mut dyn FnMut(Vec<u64>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    debug_assert!(k >= 1 && heaps.windows(2).all(|w| w[0] <= w[1]));
    let Some(&largest) = heaps.last() else {
        return ControlFlow::Continue(());
    };
    let mut search = Search {
        old: heaps,
        k,
        modulus: k + 1,
        new: heaps.to_vec(),
        changed: vec![false; heaps.len()],
        free: 0,
        visit,
    };
    // Above the largest heap's top bit every column is empty and nothing can change.
    search.digit(63 - largest.leading_zeros())
}

impl Search<'_> {
    /// Decides bit `bit` and below.
    fn digit(&mut self, bit: u32) -> ControlFlow<()> {
        // Heaps keep their order, so equal unchanged heaps are consecutive; free heaps are
        // sorted by their bits so far to make equal ones consecutive.
        let ones = Groups::new(
            (0..self.old.len()).filter(|&i| !self.changed[i] && self.old[i] >> bit & 1 == 1),
            |i| self.old[i],
        );
        let mut free: Vec<usize> = (0..self.old.len()).filter(|&i| self.changed[i]).collect();
        free.sort_by_key(|&i| self.new[i]);
        let free = Groups::new(free, |i| self.new[i]);
        let (c, f) = (ones.total(), free.total());
        for m in 0..=c.min(self.k - f) {
            // c − m + t ≡ 0 (mod k + 1) fixes t modulo k + 1, and t ≤ f ≤ k: one candidate.
            let t = (m + self.modulus - c % self.modulus) % self.modulus;
            if t <= f {
                self.start(bit, &ones, 0, m, &free, t)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Chooses `m` more heaps, from group `g` of `ones` on, to start changing at `bit`.
    fn start(
        &mut self,
        bit: u32,
        ones: &Groups,
        g: usize,
        m: usize,
        free: &Groups,
        t: usize,
    ) -> ControlFlow<()> {
        if m == 0 {
            return self.raise(bit, free, 0, t);
        }
        if ones.suffix[g] < m {
            return ControlFlow::Continue(());
        }
        let group = &ones.members[g];
        for count in 0..=group.len().min(m) {
            // Equal heaps are interchangeable: the first `count` of the group change.
            for &i in &group[..count] {
                self.changed[i] = true;
                // The bits above `bit` stay, `bit` drops from 1 to 0, and the bits below
                // are decided later (two shifts: a shift by 64 would overflow at bit 63).
                self.new[i] = self.old[i] >> bit >> 1 << 1 << bit;
            }
            self.free += count;
            let flow = self.start(bit, ones, g + 1, m - count, free, t);
            self.free -= count;
            for &i in &group[..count] {
                self.changed[i] = false;
                self.new[i] = self.old[i];
            }
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Chooses `t` heaps, from group `g` of the heaps free above `bit`, to get a one at
    /// `bit`; then moves to the next bit.
    fn raise(&mut self, bit: u32, free: &Groups, g: usize, t: usize) -> ControlFlow<()> {
        if t == 0 {
            return if bit == 0 {
                self.finish()
            } else {
                self.digit(bit - 1)
            };
        }
        if free.suffix[g] < t {
            return ControlFlow::Continue(());
        }
        let group = &free.members[g];
        for count in 0..=group.len().min(t) {
            // Free heaps with equal bits so far are interchangeable: the last `count` get
            // the one, which keeps the group in ascending order.
            let chosen = &group[group.len() - count..];
            for &i in chosen {
                self.new[i] |= 1 << bit;
            }
            let flow = self.raise(bit, free, g + 1, t - count);
            for &i in chosen {
                self.new[i] &= !(1 << bit);
            }
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Every bit is decided: reports the position, unless no heap changed (no move).
    fn finish(&mut self) -> ControlFlow<()> {
        if self.free == 0 {
            return ControlFlow::Continue(());
        }
        let mut after: Vec<u64> = self.new.iter().copied().filter(|&h| h > 0).collect();
        after.sort_unstable();
        (self.visit)(after)
    }
}

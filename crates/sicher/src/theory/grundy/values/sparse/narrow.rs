//! The sparse-space engine's 16-bit path: marks from the takes and the rare pairs, then
//! vector scans for witnesses (values below 64 in one word).

use super::super::scan::BATCH;
use super::super::Nimber;
use super::{SparseSpace, LAGS, MARK_FIRST, MAX_BLOCK, SAMPLE_EVERY, WINDOW};

/// Marks the value `lo[i] ^ hi[i]` of every pair in `marks`, whose length is a power of two
/// above every value. Out of line: inside the engine's one large function the compiler
/// spent a fifth more instructions on this loop (0.007, where it is the hottest).
#[inline(never)]
fn mark_pairs(lo: &[u16], hi: &[u16], marks: &mut [u8]) {
    let Some(top) = marks.len().checked_sub(1) else {
        return;
    };
    for (&x, &y) in lo.iter().zip(hi) {
        // The mask changes nothing (values and their XORs lie below the length) but
        // spares a bounds check per pair.
        // SAFETY: (x ^ y) & top <= top < marks.len().
        unsafe { *marks.get_unchecked_mut((x ^ y) as usize & top) = 1 };
    }
}

impl SparseSpace {
    /// G(n) by the 16-bit engine: marks from the takes and the rare pairs, then vector
    /// scans for witnesses of the values below `c` that common pairs may reach.
    pub(super) fn next_narrow(&mut self, n: usize) -> Nimber {
        if self.cap <= self.word_cap {
            return self.next_small(n);
        }
        for s in 0..self.splits.len() {
            let t = self.splits[s].t;
            if n >= t + 2 {
                self.rare_below(s, n - t);
            }
        }
        let cap = self.cap as usize;
        let marks = &mut self.marks[..cap];
        marks.fill(0);
        let g = &self.fwd[..];
        for take in &self.takes {
            if take.t > n {
                break;
            }
            if take.t == n {
                if take.none {
                    marks[0] = 1;
                }
            } else if take.one && take.t >= 1 {
                marks[g[n - take.t] as usize] = 1;
            }
        }
        // Rare pairs marked ahead on another thread (`ahead.rs`): the engine pairs only
        // the rare heaps below the block's lag and those found since it was launched.
        let block = self
            .ahead
            .block_for(n, &self.fwd, &self.rare, &self.rare_vals, self.cap);
        let (lo, hi) = match block {
            Some(block) => {
                block.mark(n, marks);
                (block.lo, block.hi)
            }
            None => (usize::MAX, usize::MAX),
        };
        let (fwd, rev) = (&self.fwd[..], &self.rev[..]);
        let k = rev.len();
        let mut open = [false; 2];
        for (s, split) in self.splits.iter().enumerate() {
            if n < split.t + 2 {
                break;
            }
            let rest = n - split.t;
            open[self.domain & rest & 1] = true;
            let below = self.rare_below[s];
            // rev[off + a] = G(rest - a).
            let off = k - 1 - rest;
            for range in [0..lo.min(below), hi.min(below)..below] {
                let rare = &self.rare[range.clone()];
                if split.unequal {
                    for &a in rare {
                        let a = a as usize;
                        if 2 * a != rest {
                            marks[(fwd[a] ^ rev[off + a]) as usize] = 1;
                        }
                    }
                } else {
                    // The hottest loop for codes with many rare heaps (0.6) on one thread:
                    // every index is in range by construction, so the checks are asserted
                    // once, not per pair.
                    let rare_vals = &self.rare_vals[range];
                    assert!(marks.len() == cap && cap.is_power_of_two());
                    assert!(rare.last().is_none_or(|&a| off + (a as usize) < k));
                    for (&a, &va) in rare.iter().zip(rare_vals) {
                        // SAFETY: a < rest, so off + a < k (asserted for the largest a);
                        // both values are below the power-of-two cap, so is their XOR.
                        unsafe {
                            let y = *rev.get_unchecked(off + a as usize);
                            *marks.get_unchecked_mut((va ^ y) as usize & (cap - 1)) = 1;
                        }
                    }
                }
            }
        }
        let parity = &self.parity[..cap];
        // c: the smallest unreached value no common-common pair can reach. Below it, the
        // unreached values of an open parity still need a witness pair.
        let mut c = cap;
        let mut unreached = 0;
        for v in 0..cap {
            if marks[v] == 0 {
                if !open[parity[v] as usize] {
                    c = v;
                    break;
                }
                unreached += 1;
            }
        }
        if unreached == 0 {
            return c as Nimber;
        }
        // Many values wanted (no sparse split, as in Treblecross): most turn up among the
        // first pairs, where marking every pair's value (a store per pair) beats stopping
        // the vector scan at every hit. Marking goes on while blocks still find values.
        let mut from = 1;
        let mut block = 64;
        if unreached >= MARK_FIRST {
            loop {
                let mut more = false;
                for split in &self.splits {
                    if n < split.t + 2 {
                        break;
                    }
                    let rest = n - split.t;
                    let half = split.half(rest);
                    if from > half {
                        continue;
                    }
                    more = true;
                    let to = (from + block - 1).min(half);
                    let off = k - 1 - rest;
                    mark_pairs(&fwd[from..=to], &rev[off + from..=off + to], marks);
                    self.pairs_scanned += (to + 1 - from) as u64;
                }
                from += block;
                let left = marks[..c].iter().filter(|&&m| m == 0).count();
                let found = unreached - left;
                unreached = left;
                if !more || unreached == 0 || found < block / 16 {
                    break;
                }
                block *= 2;
            }
            if unreached == 0 {
                return c as Nimber;
            }
        }
        // The answer is the smallest value below c that no pair reaches: look for
        // witnesses of the unreached values a window at a time, smallest first, and stop at
        // the first window with a value no pair reaches.
        let mut next = 0;
        loop {
            self.need.clear();
            while next < c && self.need.len() < WINDOW {
                if self.marks[next] == 0 {
                    self.need.push(next as u16);
                    self.wanted.insert(next as u16);
                }
                next += 1;
            }
            if self.need.is_empty() {
                return c as Nimber;
            }
            if let Some(v) = self.witness(n, from) {
                return Nimber::from(v);
            }
        }
    }

    /// [`next_narrow`](Self::next_narrow) for values below 64: the values options reach
    /// are one word, so marking is a shift and an OR, and `c` a count of trailing zeros.
    fn next_small(&mut self, n: usize) -> Nimber {
        let cap = self.cap as usize;
        debug_assert!(cap <= 64 && cap.is_power_of_two());
        let mut reached = 0u64;
        let g = &self.fwd[..];
        for take in &self.takes {
            if take.t > n {
                break;
            }
            if take.t == n {
                if take.none {
                    reached |= 1;
                }
            } else if take.one && take.t >= 1 {
                reached |= 1 << (g[n - take.t] & 63);
            }
        }
        // Rare pairs marked ahead on another thread (`ahead.rs`), as in `next_narrow`.
        let block = self
            .ahead
            .block_for(n, &self.fwd, &self.rare, &self.rare_vals, self.cap);
        let ahead = block.and_then(|block| Some((block.word(n)?, block.lo, block.hi)));
        let mut open = [false; 2];
        for s in 0..self.splits.len() {
            let split = self.splits[s];
            if n < split.t + 2 {
                break;
            }
            let rest = n - split.t;
            open[self.domain & rest & 1] = true;
            let below = self.rare_below(s, rest);
            let (fwd, rev) = (&self.fwd[..], &self.rev[..]);
            let k = rev.len();
            let rare = &self.rare[..below];
            // rev[off + a] = G(rest - a).
            let off = k - 1 - rest;
            if let Some((bits, lo, hi)) = ahead {
                // Every split's pairs are in the block's one word.
                if s == 0 {
                    reached |= bits;
                }
                for range in [0..lo.min(below), hi.min(below)..below] {
                    for &a in &rare[range] {
                        let a = a as usize;
                        if !split.unequal || 2 * a != rest {
                            reached |= 1 << ((fwd[a] ^ rev[off + a]) & 63);
                        }
                    }
                }
            } else if split.unequal {
                for &a in rare {
                    let a = a as usize;
                    if 2 * a != rest {
                        reached |= 1 << ((fwd[a] ^ rev[off + a]) & 63);
                    }
                }
            } else {
                if !self.batches[s].holds(n) {
                    // Heaps n.. of this batch have partners rest + j - a < rest for every
                    // a >= BATCH, all known now.
                    let lo = self
                        .rare
                        .partition_point(|&a| (a as usize) < BATCH)
                        .min(below);
                    let batch = &mut self.batches[s];
                    (batch.start, batch.lo, batch.hi) = (n, lo, below);
                    self.kernel.rare_bits(
                        fwd,
                        rest,
                        &self.rare[lo..below],
                        &self.rare_vals[lo..below],
                        &mut batch.bits,
                    );
                }
                let batch = &self.batches[s];
                reached |= batch.bits[n - batch.start];
                let rare_vals = &self.rare_vals[..below];
                assert!(rare.last().is_none_or(|&a| off + (a as usize) < k));
                for range in [0..batch.lo, batch.hi..below] {
                    for (&a, &va) in rare[range.clone()].iter().zip(&rare_vals[range]) {
                        // SAFETY: a < rest, so off + a < k (asserted for the largest a).
                        let y = unsafe { *rev.get_unchecked(off + a as usize) };
                        reached |= 1 << ((va ^ y) & 63);
                    }
                }
            }
        }
        let all = if cap == 64 { !0 } else { (1u64 << cap) - 1 };
        let mut closed = 0;
        if !open[0] {
            closed |= !self.odd_values;
        }
        if !open[1] {
            closed |= self.odd_values;
        }
        // c: the smallest unreached value no common-common pair can reach. Below it, the
        // unreached values (all of an open parity) still need a witness pair.
        let c = ((!reached & all & closed).trailing_zeros() as usize).min(cap);
        let below_c = if c >= 64 { !0 } else { (1u64 << c) - 1 };
        let mut left = !reached & below_c;
        if left == 0 {
            return c as Nimber;
        }
        let (fwd, rev) = (&self.fwd[..], &self.rev[..]);
        let k = rev.len();
        let lone = self.splits.len() == 1;
        // With one split, heap n's witnesses are remembered, and the ones of earlier heaps
        // tried first (`own` is then every value left: the split's parity is the only
        // open one).
        let mut found = [0u32; 64];
        let wanted = left;
        if lone {
            let split = self.splits[0];
            let rest = n - split.t;
            let half = split.half(rest);
            let off = k - 1 - rest;
            let cache = &mut *self.witnesses;
            let reaches = |a: u32, v: usize| {
                let a = a as usize;
                a >= 1 && a <= half && (fwd[a] ^ rev[off + a]) as usize == v
            };
            if n.is_multiple_of(SAMPLE_EVERY) {
                for lag in 1..=LAGS.min(n) {
                    let guesses = &cache.smaller[(n - lag) % LAGS];
                    let mut bits = left;
                    while bits != 0 {
                        let v = bits.trailing_zeros() as usize;
                        cache.hits[lag - 1] += u32::from(reaches(guesses[v], v));
                        bits &= bits - 1;
                    }
                }
                let best = (1..=LAGS).max_by_key(|&lag| (cache.hits[lag - 1], usize::MAX - lag));
                cache.lag = best.unwrap_or(1);
                if cache.hits.iter().any(|&h| h >= 1 << 16) {
                    cache.hits.iter_mut().for_each(|h| *h /= 2);
                }
            }
            if n >= cache.lag {
                let guesses = &cache.smaller[(n - cache.lag) % LAGS];
                let mut bits = left;
                while bits != 0 {
                    let v = bits.trailing_zeros() as usize;
                    if reaches(guesses[v], v) {
                        found[v] = guesses[v];
                        left &= !(1 << v);
                    }
                    bits &= bits - 1;
                }
            }
        }
        // Splits take turns by blocks, as in `witness`; each scans only for values of its
        // own parity, the only ones its common pairs reach (pairs with a rare part were
        // all marked above).
        let (mut block, max_block) = if self.splits.len() == 1 {
            (usize::MAX / 2, usize::MAX / 2)
        } else {
            (64, MAX_BLOCK)
        };
        let mut from = 1;
        while left != 0 {
            let mut active = false;
            for split in &self.splits {
                if n < split.t + 2 {
                    break;
                }
                let rest = n - split.t;
                let half = split.half(rest);
                let own = if self.domain & rest & 1 == 1 {
                    self.odd_values
                } else {
                    !self.odd_values
                };
                let mine = left & own;
                if mine == 0 || from > half {
                    continue;
                }
                active = true;
                let to = (from + block - 1).min(half);
                let off = k - 1 - rest;
                let mut at = [0u32; 64];
                let (still, scanned) = self.kernel.unreached(
                    &fwd[from..=to],
                    &rev[off + from..=off + to],
                    mine,
                    &mut at,
                );
                let mut gone = mine & !still;
                while gone != 0 {
                    let v = gone.trailing_zeros() as usize;
                    found[v] = (from + at[v] as usize) as u32;
                    gone &= gone - 1;
                }
                left &= still | !own;
                self.pairs_scanned += scanned as u64;
            }
            if !active {
                break;
            }
            from += block;
            block = block.saturating_mul(2).min(max_block);
        }
        if lone {
            let mine = &mut self.witnesses.smaller[n % LAGS];
            let mut gone = wanted & !left;
            while gone != 0 {
                let v = gone.trailing_zeros() as usize;
                mine[v] = found[v];
                gone &= gone - 1;
            }
        }
        if left == 0 {
            c as Nimber
        } else {
            left.trailing_zeros()
        }
    }

    /// Looks for witness pairs of the values in `need` (all marked in `wanted`), among the
    /// pairs `(a, rest - a)` with `a >= from`: the smallest value no pair reaches, if any
    /// (`wanted` is left empty either way).
    fn witness(&mut self, n: usize, from: usize) -> Option<u16> {
        let parity = &self.parity[..];
        let mut waiting = [0usize; 2];
        for &v in &self.need {
            waiting[parity[v as usize] as usize] += 1;
        }
        let (fwd, rev) = (&self.fwd[..], &self.rev[..]);
        let k = rev.len();
        // Splits take turns by blocks, so a value one split never reaches does not cost a
        // full pass before another split finds it; blocks grow, since most heaps are
        // settled within a few pairs. A lone split needs no turns: one block, one call per
        // value found.
        let (mut block, max_block) = if self.splits.len() == 1 {
            (usize::MAX / 2, usize::MAX / 2)
        } else {
            (64, MAX_BLOCK)
        };
        let mut from = from;
        while waiting != [0, 0] {
            let mut active = false;
            for split in &self.splits {
                if n < split.t + 2 {
                    break;
                }
                let rest = n - split.t;
                let p = self.domain & rest & 1;
                let half = split.half(rest);
                if waiting[p] == 0 || from > half {
                    continue;
                }
                active = true;
                let to = (from + block - 1).min(half);
                let off = k - 1 - rest;
                let lo = &fwd[from..=to];
                let hi = &rev[off + from..=off + to];
                let mut i = 0;
                while waiting[p] > 0 {
                    match self.kernel.first_hit(&lo[i..], &hi[i..], &self.wanted) {
                        Some(j) => {
                            let x = lo[i + j] ^ hi[i + j];
                            if self.wanted.remove(x) {
                                waiting[parity[x as usize] as usize] -= 1;
                            }
                            i += j + 1;
                        }
                        None => {
                            i = lo.len();
                            break;
                        }
                    }
                }
                self.pairs_scanned += i as u64;
            }
            if !active {
                break;
            }
            from += block;
            block = block.saturating_mul(2).min(max_block);
        }
        if waiting == [0, 0] {
            return None;
        }
        let wanted = &self.wanted;
        let value = self.need.iter().find(|&&v| wanted.contains(v)).copied();
        self.wanted.clear(&self.need);
        value
    }
}

//! The sparse-space engine: nim-value sequences of codes whose moves leave at most two
//! heaps, from the few pairs with a rare part and witness scans for the rest. The 16-bit
//! path lives in `narrow.rs`, the 32-bit one in `wide.rs`.
//!
//! # Files of `sparse/`
//!
//! - `ahead.rs`: the rare pairs of heaps ahead, marked on other cores (`--threads`), and
//!   why the work is split that way.
//! - `narrow.rs`: the 16-bit path: marks from the takes and the rare pairs, then vector
//!   scans for witnesses.
//! - `wide.rs`: the 32-bit path, for values beyond the 16-bit copies: stamped marks and
//!   scalar witness scans.
//! - `tests.rs`: unit tests of the engine against the plain definition, on every path
//!   and kernel.

use super::scan::{Kernel, Wanted, BATCH};
use super::{cap_above, Nimber, Sequence, SparseStats, Values};
use crate::game::Ruleset;
use crate::theory::grundy::{PeriodFinder, Periodicity, ProofBound};

mod ahead;
mod narrow;
#[cfg(test)]
mod tests;
mod wide;

/// Marks of "value seen while computing heap n": stamping with n + 1 instead of clearing
/// keeps the per-heap cost proportional to the options, not to the value range.
#[derive(Clone, Debug, Default)]
struct Stamps {
    marks: Vec<u32>,
}

impl Stamps {
    /// Makes room for every value below `cap` plus one (the mex is at most `cap`).
    fn ensure(&mut self, cap: u32) {
        if self.marks.len() <= cap as usize {
            self.marks.resize(cap as usize + 1, 0);
        }
    }
}

/// Removing `t` tokens and leaving nothing (`none`) and/or one heap (`one`).
#[derive(Clone, Copy, Debug)]
struct Take {
    t: usize,
    none: bool,
    one: bool,
}

/// Removing `t` tokens and splitting the rest into two non-empty heaps (unequal ones only,
/// for Grundy's game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Split {
    t: usize,
    unequal: bool,
}

impl Split {
    /// The largest smaller part `a` of a split of `rest` (unequal parts for Grundy's game).
    fn half(&self, rest: usize) -> usize {
        if self.unequal {
            (rest - 1) / 2
        } else {
            rest / 2
        }
    }
}

/// Value ranges up to this size take the scan path without bounds checks.
const SMALL_CAP: usize = 1024;

/// How often (in heap sizes, after the doubling reviews) the rare/common split is reviewed.
const REVIEW_EVERY: usize = 1 << 16;

/// Masks are chosen exhaustively only while values fit in this many bits (the review costs
/// 2^bits times the number of distinct values).
const REVIEW_BITS: u32 = 10;

/// The sparse-space method (Berlekamp; Gangolli and Plambeck; Flammenkamp).
///
/// A mask `m`, a "domain" bit `s` and a flip `f` classify each heap `a` as common or rare
/// by `parity(G(a) & m) ^ (s & a) ^ f` (odd: common). For a split of `rest` into `a + b`
/// with both parts common, `parity((G(a)^G(b)) & m)` is `s & rest`, whatever `f` is. The
/// flip `f = s & t` puts a common heap's own value in the other parity, the one common
/// pairs cannot reach; `m` and `s` are chosen so that rare heaps are few (the "range" and
/// "domain" sparse spaces of Flammenkamp's tables).
///
/// So every value of the other parity that a split reaches comes from a pair with a rare
/// part, and those pairs are few: they are enumerated in full. That settles `c`, the
/// smallest unreached value of the other parity. G(n) is `c` unless a value of the
/// split's own parity below `c` is unreached, which a scan of all pairs settles, stopping
/// as soon as every such value has a witness (usually after a few pairs). The
/// classification only steers the work: any mask gives the right answer.
pub struct SparseSpace {
    /// The blocks of rare pairs marked ahead on other threads. First, so that it is dropped
    /// (waiting for its helpers, which read the vectors below) before anything else.
    ahead: ahead::Ahead,
    takes: Vec<Take>,
    splits: Vec<Split>,
    /// G(0..len) as 32-bit values, once some value passes the 16-bit copies (empty
    /// before: `fwd` holds them, two bytes each).
    values: Vec<Nimber>,
    cap: u32,
    seen: Stamps,
    need_marks: Stamps,
    mask: u32,
    domain: usize,
    flip: u32,
    /// Rare heap sizes, ascending, excluding 0.
    rare: Vec<u32>,
    /// Their values, `rare_vals[i] = G(rare[i])`, read in order by the rare-pair loop.
    rare_vals: Vec<u16>,
    /// `histogram[v][a & 1]`: how many heaps `a >= 1` have G(a) = v.
    histogram: Vec<[u64; 2]>,
    next_review: usize,
    pairs_scanned: u64,
    /// True until the first review picks a real split.
    warm: bool,
    /// Looks for a period the ruleset's periodicity theorem proves, if one applies.
    finder: Option<PeriodFinder>,
    /// Once a period is proved, every further value is read off it.
    proved: Option<Periodicity>,
    next_proof_check: usize,
    /// True while every value fits the 16-bit copies below (values below [`NARROW_CAP`]).
    narrow: bool,
    /// G(a) as 16 bits, and the same back to front: `rev[rev.len() - 1 - a] = G(a)`, so
    /// that the partners `rest - a` of ascending `a` are ascending too.
    fwd: Vec<u16>,
    rev: Vec<u16>,
    /// Values some option reaches, for the heap being computed.
    marks: Vec<u8>,
    /// parity(v & mask) for every value below the cap.
    parity: Vec<u8>,
    /// The same for values below 64, as a bitmask (bit v set when odd).
    odd_values: u64,
    /// Caps up to this take the one-word path ([`SparseSpace::next_small`]); the tests
    /// lower it to check the byte-mark path on the same codes.
    word_cap: u32,
    /// Per split, how many rare heaps lie below its current `rest`: `rest` grows by one a
    /// heap, so a cursor replaces a binary search per heap.
    rare_below: Vec<usize>,
    /// Per split, the rare pairs of the heaps ahead, marked a batch at a time (one-word
    /// path, splits into any two parts).
    batches: Vec<RareBatch>,
    /// Pairs that reached values lately, tried before a scan (one-word path, one split).
    witnesses: Box<Witnesses>,
    /// Values below `c` still needing a witness pair, as a list and as a bitmap.
    need: Vec<u16>,
    wanted: Wanted,
    kernel: Kernel,
}

/// What the pairs `(a, rest - a)` with `a` in `rare[lo..hi]` reach, for `BATCH` heaps from
/// `start` on (values below 64, as bits). The rare heaps below `BATCH` are left out, as
/// their partners lie among the heaps of the batch itself, and so are the rare heaps found
/// after `start` (from `hi` on).
#[derive(Clone, Copy, Debug)]
struct RareBatch {
    start: usize,
    lo: usize,
    hi: usize,
    bits: [u64; BATCH],
}

impl RareBatch {
    /// No batch: the next heap makes one.
    const NONE: RareBatch = RareBatch {
        start: usize::MAX,
        lo: 0,
        hi: 0,
        bits: [0; BATCH],
    };

    /// True when heap `n` lies in this batch.
    fn holds(&self, n: usize) -> bool {
        self.start != usize::MAX && n >= self.start && n - self.start < BATCH
    }
}

/// Heaps back that [`Witnesses`] remembers.
const LAGS: usize = 8;

/// One heap in this many also tries every remembered heap, to learn which is worth trying.
const SAMPLE_EVERY: usize = 64;

/// Where values were reached lately. Nim-sequences are often periodic for stretches (0.16
/// runs through period 3 for long), and then a pair `(a, rest - a)` that reached `v` a
/// period ago reaches it again: trying that pair first settles most values with one look,
/// and a heap whose values all settle so needs no scan. Which heap back is worth trying
/// is learned from samples. Only a guess: a pair counts only once it is checked.
#[derive(Clone, Debug)]
struct Witnesses {
    /// `smaller[h % LAGS][v]`: the smaller part of a pair that reached `v` at heap `h`
    /// (0: none; entries from earlier rounds of the ring stay, as guesses).
    smaller: [[u32; 64]; LAGS],
    /// `hits[l - 1]`: sampled values that the pair of `l` heaps back reached again.
    hits: [u32; LAGS],
    /// The heaps back to try.
    lag: usize,
}

impl Witnesses {
    fn new() -> Self {
        Witnesses {
            smaller: [[0; 64]; LAGS],
            hits: [0; LAGS],
            lag: 1,
        }
    }
}

/// Values below this use the 16-bit engine (XORs then stay below 2^15, never the padding).
const NARROW_CAP: u32 = 1 << 15;

/// A rare/common split is used only while the rare heaps are at most this share of all
/// heaps: enumerating a rare pair is a random access, while the witness scans run 32 pairs
/// per vector step, so a dense split costs more than it saves (Treblecross).
pub(super) const RARE_SHARE: u64 = 16;

/// With this many values wanting a witness, the first pairs are marked rather than searched.
const MARK_FIRST: usize = 32;

/// Values looked for at once; further ones only if every one of these has a witness.
const WINDOW: usize = 64;

/// Longest block of one split scanned before the other splits get a turn.
const MAX_BLOCK: usize = 1 << 14;

impl SparseSpace {
    /// The engine for a take-and-break code whose moves leave at most two heaps and whose
    /// digits end (so no heap has a move taking more than the last digit's index), a
    /// subtraction game, or Grundy's game; `None` for other rulesets.
    pub fn new(ruleset: &Ruleset) -> Option<Self> {
        Self::with_capacity(ruleset, 0)
    }

    /// [`new`](Self::new), with room for `len` values (two 16-bit copies of them).
    pub(super) fn with_capacity(ruleset: &Ruleset, len: usize) -> Option<Self> {
        // Nim is its own closed form, Wythoff and Moore have no per-heap values, and
        // options that take any number of tokens or leave three heaps are beyond the
        // method.
        let fits = ruleset.moves_one_heap() && ruleset.max_parts() <= 2;
        let last = ruleset.max_take().filter(|_| fits)?;
        let mut takes: Vec<Take> = Vec::new();
        let mut splits = Vec::new();
        ruleset.for_each_option_shape(last, |shape| {
            let t = usize::try_from(shape.taken).unwrap_or(usize::MAX);
            let (none, one) = (shape.parts == 0, shape.parts == 1);
            match shape.parts {
                0 | 1 => match takes.last_mut() {
                    Some(take) if take.t == t => {
                        take.none |= none;
                        take.one |= one;
                    }
                    _ => takes.push(Take { t, none, one }),
                },
                _ => splits.push(Split {
                    t,
                    unequal: shape.unequal,
                }),
            }
        });
        let mut engine = SparseSpace {
            ahead: ahead::Ahead::new(&splits),
            takes,
            splits,
            values: Vec::new(),
            cap: 1,
            seen: Stamps::default(),
            need_marks: Stamps::default(),
            mask: 0,
            domain: 0,
            // Everything common until the first review: the method is then a plain scan
            // that stops early.
            flip: 1,
            rare: Vec::new(),
            rare_vals: Vec::new(),
            histogram: Vec::new(),
            next_review: 64,
            pairs_scanned: 0,
            warm: true,
            finder: ProofBound::for_ruleset(ruleset).map(PeriodFinder::new),
            proved: None,
            next_proof_check: 1024,
            narrow: true,
            fwd: Vec::new(),
            rev: Vec::new(),
            marks: Vec::new(),
            parity: Vec::new(),
            odd_values: 0,
            word_cap: 64,
            rare_below: Vec::new(),
            batches: Vec::new(),
            witnesses: Box::new(Witnesses::new()),
            need: Vec::new(),
            wanted: Wanted::default(),
            kernel: Kernel::detect(),
        };
        engine.seen.ensure(SMALL_CAP as u32);
        engine.need_marks.ensure(SMALL_CAP as u32);
        engine.fwd.reserve_exact(len);
        // Two spare slots: heap n + 1 reads G(rest) for rest up to n + 1, so the copy
        // never grows (doubling) at the end of a run of known length.
        engine.rev = vec![0; (len + 2).max(1024)];
        engine.rare_below = vec![0; engine.splits.len()];
        engine.batches = vec![RareBatch::NONE; engine.splits.len()];
        engine.resize_tables();
        Some(engine)
    }

    /// How many values are computed.
    #[inline]
    fn len(&self) -> usize {
        if self.narrow {
            self.fwd.len()
        } else {
            self.values.len()
        }
    }

    /// G(a), computed.
    #[inline]
    fn value_at(&self, a: usize) -> Nimber {
        if self.narrow {
            Nimber::from(self.fwd[a])
        } else {
            self.values[a]
        }
    }

    /// Leaves the 16-bit copies for 32-bit values, once a value no longer fits them.
    fn widen(&mut self) {
        // The 32-bit path marks its rare pairs itself.
        self.ahead.drain();
        self.ahead.set_threads(1);
        let mut values = Vec::with_capacity(self.fwd.capacity().max(self.fwd.len() + 1));
        values.extend(self.fwd.iter().map(|&v| Nimber::from(v)));
        self.values = values;
        self.narrow = false;
        self.fwd = Vec::new();
        self.rev = Vec::new();
    }

    /// Pairs examined by the fallback scans so far (a measure of how sparse the space is).
    pub fn pairs_scanned(&self) -> u64 {
        self.pairs_scanned
    }

    /// Rare heaps so far under the current mask.
    pub fn rare_count(&self) -> usize {
        self.rare.len()
    }

    /// The current mask and domain bit.
    pub fn split(&self) -> (u32, bool) {
        (self.mask, self.domain == 1)
    }

    #[inline]
    fn is_rare(&self, a: usize, v: Nimber) -> bool {
        ((v & self.mask).count_ones() ^ (self.domain & a) as u32 ^ self.flip) & 1 == 0
    }

    /// Picks the mask, domain bit and flip with the fewest rare heaps so far, and rebuilds
    /// the rare list if that beats the current choice clearly.
    fn review(&mut self) {
        let n = self.len();
        let bits = 32 - self.cap.saturating_sub(1).leading_zeros();
        let masks: Vec<u32> = if bits <= REVIEW_BITS {
            (0..1u32 << bits).collect()
        } else {
            vec![self.mask, self.cap - 1]
        };
        let total: u64 = (n - 1) as u64;
        // Common heaps must have values of the parity no common-common pair reaches, or
        // the method does not save anything: that fixes the flip (from the first split).
        let t = self.splits.first().map_or(0, |split| split.t);
        // Until the first review every heap counts as common (a plain scan); any real
        // split beats that.
        let current = if self.warm {
            u64::MAX
        } else {
            self.rare.len() as u64
        };
        let mut best = (current, self.mask, self.domain, self.flip);
        for &mask in &masks {
            for domain in 0..2usize {
                let flip = (domain & t & 1) as u32;
                let odd = self.count_odd(mask, domain);
                let rare = if flip == 1 { odd } else { total - odd };
                if rare < best.0 {
                    best = (rare, mask, domain, flip);
                }
            }
        }
        if best.0 < current / 10 * 9 && best.0 <= total / RARE_SHARE {
            (_, self.mask, self.domain, self.flip) = best;
            // The blocks in flight read the rare list about to be rebuilt.
            self.ahead.drain();
            self.warm = false;
            self.rare.clear();
            self.rare_vals.clear();
            for a in 1..n {
                let value = self.value_at(a);
                if self.is_rare(a, value) {
                    self.rare.push(a as u32);
                    self.rare_vals.push(value as u16);
                }
            }
            self.rare_below.fill(0);
            self.batches.fill(RareBatch::NONE);
            self.resize_tables();
        }
    }

    /// Sizes the per-value tables for the current cap and recomputes the parities.
    fn resize_tables(&mut self) {
        let cap = self.cap as usize;
        self.marks.resize(cap, 0);
        self.wanted.ensure(cap);
        self.parity.clear();
        self.parity
            .extend((0..cap as u32).map(|v| ((v & self.mask).count_ones() & 1) as u8));
        self.odd_values = (0..64u32)
            .filter(|&v| (v & self.mask).count_ones() & 1 == 1)
            .fold(0, |bits, v| bits | 1 << v);
    }

    /// Rare heaps below `rest` for split `s`, whose `rest` grew by at most one since the
    /// last call (or the cursor was reset to 0).
    #[inline]
    fn rare_below(&mut self, s: usize, rest: usize) -> usize {
        let mut below = self.rare_below[s];
        while below < self.rare.len() && (self.rare[below] as usize) < rest {
            below += 1;
        }
        self.rare_below[s] = below;
        below
    }

    /// Stores G(n) in the 16-bit copies, growing the back-to-front one at its front.
    fn mirror(&mut self, value: Nimber) {
        let n = self.fwd.len();
        if n == self.fwd.capacity() && !self.ahead.idle() {
            // Growing moves the values the blocks in flight read.
            self.ahead.drain();
        }
        // One slot spare: heap n + 1 reads G(rest) for rest up to n + 1 (Grundy's game).
        if n + 2 > self.rev.len() {
            let old = self.rev.len();
            let grown = (2 * old).max(1024);
            let mut rev = vec![0; grown];
            rev[grown - n..].copy_from_slice(&self.rev[old - n..]);
            self.rev = rev;
        }
        self.fwd.push(value as u16);
        let k = self.rev.len();
        self.rev[k - 1 - n] = value as u16;
    }

    /// Heaps `a >= 1` with parity(G(a) & mask) ^ (domain & a) odd.
    fn count_odd(&self, mask: u32, domain: usize) -> u64 {
        self.histogram
            .iter()
            .enumerate()
            .map(|(v, counts)| {
                let p = (v as u32 & mask).count_ones() as usize & 1;
                // counts[parity of a]: odd class when p ^ (domain & parity of a) == 1.
                counts[0] * (p as u64) + counts[1] * ((p ^ domain) as u64)
            })
            .sum()
    }
}

impl Sequence for SparseSpace {
    fn push_next(&mut self) {
        let n = self.len();
        if let Some(found) = self.proved {
            // The theorem guarantees the periodic extension: no need to compute.
            let value = self.value_at(found.reduce(n as u64) as usize);
            if self.narrow {
                self.mirror(value);
            } else {
                self.values.push(value);
            }
            return;
        }
        let value = if self.narrow {
            self.next_narrow(n)
        } else {
            self.next_wide(n)
        };
        let old_cap = self.cap;
        self.cap = cap_above(value, self.cap);
        if self.narrow && self.cap > NARROW_CAP {
            self.widen();
            self.values.push(value);
        } else if self.narrow {
            self.mirror(value);
        } else {
            self.values.push(value);
        }
        if self.cap != old_cap {
            self.seen.ensure(self.cap);
            self.need_marks.ensure(self.cap);
            if self.narrow {
                self.resize_tables();
            }
        }
        if n >= 1 {
            if self.histogram.len() <= value as usize {
                self.histogram.resize(value as usize + 1, [0, 0]);
            }
            self.histogram[value as usize][n & 1] += 1;
            if self.is_rare(n, value) {
                if (self.rare.len() == self.rare.capacity()
                    || self.rare_vals.len() == self.rare_vals.capacity())
                    && !self.ahead.idle()
                {
                    // Growing moves the rare heaps the blocks in flight read.
                    self.ahead.drain();
                }
                self.rare.push(n as u32);
                self.rare_vals.push(value as u16);
            }
        }
        if n + 1 == self.next_proof_check {
            if let Some(mut finder) = self.finder.take() {
                self.proved = self.values().find_with(&mut finder);
                self.finder = Some(finder);
            }
            // Looks cost a pass over the new candidate periods; callers that look on their
            // own (`solve`) look more often, so these only spare long runs (`nim-values`)
            // the values past a proof, within a quarter.
            self.next_proof_check += (self.next_proof_check / 4).max(1024);
        }
        if n + 1 == self.next_review {
            self.review();
            self.next_review = if self.next_review < REVIEW_EVERY {
                self.next_review * 2
            } else {
                self.next_review + REVIEW_EVERY
            };
        }
    }

    fn values(&self) -> Values<'_> {
        if self.narrow {
            Values::Narrow(&self.fwd)
        } else {
            Values::Wide(&self.values)
        }
    }

    fn into_values(self: Box<Self>) -> Vec<Nimber> {
        let len = self.len();
        self.into_prefix(len)
    }

    fn into_prefix(self: Box<Self>, len: usize) -> Vec<Nimber> {
        let mut engine = *self;
        engine.ahead.set_threads(1);
        if !engine.narrow {
            engine.values.truncate(len);
            return engine.values;
        }
        // The back-to-front copy goes first: the widened values take its place.
        engine.rev = Vec::new();
        let len = len.min(engine.fwd.len());
        engine.fwd[..len].iter().map(|&v| Nimber::from(v)).collect()
    }

    fn leave_periods_to_caller(&mut self) {
        self.finder = None;
    }

    fn set_threads(&mut self, threads: usize) {
        self.ahead
            .set_threads(if self.narrow { threads } else { 1 });
    }

    fn preload(&mut self, known: &[Nimber]) -> bool {
        if self.len() != 0 || known.len() < 2 {
            return false;
        }
        for (n, &value) in known.iter().enumerate() {
            self.cap = cap_above(value, self.cap);
            if self.narrow && self.cap > NARROW_CAP {
                self.widen();
                self.values.push(value);
            } else if self.narrow {
                self.mirror(value);
            } else {
                self.values.push(value);
            }
            if n >= 1 {
                if self.histogram.len() <= value as usize {
                    self.histogram.resize(value as usize + 1, [0, 0]);
                }
                self.histogram[value as usize][n & 1] += 1;
            }
        }
        self.seen.ensure(self.cap);
        self.need_marks.ensure(self.cap);
        let n = known.len();
        // The schedules as a run that computed them would have left them.
        while self.next_review <= n {
            self.next_review = if self.next_review < REVIEW_EVERY {
                self.next_review * 2
            } else {
                self.next_review + REVIEW_EVERY
            };
        }
        while self.next_proof_check <= n {
            self.next_proof_check += (self.next_proof_check / 4).max(1024);
        }
        // The split from the values' histogram, and its rare list (empty, all common,
        // when no split pays).
        self.resize_tables();
        self.review();
        true
    }

    fn proved(&self) -> Option<Periodicity> {
        self.proved
    }

    fn sparse_stats(&self) -> Option<SparseStats> {
        Some(SparseStats {
            rare: self.rare.len(),
            mask: self.mask,
            domain: self.domain == 1,
            pairs_scanned: self.pairs_scanned,
            largest: self.histogram.len().saturating_sub(1) as Nimber,
        })
    }

    fn held_bytes(&self) -> usize {
        self.values.capacity() * 4
            + self.fwd.capacity() * 2
            + self.rev.capacity() * 2
            + self.rare.capacity() * 4
            + self.rare_vals.capacity() * 2
            + self.histogram.capacity() * 16
            + (self.seen.marks.capacity() + self.need_marks.marks.capacity()) * 4
            + self.marks.capacity()
            + self.parity.capacity()
            + self.finder.as_ref().map_or(0, PeriodFinder::held_bytes)
            + self.ahead.held_bytes()
    }
}

//! Nim-value sequences G(0), G(1), ... of one-heap rulesets.
//!
//! Two independent engines compute them: [`MexReference`], the plain definition (the mex
//! over every option, as the ruleset enumerates them), and [`SparseSpace`], the rare/common
//! ("sparse space") method of Berlekamp, Gangolli-Plambeck and Flammenkamp for codes whose
//! moves leave at most two heaps. Both grow one heap size at a time, so callers can stop
//! as soon as a periodicity proof closes.

use std::ops::ControlFlow;

use self::scan::{Kernel, Wanted, BATCH};
use super::period::{PeriodFinder, Periodicity, ProofBound};
use crate::error::{Error, Hint, Result};
use crate::game::Ruleset;

mod scan;

/// A nim-value.
pub type Nimber = u32;

/// Most heap sizes a sequence may hold (4 bytes each): refuse more than this up front
/// rather than die half-way through an allocation.
pub const MAX_LEN: u64 = 1 << 30;

/// Which engine computes a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The mex over every option: slow, obviously right.
    Reference,
    /// The fastest engine for the ruleset (sparse space for take-and-break codes).
    Fast,
}

/// A nim-value sequence that grows on demand.
pub trait Sequence {
    /// Computes the next value, G(len).
    fn push_next(&mut self);
    /// The values computed so far, G(0..len).
    fn values(&self) -> &[Nimber];
    /// Computes values until `len` are known.
    fn extend_to(&mut self, len: usize) {
        while self.values().len() < len {
            self.push_next();
        }
    }
    /// Gives up the engine's own looks for a proved period, for callers that look on
    /// their own (a second look at the same values is wasted work).
    fn leave_periods_to_caller(&mut self) {}
    /// The values computed, G(0..len), without a copy.
    fn into_values(self: Box<Self>) -> Vec<Nimber>;
}

/// Refuses rulesets without nim-values and lengths that cannot fit in memory.
pub fn check_request(ruleset: &Ruleset, len: u64) -> Result<()> {
    if !ruleset.moves_one_heap() {
        return Err(Error::input(format!(
            "{ruleset} has moves that change two or more heaps at once, so its positions have no per-heap nim-values; ask about a position instead"
        )));
    }
    if len > MAX_LEN {
        return Err(Error::resource(format!(
            "cannot hold {len} nim-values in memory (at most {MAX_LEN}, 4 bytes each)"
        ))
        .with_hint(Hint::LowerMax));
    }
    Ok(())
}

/// Bytes the engine `method` holds for `len` values: 4 a value, and for the sparse-space
/// engine its two 16-bit copies of them (front to back and back to front) besides; its
/// other tables grow with the largest value or the rare heaps, which stay small.
pub fn bytes_needed(ruleset: &Ruleset, method: Method, len: u64) -> u128 {
    let per_value = match method {
        Method::Fast if !ruleset.nim_values_are_sizes() => 8,
        _ => 4,
    };
    u128::from(len) * per_value
}

/// Builds the engine `method` names for a one-heap ruleset, with room for `len` values.
pub fn engine(ruleset: &Ruleset, method: Method, len: u64) -> Result<Box<dyn Sequence>> {
    check_request(ruleset, len)?;
    crate::memory::check_fits(
        &format!("computing {len} nim-values"),
        bytes_needed(ruleset, method, len),
        Hint::LowerMax,
    )?;
    let mut values = Vec::new();
    values.try_reserve_exact(len as usize).map_err(|_| {
        Error::resource(format!(
            "not enough memory for {len} nim-values ({} MB)",
            (len * 4) >> 20
        ))
        .with_hint(Hint::LowerMax)
    })?;
    Ok(match method {
        Method::Reference => Box::new(MexReference::with_storage(ruleset.clone(), values)),
        Method::Fast if ruleset.nim_values_are_sizes() => Box::new(NimClosedForm { values }),
        Method::Fast => match SparseSpace::with_storage(ruleset, values) {
            Ok(fast) => Box::new(fast),
            Err(values) => Box::new(MexReference::with_storage(ruleset.clone(), values)),
        },
    })
}

/// Computes G(0..len) with the given engine.
pub fn nim_values(ruleset: &Ruleset, method: Method, len: u64) -> Result<Vec<Nimber>> {
    let mut sequence = engine(ruleset, method, len)?;
    sequence.extend_to(len as usize);
    Ok(sequence.into_values())
}

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

/// Smallest power of two above every value so far: no option value can reach it, since
/// values and their XORs stay below it, so the mex is at most it.
fn cap_above(value: Nimber, cap: u32) -> u32 {
    if value < cap {
        cap
    } else {
        (value as u64 + 1).next_power_of_two().min(1 << 31) as u32
    }
}

/// The plain definition: G(n) is the mex of the XORs of the parts of every option.
#[derive(Clone, Debug)]
pub struct MexReference {
    ruleset: Ruleset,
    values: Vec<Nimber>,
    seen: Stamps,
    cap: u32,
}

impl MexReference {
    /// An empty sequence for a one-heap ruleset.
    pub fn new(ruleset: Ruleset) -> Self {
        Self::with_storage(ruleset, Vec::new())
    }

    fn with_storage(ruleset: Ruleset, mut values: Vec<Nimber>) -> Self {
        values.clear();
        let mut seen = Stamps::default();
        seen.ensure(1);
        MexReference {
            ruleset,
            values,
            seen,
            cap: 1,
        }
    }
}

impl Sequence for MexReference {
    fn push_next(&mut self) {
        let n = self.values.len();
        let stamp = n as u32 + 1;
        let values = &self.values;
        let marks = &mut self.seen.marks;
        let _ = self.ruleset.for_each_heap_option(n as u64, |parts| {
            let v = parts.iter().fold(0, |acc, &p| acc ^ values[p as usize]);
            marks[v as usize] = stamp;
            ControlFlow::Continue(())
        });
        let mex = (0..=self.cap)
            .find(|&v| marks[v as usize] != stamp)
            .unwrap_or(self.cap);
        self.values.push(mex);
        self.cap = cap_above(mex, self.cap);
        self.seen.ensure(self.cap);
    }

    fn values(&self) -> &[Nimber] {
        &self.values
    }

    fn into_values(self: Box<Self>) -> Vec<Nimber> {
        self.values
    }
}

/// Nim: G(n) = n.
struct NimClosedForm {
    values: Vec<Nimber>,
}

impl Sequence for NimClosedForm {
    fn push_next(&mut self) {
        let n = self.values.len();
        self.values.push(n as Nimber);
    }

    fn values(&self) -> &[Nimber] {
        &self.values
    }

    fn into_values(self: Box<Self>) -> Vec<Nimber> {
        self.values
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
#[derive(Clone, Copy, Debug)]
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

/// Scans the pairs `(low[i], high[len - 1 - i])` for values still needed (marked with
/// `stamp` in `need`), clearing each one found; returns the pairs scanned, which stops
/// early once `waiting` reaches zero.
#[inline(always)]
fn scan_pairs(
    low: &[Nimber],
    high: &[Nimber],
    need: &mut [u32],
    stamp: u32,
    waiting: &mut u32,
) -> usize {
    for (i, (&x, &y)) in low.iter().zip(high.iter().rev()).enumerate() {
        let v = (x ^ y) as usize;
        if need[v] == stamp {
            need[v] = 0;
            *waiting -= 1;
            if *waiting == 0 {
                return i + 1;
            }
        }
    }
    low.len()
}

/// [`scan_pairs`] for values below [`SMALL_CAP`]: indexing a fixed-size array with a
/// masked value needs no bounds check.
#[inline(always)]
fn scan_pairs_small(
    low: &[Nimber],
    high: &[Nimber],
    need: &mut [u32; SMALL_CAP],
    stamp: u32,
    waiting: &mut u32,
) -> usize {
    for (i, (&x, &y)) in low.iter().zip(high.iter().rev()).enumerate() {
        let v = (x ^ y) as usize & (SMALL_CAP - 1);
        if need[v] == stamp {
            need[v] = 0;
            *waiting -= 1;
            if *waiting == 0 {
                return i + 1;
            }
        }
    }
    low.len()
}

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
    takes: Vec<Take>,
    splits: Vec<Split>,
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
const RARE_SHARE: u64 = 16;

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
        Self::with_storage(ruleset, Vec::new()).ok()
    }

    fn with_storage(
        ruleset: &Ruleset,
        mut values: Vec<Nimber>,
    ) -> std::result::Result<Self, Vec<Nimber>> {
        let mut takes = Vec::new();
        let mut splits = Vec::new();
        match ruleset {
            Ruleset::TakeBreak(code) => {
                let Some(last) = code.last_nonzero() else {
                    return Err(values);
                };
                for t in 0..=last {
                    let d = code.digit(t);
                    if d & 8 != 0 {
                        return Err(values);
                    }
                    if d & 3 != 0 {
                        takes.push(Take {
                            t: t as usize,
                            none: d & 1 != 0,
                            one: d & 2 != 0,
                        });
                    }
                    if d & 4 != 0 {
                        splits.push(Split {
                            t: t as usize,
                            unequal: false,
                        });
                    }
                }
            }
            Ruleset::Subtraction(set) => {
                for &s in set {
                    takes.push(Take {
                        t: usize::try_from(s).unwrap_or(usize::MAX),
                        none: true,
                        one: true,
                    });
                }
            }
            Ruleset::Grundy => splits.push(Split {
                t: 0,
                unequal: true,
            }),
            // Nim is its own closed form; Wythoff and Moore have no per-heap values.
            Ruleset::Nim | Ruleset::Wythoff | Ruleset::Moore(_) => return Err(values),
        }
        values.clear();
        let mut engine = SparseSpace {
            takes,
            splits,
            values,
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
        engine.fwd.reserve(engine.values.capacity());
        engine.rev = vec![0; engine.values.capacity().max(1024)];
        engine.rare_below = vec![0; engine.splits.len()];
        engine.batches = vec![RareBatch::NONE; engine.splits.len()];
        engine.resize_tables();
        Ok(engine)
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
        let n = self.values.len();
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
            self.warm = false;
            self.rare.clear();
            self.rare_vals.clear();
            for a in 1..n {
                if self.is_rare(a, self.values[a]) {
                    self.rare.push(a as u32);
                    self.rare_vals.push(self.values[a] as u16);
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

    /// G(n) by the 16-bit engine: marks from the takes and the rare pairs, then vector
    /// scans for witnesses of the values below `c` that common pairs may reach.
    fn next_narrow(&mut self, n: usize) -> Nimber {
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
        let g = &self.values[..];
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
        let (fwd, rev) = (&self.fwd[..], &self.rev[..]);
        let k = rev.len();
        let mut open = [false; 2];
        for (s, split) in self.splits.iter().enumerate() {
            if n < split.t + 2 {
                break;
            }
            let rest = n - split.t;
            open[self.domain & rest & 1] = true;
            let rare = &self.rare[..self.rare_below[s]];
            // rev[off + a] = G(rest - a).
            let off = k - 1 - rest;
            if split.unequal {
                for &a in rare {
                    let a = a as usize;
                    if 2 * a != rest {
                        marks[(fwd[a] ^ rev[off + a]) as usize] = 1;
                    }
                }
            } else {
                // The hottest loop for codes with many rare heaps (0.6): every index is in
                // range by construction, so the checks are asserted once, not per pair.
                let rare_vals = &self.rare_vals[..rare.len()];
                assert!(marks.len() == cap && cap.is_power_of_two());
                assert!(rare.last().is_none_or(|&a| off + (a as usize) < k));
                for (&a, &va) in rare.iter().zip(rare_vals) {
                    // SAFETY: a < rest, so off + a < k (asserted for the largest a); both
                    // values are below the power-of-two cap, so is their XOR.
                    unsafe {
                        let y = *rev.get_unchecked(off + a as usize);
                        *marks.get_unchecked_mut((va ^ y) as usize & (cap - 1)) = 1;
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
        let g = &self.values[..];
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
            if split.unequal {
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

impl SparseSpace {
    /// G(n) by the 32-bit engine, for values beyond the 16-bit copies.
    fn next_wide(&mut self, n: usize) -> Nimber {
        let stamp = n as u32 + 1;
        let g = &self.values[..];
        let seen = &mut self.seen.marks[..];
        for take in &self.takes {
            if take.t > n {
                break;
            }
            if take.t == n {
                if take.none {
                    seen[0] = stamp;
                }
            } else if take.one && take.t >= 1 {
                seen[g[n - take.t] as usize] = stamp;
            }
        }
        // Parities (of value & mask) that common-common pairs may reach, per split.
        let mut open = [false; 2];
        for split in &self.splits {
            if n < split.t + 2 {
                break;
            }
            let rest = n - split.t;
            open[self.domain & rest & 1] = true;
            let rare = &self.rare[..self.rare.partition_point(|&a| (a as usize) < rest)];
            let small = self.cap as usize <= SMALL_CAP;
            match <&mut [u32; SMALL_CAP]>::try_from(&mut seen[..SMALL_CAP]) {
                // The common case, kept free of bounds checks on the marks.
                Ok(fixed) if small && !split.unequal => {
                    for &a in rare {
                        let a = a as usize;
                        fixed[(g[a] ^ g[rest - a]) as usize & (SMALL_CAP - 1)] = stamp;
                    }
                }
                _ => {
                    for &a in rare {
                        let (a, b) = (a as usize, rest - a as usize);
                        if !(split.unequal && a == b) {
                            seen[(g[a] ^ g[b]) as usize] = stamp;
                        }
                    }
                }
            }
        }
        // c: the smallest unreached value no common-common pair can reach. Below it, the
        // unreached values of an open parity still need a witness pair.
        let need = &mut self.need_marks.marks[..];
        let mut waiting = [0u32; 2];
        let mut c = self.cap;
        for v in 0..self.cap {
            if seen[v as usize] == stamp {
                continue;
            }
            let parity = (v & self.mask).count_ones() as usize & 1;
            if !open[parity] {
                c = v;
                break;
            }
            need[v as usize] = stamp;
            waiting[parity] += 1;
        }
        // Witness scan for the values still needed. Splits take turns by blocks, so a
        // value one split never reaches does not cost a full pass before another split
        // finds it; blocks grow, since most heaps are settled within a few pairs.
        let mut from = 1;
        let mut block = 16;
        while waiting != [0, 0] {
            let mut active = false;
            for split in &self.splits {
                if n < split.t + 2 {
                    break;
                }
                let rest = n - split.t;
                let parity = self.domain & rest & 1;
                let half = if split.unequal {
                    (rest - 1) / 2
                } else {
                    rest / 2
                };
                if waiting[parity] == 0 || from > half {
                    continue;
                }
                active = true;
                let to = (from + block - 1).min(half);
                let low = &g[from..=to];
                let high = &g[rest - to..=rest - from];
                let small = self.cap as usize <= SMALL_CAP;
                let scanned = match <&mut [u32; SMALL_CAP]>::try_from(&mut need[..SMALL_CAP]) {
                    Ok(fixed) if small => {
                        scan_pairs_small(low, high, fixed, stamp, &mut waiting[parity])
                    }
                    _ => scan_pairs(low, high, need, stamp, &mut waiting[parity]),
                };
                self.pairs_scanned += scanned as u64;
            }
            if !active {
                break;
            }
            from += block;
            block = (block * 2).min(1 << 12);
        }
        if waiting == [0, 0] {
            c
        } else {
            (0..c).find(|&v| need[v as usize] == stamp).unwrap_or(c)
        }
    }
}

impl Sequence for SparseSpace {
    fn push_next(&mut self) {
        let n = self.values.len();
        if let Some(found) = self.proved {
            // The theorem guarantees the periodic extension: no need to compute.
            let value = self.values[found.reduce(n as u64) as usize];
            self.values.push(value);
            if self.narrow {
                self.mirror(value);
            }
            return;
        }
        let value = if self.narrow {
            self.next_narrow(n)
        } else {
            self.next_wide(n)
        };
        self.values.push(value);
        let old_cap = self.cap;
        self.cap = cap_above(value, self.cap);
        if self.cap != old_cap {
            if self.cap > NARROW_CAP {
                self.narrow = false;
                self.fwd = Vec::new();
                self.rev = Vec::new();
            }
            self.seen.ensure(self.cap);
            self.need_marks.ensure(self.cap);
            if self.narrow {
                self.resize_tables();
            }
        }
        if self.narrow {
            self.mirror(value);
        }
        if n >= 1 {
            if self.histogram.len() <= value as usize {
                self.histogram.resize(value as usize + 1, [0, 0]);
            }
            self.histogram[value as usize][n & 1] += 1;
            if self.is_rare(n, value) {
                self.rare.push(n as u32);
                self.rare_vals.push(value as u16);
            }
        }
        if n + 1 == self.next_proof_check {
            if let Some(finder) = &mut self.finder {
                self.proved = finder.check(&self.values);
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

    fn values(&self) -> &[Nimber] {
        &self.values
    }

    fn into_values(self: Box<Self>) -> Vec<Nimber> {
        self.values
    }

    fn leave_periods_to_caller(&mut self) {
        self.finder = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{resolve, Radix, TakeBreakCode};
    use proptest::prelude::*;

    fn rules(spec: &str) -> Ruleset {
        resolve(spec).unwrap().ruleset
    }

    fn both(ruleset: &Ruleset, len: u64) -> (Vec<Nimber>, Vec<Nimber>) {
        (
            nim_values(ruleset, Method::Reference, len).unwrap(),
            nim_values(ruleset, Method::Fast, len).unwrap(),
        )
    }

    /// OEIS A002188, the first 100 values.
    const GRUNDY_100: [Nimber; 100] = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2,
        3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3,
        2, 1, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3,
        7, 4, 3, 7, 4, 3, 5, 2, 3, 5,
    ];

    #[test]
    fn grundys_game_matches_oeis() {
        let (reference, fast) = both(&Ruleset::Grundy, 100);
        assert_eq!(reference, GRUNDY_100);
        assert_eq!(fast, GRUNDY_100);
    }

    #[test]
    fn kayles_starts_as_published() {
        // OEIS A002186.
        let (reference, fast) = both(&rules("octal:0.77"), 12);
        assert_eq!(reference, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
        assert_eq!(fast, reference);
    }

    #[test]
    fn engines_agree_on_classic_games() {
        for spec in [
            "octal:0.77",
            "octal:0.07",
            "octal:0.137",
            "octal:0.007",
            "octal:0.6",
            "octal:0.16",
            "octal:4.07",
            "octal:0.51",
            "hex:0.F6",
            "subtraction:1,3,4",
            "grundy",
        ] {
            let (reference, fast) = both(&rules(spec), 3000);
            assert_eq!(reference, fast, "{spec}");
        }
        let (reference, fast) = both(&Ruleset::Nim, 300);
        assert_eq!(reference, fast);
    }

    #[test]
    fn vector_engine_equals_reference_on_long_runs() {
        // Long enough for hundreds of values wanting witnesses at once (Treblecross has no
        // sparse split), the marking of first pairs, and several witness windows.
        for (spec, len) in [("octal:0.007", 9000), ("octal:0.6", 9000), ("grundy", 6000)] {
            let (reference, fast) = both(&rules(spec), len);
            assert_eq!(reference, fast, "{spec}");
        }
    }

    #[test]
    fn every_scan_kernel_gives_the_same_values() {
        for spec in [
            "octal:0.007",
            "octal:0.6",
            "octal:0.16",
            "octal:0.77",
            "grundy",
        ] {
            let ruleset = rules(spec);
            let reference = nim_values(&ruleset, Method::Reference, 3000).unwrap();
            for kernel in [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512] {
                if kernel != Kernel::Scalar && kernel != Kernel::detect() {
                    // Only what this processor runs (AVX-512 machines run AVX2 too).
                    if !(kernel == Kernel::Avx2 && Kernel::detect() == Kernel::Avx512) {
                        continue;
                    }
                }
                // Both the one-word path and the byte marks (Grundy's game, 0.16 and 0.77
                // stay below 64 within these values).
                for word_cap in [64, 0] {
                    let mut fast = SparseSpace::new(&ruleset).unwrap();
                    fast.kernel = kernel;
                    fast.word_cap = word_cap;
                    fast.extend_to(3000);
                    assert_eq!(
                        fast.values(),
                        &reference[..],
                        "{spec} {kernel:?} {word_cap}"
                    );
                }
            }
        }
    }

    #[test]
    fn wide_engine_equals_reference() {
        // The 32-bit path takes over once values pass 2^15; force it from the start.
        for spec in [
            "octal:0.77",
            "octal:0.007",
            "octal:0.16",
            "octal:0.6",
            "grundy",
        ] {
            let ruleset = rules(spec);
            let mut wide = SparseSpace::new(&ruleset).unwrap();
            wide.narrow = false;
            wide.extend_to(2500);
            let reference = nim_values(&ruleset, Method::Reference, 2500).unwrap();
            assert_eq!(wide.values(), &reference[..], "{spec}");
        }
    }

    #[test]
    fn sparse_space_finds_a_sparse_split_for_kayles_and_grundy() {
        for spec in ["octal:0.77", "grundy", "octal:0.16"] {
            let mut fast = SparseSpace::new(&rules(spec)).unwrap();
            fast.extend_to(20_000);
            assert!(fast.rare_count() < 2_000, "{spec}: {}", fast.rare_count());
        }
    }

    #[test]
    fn refuses_coupled_rulesets_and_huge_lengths() {
        assert!(engine(&Ruleset::Wythoff, Method::Fast, 10).is_err());
        assert!(engine(&Ruleset::Moore(2), Method::Reference, 10).is_err());
        assert!(engine(&Ruleset::Nim, Method::Fast, MAX_LEN + 1).is_err());
    }

    fn code_strategy() -> impl Strategy<Value = Ruleset> {
        codes_of_up_to(4)
    }

    /// Codes of up to 7 digits after the point (moves take up to 7), any digits.
    fn long_code_strategy() -> impl Strategy<Value = Ruleset> {
        codes_of_up_to(7)
    }

    /// Octal codes with `d0` 0 or 4 and 1 to `digits` digits after the point.
    fn codes_of_up_to(digits: usize) -> impl Strategy<Value = Ruleset> {
        (
            prop::sample::select(vec![0u8, 4]),
            prop::collection::vec(0u8..8, 1..digits + 1),
        )
            .prop_map(|(d0, digits)| {
                let text: String = std::iter::once(format!("{d0}."))
                    .chain(digits.iter().map(|d| d.to_string()))
                    .collect();
                Ruleset::TakeBreak(TakeBreakCode::parse(&text, Radix::Octal).unwrap())
            })
    }

    /// The scan kernels this processor runs.
    fn runnable_kernels() -> Vec<Kernel> {
        let mut kernels = vec![Kernel::Scalar];
        match Kernel::detect() {
            Kernel::Avx512 => kernels.extend([Kernel::Avx2, Kernel::Avx512]),
            Kernel::Avx2 => kernels.push(Kernel::Avx2),
            Kernel::Scalar => {}
        }
        kernels
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn sparse_space_equals_mex_reference(ruleset in code_strategy(), len in 1u64..400) {
            let (reference, fast) = both(&ruleset, len);
            prop_assert_eq!(reference, fast);
        }

        #[test]
        fn every_path_and_kernel_equals_mex_reference(
            ruleset in long_code_strategy(),
            len in 300usize..2500,
        ) {
            // Longer codes mix splits of both parities and several takes; lengths past the
            // first reviews give real rare/common splits.
            let reference = nim_values(&ruleset, Method::Reference, len as u64).unwrap();
            for kernel in runnable_kernels() {
                for word_cap in [64, 0] {
                    let mut fast = SparseSpace::new(&ruleset).unwrap();
                    fast.kernel = kernel;
                    fast.word_cap = word_cap;
                    fast.extend_to(len);
                    prop_assert_eq!(fast.values(), &reference[..], "{} {:?} {}", ruleset, kernel, word_cap);
                }
            }
        }

        #[test]
        fn hex_codes_agree(digits in prop::collection::vec(0u8..16, 1..4)) {
            let text: String = std::iter::once("0.".to_string())
                .chain(digits.iter().map(|d| format!("{d:X}")))
                .collect();
            let ruleset = Ruleset::TakeBreak(TakeBreakCode::parse(&text, Radix::Hex).unwrap());
            let (reference, fast) = both(&ruleset, 120);
            prop_assert_eq!(reference, fast);
        }
    }
}

//! Ultimate periods of heap sequences, and when a theorem turns a finite check into a proof.
//!
//! The periodicity theorem (Guy and Smith for octal codes): if no move removes more than
//! `t` tokens and every move leaves at most `k` heaps, and G(n + p) = G(n) for all
//! `n0 <= n < k*n0 + (k-1)*p + t` (with `n0 >= 1`), then G(n + p) = G(n) for every
//! `n >= n0`. For `k = 2` this is the octal theorem's `2*n0 + p + t`. Proof, by induction
//! on `N >= k*n0 + k*p + t`: an option of `N` leaves at most `k` parts summing to at least
//! `N - t >= k*(n0 + p)`, so its largest part `x` has `x - p >= n0 >= 1`, and replacing `x`
//! by `x - p` is an option of `N - p` with the same value (same removal, same number of
//! non-empty parts). Conversely the largest part `y` of an option of `N - p` has
//! `y >= n0`, and `y + p < N`, so `y -> y + p` maps it back. Hence both have the same
//! option values. For `k = 1` (subtraction games, take-only codes) this is the familiar
//! "a window of `t` equal values repeats forever", and it holds for any sequence defined by
//! the outcomes of the options alone, so it also proves misère single-heap outcomes.
//! Grundy's game and codes whose digits never end have no such theorem: sicher reports
//! their apparent periods as unproven.

use crate::game::Ruleset;

/// The parameters of the periodicity theorem for a ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofBound {
    /// Most heaps any move leaves.
    pub parts: u64,
    /// Most tokens any move removes.
    pub take: u64,
}

impl ProofBound {
    /// The theorem's parameters for `ruleset`, or `None` when no theorem applies.
    pub fn for_ruleset(ruleset: &Ruleset) -> Option<Self> {
        match ruleset {
            Ruleset::TakeBreak(_) | Ruleset::Subtraction(_) => Some(ProofBound {
                parts: u64::from(ruleset.max_parts()),
                take: ruleset.max_take()?,
            }),
            // Grundy's splits must be unequal, which the induction's shift does not keep;
            // Nim, Wythoff and Moore take without bound.
            // Infinite subtraction sets and scripts take without a bound.
            Ruleset::Grundy
            | Ruleset::Nim
            | Ruleset::Wythoff
            | Ruleset::Moore(_)
            | Ruleset::InfiniteSubtraction(_)
            | Ruleset::Custom(_) => None,
        }
    }

    /// How many values (indices `0..len`) the theorem needs to prove period `period` from
    /// `preperiod`: the check runs `n0 <= n < k*n0 + (k-1)*p + t`, plus `p` to compare with.
    pub fn needed_len(&self, preperiod: u64, period: u64) -> u64 {
        let n0 = preperiod.max(1);
        let k = self.parts.max(1);
        k.saturating_mul(n0)
            .saturating_add(k.saturating_mul(period))
            .saturating_add(self.take)
    }
}

/// An ultimate period found in a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Periodicity {
    /// The smallest `n0` with `s(n + p) = s(n)` for all `n >= n0`.
    pub preperiod: u64,
    /// The smallest such `p`.
    pub period: u64,
    /// `s` with `G(n + p) = G(n) + s` for `n >= preperiod`: 0 for an ordinary period,
    /// positive for an arithmetic one (see [`find_arithmetic`](super::find_arithmetic)).
    pub saltus: u64,
    /// The largest heap size whose value the proof used, when a theorem proves it; `None`
    /// when the period is only apparent in the values computed.
    pub proved_at: Option<u64>,
}

impl Periodicity {
    /// The index whose value a heap of size `h` shares (itself below the pre-period).
    pub fn reduce(&self, h: u64) -> u64 {
        if h < self.preperiod {
            h
        } else {
            self.preperiod + (h - self.preperiod) % self.period
        }
    }

    /// What a heap of size `h` adds to the value of the index it shares
    /// ([`reduce`](Self::reduce)): the saltus once per whole period past the pre-period.
    pub fn shift(&self, h: u64) -> u64 {
        if h < self.preperiod || self.saltus == 0 {
            0
        } else {
            self.saltus
                .saturating_mul((h - self.preperiod) / self.period)
        }
    }
}

/// The smallest period `p` (and its exact pre-period) that the theorem `bound` proves from
/// the values `seq`, if any.
///
/// The first proved `p` is the ultimate period: every true period is a multiple of it,
/// with the same pre-period, and needs at least as many values. One call costs a pass over
/// the candidate periods; callers that look again as the sequence grows keep a
/// [`PeriodFinder`] instead, which does not redo the work of earlier looks.
pub fn find_proved<T: PartialEq>(seq: &[T], bound: ProofBound) -> Option<Periodicity> {
    PeriodFinder::new(bound).check(seq)
}

/// A period the values show without proof: the smallest `p` whose agreement covers at
/// least as many values as the two-part theorem with no removal would want.
pub fn find_apparent<T: PartialEq>(seq: &[T]) -> Option<Periodicity> {
    find_proved(seq, ProofBound { parts: 2, take: 0 }).map(|found| Periodicity {
        proved_at: None,
        ..found
    })
}

/// Agreement runs at least this long (and two periods long) make a period "strong": it is
/// kept up to date at every look, and its multiples are settled from it without a scan.
const STRONG_RUN: usize = 256;

/// Most strong periods followed at once (each costs the new values at every look).
const MAX_STRONG: usize = 8;

/// A period whose agreement reaches far back, kept exact at every look.
#[derive(Clone, Copy, Debug)]
struct Strong {
    period: usize,
    /// D(period): the smallest `n0` with `s(n + period) = s(n)` for `n0 <= n < at_len - period`.
    agree_from: usize,
    /// The sequence length `agree_from` is exact for.
    at_len: usize,
}

/// Finds the smallest proved period of a growing sequence, looking again whenever asked.
///
/// Write `D(p)` for the smallest `n0` with `s(n + p) = s(n)` for all `n0 <= n < len - p`:
/// the theorem proves `p` once `needed_len(D(p), p) <= len`, that is once
/// `max(D(p), 1) + p <= J = (len - t) / k`. `D(p)` only grows with the sequence, and `J`
/// only grows, so a `p` whose last known `max(D(p), 1) + p` (its "key") is above `J` still
/// fails without looking at a value. Only periods whose key `J` has caught up are examined
/// again, from the end of the sequence down to their highest disagreement, which for a
/// wrong period lies near the end, pushing its key to about `len` again: each period is
/// examined about `log_k(len)` times in all, not once per look.
///
/// The expensive periods are the multiples of a true period `q` with a long pre-period:
/// they agree all the way back to `D(q)`. Such periods are "strong": followed at every
/// look (only the new values are compared), and a multiple `p = m*q` with
/// `D(q) - 1 + p < len` has `D(p) = D(q)` exactly (agreement from `D(q)` chains through
/// steps of `q`, and `s(D(q) - 1) != s(D(q) - 1 + q) = s(D(q) - 1 + p)`), so it is settled
/// without a scan. A long scan of any period `p` reveals the true one: the agreeing
/// stretch is at least `2p` long, so by Fine and Wilf its smallest period divides `p`.
///
/// Every answer equals [`find_proved`]'s on the same values (the tests compare it with a
/// plain scan); the sequence passed to [`check`](Self::check) must extend the one passed
/// before.
#[derive(Clone, Debug)]
pub struct PeriodFinder {
    bound: ProofBound,
    /// `key[p]` for `1 <= p < key.len()`: `max(D(p), 1) + p` as last examined (0: never).
    key: Vec<u32>,
    /// Every examined period, filed by its key when it was filed ([`bucket_of`]): a look
    /// opens only the buckets whose keys `J` has reached, not every period.
    buckets: Vec<Vec<u32>>,
    /// No bucket below this holds a period.
    low: usize,
    /// Periods due at this look, and an emptied bucket (both reused).
    due: Vec<u32>,
    spare: Vec<u32>,
    strong: Vec<Strong>,
    /// Length of the sequence at the last look.
    len: usize,
}

impl PeriodFinder {
    /// A finder for sequences of a ruleset with these theorem parameters.
    pub fn new(bound: ProofBound) -> Self {
        PeriodFinder {
            bound,
            key: Vec::new(),
            buckets: Vec::new(),
            low: 0,
            due: Vec::new(),
            spare: Vec::new(),
            strong: Vec::new(),
            len: 0,
        }
    }

    /// Bytes the finder holds: a key per candidate period, each period filed in one
    /// bucket, and the lists reused between looks.
    pub fn held_bytes(&self) -> usize {
        4 * (self.key.capacity()
            + self.buckets.iter().map(Vec::capacity).sum::<usize>()
            + self.due.capacity()
            + self.spare.capacity())
            + self.buckets.capacity() * std::mem::size_of::<Vec<u32>>()
    }

    /// `J`: a period `p` with pre-period `n0` is proved when `max(n0, 1) + p <= J`.
    fn limit(&self, len: usize) -> usize {
        let k = self.bound.parts.max(1);
        let spare = (len as u64).saturating_sub(self.bound.take);
        usize::try_from(spare / k).unwrap_or(usize::MAX)
    }

    /// The smallest period the theorem proves from `seq`, which must extend every sequence
    /// given before.
    pub fn check<T: PartialEq>(&mut self, seq: &[T]) -> Option<Periodicity> {
        let len = seq.len();
        debug_assert!(len >= self.len, "the sequence may only grow");
        if len >= (u32::MAX / 2) as usize {
            // Keys are u32; nothing this long is held in memory today.
            return find_proved_by_scan(seq, self.bound);
        }
        self.len = len;
        let limit = self.limit(len);
        for strong in &mut self.strong {
            refresh(seq, strong);
            if let Some(key) = self.key.get_mut(strong.period) {
                *key = (strong.agree_from.max(1) + strong.period) as u32;
            }
        }
        self.strong
            .retain(|s| (len - s.period).saturating_sub(s.agree_from) >= STRONG_RUN);
        let mut due = std::mem::take(&mut self.due);
        due.clear();
        // Keys only grow, so a period filed under a key above J still fails; the last
        // bucket opened may hold some that do not, filed again as they are.
        let last = bucket_of(limit.min(u32::MAX as usize) as u32);
        let mut list = std::mem::take(&mut self.spare);
        for b in self.low..self.buckets.len().min(last + 1) {
            if self.buckets[b].is_empty() {
                continue;
            }
            // Swapped with a spare list, so buckets keep their buffers across looks.
            std::mem::swap(&mut list, &mut self.buckets[b]);
            for &p in &list {
                let key = self.key[p as usize];
                if key as usize > limit {
                    self.file(p, key);
                } else {
                    due.push(p);
                }
            }
            list.clear();
        }
        self.spare = list;
        // Periods filed from here on have keys above J, in buckets from `last` on (but for
        // those filed back under their old keys once a period is found, which `file` sees).
        self.low = self.low.max(last.min(self.buckets.len()));
        let known = self.key.len().max(1);
        if known < limit {
            self.key.resize(limit, 0);
            due.extend(known as u32..limit as u32);
        }
        due.sort_unstable();
        let mut found = None;
        for (i, &p) in due.iter().enumerate() {
            let p = p as usize;
            let agree_from = self.examine(seq, p);
            let key = agree_from.max(1) + p;
            self.key[p] = key as u32;
            if key <= limit {
                let (preperiod, period) = (agree_from as u64, p as u64);
                found = Some(Periodicity {
                    preperiod,
                    period,
                    saltus: 0,
                    proved_at: Some(self.bound.needed_len(preperiod, period) - 1),
                });
                // The rest stay due, as they were.
                for &q in &due[i..] {
                    self.file(q, self.key[q as usize]);
                }
                break;
            }
            self.file(p as u32, key as u32);
        }
        self.due = due;
        found
    }

    fn file(&mut self, p: u32, key: u32) {
        let b = bucket_of(key);
        if self.buckets.len() <= b {
            self.buckets.resize_with(b + 1, Vec::new);
        }
        self.buckets[b].push(p);
        self.low = self.low.min(b);
    }

    /// D(p) for the current sequence, exactly.
    fn examine<T: PartialEq>(&mut self, seq: &[T], p: usize) -> usize {
        let len = seq.len();
        for strong in &self.strong {
            if strong.period == p {
                return strong.agree_from;
            }
            // A multiple of a strong period: its agreement is exactly the same, as long as
            // the disagreement just below it is still inside the sequence.
            if p.is_multiple_of(strong.period)
                && (strong.agree_from == 0 || strong.agree_from - 1 + p < len)
            {
                return strong.agree_from;
            }
        }
        let top = len - p;
        let agree_from = disagreement_below(seq, p, top, 0);
        let run = top - agree_from;
        if run >= STRONG_RUN && run >= p {
            self.make_strong(seq, p, agree_from);
        }
        agree_from
    }

    /// Follows the smallest period of the stretch `seq[from..]`, which has period `p` and
    /// is at least `2p` long.
    fn make_strong<T: PartialEq>(&mut self, seq: &[T], p: usize, from: usize) {
        let len = seq.len();
        // Fine and Wilf: the stretch's smallest period divides p.
        let q = (1..=p)
            .filter(|&q| p.is_multiple_of(q))
            .find(|&q| disagreement_below(seq, q, len - q, from) == from)
            .unwrap_or(p);
        let agree_from = disagreement_below(seq, q, from, 0);
        let strong = Strong {
            period: q,
            agree_from,
            at_len: len,
        };
        if let Some(key) = self.key.get_mut(q) {
            *key = (agree_from.max(1) + q) as u32;
        }
        match self.strong.iter_mut().find(|s| s.period == q) {
            Some(known) => *known = strong,
            None => self.strong.push(strong),
        }
        if self.strong.len() > MAX_STRONG {
            let shortest = (0..self.strong.len())
                .min_by_key(|&i| len - self.strong[i].period - self.strong[i].agree_from)
                .unwrap_or(0);
            self.strong.swap_remove(shortest);
        }
    }
}

/// Buckets per doubling of the key, as a power of two: finer than the growth of J from one
/// look to the next (`solve` looks every 1/64 more values), so the one bucket a look opens
/// only in part, whose periods are filed again, holds few.
const BUCKET_BITS: u32 = 7;

/// Bucket of a key: `2^BUCKET_BITS` buckets per doubling, ascending with the key, so the
/// keys a look reaches fill whole buckets but the last.
fn bucket_of(key: u32) -> usize {
    if key < 1 << BUCKET_BITS {
        key as usize
    } else {
        let e = 31 - key.leading_zeros();
        ((e - BUCKET_BITS + 1) << BUCKET_BITS) as usize
            + ((key >> (e - BUCKET_BITS)) & ((1 << BUCKET_BITS) - 1)) as usize
    }
}

/// Brings a strong period up to the sequence's current length, comparing only new values.
fn refresh<T: PartialEq>(seq: &[T], strong: &mut Strong) {
    let len = seq.len();
    let p = strong.period;
    let old_top = strong.at_len - p;
    let new = disagreement_below(seq, p, len - p, old_top);
    if new > old_top {
        strong.agree_from = new;
    }
    strong.at_len = len;
}

/// Scanning down from `top` (exclusive) to `floor`: one more than the highest `n` with
/// `seq[n] != seq[n + p]`, or `floor` when they agree all the way.
fn disagreement_below<T: PartialEq>(seq: &[T], p: usize, top: usize, floor: usize) -> usize {
    if top <= floor {
        return floor;
    }
    let (head, tail) = (&seq[floor..top], &seq[floor + p..top + p]);
    head.iter()
        .zip(tail)
        .rposition(|(a, b)| a != b)
        .map_or(floor, |i| floor + i + 1)
}

/// The plain definition behind [`find_proved`]: every period in turn, each scanned from the
/// end. Kept as the reference the finder is tested against, and for lengths beyond u32.
pub fn find_proved_by_scan<T: PartialEq>(seq: &[T], bound: ProofBound) -> Option<Periodicity> {
    let len = seq.len() as u64;
    let mut period = 1;
    while bound.needed_len(0, period) <= len {
        let preperiod = last_disagreement(seq, period);
        if bound.needed_len(preperiod, period) <= len {
            return Some(Periodicity {
                preperiod,
                period,
                saltus: 0,
                proved_at: Some(bound.needed_len(preperiod, period) - 1),
            });
        }
        period += 1;
    }
    None
}

/// The smallest `n0` such that `seq[n + p] == seq[n]` for all `n0 <= n < len - p`.
fn last_disagreement<T: PartialEq>(seq: &[T], period: u64) -> u64 {
    let p = period as usize;
    if p >= seq.len() {
        return 0;
    }
    let (head, tail) = (&seq[..seq.len() - p], &seq[p..]);
    head.iter()
        .zip(tail)
        .rposition(|(a, b)| a != b)
        .map_or(0, |i| i as u64 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_period_and_preperiod() {
        let seq: Vec<u32> = (0..200).map(|n| if n < 5 { 9 } else { n % 3 }).collect();
        let found = find_proved(&seq, ProofBound { parts: 2, take: 2 }).unwrap();
        assert_eq!((found.preperiod, found.period), (5, 3));
        assert_eq!(found.proved_at, Some(2 * 5 + 2 * 3 + 2 - 1));
        assert_eq!(found.reduce(100), 5 + (95 % 3));
    }

    #[test]
    fn short_data_proves_nothing() {
        let seq = [0u32, 1, 0, 1, 0, 1];
        assert_eq!(find_proved(&seq, ProofBound { parts: 2, take: 3 }), None);
    }

    #[test]
    fn multiples_of_a_long_period_cost_no_rescans() {
        // Period 4 from 20_000 after an irregular start: before the proof every multiple of 4
        // agrees back to the pre-period, which a scan per multiple per look would pay for.
        let pre = 20_000usize;
        let seq: Vec<u8> = (0..2 * pre + 40)
            .map(|n| {
                if n < pre {
                    (n * n % 7) as u8
                } else {
                    [1, 2, 1, 3][n % 4]
                }
            })
            .collect();
        let bound = ProofBound { parts: 2, take: 3 };
        let mut finder = PeriodFinder::new(bound);
        let mut len = 256;
        while len < seq.len() {
            let found = finder.check(&seq[..len]);
            assert_eq!(found, find_proved_by_scan(&seq[..len], bound), "at {len}");
            len += len / 16;
        }
        let found = finder.check(&seq).unwrap();
        assert_eq!((found.preperiod, found.period), (pre as u64, 4));
    }

    /// Sequences with a planted ultimate period, late exceptions, and a small alphabet, so
    /// that wrong periods agree for a while and multiples agree far back.
    fn planted() -> impl Strategy<Value = Vec<u8>> {
        (
            1usize..4,
            prop::collection::vec(0u8..4, 0..400),
            prop::collection::vec(0u8..4, 1..24),
            1usize..2500,
            prop::collection::vec((0usize..2500, 0u8..4), 0..3),
        )
            .prop_map(|(alphabet, pre, cycle, tail, exceptions)| {
                let mut seq: Vec<u8> = pre.iter().map(|v| v % (alphabet as u8 + 1)).collect();
                seq.extend((0..tail).map(|i| cycle[i % cycle.len()]));
                let len = seq.len();
                for (at, v) in exceptions {
                    seq[at % len] = v;
                }
                seq
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]
        #[test]
        fn incremental_finder_equals_the_plain_scan(
            seq in planted(),
            parts in 1u64..4,
            take in 0u64..6,
            steps in prop::collection::vec(1usize..400, 1..12),
        ) {
            let bound = ProofBound { parts, take };
            let mut finder = PeriodFinder::new(bound);
            let mut len = 0usize;
            for step in steps.iter().chain(std::iter::once(&usize::MAX)) {
                len = len.saturating_add(*step).min(seq.len());
                let prefix = &seq[..len];
                prop_assert_eq!(finder.check(prefix), find_proved_by_scan(prefix, bound), "len {}", len);
                if len == seq.len() {
                    break;
                }
            }
            prop_assert_eq!(find_proved(&seq, bound), find_proved_by_scan(&seq, bound));
        }
    }
}

//! Recalibration: when heap `n` tells apart positions that `Q_{n-1}` identifies, find
//! the relations of `Q_{n-1}` that heap `n` breaks.
//!
//! The search starts from the layout that rebuilds `Q_{n-1}` with heap `n` fresh
//! ([`Layout::rebuilding`]), whose candidate is the conservative extension that just
//! failed. While the candidate fails, it tries changes one relation at a time: drop a
//! relation between generators, lengthen a fresh heap's cycle (its preperiod, or a
//! multiple of its period), or free a word heap into a generator of its own. Changes
//! that touch the heaps of the least mispredicted position (and the generators in their
//! words) come first, then the others, then pairs of the first kind. The separation of
//! the failure from its twin first drops only the relations of its heaps up to its
//! largest heap below `n`: dropping the later ones too multiplies every later stage of
//! the candidate by the separated cycles (octal:4.7 builds products of most of a million
//! elements that way), and is tried only after the single changes at the failure, unless
//! its product stays small. It keeps the change whose least failure lies furthest on in
//! colexicographic order, so the failures increase strictly, as MisereSolver's
//! candidates do (Siegel, miseregames blog, 2007).
//! Every candidate is checked by the verification theorem, so whatever the search
//! accepts is exact; the search only decides how soon.

use std::collections::HashSet;

use super::budget::{table_bytes, Budget, Stop};
use super::extend::representatives;
use super::layout::{build, build_unreduced, least_failure, Candidate, Kind, Layout, Relation};
use super::monoid::Monoid;
use super::options::HeapOptions;
use super::stage::{distinct_heaps, Stage};

/// One change of a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Change {
    /// Heap `h` (fresh, or a word set free) gets a cycle at least `(min_r, d_mult)`.
    Cycle { h: u32, min_r: u32, d_mult: u32 },
    /// The relation with this index is no longer assumed.
    Drop(usize),
    /// No relation involving fresh heap `h` is assumed: relations are redundant (one
    /// identification follows from several), so dropping one rarely undoes it.
    Isolate(u32),
    /// Relations involving fresh heap `h` imposed at stages up to `s` are dropped.
    IsolateBelow(u32, u32),
    /// Word heap `h`, set free by a `Cycle` change, still acts as its word `w` in
    /// products: `x_h·x_g = w·x_g` is assumed for every fresh `g` (each relation can be
    /// dropped later). A heap that stops being its word usually differs from it only
    /// alone or next to a few heaps, and a generator with no relation at all multiplies
    /// the candidate by its cycle.
    Shadow(u32),
}

fn apply(layout: &Layout, changes: &[Change], failure: &[u32]) -> Layout {
    let mut out = layout.clone();
    for &change in changes {
        match change {
            Change::Shadow(_) => {}
            Change::Cycle { h, min_r, d_mult } => {
                out.kinds[h as usize] = Kind::Fresh { min_r, d_mult };
            }
            Change::Drop(i) => out.relations[i] = None,
            Change::Isolate(h) => {
                for relation in &mut out.relations {
                    if relation.as_ref().is_some_and(|r| r.involves(h)) {
                        *relation = None;
                    }
                }
            }
            Change::IsolateBelow(h, s) => {
                for relation in &mut out.relations {
                    if relation
                        .as_ref()
                        .is_some_and(|r| r.involves(h) && r.stage <= s)
                    {
                        *relation = None;
                    }
                }
            }
        }
    }
    for &change in changes {
        if let Change::Shadow(h) = change {
            let Kind::Word(word) = &layout.kinds[h as usize] else {
                continue;
            };
            // Not next to the heaps of the failure, which the word got wrong.
            let fresh: Vec<u32> = (1..out.kinds.len() as u32)
                .filter(|&g| matches!(out.kinds[g as usize], Kind::Fresh { .. }))
                .filter(|g| !failure.contains(g))
                .collect();
            for g in fresh {
                out.relations.push(Some(Relation {
                    lhs: times(&[(h, 1)], g),
                    rhs: times(word, g),
                    stage: g.max(h),
                }));
            }
        }
    }
    out
}

/// `word · x_g` as a word.
fn times(word: &[(u32, u64)], g: u32) -> Vec<(u32, u64)> {
    let mut out = word.to_vec();
    match out.iter_mut().find(|(f, _)| *f == g) {
        Some((_, e)) => *e += 1,
        None => out.push((g, 1)),
    }
    out
}

/// The stage of heaps `1..=n` that the search accepts, or why it stopped.
pub(crate) fn recalibrate(old: &Stage, opts: &HeapOptions, budget: &Budget) -> Result<Stage, Stop> {
    let n = old.n() + 1;
    let mut layout = Layout::rebuilding(old);
    let mut current = build(&layout, opts, budget)?;
    let mut failure = match least_failure(&current.stage, budget)? {
        None => return Ok(current.stage),
        Some(w) => w,
    };
    // Mispredicted positions met so far. A candidate that mispredicts one at or below
    // the failure to beat cannot beat it, which a look at that one position shows.
    let mut known: Vec<Vec<u32>> = vec![failure.clone()];
    let mut rebuilds = 0u32;
    let mut growth = Growth {
        streak: vec![0; n as usize + 1],
        ceiling: vec![u32::MAX; n as usize + 1],
    };
    loop {
        let near = suspects(&layout, &failure, n);
        let far: Vec<u32> = (1..=n).rev().filter(|h| !near.contains(h)).collect();
        let mut best: Option<(Vec<u32>, Layout, Candidate)> = None;
        let mut best_changes = Vec::new();
        // The least order among candidates refused for the order bound in this look.
        let mut over_bound: Option<u64> = None;
        // Heaps of the failure whose preperiod kept growing: their lengthenings, then
        // the separation, come before the other changes (which such a failure mostly
        // rules out, one full build each).
        let growing: Vec<u32> = near
            .iter()
            .copied()
            .filter(|&h| growth.streak[h as usize] >= 2)
            .collect();
        let mut tiers: Vec<Tier> = Vec::new();
        if growing.is_empty() {
            tiers.extend([Tier::KeptNear, Tier::SeparateSmall, Tier::Separate]);
        } else {
            tiers.extend([
                Tier::KeptGrowing,
                Tier::SeparateSmall,
                Tier::Separate,
                Tier::KeptNear,
            ]);
        }
        tiers.extend([
            Tier::DearNear,
            Tier::SeparateAll,
            Tier::CheapFar,
            Tier::CheapNear,
            Tier::Pairs,
            Tier::DearFar,
        ]);
        let mut tried: HashSet<Vec<Change>> = HashSet::new();
        // The whole separation, when `SeparateSmall` refused it for its size.
        let mut too_large: Option<Vec<Change>> = None;
        for &kind in &tiers {
            let candidates: Vec<Vec<Change>> = match kind {
                Tier::KeptGrowing => cheap_kept(&layout, &current, &growing, &growth),
                Tier::KeptNear => cheap_kept(&layout, &current, &near, &growth),
                Tier::SeparateSmall => vec![separate(&layout, &current, &failure, Reach::All)],
                // The separation refused for its size is tried again within the full
                // budget: at once when the narrow one is the same, else after the dear
                // single changes.
                Tier::Separate | Tier::SeparateAll => {
                    let reach = if kind == Tier::Separate {
                        Reach::Below
                    } else {
                        Reach::All
                    };
                    let changes = separate(&layout, &current, &failure, reach);
                    let mut sorted = changes.clone();
                    sorted.sort_unstable();
                    if too_large.as_ref() == Some(&sorted) {
                        tried.remove(&sorted);
                        too_large = None;
                    }
                    vec![changes]
                }
                Tier::DearNear => singles(&layout, &current, &near, Cost::Dear, &growth),
                Tier::CheapFar => singles(&layout, &current, &far, Cost::Cheap, &growth),
                Tier::CheapNear => singles(&layout, &current, &near, Cost::Cheap, &growth),
                Tier::Pairs => pairs(&layout, &current, &near, &growth),
                Tier::DearFar => singles(&layout, &current, &far, Cost::Dear, &growth),
            };
            for mut changes in candidates {
                changes.sort_unstable();
                if !tried.insert(changes.clone()) {
                    continue;
                }
                rebuilds += 1;
                if rebuilds > budget.max_rebuilds {
                    return Err(Stop::Rebuilds);
                }
                if budget.past_deadline() {
                    return Err(Stop::Time);
                }
                let changed = apply(&layout, &changes, &failure);
                let to_beat = best.as_ref().map_or(&failure, |(b, _, _)| b);
                // Known failures rule a candidate out as soon as its last heap is in,
                // except a lengthening of a growing preperiod, whose order the bound on
                // it must see.
                let early: Vec<&[u32]> = if growth.lengthens(&changes, &current).is_some() {
                    Vec::new()
                } else {
                    known
                        .iter()
                        .filter(|w| *w <= to_beat)
                        .map(Vec::as_slice)
                        .collect()
                };
                // The current candidate and the best of this look stay alive while the
                // next one is built: the memory bound counts them.
                let held = table_bytes(current.stage.q.order())
                    + best
                        .as_ref()
                        .map_or(0, |(_, _, b)| table_bytes(b.stage.q.order()));
                let mut budget = budget.holding(held);
                if kind == Tier::SeparateSmall {
                    budget.max_candidate = budget.max_candidate.min(SMALL_SEPARATION);
                }
                let budget = &budget;
                let built = match build_unreduced(&changed, opts, budget, &early) {
                    Ok(Some(built)) => built,
                    Ok(None) => continue,
                    Err(Stop::Order(order)) => {
                        // A growing preperiod that takes the candidate past the order
                        // bound: the next looks stay below it; when even one more
                        // power does, the quotient outgrows the bound.
                        if let Some((h, min_r)) = growth.lengthens(&changes, &current) {
                            let r = current.cycles[h as usize].map_or(0, |c| c.0);
                            if min_r <= r + 1 {
                                return Err(Stop::Order(order));
                            }
                            let ceiling = &mut growth.ceiling[h as usize];
                            *ceiling = (*ceiling).min(min_r);
                        }
                        over_bound = Some(over_bound.map_or(order, |o| o.min(order)));
                        continue;
                    }
                    // A change that blows a budget is just not taken.
                    Err(Stop::Candidate(_)) if kind == Tier::SeparateSmall => {
                        too_large = Some(changes.clone());
                        continue;
                    }
                    Err(Stop::Candidate(_) | Stop::Pairs) => continue,
                    // The memory bound, like the deadline, stops the construction: a
                    // search that skipped what it cannot afford would thrash instead.
                    Err(stop) => return Err(stop),
                };
                let to_beat = best.as_ref().map_or(&failure, |(b, _, _)| b);
                // Looked at before the reduced table is made: most candidates fall here.
                let ruled_out = known.iter().any(|w| w <= to_beat && built.mispredicts(w));
                if ruled_out {
                    continue;
                }
                let next = built.finish(budget)?;
                let stage = &next.stage;
                let verdict = match least_failure(stage, budget) {
                    Ok(verdict) => verdict,
                    Err(Stop::Pairs) => continue,
                    Err(stop) => return Err(stop),
                };
                let Some(w) = verdict else {
                    return Ok(next.stage);
                };
                if !known.contains(&w) {
                    known.push(w.clone());
                }
                if w > *to_beat {
                    best_changes = changes.clone();
                    best = Some((w, changed, next));
                    // Changes come most likely first: the first that moves the failure
                    // on is taken, as the next failure gets a look of its own.
                    break;
                }
            }
            if best.is_some() {
                break;
            }
        }
        match best {
            Some((w, changed, next)) => {
                growth.record(&best_changes, &current);
                // The candidate's own presentation lays out what it learnt compactly:
                // a layout that only drops relations grows like the product of the
                // generators it freed.
                // A change that only lengthens preperiods that keep growing keeps every
                // relation, so the layout stays as compact as it was: no rebuild.
                let relations_kept = best_changes.iter().all(
                    |c| matches!(*c, Change::Cycle { h, .. } if growth.streak[h as usize] >= 2),
                );
                let compact = Layout::of(&next.stage);
                let rebuilt = if relations_kept {
                    Err(Stop::Stuck)
                } else {
                    let held =
                        table_bytes(current.stage.q.order()) + table_bytes(next.stage.q.order());
                    build(&compact, opts, &budget.holding(held))
                };
                if let Ok(rebuilt) = rebuilt {
                    let v = least_failure(&rebuilt.stage, budget)?;
                    match v {
                        None => return Ok(rebuilt.stage),
                        Some(v) if v >= w => {
                            failure = v;
                            layout = compact;
                            current = rebuilt;
                            continue;
                        }
                        _ => {}
                    }
                }
                failure = w;
                layout = changed;
                current = next;
            }
            // Every change that moved the failure on may have been one the order bound
            // refused: then the bound is what stopped the search, and raising it is
            // what lets it go on.
            None => return Err(over_bound.map_or(Stop::Stuck, Stop::Order)),
        }
    }
}

/// The changes that undo every identification of the failure with the position the
/// candidate took it for (the least one with the same element, which is predicted
/// right): each heap of either is set apart, a word heap freed, a fresh heap isolated,
/// and its cycle made long enough that no power either uses wraps round. The candidate
/// may grow by the product of those cycles; the compact rebuild after it shrinks it again.
fn separate(layout: &Layout, current: &Candidate, failure: &[u32], reach: Reach) -> Vec<Change> {
    let stage = &current.stage;
    let n = stage.n();
    let x = failure.iter().fold(stage.q.identity(), |acc, &h| {
        stage.q.mul(acc, stage.element[h as usize])
    });
    let reps = representatives(&stage.q, &distinct_heaps(&stage.element, n + 1));
    let twin = reps.word(x).unwrap_or_default();
    let mut out = Vec::new();
    let mut heaps: Vec<u32> = failure.iter().chain(&twin).copied().collect();
    heaps.sort_unstable();
    heaps.dedup();
    let below_n = heaps.iter().copied().filter(|&h| h != n).max().unwrap_or(0);
    for h in heaps {
        let m = failure.iter().filter(|&&g| g == h).count() as u32;
        match &layout.kinds[h as usize] {
            // A word heap of either side may be what makes them equal.
            Kind::Word(_) => out.push(Change::Cycle {
                h,
                min_r: m,
                d_mult: 1,
            }),
            // The new heap's cycle comes from rows over the rest: only a power of it can
            // be wrong, never a relation.
            Kind::Fresh { min_r, d_mult } if m > 0 => {
                let (r, _) = current.cycles[h as usize].unwrap_or((*min_r, 1));
                if h != n {
                    // Written as the narrow change when the two drop the same relations,
                    // so that the search does not build the same candidate twice.
                    let later = layout
                        .relations
                        .iter()
                        .flatten()
                        .any(|r| r.involves(h) && r.stage > below_n);
                    out.push(match reach {
                        Reach::All if later => Change::Isolate(h),
                        _ => Change::IsolateBelow(h, below_n),
                    });
                }
                if m > 1 || h != n {
                    out.push(Change::Cycle {
                        h,
                        min_r: r.max(m - 1),
                        d_mult: *d_mult,
                    });
                }
            }
            Kind::Fresh { .. } => {}
        }
    }
    out
}

/// The largest product the whole separation may build before the narrow one is tried.
/// Each separated heap multiplies every later stage by its cycle; octal:4.7 gets products
/// of most of a million elements that way, which reduce to a few hundred.
const SMALL_SEPARATION: u64 = 1 << 17;

/// The kinds of change one look tries, in the order it tries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tier {
    /// Cheap changes that keep every relation, at heaps whose preperiod keeps growing.
    KeptGrowing,
    /// Cheap changes that keep every relation, at the failure's heaps.
    KeptNear,
    /// The failure separated from its twin, dropping every relation of the separated
    /// heaps, when its candidate stays within [`SMALL_SEPARATION`] elements.
    SeparateSmall,
    /// The failure separated from its twin, dropping the relations below it.
    Separate,
    /// The whole separation again, within the full candidate budget, when it was too
    /// large for `SeparateSmall`.
    SeparateAll,
    /// Dear single changes at the failure's heaps.
    DearNear,
    /// Cheap single changes elsewhere.
    CheapFar,
    /// Cheap single changes at the failure's heaps.
    CheapNear,
    /// Pairs of cheap changes at the failure's heaps.
    Pairs,
    /// Dear single changes elsewhere.
    DearFar,
}

/// Which relations of a separated heap [`separate`] drops.
#[derive(Clone, Copy)]
enum Reach {
    /// Those imposed at stages up to the largest heap of the failure and its twin
    /// below `n`: the relations that can identify the two (a relation of a larger heap
    /// only identifies positions that contain it, or one of its stage's products).
    Below,
    /// Every relation involving the heap.
    All,
}

/// Heaps whose relations the least failure used: its heaps, and the fresh heaps in
/// the words of its word heaps, largest first.
fn suspects(layout: &Layout, failure: &[u32], n: u32) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for &h in failure {
        if !out.contains(&h) {
            out.push(h);
        }
        if let Kind::Word(word) = &layout.kinds[h as usize] {
            for &(f, _) in word {
                if !out.contains(&f) {
                    out.push(f);
                }
            }
        }
    }
    // Heap n's own cycle comes from rows over the rest, so it is the least suspect.
    out.sort_unstable_by_key(|&h| (h == n, std::cmp::Reverse(h)));
    out
}

/// How the preperiods of fresh heaps grew during one recalibration.
struct Growth {
    /// Per heap: how many taken changes lengthened its preperiod in this recalibration
    /// (in any order: two powers that tell positions apart together grow in turn, with
    /// other changes in between).
    streak: Vec<u32>,
    /// Per heap: the least preperiod asked for that took the candidate past the order
    /// bound (`u32::MAX`: none did).
    ceiling: Vec<u32>,
}

impl Growth {
    /// The heap and preperiod of `changes` when it is one lengthening of a heap whose
    /// preperiod keeps growing.
    fn lengthens(&self, changes: &[Change], current: &Candidate) -> Option<(u32, u32)> {
        let [Change::Cycle { h, min_r, .. }] = *changes else {
            return None;
        };
        let before = current.cycles[h as usize].map_or(0, |c| c.0);
        (min_r > before && self.streak[h as usize] >= 2).then_some((h, min_r))
    }

    /// Counts the lengthenings of a taken change.
    fn record(&mut self, changes: &[Change], current: &Candidate) {
        let lengthened: Vec<bool> = (0..self.streak.len())
            .map(|h| {
                let before = current.cycles[h].map_or(0, |c| c.0);
                changes.iter().any(|c| {
                    matches!(*c, Change::Cycle { h: g, min_r, .. } if g as usize == h && min_r > before)
                })
            })
            .collect();
        for (times, grew) in self.streak.iter_mut().zip(lengthened) {
            *times += u32::from(grew);
        }
    }
}

/// Whether a change keeps the candidate about as large (dropping one relation, a longer
/// cycle, a word heap set free that still acts as its word) or may multiply it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cost {
    Cheap,
    Dear,
}

/// Changes one relation away from `layout` at each heap of `heaps`, in order.
fn singles(
    layout: &Layout,
    attempt: &Candidate,
    heaps: &[u32],
    cost: Cost,
    growth: &Growth,
) -> Vec<Vec<Change>> {
    let mut all: Vec<Vec<Change>> = heaps
        .iter()
        .flat_map(|&h| at_heap(layout, attempt, h, cost, growth))
        .collect();
    // A word freed or a cycle lengthened undoes one identification of a heap in the
    // failure; a dropped relation often leaves the same identification by another way.
    // A heap whose preperiod kept growing in this recalibration is likeliest to need it
    // again, so its lengthenings come first.
    all.sort_by_key(|c| {
        let growing = matches!(c[0], Change::Cycle { h, .. } if growth.streak[h as usize] >= 2);
        (matches!(c[0], Change::Drop(_)), !growing)
    });
    all
}

/// The cheap single changes at `heaps` that keep every relation.
fn cheap_kept(
    layout: &Layout,
    attempt: &Candidate,
    heaps: &[u32],
    growth: &Growth,
) -> Vec<Vec<Change>> {
    singles(layout, attempt, heaps, Cost::Cheap, growth)
        .into_iter()
        .filter(|c| !matches!(c[0], Change::Drop(_)))
        .collect()
}

/// Pairs of cheap single changes at two different heaps of `heaps`.
fn pairs(layout: &Layout, attempt: &Candidate, heaps: &[u32], growth: &Growth) -> Vec<Vec<Change>> {
    let per_heap: Vec<Vec<Vec<Change>>> = heaps
        .iter()
        .map(|&h| at_heap(layout, attempt, h, Cost::Cheap, growth))
        .collect();
    let mut out = Vec::new();
    for (i, first) in per_heap.iter().enumerate() {
        for later in &per_heap[i + 1..] {
            for a in first {
                for b in later {
                    out.push([&a[..], &b[..]].concat());
                }
            }
        }
    }
    out
}

/// The changes of one relation at heap `h` of the given cost: its cycle, each assumed
/// relation between generators that involves it, or (dear) all of them at once; for a
/// word heap, its freedom from its word, shadowed (cheap) or not (dear).
fn at_heap(
    layout: &Layout,
    attempt: &Candidate,
    h: u32,
    cost: Cost,
    growth: &Growth,
) -> Vec<Vec<Change>> {
    let mut out = Vec::new();
    match (&layout.kinds[h as usize], cost) {
        (Kind::Fresh { min_r, d_mult }, Cost::Cheap) => {
            let (r, _) = attempt.cycles[h as usize].unwrap_or((*min_r, 1));
            // A preperiod lengthened at each of the last looks is lengthened by twice as
            // much each time: a power that keeps telling positions apart gets a long
            // preperiod (or shows the quotient outgrowing its budget) in a few looks
            // instead of one per power.
            // Below a preperiod that took the candidate past the order bound, halfway.
            let times = growth.streak.get(h as usize).copied().unwrap_or(0);
            if times >= 2 {
                let jump = 1u32 << times.min(16);
                let ceiling = growth.ceiling[h as usize];
                let min_r = r
                    .saturating_add(jump)
                    .min(r + ceiling.saturating_sub(r) / 2);
                if min_r > r + 2 {
                    out.push(vec![Change::Cycle {
                        h,
                        min_r,
                        d_mult: *d_mult,
                    }]);
                }
            }
            for (min_r, d_mult) in [(r + 1, *d_mult), (*min_r, d_mult * 2), (r + 2, *d_mult)] {
                out.push(vec![Change::Cycle { h, min_r, d_mult }]);
            }
            for (i, relation) in layout.relations.iter().enumerate() {
                let assumed = relation.as_ref().is_some_and(|r| r.involves(h));
                if assumed && !attempt.refused.contains(&i) {
                    out.push(vec![Change::Drop(i)]);
                }
            }
        }
        (Kind::Fresh { min_r, d_mult }, Cost::Dear) => {
            let involved = layout
                .relations
                .iter()
                .filter(|r| r.as_ref().is_some_and(|r| r.involves(h)))
                .count();
            if involved > 1 {
                out.push(vec![Change::Isolate(h)]);
            }
            if involved > 0 {
                let (r, _) = attempt.cycles[h as usize].unwrap_or((*min_r, 1));
                for (min_r, d_mult) in [(r + 1, *d_mult), (*min_r, d_mult * 2), (r + 2, *d_mult)] {
                    out.push(vec![Change::Isolate(h), Change::Cycle { h, min_r, d_mult }]);
                }
            }
        }
        (Kind::Word(_), Cost::Cheap) => {
            for (min_r, d_mult) in [(0, 1), (1, 1), (2, 1), (0, 2)] {
                let free = Change::Cycle { h, min_r, d_mult };
                out.push(vec![free, Change::Shadow(h)]);
                out.push(vec![free]);
            }
        }
        (Kind::Word(_), Cost::Dear) => {}
    }
    out
}

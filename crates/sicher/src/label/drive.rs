//! Runs a tier labeller over a domain: slides the window of held tiers, hands every
//! finished tier to the work directory, and resumes from it.

use std::ops::Range;

use super::tiers::{Scratch, Tiers};
use super::window::{slots_for, Atom, Window};
use super::work::Store;
use crate::error::Result;

/// How far from the tier being labelled a labeller reads or writes, in tiers (`None`:
/// every tier that way).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reach {
    /// Earlier tiers read (children).
    pub(crate) back: Option<u64>,
    /// Later tiers written (parents marked or offered to).
    pub(crate) ahead: Option<u64>,
}

/// Labels one tier at a time, reading and writing only the window's ranks.
pub(crate) trait TierLabeller<A: Atom>: Sync {
    /// Labels every position of tier `tier`; returns how many there were.
    fn label_tier(&self, window: &Window<A>, tier: u64, scratch: &mut Scratch) -> u64;

    /// Looked at before each tier: an error (a cancelled run) ends the run there, the
    /// tiers finished before it kept in the work directory.
    fn stop(&self) -> Result<()> {
        Ok(())
    }
}

/// The ranks a window must hold while tier `t` is labelled: for a `--total` domain the
/// tiers the labeller reaches, otherwise the whole domain (its tiers are not ranges).
pub(crate) fn window_for(tiers: Tiers<'_>, entries: u64, reach: Reach, t: u64) -> Range<u64> {
    match tiers {
        Tiers::Total(p) => {
            let low = reach.back.map_or(0, |b| t.saturating_sub(b));
            let high = reach
                .ahead
                .map_or(p.total(), |a| t.saturating_add(a).min(p.total()));
            p.tier(low).start..p.tier(high).end
        }
        Tiers::Scattered(_) | Tiers::Lone(_) | Tiers::Blocks(_) => 0..entries,
    }
}

/// The most ranks a window holds over the whole labelling.
pub(crate) fn widest(tiers: Tiers<'_>, entries: u64, reach: Reach) -> u64 {
    (0..tiers.count())
        .map(|t| {
            let r = window_for(tiers, entries, reach, t);
            r.end - r.start
        })
        .max()
        .unwrap_or(0)
}

/// Bytes of a window of the widest extent.
pub(crate) fn window_bytes<A: Atom>(tiers: Tiers<'_>, entries: u64, reach: Reach) -> u64 {
    slots_for::<A>(widest(tiers, entries, reach).min(entries)) * std::mem::size_of::<A>() as u64
}

/// Where the labels are once every tier is done.
pub(crate) enum Finished<A> {
    /// The window held the whole domain: its slots, by rank.
    Held(Vec<A>),
    /// In the work directory's tier files.
    Stored,
}

/// Labels every tier not already finished in `store` (all of them without a store);
/// `progress` hears how many positions each tier held (and, first, how many a resumed
/// run found done).
pub(crate) fn run<A: Atom>(
    labeller: &dyn TierLabeller<A>,
    tiers: Tiers<'_>,
    entries: u64,
    reach: Reach,
    mut store: Option<&mut Store>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Finished<A>> {
    // Without a work directory nothing can be evicted: the window is the whole domain.
    let reach = match store {
        Some(_) => reach,
        None => Reach {
            back: None,
            ahead: None,
        },
    };
    let mut window = Window::<A>::new(entries, widest(tiers, entries, reach))?;
    let mut first = 0;
    if let Some(store) = store.as_deref_mut() {
        first = store.next_tier();
        if first < tiers.count() {
            let r = window_for(tiers, entries, reach, first);
            window.cover(r.start, r.end);
            store.load(&mut window, tiers)?;
        } else if !matches!(tiers, Tiers::Total(_)) {
            window.cover(0, entries);
            store.load(&mut window, tiers)?;
        }
        if store.positions_done() > 0 {
            progress(store.positions_done());
        }
    }
    let mut scratch = Scratch::default();
    for t in first..tiers.count() {
        let r = window_for(tiers, entries, reach, t);
        window.cover(r.start, r.end);
        labeller.stop()?;
        let labelled = labeller.label_tier(&window, t, &mut scratch);
        progress(labelled);
        if let Some(store) = store.as_deref_mut() {
            store.tier_done(t, labelled, &window, tiers)?;
        }
    }
    if window.holds_all() {
        return Ok(Finished::Held(window.into_slots()));
    }
    let store = store.expect("a window smaller than the domain has a work directory");
    store.seal(&window, tiers)?;
    Ok(Finished::Stored)
}

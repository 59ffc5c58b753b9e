//! Surveys for pictures, a use case over the answer layer: every two-heap position up to
//! a size (the map), and one value per heap size (the plotted series), with what each
//! will hold in memory, so that callers refuse what will not fit before starting.

use crate::answer::{Chain, Query, Remoteness};
use crate::cancel::Cancel;
use crate::error::{Error, Result};
use crate::game::{Convention, Game, Position};
use crate::picture::{map_bytes, plot_bytes, Map, MapCell, MapMode, Series, SeriesKind};
use crate::theory::grundy::{lone_heap_outcomes, solve};
use crate::theory::grundy::{nim_values_cancellable, Method};
use crate::theory::quotient;

/// Bytes a map of every two-heap position up to `max` holds at its peak: the answers of
/// one symmetric half (12 bytes a cell) and the image at `scale`.
pub fn map_bytes_needed(max: u64, scale: u32, mode: MapMode) -> u128 {
    u128::from(map_bytes(max, scale.max(1), mode)).saturating_add(u128::from(max).pow(2) * 12 / 2)
}

/// Bytes a plot of the series up to `max` holds at its peak: the image of `size` pixels,
/// the engine computing the values (the nim-value engine's values and their two 16-bit
/// copies: 8 bytes a heap size), the values it hands back (4) and the series made of
/// them (8), and the solution's own values kept beside (4): 24 bytes a heap size.
pub fn plot_bytes_needed(size: (u32, u32), max: u64) -> u128 {
    u128::from(plot_bytes(size)).saturating_add((u128::from(max) + 1) * 24)
}

/// The outcome class of every two-heap position `(a, b)` of a partizan game with
/// `a, b ≤ max`, row by row (`b * (max + 1) + a`); `progress` gets the rows done.
pub fn partizan_map(
    chain: &mut crate::answer::PartizanChain,
    max: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<crate::value::OutcomeClass>> {
    let n = max
        .checked_add(1)
        .ok_or_else(|| Error::input("--max is too large"))?;
    let mut classes = Vec::with_capacity((n * n) as usize);
    for b in 0..n {
        for a in 0..n {
            classes.push(chain.class(&Position::new(vec![a, b]))?.0);
        }
        progress(b + 1);
    }
    Ok(classes)
}

/// Every position `(a, b)` with `0 <= a, b <= max`, answered by the chain; `progress` hears
/// how many positions each step finished. With `remoteness`, every cell carries it.
pub fn two_heap_map(
    chain: &mut Chain,
    max: u64,
    remoteness: bool,
    progress: &mut dyn FnMut(u64),
) -> Result<Map> {
    let query = Query {
        best_move: false,
        remoteness: if remoteness {
            Remoteness::Required
        } else {
            Remoteness::Skip
        },
    };
    let side = max
        .checked_add(1)
        .ok_or_else(|| Error::resource("the map's side does not fit in 64 bits"))?;
    // Positions are multisets: (a, b) and (b, a) are one position, answered once.
    let mut upper: Vec<MapCell> = Vec::new();
    let count = usize::try_from(side.saturating_mul(side)).unwrap_or(usize::MAX);
    upper
        .try_reserve_exact(count)
        .map_err(|_| Error::resource(format!("not enough memory for a map of {side} x {side}")))?;
    for b in 0..side {
        for a in 0..=b {
            let value = chain.answer(&Position::new(vec![a, b]), query)?.value;
            upper.push(MapCell {
                win: value.is_win(),
                remoteness: value.remoteness(),
            });
        }
        progress(b + 1);
    }
    // Row b holds a = 0..=b, after the rows before it: b(b+1)/2 cells.
    let at = |a: u64, b: u64| {
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        (high * (high + 1) / 2 + low) as usize
    };
    Map::from_fn(max, |a, b| upper[at(a, b)])
}

/// The per-heap series of a one-heap ruleset for a plot: nim-values G(0..=max) in normal
/// play, lone-heap outcomes in misère play, with the period found and whether a theorem
/// proves it.
pub fn heap_series(game: &Game, max: u64) -> Result<Series> {
    heap_series_with(game, max, &mut |_| {}, &Cancel::new())
}

/// [`heap_series`], calling `progress` with the heap sizes done as it goes (a caller's
/// progress may stop the work by unwinding), and stopping with
/// [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted) soon after `cancel` is cancelled.
pub fn heap_series_with(
    game: &Game,
    max: u64,
    progress: &mut dyn FnMut(u64),
    cancel: &Cancel,
) -> Result<Series> {
    let len = max
        .checked_add(1)
        .ok_or_else(|| Error::resource("the largest heap does not fit"))?;
    if game.convention == Convention::Misere && game.ruleset.splits() {
        return quotient_series(game, max, progress, cancel);
    }
    let solution = solve(game, max, progress)?;
    cancel.check()?;
    let (values, kind, y_label) = match game.convention {
        Convention::Normal => (
            nim_values_cancellable(&game.ruleset, Method::Fast, len, cancel)?
                .into_iter()
                .map(u64::from)
                .collect(),
            SeriesKind::NimValues,
            "G(n)",
        ),
        Convention::Misere => (
            lone_heap_outcomes(&game.ruleset, len)?
                .into_iter()
                .map(u64::from)
                .collect(),
            SeriesKind::Outcomes,
            "lone heap n",
        ),
    };
    let period = solution.periodicity;
    Ok(Series {
        title: format!("{}, {} play", game.title(), game.convention),
        y_label: y_label.to_string(),
        values,
        preperiod: period.map(|p| p.preperiod),
        period: period.map(|p| p.period),
        proved_at: period.and_then(|p| p.proved_at),
        saltus: period.map_or(0, |p| p.saltus),
        kind,
    })
}

/// Misère play of a ruleset whose moves split heaps: each heap's element in the misère
/// quotient of heaps up to `max` (numbered as `sicher quotient` prints them, the empty
/// position's element at heap 0).
fn quotient_series(
    game: &Game,
    max: u64,
    progress: &mut dyn FnMut(u64),
    cancel: &Cancel,
) -> Result<Series> {
    // The budget of answers on the fly: a wild quotient stops within seconds, and the
    // plot shows the heaps it reached.
    let budget = crate::answer::on_the_fly_budget();
    let (quotient, stopped) =
        quotient::compute_as_far_as_with_progress(&game.ruleset, max, &budget, &mut |p| {
            progress(p.heap)
        })
        .map_err(Error::input)?;
    cancel.check()?;
    let stopped_at = stopped.as_ref().map(|(heap, _)| *heap);
    if let (Some((heap, stop)), 0) = (stopped, quotient.max_heap) {
        return Err(Error::resource(format!(
            "misère quotient of {} stopped at heap {heap} ({stop})",
            game.title()
        )));
    }
    let reach = match stopped_at {
        Some(heap) => format!(", heaps up to {} (stopped at {heap})", heap - 1),
        None => String::new(),
    };
    let values = std::iter::once(quotient.identity)
        .chain(quotient.heap_elements.iter().copied())
        .map(u64::from)
        .collect();
    Ok(Series {
        title: format!(
            "{}, misere play: misère quotient of order {}{reach}",
            game.title(),
            quotient.order
        ),
        y_label: "element of heap n".to_string(),
        values,
        preperiod: None,
        period: None,
        proved_at: None,
        saltus: 0,
        kind: SeriesKind::Integer,
    })
}

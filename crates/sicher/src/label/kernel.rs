//! The rules every labeller applies, written once: a position is safe when one of its
//! moves reaches an unsafe position, and a position without a move is decided by the
//! terminal rule ([`safe_by_moves`], [`decide`]); a position's children gathered by rank
//! ([`gather_children`]); and the remoteness pulled from the children's
//! ([`pulled_remoteness`]). The forward, chunked and one-heap labellers and the
//! retrograde remoteness labeller use them; `plain.rs` keeps its own, as the
//! independent reference the others are checked against.

use std::ops::ControlFlow;

use super::options::Options;
use crate::domain::{ChildRanks, Ranker};
use crate::game::{Heap, Ruleset};

/// The rule from a scan of a position's moves: `Some(found_unsafe)` when it has a move
/// (safe when one reaches an unsafe position), `None` when it has none (then safe when
/// the terminal rule makes the player to move win: misère play).
#[inline]
pub(crate) fn decide(scan: Option<bool>, terminal_win: bool) -> bool {
    scan.unwrap_or(terminal_win)
}

/// Whether `heaps` is safe, scanning its moves under `ruleset` in the rules' order and
/// stopping at the first whose child `child_is_safe(removed, added)` says is unsafe;
/// without a move, `terminal_win`.
#[inline]
pub(crate) fn safe_by_moves<F>(
    ruleset: &Ruleset,
    heaps: &[Heap],
    terminal_win: bool,
    mut child_is_safe: F,
) -> bool
where
    F: FnMut(&[usize], &[Heap]) -> bool,
{
    let mut any_move = false;
    let found_unsafe = ruleset
        .for_each_move(heaps, |removed, added| {
            any_move = true;
            if child_is_safe(removed, added) {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        })
        .is_break();
    decide(any_move.then_some(found_unsafe), terminal_win)
}

/// Pushes the rank of every child of `heaps` (loaded into `ranks` first) onto
/// `gathered`, calling `prefetch` on each as it is ranked from runs so that the reads
/// that follow overlap: one-heap moves from `options` when there are, else every move
/// of `ruleset`.
#[inline]
pub(crate) fn gather_children(
    ruleset: &Ruleset,
    options: Option<&Options>,
    ranker: &Ranker,
    ranks: &mut ChildRanks,
    heaps: &[Heap],
    gathered: &mut Vec<u64>,
    mut prefetch: impl FnMut(u64),
) {
    ranks.load(ranker, heaps);
    gathered.clear();
    match (options, &mut *ranks) {
        (Some(options), ChildRanks::Total(strides, runs)) => {
            for i in 0..runs.len() {
                for option in options.of(runs.value(i)) {
                    let child = runs.replace(strides, i, option.taken, option.parts());
                    prefetch(child);
                    gathered.push(child);
                }
            }
        }
        _ => {
            let _ = ruleset.for_each_move(heaps, |removed, added| {
                gathered.push(ranks.rank(ranker, heaps, removed, added));
                ControlFlow::Continue(())
            });
        }
    }
}

/// The remoteness step, pulled from the children's remotenesses: one more than the
/// smallest remoteness of an unsafe child when there is one (the position is safe),
/// else one more than the largest of any child (unsafe), and 0 without a move. A child
/// is unsafe at even remoteness in normal play, odd in misère play (`terminal_win`).
#[inline]
pub(crate) fn pulled_remoteness(children: impl Iterator<Item = u64>, terminal_win: bool) -> u64 {
    let (mut shortest_win, mut longest) = (None::<u64>, None::<u64>);
    for r in children {
        if (r % 2 == 1) == terminal_win {
            shortest_win = Some(shortest_win.map_or(r, |s| s.min(r)));
        }
        longest = Some(longest.map_or(r, |l| l.max(r)));
    }
    match (shortest_win, longest) {
        (Some(r), _) | (None, Some(r)) => r + 1,
        (None, None) => 0,
    }
}

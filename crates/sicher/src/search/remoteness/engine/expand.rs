//! Expanding a position: its moves generated once, with enhanced transposition
//! cut-offs on the way, then ordered by the table's move, by theory and by history.
//!
//! Theory does more than order where it knows outcomes exactly (nim-values in normal
//! play, Bouton's rule in misère Nim, a misère quotient): at a safe position only the
//! unsafe children can give its score, since every win beats every loss, so the others
//! are dropped before any is searched.

use std::ops::ControlFlow;

use super::{
    signature, Bound, Candidate, Decided, Engine, Known, GUIDE_BONUS, HINT_BONUS, HISTORY_MAX,
    PROGRESS_EVERY, TIER_SLOTS,
};
use crate::game::Heap;
use crate::search::key::Combine;
use crate::search::remoteness::score::{lift_beta, shrink, MIN};
use crate::search::remoteness::table::Wanted;

impl Engine {
    /// Generates the moves of the top frame and orders them. Finishes the frame at
    /// once when it has no move, when a move ends the game in normal play, or (with
    /// ETC, enhanced transposition cut-offs) when a child's stored upper bound already
    /// lifts this position to the window's top: a position that wants a win looks for
    /// known losses among its children, behind their small filter. One pass does both,
    /// so positions that are not cut off generate their moves once.
    pub(super) fn expand(&mut self, top: usize) -> Option<Decided> {
        self.stats.nodes += 1;
        if self.stats.nodes & (PROGRESS_EVERY - 1) == 0 {
            let stats = self.stats().as_search_stats();
            if let Some(hook) = self.progress.as_mut() {
                hook(&stats);
            }
        }
        let frame = self.frames[top];
        self.frames[top].expanded = true;
        let start = frame.heaps_start as usize;
        let tokens: Heap = self.arena.heaps[start..start + frame.heaps_len as usize]
            .iter()
            .fold(0, |sum, &h| sum.saturating_add(h));
        self.tiers[(tokens as usize).min(TIER_SLOTS - 1)] += 1;
        let Engine {
            game,
            config,
            arena,
            moves,
            ops,
            table,
            ..
        } = self;
        let (game, arena) = (&*game, &*arena);
        let etc = config.etc;
        let b = lift_beta(frame.beta);
        let wanted = if b > 0 { Wanted::Loss } else { Wanted::Upper };
        let parent = &arena.heaps[start..start + frame.heaps_len as usize];
        let misere = game.terminal_is_win();
        let mut index = 0u32;
        // A move that decides the frame: the child's upper bound, key and index.
        let mut decisive = None;
        // Keys only: most positions are cut off here, and ranking the moves is left
        // to those that are not.
        let _ = game.ruleset.for_each_move(parent, |removed, added| {
            index += 1;
            let mut key = frame.key;
            for &i in removed {
                key = Combine::Sum.remove(key, arena.code(game, parent[i]));
            }
            for &h in added {
                key = Combine::Sum.add(key, arena.code(game, h));
            }
            if key.is_empty() {
                if misere {
                    // Ending the game loses in one move: the floor every position
                    // starts from, never worth a search.
                    return ControlFlow::Continue(());
                }
                decisive = Some((MIN, key, index));
                return ControlFlow::Break(());
            }
            if etc {
                if let Some(upper) = table.upper(key, wanted) {
                    if -upper >= b {
                        decisive = Some((upper, key, index));
                        return ControlFlow::Break(());
                    }
                }
            }
            moves.push(Candidate {
                key,
                rank: u64::from(u32::MAX - index),
                ops: ops.len() as u32,
                removed: removed.len() as u8,
                added: added.len() as u8,
                known: Known::Unknown,
                deferred: false,
            });
            ops.extend(removed.iter().map(|&i| i as Heap));
            ops.extend_from_slice(added);
            ControlFlow::Continue(())
        });
        let begin = frame.moves_start as usize;
        if let Some((upper, key, index)) = decisive {
            self.moves.truncate(begin);
            self.ops.truncate(frame.ops_start as usize);
            self.ordering.reward(signature(frame.key, key), top);
            if upper == MIN {
                self.stats.cutoffs += 1;
            } else {
                self.stats.etc_cutoffs += 1;
            }
            return Some(Decided {
                score: shrink(-upper),
                // Nothing beats a win in one.
                bound: if upper == MIN {
                    Bound::Exact
                } else {
                    Bound::Lower
                },
                best_move: index,
            });
        }
        if index == 0 {
            return Some(Decided {
                score: self.terminal(),
                bound: Bound::Exact,
                best_move: 0,
            });
        }
        let end = self.moves.len();
        self.frames[top].moves_end = end as u32;
        if begin == end {
            // Every move ends the game, in misère play: lost in one.
            return Some(Decided {
                score: shrink(MIN),
                bound: Bound::Exact,
                best_move: 0,
            });
        }
        self.order(top, begin, end);
        None
    }

    /// Ranks the moves `begin..end` of the frame at `top` and sorts them, best first,
    /// after dropping those theory proves cannot give the frame's score.
    fn order(&mut self, top: usize, begin: usize, mut end: usize) {
        let frame = self.frames[top];
        let misere = self.game.terminal_is_win();
        let start = frame.heaps_start as usize;
        let quotient = self.rest_elements(start, frame.heaps_len as usize);
        let guide = self.arena.guide.as_ref();
        let value = |h: Heap| guide.and_then(|g| g.value(h));
        let parent = &self.arena.heaps[start..start + frame.heaps_len as usize];
        let mut any_loss = false;
        for candidate in &mut self.moves[begin..end] {
            let mut order = self
                .ordering
                .score(signature(frame.key, candidate.key), top)
                .min(HISTORY_MAX);
            let index = candidate.index();
            if index == frame.hint {
                order |= HINT_BONUS;
            }
            let ops = candidate.ops as usize;
            let removed_end = ops + candidate.removed as usize;
            let removed = &self.ops[ops..removed_end];
            let added = &self.ops[removed_end..removed_end + candidate.added as usize];
            let mut guess = false;
            if guide.is_some() {
                let nim = removed.iter().fold(frame.nim, |nim, &i| {
                    nim.toggle(value(parent[i as usize]), false)
                });
                let nim = added.iter().fold(nim, |nim, &h| nim.toggle(value(h), true));
                guess = nim.guess_unsafe(misere);
                if self.exact_guide && nim != crate::search::heaps::NimSum::UNKNOWN {
                    candidate.known = Known::of(Some(!guess));
                }
            }
            if let (Some(outcomes), &[i]) = (&self.outcomes, removed) {
                if quotient {
                    let x = added.iter().try_fold(self.rest[i as usize], |x, &h| {
                        Some(outcomes.mul(x, outcomes.heap(h)?))
                    });
                    if let Some(x) = x {
                        guess = outcomes.is_unsafe(x);
                        candidate.known = Known::of(Some(!guess));
                    }
                }
            }
            any_loss |= candidate.known == Known::Loss;
            if guess {
                order |= GUIDE_BONUS;
            }
            candidate.rank |= u64::from(order) << 32;
        }
        if any_loss {
            // A safe position: every win beats every loss, so a move to a position the
            // opponent wins never gives its score.
            let mut kept = begin;
            for at in begin..end {
                if self.moves[at].known != Known::Win {
                    self.moves[kept] = self.moves[at];
                    kept += 1;
                }
            }
            self.moves.truncate(kept);
            end = kept;
            self.frames[top].moves_end = end as u32;
        }
        self.moves[begin..end].sort_unstable_by_key(|candidate| std::cmp::Reverse(candidate.rank));
    }

    /// Fills `rest` with the quotient element of the frame's heaps without each one,
    /// so that a child's element costs one product per heap its move adds; false when
    /// there is no quotient or it does not cover every heap.
    fn rest_elements(&mut self, start: usize, len: usize) -> bool {
        let Some(outcomes) = &self.outcomes else {
            return false;
        };
        let heaps = &self.arena.heaps[start..start + len];
        self.rest.clear();
        let mut before = outcomes.identity();
        for &h in heaps {
            let Some(x) = outcomes.heap(h) else {
                return false;
            };
            self.rest.push(before);
            before = outcomes.mul(before, x);
        }
        let mut after = outcomes.identity();
        for (i, &h) in heaps.iter().enumerate().rev() {
            self.rest[i] = outcomes.mul(self.rest[i], after);
            // Every heap is covered: the first pass returned otherwise.
            after = outcomes.heap(h).map_or(after, |x| outcomes.mul(after, x));
        }
        true
    }
}

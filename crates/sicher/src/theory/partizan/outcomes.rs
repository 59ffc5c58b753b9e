//! One-heap outcome sequences of partizan heap games and their periods.
//!
//! Heap `n`'s outcome is a pair: does the player to move win with Left to move, with
//! Right to move. Where both players' rules are finite and never split a heap and play
//! ends by the normal or misère rule, the pair at `n > M` (M the most either player
//! takes) is a fixed function of the M pairs before it. So the window of M pairs evolves
//! deterministically: a window seen twice repeats for ever, and the period it shows is
//! proved (Fraenkel and Kotzig's argument). Brent's cycle detection finds the least
//! pre-period and period in O(pre-period + period) steps and constant memory. Elsewhere
//! the sequence is computed to a bound and a period seen there is only observed.

use crate::cancel::Cancel;
use crate::error::Result;
use crate::game::partizan::{PartizanGame, Terminal};
use crate::game::{Heap, Ruleset};
use crate::search::PartizanSolver;
use crate::value::{OutcomeClass, Player};

/// Most tokens one move may take for the window to fit a `u128` (64 pairs).
const MOST_WINDOW: u64 = 64;

/// The outcomes of single heaps, with the period found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeSequence {
    /// `(Left to move wins, Right to move wins)` of heaps 0, 1, 2, ...
    pub outcomes: Vec<(bool, bool)>,
    /// Where the period starts.
    pub preperiod: u64,
    /// The period, or 0 when none was seen.
    pub period: u64,
    /// True when the period holds for every heap (proved), false when only observed.
    pub proved: bool,
}

/// The moves of one player's rules as the window recurrence reads them.
struct Takes {
    /// Takes `t` that leave a heap of `n - t ≥ 1`.
    leaving: Vec<u64>,
    /// Takes `t` that remove the heap whole (only when `n = t`).
    whole: Vec<u64>,
}

impl Takes {
    /// The takes of a finite ruleset that never splits, or `None`.
    fn of(rules: &Ruleset) -> Option<Takes> {
        let most = rules.max_take()?;
        if rules.splits() || !rules.has_option_shapes() {
            return None;
        }
        let mut takes = Takes {
            leaving: Vec::new(),
            whole: Vec::new(),
        };
        rules.for_each_option_shape(most, |shape| match shape.parts {
            0 => takes.whole.push(shape.taken),
            _ => takes.leaving.push(shape.taken),
        });
        Some(takes)
    }

    fn most(&self) -> u64 {
        self.leaving
            .iter()
            .chain(&self.whole)
            .copied()
            .max()
            .unwrap_or(0)
    }

    /// Heaps reached from `n`.
    fn options(&self, n: u64) -> impl Iterator<Item = u64> + '_ {
        let leaving = self
            .leaving
            .iter()
            .filter(move |&&t| t < n)
            .map(move |&t| n - t);
        let whole = self.whole.iter().filter(move |&&t| t == n).map(|_| 0);
        leaving.chain(whole)
    }
}

impl OutcomeSequence {
    /// The outcome sequence of `game`: proved where the window argument applies,
    /// otherwise heaps `0..=limit` by the search with any period only observed.
    pub fn compute(game: &PartizanGame, limit: u64) -> Result<Self> {
        Self::compute_cancellable(game, limit, &Cancel::new())
    }

    /// [`OutcomeSequence::compute`], ended with [`ErrorKind::Interrupted`](crate::ErrorKind::Interrupted) once
    /// `cancel` is cancelled.
    pub fn compute_cancellable(game: &PartizanGame, limit: u64, cancel: &Cancel) -> Result<Self> {
        let mut solver = PartizanSolver::new(game);
        solver.set_cancel(cancel.clone());
        Self::compute_with(game, limit, u64::MAX, &mut solver)
    }

    /// [`OutcomeSequence::compute`] with `solver` (its tables kept, its cancellation
    /// obeyed) for a sequence that cannot be proved, searched no further than the heap
    /// at which it has expanded `nodes` positions in all: the heaps finished by then are
    /// the sequence observed. The window argument needs no search and no bound.
    pub fn compute_with(
        game: &PartizanGame,
        limit: u64,
        nodes: u64,
        solver: &mut PartizanSolver,
    ) -> Result<Self> {
        let misere = match game.terminal {
            Terminal::Normal => Some(false),
            Terminal::Misere => Some(true),
            Terminal::Script(_) => None,
        };
        if let (Some(misere), Some(left), Some(right)) =
            (misere, Takes::of(&game.left), Takes::of(&game.right))
        {
            return Ok(Self::by_window(&left, &right, misere));
        }
        Self::by_search(game, limit, nodes, solver)
    }

    /// The plain loop over the definition for heaps `0..len`.
    fn plain(left: &Takes, right: &Takes, misere: bool, len: u64) -> Vec<(bool, bool)> {
        let mut out: Vec<(bool, bool)> = Vec::with_capacity(len as usize);
        for n in 0..len {
            let mut wins = [false; 2];
            for (i, (takes, other)) in [(left, 1), (right, 0)].into_iter().enumerate() {
                let mut any = false;
                let mut win = false;
                for o in takes.options(n) {
                    any = true;
                    let pair = out[o as usize];
                    let opponent_wins = if other == 1 { pair.1 } else { pair.0 };
                    if !opponent_wins {
                        win = true;
                        break;
                    }
                }
                wins[i] = if any { win } else { misere };
            }
            out.push((wins[0], wins[1]));
        }
        out
    }

    fn by_window(left: &Takes, right: &Takes, misere: bool) -> Self {
        let most = left.most().max(right.most()).max(1);
        if most > MOST_WINDOW {
            // Too wide for a word: compute a long prefix and look for a repeated window.
            let outcomes = Self::plain(left, right, misere, 1 << 16);
            let (preperiod, period, proved) = match find_period(&outcomes, 1, most as usize) {
                Some((mu, lambda)) => (mu as u64, lambda as u64, true),
                None => (0, 0, false),
            };
            return OutcomeSequence {
                outcomes,
                preperiod,
                period,
                proved,
            };
        }
        let m = most as u32;
        // Window bit j holds heap n - M + j; Left's outcomes in the low word, Right's in
        // the high one. From heap M + 1 on, every take leaves a heap, so it is uniform.
        let mask = |takes: &Takes| {
            takes
                .leaving
                .iter()
                .fold(0u64, |acc, &t| acc | 1 << (most - t))
        };
        let (mask_left, mask_right) = (mask(left), mask(right));
        let step = |w: u128| -> u128 {
            let (l, r) = (w as u64, (w >> 64) as u64);
            let left_wins = if mask_left == 0 {
                misere
            } else {
                mask_left & !r != 0
            };
            let right_wins = if mask_right == 0 {
                misere
            } else {
                mask_right & !l != 0
            };
            let l = (l >> 1) | (u64::from(left_wins) << (m - 1));
            let r = (r >> 1) | (u64::from(right_wins) << (m - 1));
            u128::from(l) | (u128::from(r) << 64)
        };
        let first = Self::plain(left, right, misere, most + 1);
        let start: u128 = (1..=most).fold(0u128, |w, n| {
            let (a, b) = first[n as usize];
            let j = n - 1;
            w | (u128::from(a) << j) | (u128::from(b) << (64 + j))
        });
        // Brent: the period λ, then the first state μ that recurs.
        let (mut power, mut lambda) = (1u64, 1u64);
        let (mut tortoise, mut hare) = (start, step(start));
        while tortoise != hare {
            if power == lambda {
                tortoise = hare;
                power *= 2;
                lambda = 0;
            }
            hare = step(hare);
            lambda += 1;
        }
        let (mut tortoise, mut hare) = (start, start);
        for _ in 0..lambda {
            hare = step(hare);
        }
        let mut mu = 0u64;
        while tortoise != hare {
            tortoise = step(tortoise);
            hare = step(hare);
            mu += 1;
        }
        // State i is the window of heaps 1 + i ..= M + i.
        let mut preperiod = 1 + mu;
        let outcomes = Self::plain(left, right, misere, preperiod + lambda + most);
        while preperiod > 0
            && outcomes[preperiod as usize - 1] == outcomes[(preperiod - 1 + lambda) as usize]
        {
            preperiod -= 1;
        }
        OutcomeSequence {
            outcomes,
            preperiod,
            period: lambda,
            proved: true,
        }
    }

    fn by_search(
        game: &PartizanGame,
        limit: u64,
        nodes: u64,
        solver: &mut PartizanSolver,
    ) -> Result<Self> {
        game.prepare(limit)?;
        let mut outcomes = Vec::with_capacity(limit as usize + 1);
        for n in 0..=limit {
            // Heaps of splitting games reach every partition below them: the search of
            // the next heap may cost more than all before it, so stop once the budget
            // is spent (an observation is as good as the heaps it covers).
            if solver.nodes() >= nodes {
                break;
            }
            let heaps: Vec<Heap> = if n == 0 { vec![] } else { vec![n] };
            outcomes.push((
                solver.wins(&heaps, Player::Left)?,
                solver.wins(&heaps, Player::Right)?,
            ));
        }
        let (preperiod, period) =
            find_period(&outcomes, 0, 0).map_or((0, 0), |(mu, lambda)| (mu as u64, lambda as u64));
        Ok(OutcomeSequence {
            outcomes,
            preperiod,
            period,
            proved: false,
        })
    }

    /// The class of a lone heap of size `n`, for any `n` once a period is proved.
    pub fn class(&self, n: u64) -> Option<OutcomeClass> {
        let index = if (n as usize) < self.outcomes.len() {
            n
        } else if self.proved && self.period > 0 {
            self.preperiod + (n - self.preperiod) % self.period
        } else {
            return None;
        };
        let (l, r) = self.outcomes[index as usize];
        Some(OutcomeClass::from_wins(l, r))
    }

    /// The player who wins every heap from the pre-period on, whoever starts, if one does.
    pub fn dominance(&self) -> Option<Player> {
        if self.period == 0 {
            return None;
        }
        let classes: Vec<OutcomeClass> = (self.preperiod..self.preperiod + self.period)
            .filter_map(|n| self.class(n))
            .collect();
        if classes.iter().all(|&c| c == OutcomeClass::L) {
            Some(Player::Left)
        } else if classes.iter().all(|&c| c == OutcomeClass::R) {
            Some(Player::Right)
        } else {
            None
        }
    }
}

/// The least period of `values` and the least pre-period (at least `from`) with it: the
/// period must repeat over `window` values beyond a full period (a proof where the
/// values depend on that many before them) and, when `window` is 0, over at least
/// three periods and a quarter of the values (an observation).
fn find_period<T: PartialEq>(values: &[T], from: usize, window: usize) -> Option<(usize, usize)> {
    let len = values.len();
    for lambda in 1..=len / 2 {
        // Walk back from the end while the values keep the period.
        let mut mu = len - lambda;
        while mu > from && values[mu - 1] == values[mu - 1 + lambda] {
            mu -= 1;
        }
        let span = len - mu;
        let enough = if window > 0 {
            span >= lambda + window
        } else {
            span >= 3 * lambda && span * 4 >= len
        };
        if enough {
            return Some((mu, lambda));
        }
    }
    None
}

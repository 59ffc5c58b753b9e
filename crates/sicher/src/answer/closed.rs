//! Answers by closed forms: Wythoff's game on two heaps and Moore's Nim_k on any number,
//! in either convention, at any heap size and at once ([`crate::theory::closed`]).
//! Positions a closed form does not describe (Wythoff's game on three or more heaps)
//! pass on to the next source, and so do questions about the remoteness.

use super::{Answer, Evidence, Oracle, Query, Remoteness, Solution, SourceKind};
use crate::error::Result;
use crate::game::{Convention, Game, Heap, Position, Ruleset};
use crate::theory::closed::{moore, wythoff};
use crate::value::{Outcome, Value};

/// Most winning moves of Moore's Nim listed by `solve` (with large heaps and k ≥ 2 there
/// can be astronomically many).
pub const MOORE_MOVES_LISTED: usize = 1000;

/// The closed form of a ruleset that has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// Wythoff 1907, two heaps.
    Wythoff,
    /// Moore 1910, any number of heaps.
    Moore(u32),
}

/// Wythoff's and Moore's closed forms.
pub struct ClosedFormSource {
    form: Form,
    convention: Convention,
}

impl ClosedFormSource {
    /// The source for `game`, or `None` when its rules have no closed form here.
    pub fn new(game: &Game) -> Option<Self> {
        let form = match game.ruleset {
            Ruleset::Wythoff => Form::Wythoff,
            Ruleset::Moore(k) if k >= 1 => Form::Moore(k),
            _ => return None,
        };
        Some(ClosedFormSource {
            form,
            convention: game.convention,
        })
    }

    /// True when the closed form answers every position of `heaps` heaps (Wythoff's
    /// covers two, Moore's any number).
    pub fn reaches(&self, heaps: u64) -> bool {
        match self.form {
            Form::Wythoff => heaps <= 2,
            Form::Moore(_) => true,
        }
    }

    /// The outcome (true: the player to move wins), or `None` when not covered.
    fn win(&self, heaps: &[Heap]) -> Option<bool> {
        match (self.form, heaps) {
            (Form::Wythoff, []) => Some(!wythoff::is_unsafe(0, 0, self.convention)),
            (Form::Wythoff, [a]) => Some(!wythoff::is_unsafe(0, *a, self.convention)),
            (Form::Wythoff, [a, b]) => Some(!wythoff::is_unsafe(*a, *b, self.convention)),
            (Form::Wythoff, _) => None,
            (Form::Moore(k), _) => Some(!moore::is_unsafe(heaps, k, self.convention)),
        }
    }

    /// Winning moves as positions, at most `limit`.
    fn winning_moves(&self, heaps: &[Heap], limit: usize) -> Vec<Position> {
        let pair = |(a, b): (u64, u64)| Position::new(vec![a, b]);
        match (self.form, heaps) {
            (Form::Wythoff, []) => Vec::new(),
            (Form::Wythoff, [a]) => wythoff::winning_moves(0, *a, self.convention)
                .into_iter()
                .take(limit)
                .map(pair)
                .collect(),
            (Form::Wythoff, [a, b]) => wythoff::winning_moves(*a, *b, self.convention)
                .into_iter()
                .take(limit)
                .map(pair)
                .collect(),
            (Form::Wythoff, _) => Vec::new(),
            (Form::Moore(k), _) => moore::winning_moves(heaps, k, self.convention, limit)
                .into_iter()
                .map(Position::new)
                .collect(),
        }
    }
}

impl Oracle for ClosedFormSource {
    fn kind(&self) -> SourceKind {
        SourceKind::ClosedForm
    }

    fn answer(&mut self, position: &Position, query: Query) -> Result<Option<Answer>> {
        // A closed form says who wins, not how fast.
        if query.remoteness == Remoteness::Required {
            return Ok(None);
        }
        let Some(win) = self.win(position.heaps()) else {
            return Ok(None);
        };
        let best_move = if win && query.best_move {
            self.winning_moves(position.heaps(), 1).into_iter().next()
        } else {
            None
        };
        Ok(Some(Answer {
            position: position.clone(),
            value: Value::Outcome(Outcome::from_win(win)),
            best_move,
            source: SourceKind::ClosedForm,
        }))
    }

    fn solve(&mut self, position: &Position, query: Query) -> Result<Option<Solution>> {
        let Some(answer) = self.answer(position, query)? else {
            return Ok(None);
        };
        let mut winning_moves = if answer.value.is_win() {
            self.winning_moves(position.heaps(), MOORE_MOVES_LISTED + 1)
        } else {
            Vec::new()
        };
        let complete = winning_moves.len() <= MOORE_MOVES_LISTED;
        winning_moves.truncate(MOORE_MOVES_LISTED);
        winning_moves.sort();
        Ok(Some(Solution {
            answer,
            winning_moves,
            moves: Vec::new(),
            complete,
            evidence: Evidence::ClosedForm {
                rule: match self.form {
                    Form::Wythoff => "Wythoff's pairs (⌊kφ⌋, ⌊kφ²⌋)",
                    Form::Moore(_) => "Moore's rule (digit counts divisible by k + 1)",
                },
            },
        }))
    }
}

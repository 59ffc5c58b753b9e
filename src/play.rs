//! A game against perfect play: the position, whose turn it is, the legal moves, and the
//! computer's choice (the fastest win; when lost, the longest resistance), all through
//! the answer layer. The command line only reads moves and prints.

use crate::answer::{Chain, Query, Remoteness};
use crate::error::{Error, Result};
use crate::game::{parse_heap, Game, Position};
use crate::value::Value;

/// Who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The person at the keyboard.
    You,
    /// sicher.
    Computer,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::You => Player::Computer,
            Player::Computer => Player::You,
        }
    }

    /// `"you"` or `"computer"`, as JSON says it.
    pub fn name(self) -> &'static str {
        match self {
            Player::You => "you",
            Player::Computer => "computer",
        }
    }
}

/// A game in progress.
pub struct Session {
    chain: Chain,
    position: Position,
    to_move: Player,
    plies: u64,
    moves: Vec<Position>,
}

impl Session {
    /// A game of `game` from `start`, `first` to move; the chain answers every position
    /// (it must give remoteness: a remoteness table or the search).
    pub fn new(chain: Chain, start: Position, first: Player) -> Self {
        let moves = legal_moves(chain.game(), &start);
        Session {
            chain,
            position: start,
            to_move: first,
            plies: 0,
            moves,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Moves played so far.
    pub fn plies(&self) -> u64 {
        self.plies
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.chain.game()
    }

    /// The legal moves, as the positions they lead to, in a fixed order (ascending).
    pub fn moves(&self) -> &[Position] {
        &self.moves
    }

    /// The winner, once the player to move has no move.
    pub fn winner(&self) -> Option<Player> {
        if !self.moves.is_empty() {
            return None;
        }
        Some(if self.game().terminal_is_win() {
            self.to_move
        } else {
            self.to_move.other()
        })
    }

    /// The value of the current position for the player to move, with its remoteness.
    pub fn value(&mut self) -> Result<Value> {
        let query = Query {
            best_move: false,
            remoteness: Remoteness::Required,
        };
        Ok(self.chain.answer(&self.position, query)?.value)
    }

    /// The best move for the player to move: the fastest win, or when lost the move that
    /// holds out longest; `None` when no move is left.
    pub fn best_move(&mut self) -> Result<Option<Position>> {
        if self.moves.is_empty() {
            return Ok(None);
        }
        let query = Query {
            best_move: true,
            remoteness: Remoteness::Required,
        };
        let solution = self.chain.solve(&self.position, query)?;
        Ok(solution.moves.first().map(|(to, _)| to.clone()))
    }

    /// Reads a move as typed: its number in [`moves`](Self::moves) (from 1) or the
    /// position it leads to (heap sizes); says why when it is neither.
    pub fn parse_move(&self, text: &str) -> Result<Position> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Error::input(
                "type a move: its number, or the position it leads to (heap sizes)",
            ));
        }
        let words: Vec<&str> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        if let [word] = words[..] {
            if !word.starts_with('0') || word == "0" {
                if let Ok(number) = word.parse::<usize>() {
                    if (1..=self.moves.len()).contains(&number) {
                        return Ok(self.moves[number - 1].clone());
                    }
                }
            }
        }
        let heaps = words
            .iter()
            .map(|w| parse_heap(w))
            .collect::<Result<Vec<_>>>()?;
        let to = Position::new(heaps);
        if self.moves.contains(&to) {
            Ok(to)
        } else if words.len() == 1 {
            Err(Error::input(format!(
                "{text} is neither a move number (1 to {}) nor a position one move away from {}",
                self.moves.len(),
                self.position
            )))
        } else {
            Err(Error::input(format!(
                "{to} is not one move away from {} in {}",
                self.position,
                self.game().name
            )))
        }
    }

    /// Plays a move (the position it leads to), which must be legal.
    pub fn play(&mut self, to: Position) -> Result<()> {
        if !self.moves.contains(&to) {
            return Err(Error::input(format!(
                "{to} is not one move away from {}",
                self.position
            )));
        }
        self.moves = legal_moves(self.chain.game(), &to);
        self.position = to;
        self.to_move = self.to_move.other();
        self.plies += 1;
        Ok(())
    }
}

/// Every position one move away, ascending.
fn legal_moves(game: &Game, position: &Position) -> Vec<Position> {
    let mut moves = game.children(position);
    moves.sort();
    moves.dedup();
    moves
}

//! A game of a partizan heap game against the computer: you play Left or Right, either
//! may start, and every answer comes from the partizan chain (the outcome period,
//! canonical forms, the search). The computer plays perfectly at [`MAX_LEVEL`](super::MAX_LEVEL): the
//! fastest win where the remoteness can be searched within the chain's budget, else a
//! winning move; when lost, the move that holds out longest where that is known.

use crate::answer::{PartizanChain, PartizanPolicy, Query, Remoteness};
use crate::error::{Error, Result};
use crate::game::partizan::PartizanGame;
use crate::game::Position;
use crate::value::Player;

use super::{number_of, parse_typed, Reply, Strength, LISTED_MOVES};

/// The value of the position for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// True when the player to move wins against best play.
    pub win: bool,
    /// Moves of both players until play ends under best play, where searched.
    pub remoteness: Option<u32>,
}

/// A partizan game in progress.
pub struct PartizanSession {
    chain: PartizanChain,
    position: Position,
    to_move: Player,
    you: Player,
    plies: u64,
    /// The moves of the player to move, ascending.
    moves: Vec<Position>,
    /// `Some(winner)` once play has ended (no move, or the terminal rule says so).
    ended: Option<Player>,
    standing: Option<Standing>,
    /// Earlier positions with who was to move there, for undo.
    history: Vec<(Position, Player)>,
    strength: Strength,
}

impl PartizanSession {
    /// A game of `game` from `start`, you playing `you`, `first` to move.
    pub fn new(
        game: &PartizanGame,
        policy: PartizanPolicy,
        start: Position,
        you: Player,
        first: Player,
    ) -> Result<Self> {
        let chain = PartizanChain::new(game, policy)?;
        let mut session = PartizanSession {
            chain,
            position: start,
            to_move: first,
            you,
            plies: 0,
            moves: Vec::new(),
            ended: None,
            standing: None,
            history: Vec::new(),
            strength: Strength::perfect(),
        };
        session.refresh()?;
        Ok(session)
    }

    /// Plays below perfection, as [`Session::set_level`](super::Session::set_level).
    pub fn set_level(&mut self, level: u8, seed: u64) -> Result<()> {
        self.strength.set(level, seed)
    }

    /// Changes the level during a game, keeping the random choices' sequence.
    pub fn change_level(&mut self, level: u8) -> Result<()> {
        self.strength.change(level)
    }

    /// The level the computer plays at.
    pub fn level(&self) -> u8 {
        self.strength.level
    }

    /// The game.
    pub fn game(&self) -> &PartizanGame {
        self.chain.game()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Who is to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The side you play.
    pub fn you(&self) -> Player {
        self.you
    }

    /// Moves played so far (undone ones not counted).
    pub fn plies(&self) -> u64 {
        self.plies
    }

    /// The moves of the player to move, as the positions they lead to, ascending.
    pub fn moves(&self) -> &[Position] {
        &self.moves
    }

    /// The winner, once play has ended.
    pub fn winner(&self) -> Option<Player> {
        self.ended
    }

    /// The position's outcome class and which source gave it.
    pub fn class(&mut self) -> Result<crate::value::OutcomeClass> {
        Ok(self.chain.class(&self.position)?.0)
    }

    /// Whether the player to move wins, and in how many moves where searched.
    pub fn standing(&mut self) -> Result<Standing> {
        if let Some(known) = self.standing {
            return Ok(known);
        }
        let known = match self.ended {
            Some(winner) => Standing {
                win: winner == self.to_move,
                remoteness: Some(0),
            },
            None => {
                let answer = self.chain.answer(
                    &self.position,
                    self.to_move,
                    Query {
                        best_move: false,
                        remoteness: Remoteness::IfAvailable,
                    },
                )?;
                Standing {
                    win: answer.win,
                    remoteness: answer.remoteness,
                }
            }
        };
        self.standing = Some(known);
        Ok(known)
    }

    /// The winning moves of the player to move (empty when they lose).
    pub fn winning_moves(&mut self) -> Result<Vec<Position>> {
        if self.ended.is_some() {
            return Ok(Vec::new());
        }
        self.chain.winning_moves(&self.position, self.to_move)
    }

    /// The best move of the player to move: a winning one (the fastest, where the
    /// remoteness is known), or when lost the one that holds out longest (where known);
    /// `None` when play has ended.
    pub fn best_move(&mut self) -> Result<Option<Position>> {
        if self.ended.is_some() || self.moves.is_empty() {
            return Ok(None);
        }
        let answer = self.chain.answer(
            &self.position,
            self.to_move,
            Query {
                best_move: true,
                remoteness: Remoteness::IfAvailable,
            },
        )?;
        if let Some(to) = answer.best_move {
            return Ok(Some(to));
        }
        // Lost: the opponent wins after every move; hold out longest where known.
        let mut best: Option<(u32, &Position)> = None;
        for to in &self.moves {
            let reply = self.chain.answer(
                to,
                self.to_move.opponent(),
                Query {
                    best_move: false,
                    remoteness: Remoteness::IfAvailable,
                },
            )?;
            let lasts = reply.remoteness.unwrap_or(0);
            if best.is_none_or(|(longest, _)| lasts > longest) {
                best = Some((lasts, to));
            }
        }
        Ok(best.map(|(_, to)| to.clone()))
    }

    /// The computer's move at its level (a random one with the level's probability);
    /// `None` when play has ended.
    pub fn computer_move(&mut self) -> Result<Option<Reply>> {
        if self.ended.is_some() || self.moves.is_empty() {
            return Ok(None);
        }
        if let Some(reply) = self.strength.random_reply(&self.moves) {
            return Ok(Some(reply));
        }
        Ok(self.best_move()?.map(|to| Reply { to, random: false }))
    }

    /// Reads a move of the player to move in every form the move list shows (see
    /// [`Session::parse_move`](super::Session::parse_move)).
    pub fn parse_move(&self, text: &str) -> Result<Position> {
        let name = format!("{} (for {})", self.game().title(), self.to_move.title());
        parse_typed(text, &self.moves, true, &self.position, &name, |to| {
            self.moves.binary_search(to).is_ok()
        })
    }

    /// The number of the move to `to` in [`moves`](Self::moves), from 1.
    pub fn move_number(&self, to: &Position) -> Option<usize> {
        number_of(&self.moves, true, to)
    }

    /// Plays a move of the player to move (the position it leads to), which must be
    /// legal.
    pub fn play(&mut self, to: Position) -> Result<()> {
        if self.ended.is_some() || self.moves.binary_search(&to).is_err() {
            return Err(Error::input(format!(
                "{to} is not one of {}'s moves from {}",
                self.to_move.title(),
                self.position
            )));
        }
        let from = std::mem::replace(&mut self.position, to);
        self.history.push((from, self.to_move));
        self.to_move = self.to_move.opponent();
        self.plies += 1;
        self.refresh()
    }

    /// Takes moves back to your last turn before your last move; false when you have
    /// not moved yet.
    pub fn undo(&mut self) -> Result<bool> {
        let Some(at) = self.history.iter().rposition(|(_, p)| *p == self.you) else {
            return Ok(false);
        };
        self.plies -= (self.history.len() - at) as u64;
        let (position, to_move) = self.history.swap_remove(at);
        self.history.truncate(at);
        self.position = position;
        self.to_move = to_move;
        self.refresh()?;
        Ok(true)
    }

    /// After a move or an undo: the moves of the player now to move, whether play has
    /// ended, nothing else known yet.
    fn refresh(&mut self) -> Result<()> {
        let game = self.chain.game().clone();
        let heaps = self.position.heaps();
        game.prepare(heaps.last().copied().unwrap_or(0))?;
        let mut moves = Vec::new();
        let mut listed = 0usize;
        let _ = game.for_each_move(heaps, self.to_move, |_, _| {
            listed += 1;
            if listed > LISTED_MOVES {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        });
        if listed > LISTED_MOVES {
            return Err(Error::input(format!(
                "{}: {} has more than {LISTED_MOVES} moves; partizan games are played from positions whose moves can all be listed (smaller heaps)",
                self.position,
                self.to_move.title()
            )));
        }
        for child in game.children(heaps, self.to_move) {
            moves.push(Position::new(child));
        }
        moves.sort();
        moves.dedup();
        let to_move = self.to_move;
        let ended = game.terminal(heaps, to_move, || !moves.is_empty())?;
        self.ended = ended.map(|win| if win { to_move } else { to_move.opponent() });
        self.moves = moves;
        self.standing = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::partizan::parse_partizan_spec;

    fn session(spec: &str, heaps: Vec<u64>, you: Player, first: Player) -> PartizanSession {
        let game = parse_partizan_spec(spec).unwrap();
        let policy = PartizanPolicy {
            sequence_limit: heaps.iter().copied().max().unwrap_or(0),
            ..PartizanPolicy::default()
        };
        PartizanSession::new(&game, policy, Position::new(heaps), you, first).unwrap()
    }

    /// Plays the computer against itself: the side of a won position wins the game.
    #[test]
    fn perfect_play_wins_every_won_position_for_either_side() {
        for spec in ["partizan-subtraction:1,3/2,3", "partizan-octal:0.7/0.07"] {
            for heaps in [vec![6], vec![4, 5], vec![7, 2], vec![9]] {
                for first in Player::BOTH {
                    let mut s = session(spec, heaps.clone(), Player::Left, first);
                    let first_wins = s.standing().unwrap().win;
                    while s.winner().is_none() {
                        let reply = s.computer_move().unwrap().unwrap();
                        assert!(!reply.random);
                        s.play(reply.to).unwrap();
                    }
                    let expected = if first_wins { first } else { first.opponent() };
                    assert_eq!(s.winner(), Some(expected), "{spec} {heaps:?} {first}");
                }
            }
        }
    }

    #[test]
    fn each_side_has_its_own_moves_and_undo_returns_to_your_turn() {
        let mut s = session(
            "partizan-subtraction:1,3/2,3",
            vec![6],
            Player::Right,
            Player::Right,
        );
        assert_eq!(s.moves(), [Position::new(vec![3]), Position::new(vec![4])]);
        assert!(s.parse_move("to 5").is_err());
        let to = s.parse_move("2. to 4").unwrap();
        s.play(to).unwrap();
        assert_eq!(s.to_move(), Player::Left);
        assert_eq!(s.moves(), [Position::new(vec![1]), Position::new(vec![3])]);
        let reply = s.computer_move().unwrap().unwrap();
        s.play(reply.to).unwrap();
        assert!(s.undo().unwrap());
        assert_eq!(s.position(), &Position::new(vec![6]));
        assert_eq!(s.to_move(), Player::Right);
        assert_eq!(s.plies(), 0);
    }

    #[test]
    fn a_terminal_rule_ends_play_before_the_moves_run_out() {
        let game = crate::game::partizan::parse_partizan_description(
            r#"
name = "small-heaps-lose"
rules = "script"
options = """
fn options(n, player) {
    let takes = if player == "left" { [1, 2] } else { [1, 3] };
    let out = [];
    for t in takes { if t <= n { out.push([n - t]); } }
    out
}
fn terminal(heaps, player) {
    for h in heaps { if h >= 2 { return (); } }
    "lose"
}
"""
"#,
            "test",
        )
        .unwrap();
        let s = PartizanSession::new(
            &game,
            PartizanPolicy::default(),
            Position::new(vec![1]),
            Player::Left,
            Player::Left,
        )
        .unwrap();
        assert_eq!(s.winner(), Some(Player::Right));
    }
}

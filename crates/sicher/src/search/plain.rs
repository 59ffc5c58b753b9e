//! The plain memoised solver: a baseline to measure the real engine against.
//!
//! A `HashMap` from the sorted heap vector to the outcome, moves in generation order,
//! one recursive call per child, no simplification and no ordering: what one writes
//! first. It runs on a thread with a large stack so deep games do not overflow.
//! [`PlainRemoteness`] is the same for remoteness: every child, every time.

use std::collections::HashMap;

use crate::game::{Game, Position};
use crate::value::Value;

/// Stack for the recursion thread: deep enough for the benchmark positions.
const STACK_BYTES: usize = 1 << 30;

/// The plain memoised solver; keeps its memo across positions like the real engine.
pub struct PlainSolver {
    game: Game,
    memo: HashMap<Vec<u64>, bool>,
    nodes: u64,
}

impl PlainSolver {
    /// A solver with an empty memo.
    pub fn new(game: &Game) -> Self {
        PlainSolver {
            game: game.clone(),
            memo: HashMap::new(),
            nodes: 0,
        }
    }

    /// Positions expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// True when the player to move wins.
    pub fn is_win(&mut self, position: &Position) -> bool {
        let PlainSolver { game, memo, nodes } = self;
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, || sicher(game, position, memo, nodes))
                .expect("spawn the plain solver thread")
                .join()
                .expect("the plain solver thread finished")
        })
    }

    /// One winning move (the position after it), or `None` when the position is unsafe.
    pub fn winning_move(&mut self, position: &Position) -> Option<Position> {
        let children = self.game.children_prepared(position);
        children.into_iter().find(|child| !self.is_win(child))
    }

    /// Every winning move (the positions after them), in generation order.
    pub fn winning_moves(&mut self, position: &Position) -> Vec<Position> {
        let children = self.game.children_prepared(position);
        children
            .into_iter()
            .filter(|child| !self.is_win(child))
            .collect()
    }
}

fn sicher(
    game: &Game,
    position: &Position,
    memo: &mut HashMap<Vec<u64>, bool>,
    nodes: &mut u64,
) -> bool {
    if let Some(&win) = memo.get(position.heaps()) {
        return win;
    }
    *nodes += 1;
    let children = game.children_prepared(position);
    let win = if children.is_empty() {
        game.terminal_is_win()
    } else {
        children
            .iter()
            .any(|child| !sicher(game, child, memo, nodes))
    };
    memo.insert(position.heaps().to_vec(), win);
    win
}

/// The plain memoised remoteness solver: the baseline of the remoteness search.
pub struct PlainRemoteness {
    game: Game,
    memo: HashMap<Vec<u64>, (bool, u32)>,
    nodes: u64,
}

impl PlainRemoteness {
    /// A solver with an empty memo.
    pub fn new(game: &Game) -> Self {
        PlainRemoteness {
            game: game.clone(),
            memo: HashMap::new(),
            nodes: 0,
        }
    }

    /// Positions expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The game solved.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The remoteness of `position`, with its outcome.
    pub fn value(&mut self, position: &Position) -> Value {
        let PlainRemoteness { game, memo, nodes } = self;
        let (win, remoteness) = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, || remote(game, position, memo, nodes))
                .expect("spawn the plain solver thread")
                .join()
                .expect("the plain solver thread finished")
        });
        let value = Value::remote(remoteness, game.convention);
        debug_assert_eq!(value.is_win(), win);
        value
    }
}

/// (safe, remoteness) by the definition: the winner takes the fastest win, the loser
/// the longest resistance.
fn remote(
    game: &Game,
    position: &Position,
    memo: &mut HashMap<Vec<u64>, (bool, u32)>,
    nodes: &mut u64,
) -> (bool, u32) {
    if let Some(&known) = memo.get(position.heaps()) {
        return known;
    }
    *nodes += 1;
    let children = game.children_prepared(position);
    let mut fastest_win = None;
    let mut longest = 0;
    for child in &children {
        let (child_wins, r) = remote(game, child, memo, nodes);
        if child_wins {
            longest = longest.max(r);
        } else {
            fastest_win = Some(fastest_win.map_or(r, |f: u32| f.min(r)));
        }
    }
    let result = match fastest_win {
        _ if children.is_empty() => (game.terminal_is_win(), 0),
        Some(r) => (true, r + 1),
        None => (false, longest + 1),
    };
    memo.insert(position.heaps().to_vec(), result);
    result
}

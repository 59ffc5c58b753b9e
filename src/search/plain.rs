//! The plain memoised solver: a baseline to measure the real engine against.
//!
//! A `HashMap` from the sorted heap vector to the outcome, moves in generation order,
//! one recursive call per child, no simplification and no ordering: what one writes
//! first. It runs on a thread with a large stack so deep games do not overflow.

use std::collections::HashMap;

use crate::game::{Game, Position};

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
        let children = self.game.children(position);
        children.into_iter().find(|child| !self.is_win(child))
    }

    /// Every winning move (the positions after them), in generation order.
    pub fn winning_moves(&mut self, position: &Position) -> Vec<Position> {
        let children = self.game.children(position);
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
    let children = game.children(position);
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

//! One position as the page and the Universal Web API show it: its value with the
//! remoteness where it can be had within the budget, and every move with the value of the
//! position it leads to, best first. The verdicts come from the library's answer chain
//! (theory, tables, search); the remoteness from its remoteness search, as `sicher play`
//! asks it.

use std::ops::ControlFlow;

use sicher::answer::{Chain, Evidence, Query, Remoteness, SourceKind};
use sicher::game::Heap;
use sicher::{Algorithm, Game, Position, RemotenessSolver, Value};

use crate::error::{ApiError, ApiResult};
use crate::work::Allowance;

/// Positions whose tokens times moves exceed this are not searched for their remoteness:
/// the search's stack alone could hold that many moves (as `sicher play` decides).
const REMOTENESS_SIZE: u128 = 1 << 22;

/// One move: which heaps it takes from, what it leaves of them, where it leads.
#[derive(Clone, Debug)]
pub struct Move {
    /// The heaps moved on (sizes, ascending).
    pub removed: Vec<Heap>,
    /// What the move leaves of them (zeros dropped), in the order the rules give.
    pub added: Vec<Heap>,
    /// The position after the move.
    pub to: Position,
    /// The value of that position for the player then to move; `None` where unknown.
    pub value: Option<Value>,
}

impl Move {
    /// True when the mover wins by this move (the position left is unsafe).
    pub fn wins(&self) -> Option<bool> {
        self.value.map(|v| !v.is_win())
    }

    /// Moves until the game ends if this move is played and both then play best.
    pub fn remoteness_after(&self) -> Option<u32> {
        self.value.and_then(Value::remoteness).map(|r| r + 1)
    }
}

/// A position with its value and every move valued.
pub struct Report {
    /// The position (heaps ascending).
    pub position: Position,
    /// Its value for the player to move.
    pub value: Value,
    /// Which source gave the verdict.
    pub source: SourceKind,
    /// What that source knows beside.
    pub evidence: Evidence,
    /// The moves, best first: winning ones fastest first, then losing ones longest first.
    pub moves: Vec<Move>,
    /// False when the position had more moves than are listed.
    pub moves_complete: bool,
}

/// Values `position` of `game` and each of its moves within `allowance`.
pub fn report(game: &Game, position: &Position, allowance: &Allowance) -> ApiResult<Report> {
    let mut chain = allowance.chain(game)?;
    let query = Query {
        best_move: true,
        remoteness: Remoteness::IfAvailable,
    };
    let solved = chain.solve(position, query)?;
    let (mut moves, moves_complete) = list_moves(game, position, allowance.limits().max_moves);
    let mut value = solved.answer.value;
    if moves.is_empty() {
        value = Value::remote(0, game.convention);
    } else if moves_complete && !valued_within(game, position, &mut moves, &mut value, allowance)? {
        // Without the remoteness, the verdicts: the winning moves are the listed ones
        // when the source listed them all.
        if solved.complete {
            for m in &mut moves {
                let wins = solved.winning_moves.binary_search(&m.to).is_ok();
                m.value = Some(Value::Outcome(sicher::value::Outcome::from_win(!wins)));
            }
        } else {
            outcomes_from_chain(&mut chain, &mut moves, allowance)?;
        }
    } else if !moves_complete {
        outcomes_from_chain(&mut chain, &mut moves, allowance)?;
    }
    sort_best_first(&mut moves);
    Ok(Report {
        position: position.clone(),
        value,
        source: solved.answer.source,
        evidence: solved.evidence,
        moves,
        moves_complete,
    })
}

/// [`remoteness_within`] in the first half of the time left: past it, or past its node
/// budget, the answer goes without the remoteness rather than without an answer.
fn valued_within(
    game: &Game,
    position: &Position,
    moves: &mut [Move],
    value: &mut Value,
    allowance: &Allowance,
) -> ApiResult<bool> {
    allowance
        .attempt(|| remoteness_within(game, position, moves, value, allowance))
        .unwrap_or(Ok(false))
}

/// The remoteness of the position and of every move's result, when the search finds them
/// within its node budget; false (and nothing changed) when it gives up.
fn remoteness_within(
    game: &Game,
    position: &Position,
    moves: &mut [Move],
    value: &mut Value,
    allowance: &Allowance,
) -> ApiResult<bool> {
    if position.total().saturating_mul(moves.len() as u128) > REMOTENESS_SIZE {
        return Ok(false);
    }
    let nodes = allowance.limits().remoteness_nodes;
    let mut solver = RemotenessSolver::new(game, allowance.search_config(), Algorithm::default());
    solver.set_progress(allowance.early_hook());
    let Some(found) = solver.value_within(position, nodes) else {
        return Ok(false);
    };
    if found.is_win() != value.is_win() {
        return Err(ApiError::internal(format!(
            "the remoteness search and the answer chain disagree on {position}"
        )));
    }
    let mut children = Vec::with_capacity(moves.len());
    for m in moves.iter() {
        match solver.value_within(&m.to, nodes) {
            Some(child) => children.push(child),
            None => return Ok(false),
        }
    }
    for (m, child) in moves.iter_mut().zip(children) {
        m.value = Some(child);
    }
    *value = found;
    Ok(true)
}

/// Each move's verdict from the chain (theory answers them at once; the search within the
/// deadline).
fn outcomes_from_chain(
    chain: &mut Chain,
    moves: &mut [Move],
    allowance: &Allowance,
) -> ApiResult<()> {
    let query = Query {
        best_move: false,
        remoteness: Remoteness::Skip,
    };
    for m in moves.iter_mut() {
        allowance.check();
        m.value = Some(chain.answer(&m.to, query)?.value);
    }
    Ok(())
}

/// The moves of `position`, each once as the rules list them, at most `cap` of them, and
/// whether that is all of them.
pub fn list_moves(game: &Game, position: &Position, cap: usize) -> (Vec<Move>, bool) {
    let heaps = position.heaps();
    let mut moves = Vec::new();
    let flow = game.ruleset.for_each_move(heaps, |removed, added| {
        if moves.len() == cap {
            return ControlFlow::Break(());
        }
        moves.push(Move {
            removed: removed.iter().map(|&i| heaps[i]).collect(),
            added: added.to_vec(),
            to: game.apply(position, removed, added),
            value: None,
        });
        ControlFlow::Continue(())
    });
    (moves, flow.is_continue())
}

/// Best first, as `sicher solve --remoteness` lists them: the mover's wins by increasing
/// remoteness, then the mover's losses by decreasing remoteness, unknown values last;
/// ties by the position left.
pub fn sort_best_first(moves: &mut [Move]) {
    let key = |m: &Move| -> (u8, i64) {
        match m.value {
            None => (2, 0),
            Some(v) => {
                let r = i64::from(v.remoteness().unwrap_or(0));
                if v.is_win() {
                    (1, -r)
                } else {
                    (0, r)
                }
            }
        }
    };
    moves.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.to.cmp(&b.to)));
}

//! Partizan games on the web: `GET /api/partizan?game=partizan-subtraction:1,3/2,3&heaps=6
//! &to_move=left`, the position's outcome class, the verdict of the side to move, every
//! move of that side with the verdict after it, and each player's winning moves; the
//! page plays from it. Games come from inline specs only (never a path), and a position
//! is bounded in tokens; the partizan engines take a cancellation handle, cancelled at
//! the request's time limit (the usual 503).

use axum::extract::{Query as Params, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use sicher::answer::{PartizanChain, PartizanPolicy, Query, Remoteness};
use sicher::game::partizan::{is_partizan_spec, parse_partizan_spec, PartizanGame, Terminal};
use sicher::game::Heap;
use sicher::value::Player;
use sicher::Position;

use crate::api::Q;
use crate::catalog;
use crate::error::{ApiError, ApiResult};
use crate::routes::AppState;

/// Most tokens of a partizan position a request may ask about.
pub const MAX_TOKENS: u64 = 40;

/// The examples the page offers (any other spec may be typed).
pub const EXAMPLES: [&str; 4] = [
    "partizan-subtraction:1,3/2,3",
    "partizan-subtraction:3,5/2,4",
    "partizan-octal:0.7/0.07",
    "partizan-subtraction:1,2/1,3",
];

/// The routes of partizan games.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/partizan", get(position))
        .route("/api/partizan/games", get(examples))
}

/// One move of the side to move.
#[derive(Serialize)]
struct MoveRecord {
    /// The position it leads to.
    to: Vec<Heap>,
    /// True when the mover wins by it (the other side, then to move, loses).
    win: bool,
}

/// What the page shows of a partizan position.
#[derive(Serialize)]
struct PositionRecord {
    game: String,
    title: String,
    play: String,
    position: Vec<Heap>,
    /// `L`, `R`, `N` or `P`.
    class: char,
    /// The class in words: `Left wins whoever starts`.
    class_words: &'static str,
    source: &'static str,
    /// `left` or `right`.
    to_move: &'static str,
    /// True when the side to move wins against best play.
    win: bool,
    /// Moves until play ends under best play, where searched within the budget.
    remoteness: Option<u32>,
    /// Every move of the side to move, winning ones first.
    moves: Vec<MoveRecord>,
    /// Left's winning moves (were Left to move) and Right's.
    left_winning: Vec<Vec<Heap>>,
    right_winning: Vec<Vec<Heap>>,
    /// `Some("left")` or `Some("right")` once play has ended.
    winner: Option<&'static str>,
}

/// The partizan game a request names: a partizan inline spec, under `play=`.
pub fn game(name: &str, play: Option<&str>, max_spec: usize) -> ApiResult<PartizanGame> {
    let name = name.trim();
    if name.len() > max_spec {
        return Err(ApiError::too_large(format!(
            "a game spec is at most {max_spec} bytes"
        )));
    }
    if !is_partizan_spec(name) {
        return Err(ApiError::bad(format!(
            "{name}: not a partizan spec; give one such as partizan-subtraction:1,3/2,3 or partizan-octal:0.7/0.07"
        )));
    }
    let game = parse_partizan_spec(name)?;
    Ok(match catalog::convention(play)? {
        Some(sicher::Convention::Misere) => game.with_terminal(Terminal::Misere),
        Some(sicher::Convention::Normal) => game.with_terminal(Terminal::Normal),
        None => game,
    })
}

/// `GET /api/partizan/games`: the partizan examples the page offers.
async fn examples() -> Json<Vec<&'static str>> {
    Json(EXAMPLES.to_vec())
}

/// `GET /api/partizan?game=…&heaps=…&to_move=left|right[&play=misere]`.
async fn position(
    State(state): State<AppState>,
    Params(q): Params<Q>,
) -> ApiResult<Json<PositionRecord>> {
    let limits = state.workers.limits();
    let name = q
        .get("game")
        .ok_or_else(|| ApiError::bad("name the game: ?game=partizan-subtraction:1,3/2,3"))?;
    let game = game(name, q.get("play").map(String::as_str), limits.max_spec)?;
    let heaps = q
        .get("heaps")
        .ok_or_else(|| ApiError::bad("give the heaps: &heaps=6 or &heaps=3,4"))?;
    let position = catalog::position(heaps, limits)?;
    let tokens: u128 = position.heaps().iter().map(|&h| u128::from(h)).sum();
    if tokens > u128::from(MAX_TOKENS) {
        return Err(ApiError::too_large(format!(
            "a partizan position has at most {MAX_TOKENS} tokens here"
        )));
    }
    let to_move = match q.get("to_move").map(|s| s.trim()) {
        None | Some("" | "left") => Player::Left,
        Some("right") => Player::Right,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "to_move={other}: expected left or right"
            )))
        }
    };
    let record = state
        .workers
        .run(move |allowance| {
            // The search's tables within `--hash`, as the impartial search's.
            let table_bytes = allowance.search_config().hash_bytes;
            Ok(allowance
                .cancellable(|cancel| answer(&game, &position, to_move, table_bytes, cancel))?)
        })
        .await?;
    Ok(Json(record))
}

/// The record of one position.
fn answer(
    game: &PartizanGame,
    position: &Position,
    to_move: Player,
    table_bytes: usize,
    cancel: &sicher::Cancel,
) -> sicher::Result<PositionRecord> {
    let largest = position.heaps().iter().copied().max().unwrap_or(0);
    game.prepare(largest)?;
    // No heap grows in play: the lone heaps up to the largest are all the sequence needs.
    let policy = PartizanPolicy {
        sequence_limit: largest,
        table_bytes,
        ..PartizanPolicy::default()
    };
    let mut chain = PartizanChain::new_cancellable(game, policy, cancel)?;
    let (class, source) = chain.class(position)?;
    let children = game.children(position.heaps(), to_move);
    let ended = game.terminal(position.heaps(), to_move, || !children.is_empty())?;
    let answer = chain.answer(
        position,
        to_move,
        Query {
            best_move: false,
            remoteness: Remoteness::IfAvailable,
        },
    )?;
    let mut moves = Vec::with_capacity(children.len());
    if ended.is_none() {
        for child in children {
            let after = Position::new(child);
            let (other_wins, _) = chain.verdict(&after, to_move.opponent())?;
            moves.push(MoveRecord {
                to: after.into_heaps(),
                win: !other_wins,
            });
        }
    }
    // Winning moves first, each group in the rules' order.
    moves.sort_by_key(|m| !m.win);
    let heaps = |list: Vec<Position>| list.into_iter().map(Position::into_heaps).collect();
    Ok(PositionRecord {
        game: game.spec(),
        title: game.title(),
        play: game.terminal.name(),
        position: position.heaps().to_vec(),
        class: class.letter(),
        class_words: class.in_words(),
        source: source.name(),
        to_move: to_move.name(),
        win: answer.win,
        remoteness: answer.remoteness,
        moves,
        left_winning: heaps(chain.winning_moves(position, Player::Left)?),
        right_winning: heaps(chain.winning_moves(position, Player::Right)?),
        winner: ended.map(|win| if win { to_move } else { to_move.opponent() }.name()),
    })
}

//! sicher's own JSON API, for programs: `check` and `solve` on a position (the command
//! line's JSON records), a batch of positions as `check` reads them, a game's complete
//! solution and nim-values, an endgame table's entry, and the position report the page
//! draws. Every parameter is read here, every error a JSON reason with a 4xx status.

use std::collections::HashMap;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{Query as Params, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Serialize;
use serde_json::{json, Value as JsonValue};
use sicher::answer::{
    AnswerRecord, Oracle, Query, Remoteness, SolutionRecord, SolveRecord, TableName, TableSource,
};
use sicher::game::{shipped_games, Heap};
use sicher::theory::grundy::{default_max, nim_values, solve, Method};
use sicher::{Game, Position};

use crate::catalog;
use crate::error::{ApiError, ApiResult};
use crate::report::report;
use crate::routes::AppState;
use crate::why::why;

/// A request's query parameters.
pub type Q = HashMap<String, String>;

/// The routes under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games", get(games))
        .route("/api/game", get(game_info))
        .route("/api/describe", post(describe))
        .route("/api/check", get(check).post(batch))
        .route("/api/solve", get(solve_position))
        .route("/api/solution", get(solution))
        .route("/api/nim-values", get(nim_value_list))
        .route("/api/position", get(position))
        .route("/api/table", get(table_entry))
        .route("/api/map.png", get(crate::pictures::map))
        .route("/api/plot.png", get(crate::pictures::plot))
}

/// The game `game=` and `play=` name.
pub fn game_of(state: &AppState, q: &Q) -> ApiResult<Game> {
    let name = q.get("game").ok_or_else(|| {
        ApiError::bad("name the game: ?game=kayles (or a spec such as octal:0.77)")
    })?;
    catalog::game(
        name,
        q.get("play").map(String::as_str),
        state.workers.limits(),
    )
}

/// The position `heaps=` gives, admitted for `game`.
fn position_of(state: &AppState, q: &Q, game: &Game) -> ApiResult<Position> {
    let heaps = q
        .get("heaps")
        .ok_or_else(|| ApiError::bad("give the heaps: &heaps=3,4,5"))?;
    let position = catalog::position(heaps, state.workers.limits())?;
    catalog::admit(game, position.heaps())?;
    Ok(position)
}

/// A whole number parameter, with its default, at most `cap`.
pub fn number(q: &Q, key: &str, default: u64, cap: u64) -> ApiResult<u64> {
    let value = match q.get(key) {
        None => default,
        Some(text) => text
            .trim()
            .parse::<u64>()
            .map_err(|_| ApiError::bad(format!("{key}={text}: expected a whole number")))?,
    };
    if value > cap {
        return Err(ApiError::too_large(format!(
            "{key}={value} is above this server's cap of {cap}"
        )));
    }
    Ok(value)
}

/// `remoteness=`: `required` (or `1`, `true`), `skip`, or where available.
fn remoteness_of(q: &Q) -> ApiResult<Remoteness> {
    match q.get("remoteness").map(String::as_str) {
        None | Some("" | "auto") => Ok(Remoteness::IfAvailable),
        Some("required" | "1" | "true" | "yes") => Ok(Remoteness::Required),
        Some("skip" | "0" | "false" | "no") => Ok(Remoteness::Skip),
        Some(other) => Err(ApiError::bad(format!(
            "remoteness={other}: expected required, skip or auto"
        ))),
    }
}

/// What `check` asks: a winning move unless `move=no`, the remoteness as
/// [`remoteness_of`] reads it.
fn query_of(q: &Q) -> ApiResult<Query> {
    Ok(Query {
        best_move: q.get("move").is_none_or(|m| m != "no"),
        remoteness: remoteness_of(q)?,
    })
}

/// What the page needs to know of a game.
#[derive(Serialize)]
struct GameInfo {
    /// The name that selects it (a shipped name or the spec).
    name: String,
    /// As output names it: `kayles (octal:0.77)`.
    title: String,
    /// The ruleset's spec.
    spec: String,
    /// `normal` or `misere`, the description's own.
    play: String,
    /// The description's start, if any.
    start: Option<Vec<Heap>>,
    /// One line about it.
    notes: String,
    /// True when a move may leave several heaps where there was one.
    splits: bool,
    /// True when every move changes one heap (Wythoff's and Moore's may change several).
    one_heap: bool,
}

impl GameInfo {
    fn new(name: &str, game: &Game) -> Self {
        GameInfo {
            name: name.to_string(),
            title: game.title(),
            spec: game.ruleset.spec(),
            play: game.convention.to_string(),
            start: game.start.as_ref().map(|p| p.heaps().to_vec()),
            notes: game.notes.clone(),
            splits: game.ruleset.splits(),
            one_heap: game.ruleset.moves_one_heap(),
        }
    }
}

/// `GET /api/games`: every shipped game.
async fn games() -> ApiResult<Json<Vec<GameInfo>>> {
    let mut list = Vec::new();
    for shipped in shipped_games() {
        let game = sicher::resolve(shipped.name)?;
        list.push(GameInfo::new(shipped.name, &game));
    }
    Ok(Json(list))
}

/// `GET /api/game?game=octal:0.137`: one game, shipped or typed.
async fn game_info(
    State(state): State<AppState>,
    Params(q): Params<Q>,
) -> ApiResult<Json<GameInfo>> {
    let game = game_of(&state, &q)?;
    Ok(Json(GameInfo::new(
        q.get("game").map_or("", |s| s.trim()),
        &game,
    )))
}

/// `POST /api/describe`: a description in TOML, read as a file would be (scripts only
/// where the server allows them).
async fn describe(State(state): State<AppState>, body: Bytes) -> ApiResult<Json<GameInfo>> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::bad("the description is not UTF-8 text"))?;
    let game = catalog::description(text, state.workers.limits())?;
    Ok(Json(GameInfo::new(&game.ruleset.spec(), &game)))
}

/// `GET /api/check?game=kayles&heaps=3,4,5`: `check --json`'s record.
async fn check(
    State(state): State<AppState>,
    Params(q): Params<Q>,
) -> ApiResult<Json<AnswerRecord<'static>>> {
    let game = game_of(&state, &q)?;
    let position = position_of(&state, &q, &game)?;
    let query = query_of(&q)?;
    let record = state
        .workers
        .run(move |allowance| {
            let mut chain = allowance.chain(&game)?;
            Ok(AnswerRecord::new(&chain.answer(&position, query)?).into_owned())
        })
        .await?;
    Ok(Json(record))
}

/// `POST /api/check?game=kayles`: one position per line of the body, as `check` reads
/// standard input; one record each, in order.
async fn batch(
    State(state): State<AppState>,
    Params(q): Params<Q>,
    body: Bytes,
) -> ApiResult<Json<Vec<AnswerRecord<'static>>>> {
    let game = game_of(&state, &q)?;
    let limits = state.workers.limits();
    let (max_batch, max_heaps) = (limits.max_batch, limits.max_heaps);
    let lines = body.iter().filter(|&&b| b == b'\n').count() + 1;
    if lines > max_batch + 1 {
        return Err(ApiError::too_large(format!(
            "a batch holds at most {max_batch} positions"
        )));
    }
    let query = query_of(&q)?;
    let records = state
        .workers
        .run(move |allowance| {
            let mut chain = allowance.chain(&game)?;
            let mut records = Vec::new();
            sicher::game::for_each_line(&body[..], |heaps| {
                if records.len() == max_batch {
                    return Err(sicher::Error::input(format!(
                        "a batch holds at most {max_batch} positions"
                    )));
                }
                if heaps.len() > max_heaps {
                    return Err(sicher::Error::input(format!(
                        "a position has at most {max_heaps} heaps here"
                    )));
                }
                if let Err(refused) = catalog::admit(&game, heaps) {
                    return Err(sicher::Error::resource(refused.reason));
                }
                allowance.check();
                let answer = chain.answer(&Position::new(heaps.to_vec()), query)?;
                records.push(AnswerRecord::new(&answer).into_owned());
                Ok(())
            })?;
            Ok(records)
        })
        .await?;
    Ok(Json(records))
}

/// `GET /api/solve?game=kayles&heaps=3,4,5[&remoteness=required]`: `solve --json`'s record.
async fn solve_position(
    State(state): State<AppState>,
    Params(q): Params<Q>,
) -> ApiResult<Json<SolveRecord>> {
    let game = game_of(&state, &q)?;
    let position = position_of(&state, &q, &game)?;
    let remoteness = remoteness_of(&q)?;
    let record = state
        .workers
        .run(move |allowance| {
            let started = Instant::now();
            let mut chain = allowance.chain(&game)?;
            let query = Query {
                best_move: true,
                remoteness,
            };
            let solved = chain.solve(&position, query)?;
            let valued = remoteness == Remoteness::Required;
            Ok(SolveRecord::new(
                &game,
                &position,
                &solved,
                valued,
                started.elapsed(),
                TableName::FileName,
            ))
        })
        .await?;
    Ok(Json(record))
}

/// `GET /api/solution?game=kayles[&max=N]`: `solve GAME --json`'s record.
async fn solution(
    State(state): State<AppState>,
    Params(q): Params<Q>,
) -> ApiResult<Json<SolutionRecord<'static>>> {
    let game = game_of(&state, &q)?;
    // No further than the library computes by default: the plain mex engine is quadratic.
    let cap = state
        .workers
        .limits()
        .max_solution
        .min(default_max(&game.ruleset));
    let max = number(&q, "max", cap, cap)?;
    catalog::admit(&game, &[max])?;
    let record = state
        .workers
        .run(move |allowance| {
            let solution = solve(&game, max, &mut |_| allowance.check())?;
            Ok(SolutionRecord::whole(&game, solution))
        })
        .await?;
    Ok(Json(record))
}

/// `GET /api/nim-values?game=kayles&max=100`: G(0..=max).
async fn nim_value_list(
    State(state): State<AppState>,
    Params(q): Params<Q>,
) -> ApiResult<Json<JsonValue>> {
    let game = game_of(&state, &q)?;
    let cap = state
        .workers
        .limits()
        .max_solution
        .min(default_max(&game.ruleset));
    let max = number(&q, "max", 100.min(cap), cap)?;
    catalog::admit(&game, &[max])?;
    let values = state
        .workers
        .run(move |_| Ok(nim_values(&game.ruleset, Method::Fast, max + 1)?))
        .await?;
    Ok(Json(
        json!({ "game": q.get("game"), "max": max, "values": values }),
    ))
}

/// `GET /api/position?game=kayles&play=misere&heaps=3,4,5`: the page's report: the value
/// with its remoteness, every move valued best first, and why.
async fn position(
    State(state): State<AppState>,
    Params(q): Params<Q>,
) -> ApiResult<Json<JsonValue>> {
    let game = game_of(&state, &q)?;
    let position = position_of(&state, &q, &game)?;
    let body = state
        .workers
        .run(move |allowance| {
            let answered = report(&game, &position, allowance)?;
            let why = why(&game, &answered, allowance);
            let moves: Vec<JsonValue> = answered
                .moves
                .iter()
                .map(|m| {
                    json!({
                        "removed": m.removed,
                        "left": m.added.iter().filter(|&&a| a > 0).collect::<Vec<_>>(),
                        "to": m.to.heaps(),
                        "win": m.wins(),
                        "remoteness": m.remoteness_after(),
                    })
                })
                .collect();
            let win = answered.value.is_win();
            Ok(json!({
                "game": game.canonical(),
                "name": game.name,
                "title": game.title(),
                "play": game.convention.to_string(),
                "position": answered.position.heaps(),
                "win": win,
                "label": sicher::value::Outcome::from_win(win).label(),
                "remoteness": answered.value.remoteness(),
                "source": answered.source.name(),
                "moves": moves,
                "moves_complete": answered.moves_complete,
                "why": why,
            }))
        })
        .await?;
    Ok(Json(body))
}

/// `GET /api/table?game=kayles&heaps=3,4,5`: the entry of a table under `--tables DIR`
/// that covers the position.
async fn table_entry(
    State(state): State<AppState>,
    Params(q): Params<Q>,
) -> ApiResult<Json<JsonValue>> {
    let game = game_of(&state, &q)?;
    let position = position_of(&state, &q, &game)?;
    let Some(dir) = state.tables.clone() else {
        return Err(ApiError::not_found(
            "this server reads no tables (start it with --tables DIR)",
        ));
    };
    let body = state
        .workers
        .run(move |_| {
            let Some(mut tables) = TableSource::in_dir(&dir, &game) else {
                return Err(ApiError::not_found(format!(
                    "no table of {} play of {} here",
                    game.convention,
                    game.title()
                )));
            };
            let query = Query {
                best_move: true,
                remoteness: Remoteness::IfAvailable,
            };
            match tables.answer(&position, query)? {
                Some(answer) => Ok(json!(AnswerRecord::new(&answer))),
                None => Err(ApiError::not_found(format!(
                    "no table here covers {position}"
                ))),
            }
        })
        .await?;
    Ok(Json(body))
}

//! The GamesCrafters Universal Web API, as GamesCraftersUWAPI's README documents it and
//! GamesmanUni reads it: the game list, each game's variants (normal and misère play, and
//! custom starts written as heaps), each variant's start, positions with their value,
//! remoteness and every move valued best first, and instructions. Boards are GamesmanUni's
//! text board (`imageAutoGUIData: null`), on which a move's `autoguiMove` is its `move`.

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::{json, Value as Json_};
use sicher::game::{shipped_games, Convention, Heap};
use sicher::{Game, Position};

use crate::error::{ApiError, ApiResult};
use crate::notation::Board;
use crate::report::report;
use crate::routes::AppState;

/// The board GamesmanUni draws: characters (the text board), listed as "Standard GUIs".
const GUI: &str = "v1";
/// Starts larger than this many tokens are replaced by a small one: the remoteness of
/// every move is searched for each position the client asks about.
const START_TOKENS: u128 = 24;

/// The routes under `/uwapi`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/uwapi", get(games))
        .route("/uwapi/", get(games))
        .route("/uwapi/{game}", get(game))
        .route("/uwapi/{game}/", get(game))
        .route("/uwapi/{game}/{variant}", get(variant))
        .route("/uwapi/{game}/{variant}/", get(variant))
        .route("/uwapi/{game}/{variant}/positions", get(position))
        .route("/uwapi/{game}/{variant}/positions/", get(position))
        .route("/uwapi/{game}/{variant}/instructions", get(instructions))
        .route("/uwapi/{game}/{variant}/instructions/", get(instructions))
}

/// A shipped game's name as people read it: `dawson-kayles` → `Dawson's Kayles`.
fn title(id: &str) -> String {
    match id {
        "dawson-kayles" => "Dawson's Kayles".into(),
        "dawson-chess" => "Dawson's Chess".into(),
        "moore-2" => "Moore's Nim (k = 2)".into(),
        "subtraction-1-3-4" => "Subtraction game {1, 3, 4}".into(),
        "kayles-script" => "Kayles (as a script)".into(),
        "grundy" => "Grundy's Game".into(),
        other => other
            .split('-')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}

#[derive(Serialize)]
struct ListedGame {
    id: String,
    name: String,
    #[serde(rename = "type")]
    kind: &'static str,
    gui: &'static str,
}

/// `GET /uwapi/`: every shipped game, by name.
async fn games() -> Json<Vec<ListedGame>> {
    let mut list: Vec<ListedGame> = shipped_games()
        .iter()
        .map(|g| ListedGame {
            id: g.name.to_string(),
            name: format!("{} (sicher)", title(g.name)),
            kind: "twoPlayer",
            gui: GUI,
        })
        .collect();
    list.sort_by(|a, b| a.name.cmp(&b.name));
    Json(list)
}

/// A shipped game by its id (specs are not ids here: GamesmanUni lists what `/` gives).
fn shipped(id: &str) -> ApiResult<Game> {
    if !shipped_games().iter().any(|g| g.name == id) {
        return Err(ApiError::not_found(format!(
            "no game `{id}` here; `/uwapi/` lists them"
        )));
    }
    Ok(sicher::resolve(id)?)
}

/// `GET /uwapi/{game}/`.
async fn game(Path(id): Path<String>) -> ApiResult<Json<Json_>> {
    let game = shipped(&id)?;
    Ok(Json(json!({
        "id": id,
        "name": format!("{} (sicher)", title(&id)),
        "variants": [
            {"id": "normal", "name": "Normal play", "gui": GUI},
            {"id": "misere", "name": "Misère play", "gui": GUI},
        ],
        "allowCustomVariantCreation": true,
        "supportsWinBy": false,
        "instructions": instructions_text(&game),
    })))
}

/// A variant: the convention and the start, from `normal`, `misere`, or a custom start
/// such as `3_4_5` or `misere-3_4_5`.
fn variant_of(game: &Game, id: &str, max_heaps: usize) -> ApiResult<(Convention, Vec<Heap>)> {
    let (convention, start) = match id.split_once('-') {
        _ if id == "normal" => (Convention::Normal, None),
        _ if id == "misere" => (Convention::Misere, None),
        Some(("misere", heaps)) => (Convention::Misere, Some(heaps)),
        Some(("normal", heaps)) => (Convention::Normal, Some(heaps)),
        _ => (Convention::Normal, Some(id)),
    };
    let start = match start {
        None => default_start(game),
        Some(text) => {
            let board = Board::parse(&format!("1_{}", text.replace('_', "-")), max_heaps).map_err(
                |_| {
                    ApiError::not_found(format!(
                    "no variant `{id}`: normal, misere, or a start such as 3_4_5 or misere-3_4_5"
                ))
                },
            )?;
            if board.heaps.is_empty() {
                return Err(ApiError::bad("a custom start needs a heap with tokens"));
            }
            board.heaps
        }
    };
    Ok((convention, start))
}

/// The description's start where it is small, else three small heaps.
fn default_start(game: &Game) -> Vec<Heap> {
    match &game.start {
        Some(start) if start.total() <= START_TOKENS && !start.heaps().is_empty() => {
            start.heaps().to_vec()
        }
        _ if matches!(game.ruleset, sicher::Ruleset::Grundy) => vec![7, 9],
        _ => vec![3, 4, 5],
    }
}

/// `GET /uwapi/{game}/{variant}/`.
async fn variant(
    State(state): State<AppState>,
    Path((id, variant)): Path<(String, String)>,
) -> ApiResult<Json<Json_>> {
    let game = shipped(&id)?;
    let (convention, start) = variant_of(&game, &variant, state.workers.limits().max_heaps)?;
    let start = Board {
        player: 1,
        heaps: start,
    }
    .text();
    let name = match (convention, variant.as_str()) {
        (_, "normal") => "Normal play".to_string(),
        (_, "misere") => "Misère play".to_string(),
        (Convention::Normal, _) => format!("Normal play from {start}"),
        (Convention::Misere, _) => format!("Misère play from {start}"),
    };
    Ok(Json(json!({
        "id": variant,
        "name": name,
        "gui": GUI,
        "startPosition": start,
        "autoguiStartPosition": start,
        "imageAutoGUIData": null,
    })))
}

/// `GET /uwapi/{game}/{variant}/positions/?p=1_3-4-5`.
async fn position(
    State(state): State<AppState>,
    Path((id, variant)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<Json<Json_>> {
    let game = shipped(&id)?;
    let max_heaps = state.workers.limits().max_heaps;
    let (convention, _) = variant_of(&game, &variant, max_heaps)?;
    let game = game.with_convention(convention);
    let text = query
        .get("p")
        .ok_or_else(|| ApiError::bad("give the position as ?p=1_3-4-5"))?;
    let board = Board::parse(text, max_heaps)?;
    crate::catalog::admit(&game, &board.heaps)?;
    let position = Position::new(board.heaps.clone());
    let answered = state
        .workers
        .run(move |allowance| report(&game, &position, allowance))
        .await?;
    let value = |win: bool| if win { "win" } else { "lose" };
    let remoteness = |r: Option<u32>| r.map_or(-100, i64::from);
    // deltaRemoteness as UWAPI's server computes it: a winning move against the fastest
    // win, a losing move against the longest resistance.
    let fastest_win = answered
        .moves
        .iter()
        .filter(|m| m.wins() == Some(true))
        .filter_map(|m| m.value.and_then(|v| v.remoteness()))
        .min()
        .unwrap_or(1);
    let longest_loss = answered
        .moves
        .iter()
        .filter(|m| m.wins() == Some(false))
        .filter_map(|m| m.value.and_then(|v| v.remoteness()))
        .max()
        .unwrap_or(0);
    let mut seen = std::collections::HashSet::new();
    let moves: Vec<Json_> = answered
        .moves
        .iter()
        .map(|m| {
            let (after, mut name) = board.after(m);
            // Equal moves from equal heaps are listed once by the rules; a name is made
            // unique anyway, since the client keys moves by it.
            let mut n = 2;
            while !seen.insert(name.clone()) {
                name = format!("{name} #{n}");
                n += 1;
            }
            let child_r = m.value.and_then(|v| v.remoteness());
            let (move_value, delta) = match (m.wins(), child_r) {
                (Some(true), Some(r)) => ("win", i64::from(r) - i64::from(fastest_win)),
                (Some(false), Some(r)) => ("lose", i64::from(longest_loss) - i64::from(r)),
                (Some(true), None) => ("win", 0),
                (Some(false), None) => ("lose", 0),
                (None, _) => ("unsolved", 0),
            };
            let child = after.text();
            json!({
                "move": name,
                "autoguiMove": name,
                "moveValue": move_value,
                "deltaRemoteness": delta,
                "position": child,
                "autoguiPosition": child,
                "positionValue": m.value.map_or("unsolved", |v| value(v.is_win())),
                "remoteness": remoteness(child_r),
            })
        })
        .collect();
    let here = board.text();
    let mut body = json!({
        "position": here,
        "autoguiPosition": here,
        "positionValue": value(answered.value.is_win()),
        "remoteness": remoteness(answered.value.remoteness()),
        "moves": moves,
    });
    if let sicher::answer::Evidence::NimValues { nim_sum, .. } = answered.evidence {
        body["mex"] = json!(match nim_sum {
            0 => "0".to_string(),
            1 => "*".to_string(),
            n => format!("*{n}"),
        });
    }
    Ok(Json(body))
}

/// `GET /uwapi/{game}/{variant}/instructions/`: English for every locale.
async fn instructions(Path((id, _variant)): Path<(String, String)>) -> ApiResult<Json<Json_>> {
    let game = shipped(&id)?;
    Ok(Json(json!({ "instructions": instructions_text(&game) })))
}

/// How to play, in markdown.
fn instructions_text(game: &Game) -> String {
    let splits = if game.ruleset.splits() {
        " A move may also split what is left of a heap into several heaps."
    } else {
        ""
    };
    format!(
        "# {}\n\n{}\n\nThe position lists the heaps (`1_3-4-5`: player 1 to move, heaps of 3, 4 and 5 tokens). Each move takes tokens from a heap as the rules allow ({}).{splits}\n\n**Normal play**: whoever makes the last move wins. **Misère play**: whoever makes the last move loses.\n\nValues and remoteness (moves to the end under best play) come from sicher, exact for every position: theory (nim-values, misère quotients, closed forms), endgame tables or search.\n",
        title(&game.name),
        if game.notes.is_empty() { "An impartial heap game." } else { &game.notes },
        game.ruleset.spec(),
    )
}

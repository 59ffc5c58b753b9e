//! Which games a request may name, read without touching the file system: shipped names
//! and inline specs only (never `sicher::resolve`, which would open a path a stranger
//! typed), scripts only where `--allow-scripts` says so.

use sicher::game::{parse_description, parse_heap, parse_spec, shipped_games, Convention};
use sicher::{Game, Position, Ruleset};

use crate::error::{ApiError, ApiResult};
use crate::limits::Limits;

/// Largest heap of a request for rules given as a script: the script is run for every
/// heap size up to the largest before anything is answered (in the library, where no
/// deadline reaches it), and a script is far slower than built-in rules.
pub const SCRIPT_MAX_HEAP: u64 = 256;

/// Refuses a position whose preparation alone would run past any budget: heaps above
/// [`SCRIPT_MAX_HEAP`] of rules given as a script.
pub fn admit(game: &Game, heaps: &[u64]) -> ApiResult<()> {
    let largest = heaps.iter().copied().max().unwrap_or(0);
    if matches!(game.ruleset, Ruleset::Custom(_)) && largest > SCRIPT_MAX_HEAP {
        return Err(ApiError::too_large(format!(
            "rules given as a script are run for every heap up to the largest; this server runs them up to heaps of {SCRIPT_MAX_HEAP}"
        )));
    }
    Ok(())
}

/// The game a request names (`game=`), under the convention it asks for (`play=`), or the
/// game's own when it asks for none.
pub fn game(name: &str, play: Option<&str>, limits: &Limits) -> ApiResult<Game> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::bad(
            "name a game: a shipped one (nim, kayles, ...) or a spec such as octal:0.77",
        ));
    }
    if name.len() > limits.max_spec {
        return Err(ApiError::too_large(format!(
            "a game spec is at most {} bytes",
            limits.max_spec
        )));
    }
    let game = if shipped_games().iter().any(|g| g.name == name) {
        sicher::resolve(name)?
    } else if name.starts_with("script:") && !limits.allow_scripts {
        return Err(ApiError::bad(
            "rules given as a script are not accepted from the network (the server's --allow-scripts allows them)",
        ));
    } else if name.contains(':') || matches!(name, "nim" | "grundy" | "wythoff") {
        parse_spec(name)?
    } else {
        let names: Vec<&str> = shipped_games().iter().map(|g| g.name).collect();
        return Err(ApiError::bad(format!(
            "unknown game `{name}`: give a shipped game ({}) or a spec such as octal:0.77, hex:0.8F, subtraction:1,3,4, moore:2",
            names.join(", ")
        )));
    };
    Ok(match convention(play)? {
        Some(convention) => game.with_convention(convention),
        None => game,
    })
}

/// The convention `play=` asks for: `normal`, `misere` (or `misère`), or none.
pub fn convention(play: Option<&str>) -> ApiResult<Option<Convention>> {
    match play.map(str::trim) {
        None | Some("") => Ok(None),
        Some("normal") => Ok(Some(Convention::Normal)),
        Some("misere" | "misère") => Ok(Some(Convention::Misere)),
        Some(other) => Err(ApiError::bad(format!(
            "play={other}: expected normal or misere"
        ))),
    }
}

/// Heap sizes as a request writes them: separated by commas or spaces, as `check` reads them.
pub fn heaps(text: &str, limits: &Limits) -> ApiResult<Vec<u64>> {
    let words: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() > limits.max_heaps {
        return Err(ApiError::too_large(format!(
            "a position has at most {} heaps here",
            limits.max_heaps
        )));
    }
    words
        .iter()
        .map(|w| parse_heap(w).map_err(ApiError::from))
        .collect()
}

/// A position as a request writes it.
pub fn position(text: &str, limits: &Limits) -> ApiResult<Position> {
    Ok(Position::new(heaps(text, limits)?))
}

/// A description posted as TOML: read as `sicher` reads a file, refusing rules given as a
/// script unless the server allows them (a script runs on the server, within Rhai's
/// limits, but only where its operator agreed).
pub fn description(text: &str, limits: &Limits) -> ApiResult<Game> {
    let declared: toml::Table = toml::from_str(text)
        .map_err(|e| ApiError::bad(format!("the description is not TOML: {}", e.message())))?;
    let script = declared.get("rules").and_then(|r| r.as_str()) == Some("script")
        || declared.contains_key("script");
    if script && !limits.allow_scripts {
        return Err(ApiError {
            status: axum::http::StatusCode::FORBIDDEN,
            reason: "rules given as a script are not accepted from the network (the server's --allow-scripts allows them)".into(),
        });
    }
    Ok(parse_description(text, "<request>")?)
}

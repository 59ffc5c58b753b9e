//! The two pictures as PNG: the map of two-heap positions (`sicher picture`) and the
//! per-heap series (`sicher plot`), within the server's caps on their sizes.

use axum::extract::{Query as Params, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use sicher::picture::{write_map_png, write_plot_png, MapMode};
use sicher::survey::{heap_series, map_bytes_needed, plot_bytes_needed, two_heap_map};

use crate::api::{game_of, number, Q};
use crate::error::{ApiError, ApiResult};
use crate::routes::AppState;

/// Bytes one picture may hold while it is drawn.
const PICTURE_BYTES: u128 = 256 << 20;

/// A PNG answer.
fn png(bytes: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        bytes,
    )
        .into_response()
}

/// `GET /api/map.png?game=wythoff&max=60&scale=4[&remoteness=1]`.
pub async fn map(State(state): State<AppState>, Params(q): Params<Q>) -> ApiResult<Response> {
    let game = game_of(&state, &q)?;
    let limits = state.workers.limits();
    let max = number(&q, "max", 30, limits.max_map)?;
    crate::catalog::admit(&game, &[max])?;
    let scale = number(&q, "scale", 4, u64::from(limits.max_scale))?.max(1) as u32;
    let remoteness = matches!(
        q.get("remoteness").map(String::as_str),
        Some("1" | "true" | "yes")
    );
    let mode = if remoteness {
        MapMode::Remoteness
    } else {
        MapMode::Outcome
    };
    if map_bytes_needed(max, scale, mode) > PICTURE_BYTES {
        return Err(ApiError::too_large(
            "that map would not fit this server's memory cap; lower max or scale",
        ));
    }
    let bytes = state
        .workers
        .run(move |allowance| {
            let mut chain = allowance.chain(&game)?;
            let map = two_heap_map(&mut chain, max, remoteness, &mut |_| allowance.check())?;
            let mut bytes = Vec::new();
            write_map_png(&map, scale, mode, &mut bytes)?;
            Ok(bytes)
        })
        .await?;
    Ok(png(bytes))
}

/// `GET /api/plot.png?game=kayles&max=200[&width=900&height=450]`.
pub async fn plot(State(state): State<AppState>, Params(q): Params<Q>) -> ApiResult<Response> {
    let game = game_of(&state, &q)?;
    let limits = state.workers.limits();
    // No further than the library computes by default: the plain mex engine is quadratic.
    let cap = limits
        .max_plot
        .min(sicher::theory::grundy::default_max(&game.ruleset));
    let max = number(&q, "max", 200.min(cap), cap)?;
    crate::catalog::admit(&game, &[max])?;
    let side = u64::from(limits.max_plot_side);
    let width = number(&q, "width", 900, side)?.max(200) as u32;
    let height = number(&q, "height", 450, side)?.max(150) as u32;
    if plot_bytes_needed((width, height), max) > PICTURE_BYTES {
        return Err(ApiError::too_large(
            "that plot would not fit this server's memory cap",
        ));
    }
    let bytes = state
        .workers
        .run(move |_| {
            let series = heap_series(&game, max)?;
            let mut bytes = Vec::new();
            write_plot_png(&series, (width, height), &mut bytes)?;
            Ok(bytes)
        })
        .await?;
    Ok(png(bytes))
}

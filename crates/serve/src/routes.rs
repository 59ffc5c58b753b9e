//! The router: the page, `/api`, `/uwapi`, and what every answer shares: the
//! cross-origin header a public read-only API sends (GamesmanUni runs on another origin),
//! JSON bodies for every error (the framework's own rejections included), and the caps on
//! request bodies.

use std::path::PathBuf;

use axum::body::to_bytes;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;

use crate::error::ApiError;
use crate::work::Workers;

/// What every handler reaches.
#[derive(Clone)]
pub struct AppState {
    /// The computing slots and the bounds.
    pub workers: Workers,
    /// `--tables DIR`, the only place tables are read from.
    pub tables: Option<PathBuf>,
}

/// The whole application.
pub fn router(state: AppState) -> Router {
    let max_body = state.workers.limits().max_body;
    crate::page::routes()
        .merge(crate::api::routes())
        .merge(crate::partizan::routes())
        .merge(crate::uwapi::routes())
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(middleware::from_fn(json_errors))
        .layer(middleware::from_fn(cors))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::not_found(
        "no such page or route: see / for the page, /api/games and /uwapi/ for the APIs",
    )
}

/// Every answer may be read from any origin (the API is public and read-only, and holds
/// no credentials); a preflight is answered at once.
async fn cors(request: Request, next: Next) -> Response {
    let mut response = if request.method() == Method::OPTIONS {
        let mut r = StatusCode::NO_CONTENT.into_response();
        let h = r.headers_mut();
        h.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, POST, OPTIONS"),
        );
        h.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static("content-type"),
        );
        h.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("86400"),
        );
        r
    } else {
        next.run(request).await
    };
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// Rejections the framework words in plain text (a body over the cap, a wrong method)
/// are given the JSON body every other error has.
async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let text = match to_bytes(response.into_body(), 4096).await {
        Ok(bytes) if !bytes.is_empty() => String::from_utf8_lossy(&bytes).into_owned(),
        _ => status.canonical_reason().unwrap_or("error").to_string(),
    };
    ApiError {
        status,
        reason: text,
    }
    .into_response()
}

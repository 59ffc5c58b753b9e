//! Errors as HTTP answers: a status and one line of JSON saying why.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use sicher::error::{Error, ErrorKind};

/// A request that cannot be answered, with the status and the reason sent back.
#[derive(Debug)]
pub struct ApiError {
    /// 4xx for the request's fault, 503 past a budget, 500 for sicher's own.
    pub status: StatusCode,
    /// One line saying why.
    pub reason: String,
}

impl ApiError {
    /// 400: the request is wrong (a bad parameter, an unknown game).
    pub fn bad(reason: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            reason: reason.into(),
        }
    }

    /// 404: nothing here.
    pub fn not_found(reason: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::NOT_FOUND,
            reason: reason.into(),
        }
    }

    /// 413: a request larger than the server's caps.
    pub fn too_large(reason: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            reason: reason.into(),
        }
    }

    /// 503: past the per-request budget, or every computing slot busy.
    pub fn unavailable(reason: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            reason: reason.into(),
        }
    }

    /// 500: a fault in sicher itself.
    pub fn internal(reason: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            reason: reason.into(),
        }
    }
}

impl From<Error> for ApiError {
    fn from(error: Error) -> Self {
        let status = match error.kind() {
            ErrorKind::Input => StatusCode::BAD_REQUEST,
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            // Work refused because it would not fit: the server's budget, not the client's
            // syntax; the same request may fit another time or another server.
            ErrorKind::Resource | ErrorKind::Interrupted => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError {
            status,
            reason: error.to_string(),
        }
    }
}

/// The JSON body of every error.
#[derive(serde::Serialize)]
struct Body<'a> {
    error: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // One line: the library's messages may carry a hint on a second.
        let reason = self.reason.replace('\n', "; ");
        (self.status, Json(Body { error: &reason })).into_response()
    }
}

/// What a handler returns.
pub type ApiResult<T> = Result<T, ApiError>;

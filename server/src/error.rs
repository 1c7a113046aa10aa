//! The one error type of request handlers. A handler returns it bare; the request-context
//! middleware turns it into the localized HTML page, or JSON under `/api/`, because only the
//! middleware knows the request's language.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("not found")]
    NotFound,
    /// The route needs a signed-in user: pages redirect to sign-in, the API answers 401.
    #[error("sign-in required")]
    SignInRequired,
    #[error("forbidden")]
    Forbidden,
    /// A request that cannot be processed; carries the Fluent id of the message to show.
    #[error("bad request ({0})")]
    BadRequest(&'static str),
    /// Input refused before any handler read it (too large, wrong content type, control
    /// characters): its own 4xx status, and the Fluent id of the message to show.
    #[error("refused ({0}, {1})")]
    Refused(StatusCode, &'static str),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl From<sqlx::Error> for AppError {
    /// A full disk, a write lock held past the busy timeout (an operator's `sqlite3`, say) and an
    /// exhausted pool are passing states, answered 503 with a retry hint and their own message
    /// instead of a generic 500 (issue 30); anything else is internal.
    fn from(e: sqlx::Error) -> Self {
        let code = match &e {
            sqlx::Error::Database(db) => db.code().and_then(|c| c.parse::<i32>().ok()),
            _ => None,
        };
        // SQLite's extended codes keep the primary code in their low byte.
        match code.map(|c| c & 0xff) {
            Some(SQLITE_FULL) => {
                tracing::warn!(error = %e, "the disk is full: write refused");
                AppError::Refused(StatusCode::SERVICE_UNAVAILABLE, "disk-full-try-again")
            }
            Some(SQLITE_BUSY) => {
                AppError::Refused(StatusCode::SERVICE_UNAVAILABLE, "busy-try-again")
            }
            _ if matches!(e, sqlx::Error::PoolTimedOut) => {
                AppError::Refused(StatusCode::SERVICE_UNAVAILABLE, "busy-try-again")
            }
            _ => AppError::Internal(e.into()),
        }
    }
}

const SQLITE_BUSY: i32 = 5;
const SQLITE_FULL: i32 = 13;

impl AppError {
    /// The message for a body the extractors refused with `status`.
    pub fn rejection_message(status: StatusCode) -> &'static str {
        match status {
            StatusCode::PAYLOAD_TOO_LARGE => "input-too-large",
            StatusCode::UNSUPPORTED_MEDIA_TYPE => "input-wrong-type",
            _ => "bad-request-text",
        }
    }

    /// How a refused body is answered: too large and wrong type keep their status, anything
    /// else is a bad request.
    pub fn rejected(status: StatusCode) -> AppError {
        let message = AppError::rejection_message(status);
        match status {
            StatusCode::PAYLOAD_TOO_LARGE | StatusCode::UNSUPPORTED_MEDIA_TYPE => {
                AppError::Refused(status, message)
            }
            _ => AppError::BadRequest(message),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::SignInRequired => StatusCode::UNAUTHORIZED,
            AppError::Forbidden => StatusCode::FORBIDDEN,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Refused(status, _) => *status,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// What the middleware needs to render the error; internal causes are logged, never shown.
#[derive(Clone, Debug)]
pub struct ErrorMarker {
    pub message_id: Option<&'static str>,
    pub internal: Option<String>,
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let mut response = self.status().into_response();
        let marker = match self {
            AppError::BadRequest(id) | AppError::Refused(_, id) => ErrorMarker {
                message_id: Some(id),
                internal: None,
            },
            AppError::Internal(e) => ErrorMarker {
                message_id: None,
                internal: Some(format!("{e:#}")),
            },
            _ => ErrorMarker {
                message_id: None,
                internal: None,
            },
        };
        response.extensions_mut().insert(marker);
        response
    }
}

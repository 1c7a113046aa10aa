//! Refuses posted input no form or JSON endpoint accepts, before any handler reads it, so each
//! handler's own validation only ever sees text a person could have typed:
//!
//! - a body of a type the route does not take (the JSON API takes `application/json`, every
//!   other POST a form: `application/x-www-form-urlencoded` or `multipart/form-data`): 415;
//! - control characters (other than tab, line feed and carriage return) in a form field's
//!   name or value, or in a JSON string: 400. No keyboard types them, so a person never loses
//!   what they typed to this rule; multipart text fields are screened by `read_multipart`.
//!
//! Body sizes stay the routes' own `DefaultBodyLimit`s, enforced by the extractors after this.

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

/// The largest urlencoded or JSON body any route takes (the startup editor's); a larger one is
/// refused here, unread.
pub const MAX_SCREENED_BODY: usize = 1024 * 1024;

pub async fn middleware(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let api = request.uri().path().starts_with("/api/");
    let kind = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|v| v.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let body_kind = match kind.as_str() {
        "application/json" if api => BodyKind::Json,
        "application/x-www-form-urlencoded" if !api => BodyKind::Form,
        "multipart/form-data" if !api => return next.run(request).await,
        // A POST without a body (a plain button form still sends an urlencoded one).
        "" if request
            .headers()
            .get(header::CONTENT_LENGTH)
            .is_none_or(|l| l == "0") =>
        {
            return next.run(request).await;
        }
        _ => return AppError::rejected(StatusCode::UNSUPPORTED_MEDIA_TYPE).into_response(),
    };
    let (parts, body) = request.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_SCREENED_BODY).await else {
        return AppError::rejected(StatusCode::PAYLOAD_TOO_LARGE).into_response();
    };
    let clean = match body_kind {
        BodyKind::Form => form_urlencoded::parse(&bytes).all(|(k, v)| is_clean(&k) && is_clean(&v)),
        // Invalid JSON is the handler's to refuse, in its own words.
        BodyKind::Json => serde_json::from_slice::<serde_json::Value>(&bytes)
            .map(|v| json_is_clean(&v))
            .unwrap_or(true),
    };
    if !clean {
        return control_characters().into_response();
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

enum BodyKind {
    Form,
    Json,
}

/// The refusal of text with control characters, here and in multipart forms.
pub fn control_characters() -> AppError {
    AppError::Refused(StatusCode::BAD_REQUEST, "input-control-characters")
}

/// No control character but tab, line feed and carriage return (C0, DEL and C1 refused).
pub fn is_clean(text: &str) -> bool {
    !text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
}

fn json_is_clean(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::String(s) => is_clean(s),
        serde_json::Value::Array(items) => items.iter().all(json_is_clean),
        serde_json::Value::Object(map) => map.iter().all(|(k, v)| is_clean(k) && json_is_clean(v)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_but_line_breaks_and_tabs_are_refused() {
        assert!(is_clean("Ayşe Yılmaz\r\n\tİstanbul"));
        for bad in ["a\u{0}b", "\u{1b}[31m", "x\u{7f}", "\u{85}", "\u{8}"] {
            assert!(!is_clean(bad), "{bad:?}");
        }
        let json: serde_json::Value = serde_json::json!({"a": ["ok", {"b": "no\u{1}"}]});
        assert!(!json_is_clean(&json));
        assert!(json_is_clean(
            &serde_json::json!({"amount": 100000, "note": "ok"})
        ));
    }
}

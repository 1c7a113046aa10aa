//! Refusals and failures as the user sees them: a page in their language (or a JSON message
//! under `/api/` and `.json`), a sign-in redirect for visitors, and a request id for 500s.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::pages::errors;

use super::Ctx;
use crate::error::{AppError, ErrorMarker};

/// Renders a handler's or extractor's refusal in the request's language; other responses pass.
pub async fn localize(ctx: &Ctx, mut response: Response) -> Response {
    mark_extractor_rejection(&mut response);
    let Some(marker) = response.extensions().get::<ErrorMarker>().cloned() else {
        return response;
    };
    if let Some(internal) = &marker.internal {
        tracing::error!(request_id = ctx.request_id, error = %internal, "request failed");
    }
    render(ctx, response.status(), &marker).await
}

async fn render(ctx: &Ctx, status: StatusCode, marker: &ErrorMarker) -> Response {
    let api = ctx.path.starts_with("/api/") || ctx.path.ends_with(".json");
    if status == StatusCode::UNAUTHORIZED && !api {
        // Visitors go to sign-in and come back afterwards.
        let target = format!(
            "/signin?next={}",
            ortak_app::domain::paths::encode_query(&here(ctx))
        );
        return Redirect::to(&target).into_response();
    }
    if marker.message_id == Some(super::access::TERMS_REQUIRED) && !api {
        let target = format!(
            "/signin/terms?next={}",
            ortak_app::domain::paths::encode_query(&here(ctx))
        );
        return Redirect::to(&target).into_response();
    }
    if api {
        let message = match (status, marker.message_id) {
            (_, Some(id)) => ctx.t(id),
            (StatusCode::UNAUTHORIZED, _) => ctx.t("signin-title"),
            (StatusCode::FORBIDDEN, _) => ctx.t("forbidden-title"),
            (StatusCode::NOT_FOUND, _) => ctx.t("not-found-title"),
            _ => ctx.locale.t_args(
                "server-error-text",
                &[("id", ctx.request_id.as_str().into())],
            ),
        };
        let body = serde_json::json!({ "ok": false, "message": message });
        return status_headers((status, axum::Json(body)).into_response());
    }
    let page = ctx.page_ctx(|pc| match status {
        StatusCode::NOT_FOUND => errors::not_found(pc),
        StatusCode::FORBIDDEN => errors::forbidden(pc),
        s if s == StatusCode::BAD_REQUEST
            || ((s.is_client_error() || s == StatusCode::SERVICE_UNAVAILABLE)
                && marker.message_id.is_some()) =>
        {
            errors::bad_request(pc, marker.message_id.unwrap_or("bad-request-text"))
        }
        _ => errors::server_error(pc, &ctx.request_id),
    });
    status_headers(ctx.render(status, page).await)
}

/// A 503 (too busy, the disk full) says when to try again. A 413 or a 415 says the connection
/// ends with it: the body was refused unread, so nothing more can follow on that connection, and
/// a client that kept it for its next request would see that request fail (RFC 9112, 9.6).
fn status_headers(mut response: Response) -> Response {
    let (name, value) = match response.status() {
        StatusCode::SERVICE_UNAVAILABLE => (header::RETRY_AFTER, "5"),
        StatusCode::PAYLOAD_TOO_LARGE | StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            (header::CONNECTION, "close")
        }
        _ => return response,
    };
    response
        .headers_mut()
        .insert(name, header::HeaderValue::from_static(value));
    response
}

/// The path and query asked for, to come back to.
fn here(ctx: &Ctx) -> String {
    match &ctx.query {
        Some(q) => format!("{}?{q}", ctx.path),
        None => ctx.path.clone(),
    }
}

/// axum's extractors refuse bodies (too large, wrong content type, malformed) with a plain
/// English text; mark those so they are rendered like our own refusals, localized.
fn mark_extractor_rejection(response: &mut Response) {
    let plain = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/plain"));
    let status = response.status();
    if !plain || !status.is_client_error() || response.extensions().get::<ErrorMarker>().is_some() {
        return;
    }
    response.extensions_mut().insert(ErrorMarker {
        message_id: Some(AppError::rejection_message(status)),
        internal: None,
    });
}

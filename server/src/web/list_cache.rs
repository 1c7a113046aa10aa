//! A micro-cache of the staff lists' JSON (`/dashboard/….json`, the `staff-table` island's
//! data): a thousand-row list costs a few milliseconds of queries and formatting, and staff
//! reload the same lists all day. The same rules as the public page cache (`page_cache`):
//!
//! - only successful GETs of staff JSON lists are kept, per role, language and query; a list
//!   is the same for every staff member of a role (access depends on the role alone), and a
//!   stored answer is only given to a signed-in member of that same role, so nobody reads a
//!   list their role's guard would refuse;
//! - entries live in a [`Snapshot`]: two seconds at most, and never across a write
//!   (`db::writes`), so staff always see their own changes on the next request.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use ortak_app::i18n::Locale;

use super::Ctx;
use super::session::Role;
use crate::db::snapshot::{Reads, Snapshot};

/// At most this many bytes of lists are kept.
const KEPT_BYTES: usize = 8 * 1024 * 1024;
/// Lists larger than this are not kept.
const MAX_BYTES: usize = 4 * 1024 * 1024;

type Key = (Role, Locale, String);

pub struct ListCache {
    /// Requests that miss together wait for the first one's list (`Snapshot::get_or_make`)
    /// instead of each making the same thousand rows.
    lists: Snapshot<Key, Bytes>,
}

impl ListCache {
    fn key(ctx: &Ctx) -> Option<Key> {
        let role = ctx.user.as_ref()?.role;
        let list = role >= Role::Admin
            && ctx.path.starts_with("/dashboard/")
            && ctx.path.ends_with(".json");
        list.then(|| {
            let target = match &ctx.query {
                Some(q) => format!("{}?{q}", ctx.path),
                None => ctx.path.clone(),
            };
            (role, ctx.locale, target)
        })
    }
}

impl Default for ListCache {
    fn default() -> Self {
        ListCache {
            lists: Snapshot::new(Reads::Anything, KEPT_BYTES, |key, list| {
                key.2.len() + list.len() + 64
            }),
        }
    }
}

fn json_response(body: Bytes) -> Response {
    let headers = [
        (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        (
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        ),
    ];
    (headers, body).into_response()
}

/// The cache as a layer inside the request context (it needs the signed-in user).
pub async fn middleware(
    State(cache): State<Arc<ListCache>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(ctx) = request.extensions().get::<Ctx>().cloned() else {
        return next.run(request).await;
    };
    let key = (request.method() == Method::GET)
        .then(|| ListCache::key(&ctx))
        .flatten();
    let Some(key) = key else {
        return next.run(request).await;
    };
    // A list that is not a 200 JSON answer (or too large) is passed on, and not kept.
    let made = cache
        .lists
        .get_or_make(key, ctx.state().writes(), || async {
            let response = next.run(request).await;
            let json = response
                .headers()
                .get(header::CONTENT_TYPE)
                .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
            if response.status() != StatusCode::OK || !json {
                return Err(response);
            }
            let (parts, body) = response.into_parts();
            match axum::body::to_bytes(body, usize::MAX).await {
                Ok(bytes) if bytes.len() <= MAX_BYTES => Ok(bytes),
                Ok(bytes) => Err(Response::from_parts(parts, axum::body::Body::from(bytes))),
                Err(e) => {
                    tracing::error!(error = %e, "reading a staff list failed");
                    Err(StatusCode::INTERNAL_SERVER_ERROR.into_response())
                }
            }
        })
        .await;
    match made {
        Ok(body) => json_response(body),
        Err(response) => response,
    }
}

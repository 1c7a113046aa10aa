//! A micro-cache of the staff lists' JSON (`/dashboard/….json`, the `staff-table` island's
//! data): a thousand-row list costs a few milliseconds of queries and formatting, and staff
//! reload the same lists all day. The same rules as the public page cache (`page_cache`):
//!
//! - only successful GETs of staff JSON lists are kept, per role, language and query; a list
//!   is the same for every staff member of a role (access depends on the role alone), and a
//!   stored answer is only given to a signed-in member of that same role, so nobody reads a
//!   list their role's guard would refuse;
//! - entries are fresh for two seconds and every successful write (a POST that did not fail)
//!   empties the cache, so staff always see their own changes on the next request; so does
//!   each round of background jobs (`AppState::writes`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use ortak_app::i18n::Locale;

use super::Ctx;
use super::session::Role;

const FRESH_FOR: Duration = Duration::from_secs(2);
/// At most this many lists are kept; a full cache is emptied.
const MAX_ENTRIES: usize = 64;
/// Lists larger than this are not kept.
const MAX_BYTES: usize = 4 * 1024 * 1024;

type Key = (Role, Locale, String);

/// When an entry was kept: the instant and the count of writes before it.
type Stamp = (Instant, u64);

#[derive(Default)]
pub struct ListCache {
    entries: Mutex<HashMap<Key, (Stamp, Bytes)>>,
    /// One list is made at a time: requests that miss together wait for the first one's
    /// answer instead of each making the same thousand rows.
    making: tokio::sync::Mutex<()>,
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

    fn get(&self, key: &Key, writes: u64) -> Option<Bytes> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let ((at, made_after), body) = entries.get(key)?;
        (at.elapsed() < FRESH_FOR && *made_after == writes).then(|| body.clone())
    }

    fn put(&self, key: Key, writes: u64, body: Bytes) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(key, ((Instant::now(), writes), body));
    }

    fn clear(&self) {
        self.entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
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
    let method = request.method().clone();
    let key = (method == Method::GET)
        .then(|| ListCache::key(&ctx))
        .flatten();
    let writes = |ctx: &Ctx| ctx.state().writes();
    if let Some(body) = key.as_ref().and_then(|key| cache.get(key, writes(&ctx))) {
        return json_response(body);
    }
    let _making = match &key {
        Some(key) => {
            let making = cache.making.lock().await;
            if let Some(body) = cache.get(key, writes(&ctx)) {
                return json_response(body);
            }
            Some(making)
        }
        None => None,
    };
    // Read before the list is made: a job round during it leaves the entry stale at once.
    let writes = writes(&ctx);
    let response = next.run(request).await;
    if method == Method::POST && response.status().as_u16() < 400 {
        cache.clear();
    }
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    let Some(key) = key.filter(|_| response.status() == StatusCode::OK && json) else {
        return response;
    };
    let (parts, body) = response.into_parts();
    match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => {
            if bytes.len() <= MAX_BYTES {
                cache.put(key, writes, bytes.clone());
            }
            Response::from_parts(parts, axum::body::Body::from(bytes))
        }
        Err(e) => {
            tracing::error!(error = %e, "reading a staff list failed");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

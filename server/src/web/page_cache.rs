//! A micro-cache of the public pages as anonymous visitors see them. A crowd reading the
//! catalogue costs one render per page, language and query every couple of seconds instead
//! of one per visitor, while nothing a visitor sees can be older than that:
//!
//! - only GETs of public content pages, by visitors with no session (nobody signed in, no
//!   flash message waiting) are served from it or stored in it;
//! - each stored page holds a slot where the visitor's own CSRF token goes, so every visitor
//!   still gets their token (and its cookie) as with a fresh render;
//! - entries are fresh for two seconds (pages show time-relative figures such as days left)
//!   and never used across a write (`db::snapshot`).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use ortak_app::i18n::Locale;

use super::Ctx;
use crate::db::snapshot::Snapshot;
use crate::error::ErrorMarker;

/// At most this many pages are kept.
const MAX_ENTRIES: usize = 1024;
/// Pages larger than this are not kept.
pub const MAX_BYTES: usize = 256 * 1024;
/// Stands in for the visitor's CSRF token in a stored page. Tokens are 43 characters of the
/// base64url alphabet; this cannot be one, and appears in no page.
const TOKEN_SLOT: &str = "{{ortak:csrf-token}}";

pub struct PageCache {
    pages: Snapshot<Key, Arc<str>>,
}

impl Default for PageCache {
    fn default() -> Self {
        PageCache {
            pages: Snapshot::new(MAX_ENTRIES),
        }
    }
}

/// A page as one language shows it: `(language, path and query)`.
pub type Key = (Locale, String);

/// The public content pages: the same for every anonymous visitor in a language.
fn cacheable_path(path: &str) -> bool {
    matches!(
        path,
        "/" | "/startups" | "/faq" | "/blog" | "/techinvestor" | "/gsyf" | "/academy"
    ) || path.starts_with("/blog/")
        || path.starts_with("/politikalar/")
}

impl PageCache {
    /// The cache key for a request, when its page may be served from or kept in the cache.
    pub fn key(locale: Locale, path: &str, query: Option<&str>, anonymous: bool) -> Option<Key> {
        (anonymous && cacheable_path(path)).then(|| {
            let target = match query {
                Some(q) => format!("{path}?{q}"),
                None => path.to_owned(),
            };
            (locale, target)
        })
    }

    /// The stored page for `key` with `token` in its slot, if fresh and made since the last
    /// write.
    pub fn get(&self, key: &Key, writes: u64, token: &str) -> Option<String> {
        let page = self.pages.get(key, writes)?;
        Some(page.replace(TOKEN_SLOT, token))
    }

    /// Keeps `html`, rendered with `token` from data read after `writes` writes, for `key`.
    pub fn put(&self, key: Key, writes: u64, html: &str, token: &str) {
        if html.len() > MAX_BYTES || html.contains(TOKEN_SLOT) {
            return;
        }
        self.pages
            .put(key, writes, html.replace(token, TOKEN_SLOT).into());
    }
}

/// The cache as a layer inside the request context: serves and keeps anonymous visitors'
/// public pages; nothing kept is served across a write (`db::snapshot`).
pub async fn middleware(
    State(cache): State<std::sync::Arc<PageCache>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(ctx) = request.extensions().get::<Ctx>().cloned() else {
        return next.run(request).await;
    };
    let method = request.method().clone();
    let key = (method == Method::GET)
        .then(|| PageCache::key(ctx.locale, &ctx.path, ctx.query.as_deref(), ctx.anonymous))
        .flatten();
    let writes = ctx.state().writes();
    if let Some(html) = key
        .as_ref()
        .and_then(|key| cache.get(key, writes, &ctx.csrf))
    {
        return ctx.page_response(StatusCode::OK, html);
    }
    let response = next.run(request).await;
    match key {
        Some(key) => keep_page(&cache, (key, writes), &ctx.csrf, response).await,
        None => response,
    }
}

/// Keeps a successfully rendered public page in the cache; the response goes on unchanged.
async fn keep_page(
    cache: &PageCache,
    (key, writes): (Key, u64),
    token: &str,
    response: Response,
) -> Response {
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    if response.status() != StatusCode::OK
        || !html
        || response.extensions().get::<ErrorMarker>().is_some()
    {
        return response;
    }
    let (parts, body) = response.into_parts();
    match axum::body::to_bytes(body, usize::MAX).await {
        Ok(bytes) => {
            if let Ok(text) = std::str::from_utf8(&bytes) {
                cache.put(key, writes, text, token);
            }
            Response::from_parts(parts, axum::body::Body::from(bytes))
        }
        Err(e) => {
            tracing::error!(error = %e, "reading a rendered page failed");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "abcdefghijklmnopqrstuvwxyz0123456789-_ABCDE";

    #[test]
    fn only_anonymous_visitors_of_public_pages_share_pages() {
        assert!(PageCache::key(Locale::Tr, "/startups", Some("sector=fintech"), true).is_some());
        assert!(PageCache::key(Locale::Tr, "/politikalar/kvkk", None, true).is_some());
        assert!(PageCache::key(Locale::Tr, "/startups", None, false).is_none());
        assert!(PageCache::key(Locale::Tr, "/profile", None, true).is_none());
        assert!(PageCache::key(Locale::Tr, "/startups/cemre-enerji", None, true).is_none());
        assert_ne!(
            PageCache::key(Locale::Tr, "/", None, true),
            PageCache::key(Locale::En, "/", None, true)
        );
    }

    #[test]
    fn each_visitor_gets_their_own_token_until_a_write() {
        let cache = PageCache::default();
        let key = PageCache::key(Locale::Tr, "/faq", None, true).unwrap();
        let html = format!("<input name=\"csrf\" value=\"{TOKEN}\"> <p>SSS</p>");
        cache.put(key.clone(), 3, &html, TOKEN);
        let other = "ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210_-zyxwv";
        let page = cache.get(&key, 3, other).unwrap();
        assert!(page.contains(other) && !page.contains(TOKEN) && page.contains("SSS"));
        assert!(cache.get(&key, 4, other).is_none(), "a write happened");
    }
}

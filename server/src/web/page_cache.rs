//! A micro-cache of the public pages visitors read, between writes: a crowd reading the
//! catalogue costs one render per page, language and query every couple of seconds instead of
//! one per visitor (issue 16).
//!
//! - Only anonymous visitors (no session: nobody signed in, no flash message waiting) are
//!   served from it. Members' pages were kept per member too until issue 29: with many members
//!   each on their own pages it served a percent or two of their views, emptied at each of
//!   their writes, and cost a copy of every page; what members share (cards, profiles, round
//!   figures) is kept below the pages instead (`startups::kept`).
//! - Each stored page holds a slot where the browser's own CSRF token goes, so every browser
//!   still gets its token (and its cookie) as with a fresh render.
//! - Entries are fresh for two seconds (pages show time-relative figures such as days left),
//!   never used across a write to a shared table (`db::snapshot`), and bounded by bytes
//!   whatever visitors put in query strings.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use ortak_app::i18n::Locale;

use super::Ctx;
use crate::db::snapshot::{Reads, Snapshot};
use crate::db::writes::Versions;
use crate::error::ErrorMarker;

/// At most this many bytes of pages are kept (whatever visitors put in query strings); with the
/// members' shared pages (3 MB, `shared_page`) the peak through `bench.sh`'s mixed load and
/// 10,000 distinct query strings stays under 60 MB.
const PUBLIC_BYTES: usize = 3 * 1024 * 1024;
/// Pages larger than this are not kept.
pub const MAX_BYTES: usize = 256 * 1024;

/// A kept page's weight: its text, the token's places and its key.
fn weigh(key: &Key, page: &Arc<Kept>) -> usize {
    page.html.len() + page.token_at.len() * 8 + key.1.len() + 64
}

/// A kept page without the CSRF token it was rendered with, and where that token stood: each
/// browser's own token goes back in at those places, in one copy of the page made to size, with
/// no search through it. (Sending the stretches and tokens as separate pieces instead, without
/// the copy, measured slower: hyper writes a few pieces per system call.)
struct Kept {
    html: Box<str>,
    token_at: Box<[usize]>,
}

/// Where a page carries the CSRF token: a form's hidden field, and an island's props (JSON in
/// an attribute, quotes escaped). The token comes from the visitor's cookie, so it is cut out
/// only there: a token that equals another piece of the page (the logo's path, say) must not
/// cut that piece out of the page every other visitor gets (issue 26, item 9).
const TOKEN_SLOTS: [&str; 2] = ["name=\"csrf\" value=\"", "&quot;csrf&quot;:&quot;"];

impl Kept {
    fn new(html: &str, token: &str) -> Kept {
        let mut stripped = String::with_capacity(html.len());
        let mut token_at = Vec::new();
        let mut from = 0;
        for (at, _) in html.match_indices(token) {
            let before = &html[..at];
            if token.is_empty() || !TOKEN_SLOTS.iter().any(|slot| before.ends_with(slot)) {
                continue;
            }
            stripped.push_str(&html[from..at]);
            token_at.push(stripped.len());
            from = at + token.len();
        }
        stripped.push_str(&html[from..]);
        Kept {
            html: stripped.into(),
            token_at: token_at.into(),
        }
    }

    fn with_token(&self, token: &str) -> String {
        let mut page = String::with_capacity(self.html.len() + token.len() * self.token_at.len());
        let mut from = 0;
        for &at in &self.token_at {
            page.push_str(&self.html[from..at]);
            page.push_str(token);
            from = at;
        }
        page.push_str(&self.html[from..]);
        page
    }
}

pub struct PageCache {
    pages: Snapshot<Key, Arc<Kept>>,
}

impl Default for PageCache {
    fn default() -> Self {
        PageCache {
            pages: Snapshot::new(Reads::SharedTables, PUBLIC_BYTES, weigh),
        }
    }
}

/// A page as one language shows it to visitors: `(language, path and query)`.
pub type Key = (Locale, String);

/// The public content pages: the same for every anonymous visitor in a language.
fn public_path(path: &str) -> bool {
    matches!(
        path,
        "/" | "/startups" | "/faq" | "/blog" | "/techinvestor" | "/gsyf" | "/academy"
    ) || path.starts_with("/blog/")
        || path.starts_with("/politikalar/")
}

impl PageCache {
    /// The cache key for a visitor's request, when its page may be served from or kept in the
    /// cache.
    pub fn key(locale: Locale, path: &str, query: Option<&str>) -> Option<Key> {
        public_path(path).then(|| {
            let target = match query {
                Some(q) => format!("{path}?{q}"),
                None => path.to_owned(),
            };
            (locale, target)
        })
    }

    /// The stored page for `key` with `token` in its slot, if fresh and made since the last
    /// shared write.
    pub fn get(&self, key: &Key, writes: Versions, token: &str) -> Option<String> {
        Some(self.pages.get(key, writes)?.with_token(token))
    }

    /// Keeps `html`, rendered with `token` from data read at `writes`, for `key`.
    pub fn put(&self, key: Key, writes: Versions, html: &str, token: &str) {
        if html.len() <= MAX_BYTES {
            self.pages
                .put(key, writes, Arc::new(Kept::new(html, token)));
        }
    }
}

/// The cache key of a GET's page, if it may be kept: an anonymous visitor's public page.
fn key_of(ctx: &Ctx) -> Option<Key> {
    if !ctx.anonymous {
        return None;
    }
    PageCache::key(ctx.locale, &ctx.path, ctx.query.as_deref())
}

/// The cache as a layer inside the request context: serves and keeps anonymous visitors'
/// public pages; nothing kept is served across a shared write (`db::snapshot`).
pub async fn middleware(
    State(cache): State<std::sync::Arc<PageCache>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(ctx) = request.extensions().get::<Ctx>().cloned() else {
        return next.run(request).await;
    };
    let key = if request.method() == Method::GET {
        key_of(&ctx)
    } else {
        None
    };
    let writes = ctx.state().writes();
    if let Some(key) = &key
        && let Some(html) = cache.get(key, writes, &ctx.csrf)
    {
        metrics::counter!("ortak_page_cache_hits_total", "viewer" => "visitor").increment(1);
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
    (key, writes): (Key, Versions),
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
    fn visitors_share_the_public_pages_only() {
        assert!(PageCache::key(Locale::Tr, "/startups", Some("sector=fintech")).is_some());
        assert!(PageCache::key(Locale::Tr, "/politikalar/kvkk", None).is_some());
        for private in [
            "/profile",
            "/startups/cemre-enerji",
            "/overview",
            "/favorites",
        ] {
            assert!(
                PageCache::key(Locale::Tr, private, None).is_none(),
                "{private}"
            );
        }
        assert_ne!(
            PageCache::key(Locale::Tr, "/", None),
            PageCache::key(Locale::En, "/", None)
        );
    }

    fn at(n: u64) -> Versions {
        Versions {
            all: n,
            shared: n,
            member: 0,
        }
    }

    #[test]
    fn each_visitor_gets_their_own_token_until_a_write() {
        let cache = PageCache::default();
        let key = PageCache::key(Locale::Tr, "/faq", None).unwrap();
        let html = format!("<input name=\"csrf\" value=\"{TOKEN}\"> <p>SSS</p>");
        cache.put(key.clone(), at(3), &html, TOKEN);
        let other = "ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210_-zyxwv";
        let page = cache.get(&key, at(3), other).unwrap();
        assert!(page.contains(other) && !page.contains(TOKEN) && page.contains("SSS"));
        assert!(cache.get(&key, at(4), other).is_none(), "a write happened");
        // A public page outlives a member's personal write, not a shared one.
        cache.put(key.clone(), at(4), &html, TOKEN);
        let personal = Versions {
            all: 5,
            shared: 4,
            member: 0,
        };
        assert!(cache.get(&key, personal, other).is_some());
        assert!(cache.get(&key, at(5), other).is_none());
    }

    #[test]
    fn a_kept_page_is_the_page_with_the_token_in_every_slot_and_nowhere_else() {
        let other = "ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210_-zyxwv";
        let field = |t: &str| format!("<input type=\"hidden\" name=\"csrf\" value=\"{t}\">");
        let props = |t: &str| format!("<div data-props=\"{{&quot;csrf&quot;:&quot;{t}&quot;}}\">");
        for (html, expected) in [
            (
                format!("<form>{}</form>ş{}", field(TOKEN), props(TOKEN)),
                format!("<form>{}</form>ş{}", field(other), props(other)),
            ),
            // The token elsewhere (a visitor's cookie chose it to match the logo) stays put.
            (
                format!("<svg d=\"{TOKEN}\"></svg>{}", field(TOKEN)),
                format!("<svg d=\"{TOKEN}\"></svg>{}", field(other)),
            ),
            ("<p>no form</p>".to_owned(), "<p>no form</p>".to_owned()),
            (String::new(), String::new()),
        ] {
            let kept = Kept::new(&html, TOKEN);
            assert_eq!(kept.with_token(TOKEN), html);
            assert_eq!(kept.with_token(other), expected);
        }
    }
}

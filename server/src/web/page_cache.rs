//! A micro-cache of rendered pages between writes. A crowd reading the catalogue costs one
//! render per page, language and query every couple of seconds instead of one per visitor, and
//! a member going back and forth between the catalogue, a startup and their overview costs one
//! render per page until something is written (issue 16):
//!
//! - anonymous visitors (no session: nobody signed in, no flash message waiting) share the
//!   public content pages;
//! - a signed-in member's catalogue, startup pages, saved startups and overview are kept for
//!   that member alone, keyed by their user id, and only while no flash message waits in their
//!   session. Who the member is, and whether their session still stands, is checked before the
//!   cache is asked (`web::ctx`); a change to their account, their saved startups or their
//!   role is a write, after which nothing kept is used;
//! - each stored page holds a slot where the browser's own CSRF token goes, so every browser
//!   still gets its token (and its cookie) as with a fresh render;
//! - entries are fresh for two seconds (pages show time-relative figures such as days left)
//!   and never used across a write (`db::snapshot`).

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

/// At most this many bytes of public pages are kept (whatever visitors put in query strings).
const PUBLIC_BYTES: usize = 6 * 1024 * 1024;
/// At most this many bytes of members' pages are kept (about 60 KB each): a bound on memory,
/// not on members; a busier site empties the cache more often, and renders as it did without.
const MEMBER_BYTES: usize = 8 * 1024 * 1024;
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
    public: Snapshot<Key, Arc<Kept>>,
    members: Snapshot<Key, Arc<Kept>>,
}

impl Default for PageCache {
    fn default() -> Self {
        PageCache {
            public: Snapshot::new(Reads::SharedTables, PUBLIC_BYTES, weigh),
            members: Snapshot::new(Reads::Anything, MEMBER_BYTES, weigh),
        }
    }
}

/// Who a page is kept for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// Every visitor without a session.
    Anonymous,
    /// One signed-in member, by user id.
    Member(i64),
}

/// A page as one language shows it to a viewer: `(language, path and query, viewer)`.
pub type Key = (Locale, String, Viewer);

/// The public content pages: the same for every anonymous visitor in a language.
fn public_path(path: &str) -> bool {
    matches!(
        path,
        "/" | "/startups" | "/faq" | "/blog" | "/techinvestor" | "/gsyf" | "/academy"
    ) || path.starts_with("/blog/")
        || path.starts_with("/politikalar/")
}

/// The pages members read most, whose GETs write nothing: the overview (also at `/`), the
/// catalogue, a startup's page and the saved startups.
fn member_path(path: &str) -> bool {
    matches!(path, "/" | "/overview" | "/startups" | "/favorites")
        || path
            .strip_prefix("/startups/")
            .is_some_and(|slug| !slug.is_empty() && !slug.contains('/'))
}

impl PageCache {
    /// The cache key for a request, when its page may be served from or kept in the cache.
    pub fn key(locale: Locale, path: &str, query: Option<&str>, viewer: Viewer) -> Option<Key> {
        let cacheable = match viewer {
            Viewer::Anonymous => public_path(path),
            Viewer::Member(_) => member_path(path),
        };
        cacheable.then(|| {
            let target = match query {
                Some(q) => format!("{path}?{q}"),
                None => path.to_owned(),
            };
            (locale, target, viewer)
        })
    }

    fn pages(&self, key: &Key) -> &Snapshot<Key, Arc<Kept>> {
        match key.2 {
            Viewer::Anonymous => &self.public,
            Viewer::Member(_) => &self.members,
        }
    }

    /// The stored page for `key` with `token` in its slot, if fresh and made since the last
    /// write.
    pub fn get(&self, key: &Key, writes: Versions, token: &str) -> Option<String> {
        Some(self.pages(key).get(key, writes)?.with_token(token))
    }

    /// Keeps `html`, rendered with `token` from data read after `writes` writes, for `key`.
    pub fn put(&self, key: Key, writes: Versions, html: &str, token: &str) {
        if html.len() <= MAX_BYTES {
            self.pages(&key)
                .put(key, writes, Arc::new(Kept::new(html, token)));
        }
    }
}

/// The cache key of a GET's page, if it may be kept: for an anonymous visitor or a signed-in
/// member (a session that is neither keeps nothing), and never while a flash message waits
/// (it is shown once, on the next page rendered; asked only of pages that could be kept).
async fn key_of(ctx: &Ctx) -> Option<Key> {
    let viewer = match &ctx.user {
        _ if ctx.anonymous => Viewer::Anonymous,
        Some(user) => Viewer::Member(user.id),
        None => return None,
    };
    let key = PageCache::key(ctx.locale, &ctx.path, ctx.query.as_deref(), viewer)?;
    match viewer {
        Viewer::Member(_) if super::flash::waiting(ctx).await => None,
        _ => Some(key),
    }
}

/// The cache as a layer inside the request context: serves and keeps anonymous visitors'
/// public pages and members' own pages; nothing kept is served across a write
/// (`db::snapshot`).
pub async fn middleware(
    State(cache): State<std::sync::Arc<PageCache>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(ctx) = request.extensions().get::<Ctx>().cloned() else {
        return next.run(request).await;
    };
    let key = if request.method() == Method::GET {
        key_of(&ctx).await
    } else {
        None
    };
    let writes = ctx.state().writes();
    if let Some(key) = &key
        && let Some(html) = cache.get(key, writes, &ctx.csrf)
    {
        let who = match key.2 {
            Viewer::Member(_) => "member",
            Viewer::Anonymous => "visitor",
        };
        metrics::counter!("ortak_page_cache_hits_total", "viewer" => who).increment(1);
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
    fn anonymous_visitors_share_public_pages_and_members_keep_their_own() {
        let anyone = Viewer::Anonymous;
        let (ayse, can) = (Viewer::Member(1), Viewer::Member(2));
        assert!(PageCache::key(Locale::Tr, "/startups", Some("sector=fintech"), anyone).is_some());
        assert!(PageCache::key(Locale::Tr, "/politikalar/kvkk", None, anyone).is_some());
        assert!(PageCache::key(Locale::Tr, "/profile", None, anyone).is_none());
        assert!(PageCache::key(Locale::Tr, "/startups/cemre-enerji", None, anyone).is_none());
        assert_ne!(
            PageCache::key(Locale::Tr, "/", None, anyone),
            PageCache::key(Locale::En, "/", None, anyone)
        );
        for (path, kept) in [
            ("/", true),
            ("/overview", true),
            ("/startups", true),
            ("/favorites", true),
            ("/startups/cemre-enerji", true),
            ("/profile", false),
            ("/startups/cemre-enerji/pages/1", false),
            ("/faq", false),
            ("/dashboard", false),
        ] {
            let key = PageCache::key(Locale::Tr, path, None, ayse);
            assert_eq!(key.is_some(), kept, "{path}");
        }
        assert_ne!(
            PageCache::key(Locale::Tr, "/startups", None, ayse),
            PageCache::key(Locale::Tr, "/startups", None, can)
        );
        assert_ne!(
            PageCache::key(Locale::Tr, "/startups", None, ayse),
            PageCache::key(Locale::Tr, "/startups", None, anyone)
        );
    }

    fn at(n: u64) -> Versions {
        Versions { all: n, shared: n }
    }

    #[test]
    fn a_members_page_is_served_to_that_member_only() {
        let cache = PageCache::default();
        let mine = PageCache::key(Locale::Tr, "/favorites", None, Viewer::Member(1)).unwrap();
        let html = format!("<input name=\"csrf\" value=\"{TOKEN}\"> kayıtlı");
        cache.put(mine.clone(), at(3), &html, TOKEN);
        assert!(cache.get(&mine, at(3), TOKEN).is_some());
        for other in [Viewer::Member(2), Viewer::Anonymous] {
            let key = (Locale::Tr, "/favorites".to_owned(), other);
            assert!(cache.get(&key, at(3), TOKEN).is_none(), "{other:?}");
        }
    }

    #[test]
    fn each_visitor_gets_their_own_token_until_a_write() {
        let cache = PageCache::default();
        let key = PageCache::key(Locale::Tr, "/faq", None, Viewer::Anonymous).unwrap();
        let html = format!("<input name=\"csrf\" value=\"{TOKEN}\"> <p>SSS</p>");
        cache.put(key.clone(), at(3), &html, TOKEN);
        let other = "ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210_-zyxwv";
        let page = cache.get(&key, at(3), other).unwrap();
        assert!(page.contains(other) && !page.contains(TOKEN) && page.contains("SSS"));
        assert!(cache.get(&key, at(4), other).is_none(), "a write happened");
        // A public page outlives a member's personal write, not a shared one.
        cache.put(key.clone(), at(4), &html, TOKEN);
        let personal = Versions { all: 5, shared: 4 };
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

//! A micro-cache of the public pages as anonymous visitors see them. A crowd reading the
//! catalogue costs one render per page, language and query every couple of seconds instead
//! of one per visitor, while nothing a visitor sees can be older than that:
//!
//! - only GETs of public content pages, by visitors with no session (nobody signed in, no
//!   flash message waiting) are served from it or stored in it;
//! - each stored page holds a slot where the visitor's own CSRF token goes, so every visitor
//!   still gets their token (and its cookie) as with a fresh render;
//! - entries are fresh for two seconds (pages show time-relative figures such as days left)
//!   and every successful write (a POST that did not fail) empties the cache.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ortak_app::i18n::Locale;

/// How long a stored page is served again.
const FRESH_FOR: Duration = Duration::from_secs(2);
/// At most this many pages are kept; a full cache is emptied (cheap, and rare).
const MAX_ENTRIES: usize = 1024;
/// Pages larger than this are not kept.
pub const MAX_BYTES: usize = 256 * 1024;
/// Stands in for the visitor's CSRF token in a stored page. Tokens are 43 characters of the
/// base64url alphabet; this cannot be one, and appears in no page.
const TOKEN_SLOT: &str = "{{ortak:csrf-token}}";

#[derive(Default)]
pub struct PageCache {
    entries: Mutex<HashMap<Key, (Instant, String)>>,
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

    /// The stored page for `key` with `token` in its slot, if fresh.
    pub fn get(&self, key: &Key, token: &str) -> Option<String> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let (at, page) = entries.get(key)?;
        (at.elapsed() < FRESH_FOR).then(|| page.replace(TOKEN_SLOT, token))
    }

    /// Keeps `html`, rendered with `token`, for `key`.
    pub fn put(&self, key: Key, html: &str, token: &str) {
        if html.len() > MAX_BYTES || html.contains(TOKEN_SLOT) {
            return;
        }
        let page = html.replace(token, TOKEN_SLOT);
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_ENTRIES {
            entries.clear();
        }
        entries.insert(key, (Instant::now(), page));
    }

    /// Forgets every page: something was written.
    pub fn clear(&self) {
        self.entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
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
        cache.put(key.clone(), &html, TOKEN);
        let other = "ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210_-zyxwv";
        let page = cache.get(&key, other).unwrap();
        assert!(page.contains(other) && !page.contains(TOKEN) && page.contains("SSS"));
        cache.clear();
        assert!(cache.get(&key, other).is_none());
    }
}

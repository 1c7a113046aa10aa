//! Cross-site request forgery protection.
//!
//! Decision: a double-submit token. A random token lives in an HttpOnly, SameSite=Lax cookie
//! and is repeated in every form (`csrf` field) and in the islands' `X-CSRF-Token` header; a
//! state-changing request must carry both, equal, and its `Origin` (when sent) must be ours.
//! Unlike a token kept in the server-side session, this costs no database write for visitors
//! who only read pages, while giving the same protection for our single-origin site.

use axum::http::{HeaderMap, header};
use base64::Engine;
use rand::RngCore;

use crate::error::AppError;

/// The token's cookie. Behind HTTPS it is `__Host-` prefixed, like the session's: browsers
/// then accept it only Secure, from this host, for every path, so a sibling subdomain cannot
/// plant a token of its choosing.
pub fn cookie_name(secure: bool) -> &'static str {
    if secure {
        "__Host-ortak_csrf"
    } else {
        "ortak_csrf"
    }
}

pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Whether a cookie's token has the shape [`new_token`] gives (43 base64url characters).
pub fn well_formed(token: &str) -> bool {
    token.len() == 43
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Checks the submitted token against the cookie's, and the request's origin.
pub fn verify(
    cookie_token: Option<&str>,
    submitted: &str,
    headers: &HeaderMap,
) -> Result<(), AppError> {
    let same_origin = match headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) {
        None => true,
        Some(origin) => {
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("");
            origin
                .split_once("://")
                .is_some_and(|(_, origin_host)| !host.is_empty() && origin_host == host)
        }
    };
    let token_ok = cookie_token.is_some_and(|c| {
        !submitted.is_empty() && constant_time_eq(c.as_bytes(), submitted.as_bytes())
    });
    if same_origin && token_ok {
        Ok(())
    } else {
        Err(AppError::BadRequest("csrf-failed"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&'static str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:3000"));
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_static(o));
        }
        h
    }

    #[test]
    fn accepts_matching_token_from_our_origin() {
        let t = new_token();
        assert!(verify(Some(&t), &t, &headers(None)).is_ok());
        assert!(verify(Some(&t), &t, &headers(Some("http://127.0.0.1:3000"))).is_ok());
    }

    #[test]
    fn refuses_missing_wrong_or_foreign() {
        let t = new_token();
        assert!(verify(None, &t, &headers(None)).is_err());
        assert!(verify(Some(&t), "", &headers(None)).is_err());
        assert!(verify(Some(&t), &new_token(), &headers(None)).is_err());
        assert!(verify(Some(&t), &t, &headers(Some("https://evil.example"))).is_err());
        assert!(verify(Some(&t), &t, &headers(Some("null"))).is_err());
    }
}

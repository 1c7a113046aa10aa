//! Our cookies, read from the jar the session layer parsed (tower-cookies) and written
//! through the `cookie` crate. Every one is HttpOnly and SameSite=Lax, and Secure behind HTTPS.

use axum::http::{HeaderMap, HeaderValue, header};
use axum_extra::extract::cookie::{Cookie, SameSite};
use tower_cookies::Cookies;

/// The language the visitor chose with `?lang=` (one year).
pub const LOCALE: &str = "locale";
const LOCALE_MAX_AGE: time::Duration = time::Duration::days(365);

/// Behind HTTPS the session cookie is `__Host-` prefixed: browsers then only accept it
/// Secure, from this host, for every path, so a sibling subdomain cannot plant one.
pub fn session_name(secure: bool) -> &'static str {
    if secure {
        "__Host-ortak_session"
    } else {
        "ortak_session"
    }
}

/// A cookie's value from the request's cookies (`Ctx::cookies`).
pub fn get(jar: &Cookies, name: &str) -> Option<String> {
    jar.get(name).map(|c| c.value().to_owned())
}

/// A session-long cookie (no expiry) for `/`, or one that lives `max_age`.
pub fn build(
    name: &'static str,
    value: String,
    max_age: Option<time::Duration>,
    secure: bool,
) -> Cookie<'static> {
    let mut cookie = Cookie::build((name, value))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .build();
    if let Some(age) = max_age {
        cookie.set_max_age(age);
    }
    cookie
}

/// Appends `cookie` to a response's headers.
pub fn set(headers: &mut HeaderMap, cookie: Cookie<'static>) {
    if let Ok(value) = HeaderValue::from_str(&cookie.encoded().to_string()) {
        headers.append(header::SET_COOKIE, value);
    }
}

/// The language cookie for `code`.
pub fn locale(code: &str, secure: bool) -> Cookie<'static> {
    build(LOCALE, code.to_owned(), Some(LOCALE_MAX_AGE), secure)
}

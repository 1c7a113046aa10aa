//! Refuses posted input no form or JSON endpoint accepts, so each handler's own validation only
//! ever sees text a person could have typed:
//!
//! - a body of a type the route does not take (the JSON API takes `application/json`, every
//!   other POST a form: `application/x-www-form-urlencoded` or `multipart/form-data`): 415,
//!   from the layer ([`middleware`]), before anything reads the body, as is a form or JSON
//!   body declared larger than any route takes (413);
//! - control characters (other than tab, line feed and carriage return) in a form field's
//!   name or value, or in a JSON string: 400, from the one form and JSON extractor
//!   (`web::form`), after the route's own body limit and the CSRF check, and without building
//!   a tree of the JSON ([`screen_json`] walks it). No keyboard types them, so a person never
//!   loses what they typed to this rule; multipart text fields are screened by
//!   `read_multipart`.
//!
//! Reading the body here, before the route's limit, let any visitor make the server hold and
//! parse a megabyte per request (issue 26, item 8).

use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::error::AppError;

/// The largest urlencoded body any route takes (the startup editor's).
pub const MAX_FORM_BODY: usize = 1024 * 1024;

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
    let accepted = match kind.as_str() {
        "application/json" => api,
        "application/x-www-form-urlencoded" | "multipart/form-data" => !api,
        // A POST without a body (a plain button form still sends an urlencoded one).
        "" => request
            .headers()
            .get(header::CONTENT_LENGTH)
            .is_none_or(|l| l == "0"),
        _ => false,
    };
    if !accepted {
        return AppError::rejected(StatusCode::UNSUPPORTED_MEDIA_TYPE).into_response();
    }
    // A form or JSON body declared larger than any route takes is refused unread.
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|l| l.to_str().ok()?.parse::<u64>().ok());
    let screened = kind == "application/json" || kind == "application/x-www-form-urlencoded";
    if screened && declared.is_some_and(|l| l > MAX_FORM_BODY as u64) {
        return AppError::rejected(StatusCode::PAYLOAD_TOO_LARGE).into_response();
    }
    next.run(request).await
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

/// Refuses an urlencoded body with a control character in a name or value.
pub fn screen_form(body: &[u8]) -> Result<(), AppError> {
    if form_urlencoded::parse(body).all(|(k, v)| is_clean(&k) && is_clean(&v)) {
        Ok(())
    } else {
        Err(control_characters())
    }
}

/// Refuses a JSON body with a control character in a string or key. Invalid JSON passes: it is
/// the handler's to refuse, in its own words. Nothing is kept while walking it.
pub fn screen_json(body: &[u8]) -> Result<(), AppError> {
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    match CleanJson.deserialize(&mut deserializer) {
        Ok(false) => Err(control_characters()),
        _ => Ok(()),
    }
}

/// Walks a JSON value, answering whether every string and key in it is clean.
struct CleanJson;

impl<'de> DeserializeSeed<'de> for CleanJson {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for CleanJson {
    type Value = bool;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E>(self, v: &str) -> Result<bool, E> {
        Ok(is_clean(v))
    }

    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(true)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        let mut clean = true;
        while let Some(item) = seq.next_element_seed(CleanJson)? {
            clean &= item;
        }
        Ok(clean)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let mut clean = true;
        while let Some(key) = map.next_key_seed(CleanJson)? {
            let value = map.next_value_seed(CleanJson)?;
            clean &= key && value;
        }
        Ok(clean)
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
        assert!(screen_json(br#"{"a": ["ok", {"b": "no\u0001"}]}"#).is_err());
        assert!(screen_json(br#"{"k\u0001": 1}"#).is_err());
        assert!(
            screen_json(br#"{"amount": 100000, "note": "ok", "x": [1.5, null, true]}"#).is_ok()
        );
        assert!(
            screen_json(b"not json").is_ok(),
            "the handler refuses it in its words"
        );
        assert!(screen_form(b"a=1&b=%01").is_err());
        assert!(screen_form("ad=Ay%C5%9Fe&not=sat%C4%B1r%0Aiki".as_bytes()).is_ok());
    }
}

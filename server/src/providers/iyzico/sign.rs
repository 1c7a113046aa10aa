//! iyzico's signatures and amounts, as pure functions: the `IYZWSv2` Authorization header of
//! every call, the `signature` field of its answers and of the callback form, and prices as
//! decimal strings made from whole kuruş (never a float). The protocol and its sources are in
//! docs/notes/iyzico.md; the unit tests assert the vectors the official client computed
//! (server/tests/fixtures/iyzico/signature-vectors.json).

use base64::Engine;
use hmac::{Hmac, Mac};
use rand::Rng;
use sha2::Sha256;

fn mac(secret_key: &str) -> Hmac<Sha256> {
    Hmac::<Sha256>::new_from_slice(secret_key.as_bytes()).expect("any key length")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A fresh random key for one call (letters and digits).
pub fn random_key() -> String {
    rand::rng()
        .sample_iter(rand::distr::Alphanumeric)
        .take(16)
        .map(char::from)
        .collect()
}

#[cfg(test)]
/// The path a signature covers: no scheme, host or query string.
pub fn uri_path(url: &str) -> &str {
    let path = url.split('?').next().unwrap_or("");
    match path.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("", |at| &rest[at..]),
        None => path,
    }
}

/// `IYZWSv2 base64("apiKey:K&randomKey:R&signature:" + hex(HMAC-SHA256(secret, R + path + body)))`.
pub fn authorization(
    api_key: &str,
    secret_key: &str,
    random_key: &str,
    uri_path: &str,
    body: &str,
) -> String {
    let mut m = mac(secret_key);
    m.update(random_key.as_bytes());
    m.update(uri_path.as_bytes());
    m.update(body.as_bytes());
    let signature = hex(&m.finalize().into_bytes());
    let plain = format!("apiKey:{api_key}&randomKey:{random_key}&signature:{signature}");
    format!(
        "IYZWSv2 {}",
        base64::engine::general_purpose::STANDARD.encode(plain)
    )
}

#[cfg(test)]
/// `hex(HMAC-SHA256(secret, values joined with ':'))`: answers' and callbacks' `signature`.
pub fn signature(secret_key: &str, values: &[&str]) -> String {
    let mut m = mac(secret_key);
    m.update(values.join(":").as_bytes());
    hex(&m.finalize().into_bytes())
}

/// Whether `given` is the signature of `values`, compared in constant time.
pub fn verify(secret_key: &str, values: &[&str], given: &str) -> bool {
    let Some(tag) = unhex(&given.to_ascii_lowercase()) else {
        return false;
    };
    let mut m = mac(secret_key);
    m.update(values.join(":").as_bytes());
    m.verify_slice(&tag).is_ok()
}

/// The callback form's signature covers these fields, in this (alphabetical) order.
pub const CALLBACK_FIELDS: [&str; 5] = [
    "conversationData",
    "conversationId",
    "mdStatus",
    "paymentId",
    "status",
];

/// A request amount: kuruş as iyzico's clients write it ("1.0", "1.5", "0.01", "150.0").
pub fn format_price(kurus: i64) -> String {
    let (whole, cents) = (kurus / 100, kurus % 100);
    match cents {
        0 => format!("{whole}.0"),
        c if c % 10 == 0 => format!("{whole}.{}", c / 10),
        c => format!("{whole}.{c:02}"),
    }
}

/// An answer's amount (a JSON number's text, maybe quoted) as iyzico signs it: trailing zeros
/// and a bare point removed ("150.0" → "150", "0.33000000" → "0.33").
pub fn signed_amount(text: &str) -> String {
    let text = text.trim().trim_matches('"');
    if !text.contains('.') {
        return text.to_owned();
    }
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// An answer's amount in whole kuruş, exactly; `None` if it is not a plain decimal or has
/// fractions of a kuruş.
pub fn amount_kurus(text: &str) -> Option<i64> {
    let text = signed_amount(text);
    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 2
        || whole.len() > 15
    {
        return None;
    }
    let cents: i64 = format!("{frac:0<2}").parse().ok()?;
    whole
        .parse::<i64>()
        .ok()?
        .checked_mul(100)?
        .checked_add(cents)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn fixture() -> Value {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/iyzico/signature-vectors.json"
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn s<'a>(v: &'a Value, key: &str) -> &'a str {
        v[key].as_str().unwrap_or_else(|| panic!("{key} in {v}"))
    }

    #[test]
    fn authorization_headers_equal_the_official_clients() {
        let vectors = fixture()["authorization"]["vectors"].clone();
        let vectors = vectors.as_array().unwrap();
        assert!(vectors.len() >= 8, "every committed vector is checked");
        for v in vectors {
            assert_eq!(uri_path(s(v, "url")), s(v, "uriPath"), "{}", s(v, "name"));
            let header = authorization(
                s(v, "apiKey"),
                s(v, "secretKey"),
                s(v, "randomKey"),
                uri_path(s(v, "url")),
                s(v, "body"),
            );
            assert_eq!(header, s(v, "header"), "{}", s(v, "name"));
            if let Some(published) = v["published"].as_str() {
                assert_eq!(header, published, "iyzico's own example");
            }
        }
    }

    #[test]
    fn answer_signatures_equal_the_official_clients() {
        let vectors = fixture()["responseSignature"]["vectors"].clone();
        for v in vectors.as_array().unwrap() {
            let answer: Value = serde_json::from_str(s(v, "responseJson")).unwrap();
            // The values as the adapter reads them off the answer's raw JSON.
            let values: Vec<String> = v["fields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    let f = f.as_str().unwrap();
                    let raw = super::super::wire::raw_field(s(v, "responseJson"), f);
                    match (&answer[f], raw) {
                        (Value::Number(_), Some(raw)) => signed_amount(&raw),
                        (Value::String(text), _) => text.clone(),
                        _ => String::new(),
                    }
                })
                .collect();
            let expected: Vec<&str> = v["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap())
                .collect();
            assert_eq!(values, expected, "{}", s(v, "name"));
            let refs: Vec<&str> = values.iter().map(String::as_str).collect();
            assert_eq!(
                signature(s(v, "secretKey"), &refs),
                s(v, "signature"),
                "{}",
                s(v, "name")
            );
            assert!(verify(s(v, "secretKey"), &refs, s(v, "signature")));
            assert!(!verify("another-secret", &refs, s(v, "signature")));
        }
    }

    #[test]
    fn callback_signatures_equal_the_official_clients() {
        let vectors = fixture()["callbackSignature"]["vectors"].clone();
        for v in vectors.as_array().unwrap() {
            // Read off the form body exactly as posted (form decoding first).
            let posted: Vec<(String, String)> = form_urlencoded::parse(s(v, "formBody").as_bytes())
                .into_owned()
                .collect();
            let field = |name: &str| {
                posted
                    .iter()
                    .find(|(k, _)| k == name)
                    .map_or("", |(_, v)| v.as_str())
            };
            let values: Vec<&str> = CALLBACK_FIELDS.iter().map(|f| field(f)).collect();
            assert_eq!(values.join(":"), s(v, "joined"), "{}", s(v, "name"));
            assert_eq!(signature(s(v, "secretKey"), &values), s(v, "signature"));
            assert!(verify(s(v, "secretKey"), &values, field("signature")));
            let mut tampered = values.clone();
            tampered[2] = if tampered[2] == "1" { "0" } else { "1" };
            assert!(!verify(s(v, "secretKey"), &tampered, field("signature")));
        }
    }

    #[test]
    fn prices_are_decimal_strings_from_kurus() {
        for v in fixture()["priceFormat"]["vectors"].as_array().unwrap() {
            let kurus = v["kurus"].as_i64().unwrap();
            assert_eq!(format_price(kurus), s(v, "price"), "{kurus}");
            assert_eq!(amount_kurus(s(v, "price")), Some(kurus));
        }
        assert_eq!(signed_amount("150.0"), "150");
        assert_eq!(signed_amount("1250.50"), "1250.5");
        assert_eq!(signed_amount("0.33000000"), "0.33");
        assert_eq!(signed_amount("15"), "15");
        assert_eq!(amount_kurus("0.33000000"), Some(33));
        assert_eq!(amount_kurus("150"), Some(15_000));
        assert_eq!(amount_kurus("\"10.5\""), Some(1_050));
        for bad in ["", "-1.0", "1e3", "0.001", "1,5", "abc", "."] {
            assert_eq!(amount_kurus(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_random_key_is_fresh_each_time() {
        let (a, b) = (random_key(), random_key());
        assert_eq!(a.len(), 16);
        assert_ne!(a, b);
    }
}

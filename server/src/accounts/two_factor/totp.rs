//! The authenticator itself: RFC 6238 TOTP (HMAC-SHA-1, 6 digits, 30-second steps, one step of
//! skew either way; SHA-1 because every authenticator app supports it), its `otpauth://` URL and
//! QR code (SVG), and recovery codes.
//!
//! Codes are checked on the system clock, not the injectable one (`state.now()`): the code on
//! the member's phone follows real time, and tests that move the business clock forward by days
//! must not make every code wrong. A code is accepted once: only a time step later than the last
//! one accepted counts (RFC 6238 section 5.2).

use qrcode::QrCode;
use qrcode::render::svg;
use rand::RngCore;
use totp_rs::{Algorithm, Builder, Secret, Totp};

/// Ten recovery codes per enrolment.
pub const RECOVERY_CODES: usize = 10;
const ISSUER: &str = "Ortak";
const STEP: u64 = 30;

/// A new random secret (160 bits, as RFC 4226 recommends), base32 as authenticator apps take it.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 20];
    rand::rng().fill_bytes(&mut bytes);
    Secret::new_stack(bytes).to_base32()
}

fn totp(secret: &str, account: &str) -> Option<Totp> {
    let bytes = Secret::try_from_base32(secret).ok()?;
    Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_digits(6)
        .with_step_duration(STEP)
        .with_skew(1)
        .with_secret(bytes)
        .with_account_name(account.replace(':', ""))
        .with_issuer(Some(ISSUER))
        .build()
        .ok()
}

/// The `otpauth://totp/...` URL an authenticator app reads from the QR code.
pub fn otpauth_url(secret: &str, account: &str) -> String {
    totp(secret, account)
        .and_then(|t| t.to_url().ok())
        .unwrap_or_default()
}

/// The QR code of `url` as an SVG element (dark modules on white, scalable).
pub fn qr_svg(url: &str) -> String {
    match QrCode::new(url.as_bytes()) {
        Ok(code) => code
            .render::<svg::Color<'_>>()
            .min_dimensions(200, 200)
            .dark_color(svg::Color("#0f1b2d"))
            .light_color(svg::Color("#ffffff"))
            .quiet_zone(true)
            .build()
            // The element only: the page is HTML, not a standalone SVG file.
            .split_once("<svg")
            .map(|(_, rest)| format!("<svg role=\"img\" aria-hidden=\"true\"{rest}"))
            .unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// Seconds since the Unix epoch on the system clock (see the module comment).
pub fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The time step `code` belongs to, if it is right for `secret` at `now` (one step of skew) and
/// later than `after` (the last step accepted).
pub fn matching_step(secret: &str, code: &str, now: u64, after: i64) -> Option<i64> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let totp = totp(secret, "")?;
    let current = now / STEP;
    (current.saturating_sub(1)..=current + 1)
        .filter(|step| i64::try_from(*step).is_ok_and(|s| s > after))
        .find(|step| {
            constant_time_eq(
                totp.generate(step * STEP).to_string().as_bytes(),
                code.as_bytes(),
            )
        })
        .and_then(|step| i64::try_from(step).ok())
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// New recovery codes, `xxxxx-xxxxx` from a 32-letter alphabet (50 bits each): shown once,
/// stored as SHA-256 hashes.
pub fn new_recovery_codes() -> Vec<String> {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    (0..RECOVERY_CODES)
        .map(|_| {
            let mut bytes = [0u8; 10];
            rand::rng().fill_bytes(&mut bytes);
            let letters: String = bytes
                .iter()
                .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
                .collect();
            format!("{}-{}", &letters[..5], &letters[5..])
        })
        .collect()
}

/// A typed recovery code as it is hashed: lower case, without spaces or dashes.
pub fn normalize_recovery_code(input: &str) -> String {
    input
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_6238_test_vector_with_sha1() {
        // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s -> 94287082 (8 digits);
        // its last six digits are the 6-digit code.
        let b32 = Secret::new(b"12345678901234567890".to_vec().into_boxed_slice()).to_base32();
        assert_eq!(matching_step(&b32, "287082", 59, 0), Some(1));
        assert_eq!(
            matching_step(&b32, "287082", 59, 1),
            None,
            "a step is used once"
        );
        assert_eq!(matching_step(&b32, "287083", 59, 0), None);
        assert_eq!(matching_step(&b32, "28708", 59, 0), None);
    }

    #[test]
    fn codes_from_the_neighbouring_steps_count_and_no_further() {
        let secret = new_secret();
        let t = totp(&secret, "").unwrap();
        let now = 1_000_000 * STEP + 7;
        for (offset, ok) in [(-2i64, false), (-1, true), (0, true), (1, true), (2, false)] {
            let at = (now as i64 + offset * STEP as i64) as u64;
            let code = t.generate(at).to_string();
            assert_eq!(
                matching_step(&secret, &code, now, 0).is_some(),
                ok,
                "{offset}"
            );
        }
    }

    #[test]
    fn recovery_codes_are_distinct_and_normalize() {
        let codes = new_recovery_codes();
        assert_eq!(codes.len(), RECOVERY_CODES);
        assert_eq!(
            codes
                .iter()
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            RECOVERY_CODES
        );
        assert_eq!(normalize_recovery_code(" AbCdE-fGhJk "), "abcdefghjk");
    }

    #[test]
    fn the_url_and_the_qr_code_name_ortak() {
        let secret = new_secret();
        let url = otpauth_url(&secret, "ayse@example.com");
        assert!(
            url.starts_with("otpauth://totp/Ortak:ayse%40example.com?"),
            "{url}"
        );
        assert!(url.contains(&format!("secret={secret}")));
        let svg = qr_svg(&url);
        assert!(svg.starts_with("<svg role=\"img\""), "{}", &svg[..60]);
        assert!(!svg.contains("<?xml"));
    }
}

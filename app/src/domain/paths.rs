//! Where the site may send a browser after a form: only its own paths.

/// `target` when it is a path on this site, else `/`. Refuses scheme-relative (`//host`),
/// backslash and any whitespace or control character: browsers drop tabs and newlines from
/// URLs, so `/\t/evil.example` would become `//evil.example`.
pub fn local_path(target: &str) -> &str {
    let ok = target.starts_with('/')
        && !target.starts_with("//")
        && !target
            .chars()
            .any(|c| c == '\\' || c.is_whitespace() || c.is_control());
    if ok { target } else { "/" }
}

/// Whether `value` is a web address (`http://` or `https://`), as link fields expect.
pub fn is_web_url(value: &str) -> bool {
    value.starts_with("https://") || value.starts_with("http://")
}

/// Percent-encodes `value` for a query string.
pub fn encode_query(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::local_path;

    #[test]
    fn returns_only_to_local_paths() {
        assert_eq!(
            local_path("/politikalar/cerez-politikasi"),
            "/politikalar/cerez-politikasi"
        );
        assert_eq!(local_path("/blog?page=2"), "/blog?page=2");
        for bad in [
            "//evil.example",
            "https://evil.example",
            "/\\evil.example",
            "",
            "/\t/evil.example",
            "/\n/evil",
            "/ /evil",
            "/\u{0}x",
        ] {
            assert_eq!(local_path(bad), "/", "{bad:?}");
        }
    }
}

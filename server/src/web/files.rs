//! Serving stored files (uploads and generated documents) to those allowed to see them.

use std::path::Path;

use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

use rand::RngCore;

use crate::error::AppError;

/// The file's bytes with its type, cached privately; a missing file is a 404.
pub async fn serve(path: &Path, content_type: &str) -> Result<Response, AppError> {
    serve_cached(path, content_type, "private, max-age=3600").await
}

/// The file's bytes with its type and `cache` as its Cache-Control; a missing file is a 404.
pub async fn serve_cached(
    path: &Path,
    content_type: &str,
    cache: &'static str,
) -> Result<Response, AppError> {
    let bytes = tokio::fs::read(path)
        .await
        .map_err(|_| AppError::NotFound)?;
    let mut response = Body::from(bytes).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(content_type).map_err(anyhow::Error::from)?,
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    // Stored files never run as documents of our origin.
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; sandbox"),
    );
    Ok(response)
}

/// An image's kind by its first bytes (JPEG, PNG, WebP), never by its name.
pub fn image_kind(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("jpg")
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("png")
    } else if bytes.len() > 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("webp")
    } else {
        None
    }
}

/// Free bytes on the disk holding `path`, for an unprivileged writer, if the system says.
pub fn free_bytes(path: &std::path::Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: an all-zero `statvfs` is a valid value for the call to overwrite.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c_path` is a NUL-terminated path and `stat` a writable `statvfs`.
    let done = unsafe { libc::statvfs(c_path.as_ptr(), &mut stat) };
    (done == 0).then(|| stat.f_bavail.saturating_mul(stat.f_frsize))
}

/// A fresh random file name with extension `ext`; names are never reused.
pub fn random_name(ext: &str) -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    format!(
        "{}.{ext}",
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    )
}

#[cfg(test)]
mod tests {
    use super::image_kind;

    #[test]
    fn recognises_images_by_content() {
        assert_eq!(image_kind(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("jpg"));
        assert_eq!(image_kind(b"\x89PNG\r\n\x1a\n...."), Some("png"));
        assert_eq!(image_kind(b"RIFF\x10\0\0\0WEBPVP8 "), Some("webp"));
        assert_eq!(image_kind(b"MZ\x90\0 renamed.exe"), None);
        assert_eq!(image_kind(b"<svg onload=alert(1)>"), None);
    }
}

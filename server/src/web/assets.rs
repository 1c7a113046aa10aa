//! Static files embedded at build time: the esbuild output under `/assets/` (content-hashed,
//! cached for a year) and `public/` (cached briefly), each served brotli- or gzip-compressed
//! when the client accepts it.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use ortak_app::shell::{Assets, IslandAsset};
use serde::Deserialize;

pub struct StaticFile {
    pub path: &'static str,
    pub raw: &'static [u8],
    pub br: Option<&'static [u8]>,
    pub gzip: Option<&'static [u8]>,
}

include!(concat!(env!("OUT_DIR"), "/static_files.rs"));

#[derive(Deserialize)]
struct Manifest {
    style: String,
    #[serde(default)]
    fonts: Vec<String>,
    islands: std::collections::BTreeMap<String, String>,
    #[serde(default)]
    chunks: std::collections::BTreeMap<String, Vec<String>>,
}

/// The built stylesheet and island URLs, from esbuild's manifest.
pub fn built_assets() -> Assets {
    let manifest: Manifest = serde_json::from_str(MANIFEST).expect("embedded manifest is valid");
    Assets {
        style: format!("/assets/{}", manifest.style),
        fonts: manifest
            .fonts
            .iter()
            .map(|f| format!("/assets/{f}"))
            .collect(),
        islands: manifest
            .islands
            .iter()
            .map(|(name, file)| IslandAsset {
                name: name.clone(),
                src: format!("/assets/{file}"),
                preload: manifest
                    .chunks
                    .get(file)
                    .into_iter()
                    .flatten()
                    .map(|c| format!("/assets/{c}"))
                    .collect(),
            })
            .collect(),
    }
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("webp") => "image/webp",
        Some("ico") => "image/x-icon",
        Some("json") => "application/json",
        Some("txt") => "text/plain; charset=utf-8",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// Serves an embedded file, or `None` when the path is not one.
pub fn serve(uri: &Uri, headers: &HeaderMap) -> Option<Response> {
    let file = FILES.iter().find(|f| f.path == uri.path())?;
    let accepts = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let accepts = |coding: &str| {
        accepts.split(',').any(|part| {
            let mut it = part.split(';');
            it.next().is_some_and(|c| c.trim() == coding) && !it.any(|q| q.trim() == "q=0")
        })
    };
    let (body, encoding) = match (file.br, file.gzip) {
        (Some(br), _) if accepts("br") => (br, Some("br")),
        (_, Some(gz)) if accepts("gzip") => (gz, Some("gzip")),
        _ => (file.raw, None),
    };
    let cache = if file.path.starts_with("/assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=3600"
    };
    let mut response = (StatusCode::OK, Body::from(body)).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(file.path)),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if file.br.is_some() {
        h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    if let Some(encoding) = encoding {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    Some(response)
}

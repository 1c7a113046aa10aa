//! Startups' logos and covers, and founders' photos. Staff upload an image (PNG, JPEG or WebP: checked by decoding
//! it, never by its name); it is cropped to its shape (a square logo, a 16:9 cover), resized
//! to the widths pages ask for and stored as WebP under `DATA/startup-images` as
//! `{name}-{width}.webp`. They are on public cards, so anyone may open them; a new upload gets
//! a new random name, so they are cached for a year.

use std::io::Cursor;
use std::path::Path;

use axum::extract::Path as UrlPath;
use axum::response::Response;
use image::imageops::FilterType;
use image::{ExtendedColorType, ImageFormat, ImageReader, Limits};

use crate::error::AppError;
use crate::web::Ctx;

/// Where the variants are stored under the data folder.
pub const FOLDER: &str = "startup-images";

/// The largest upload accepted.
pub const IMAGE_MAX_BYTES: usize = 8 * 1024 * 1024;

/// A logo or a cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Logo,
    Cover,
    /// A founder's photo.
    Photo,
}

impl Kind {
    pub fn from_code(code: &str) -> Option<Kind> {
        match code {
            "logo" => Some(Kind::Logo),
            "cover" => Some(Kind::Cover),
            "photo" => Some(Kind::Photo),
            _ => None,
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Kind::Logo => "logo",
            Kind::Cover => "cover",
            Kind::Photo => "photo",
        }
    }

    /// Each variant's `(width, height)`, smallest first; the smallest is also the least an
    /// upload must measure.
    pub fn sizes(self) -> &'static [(u32, u32)] {
        match self {
            Kind::Logo | Kind::Photo => &[(96, 96), (192, 192)],
            Kind::Cover => &[(640, 360), (1280, 720)],
        }
    }
}

/// The WebP bytes of each variant of `bytes`, widest last, or the Fluent id of why the upload
/// is refused. CPU-bound: run it off the async threads.
pub fn variants(bytes: &[u8], kind: Kind) -> Result<Vec<(u32, Vec<u8>)>, &'static str> {
    let format = match image::guess_format(bytes) {
        Ok(f @ (ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::WebP)) => f,
        _ => return Err("startup-image-invalid"),
    };
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(10_000);
    limits.max_image_height = Some(10_000);
    limits.max_alloc = Some(512 * 1024 * 1024);
    reader.limits(limits);
    let image = reader.decode().map_err(|_| "startup-image-invalid")?;
    let (min_w, min_h) = kind.sizes()[0];
    if image.width() < min_w || image.height() < min_h {
        return Err("startup-image-too-small");
    }
    // The largest centred crop of the variants' shape.
    let (shape_w, shape_h) = kind.sizes()[0];
    let (w, h) = (image.width(), image.height());
    let (crop_w, crop_h) = if u64::from(w) * u64::from(shape_h) > u64::from(h) * u64::from(shape_w)
    {
        (h * shape_w / shape_h, h)
    } else {
        (w, w * shape_h / shape_w)
    };
    let cropped = image.crop_imm((w - crop_w) / 2, (h - crop_h) / 2, crop_w, crop_h);
    kind.sizes()
        .iter()
        .map(|&(vw, vh)| {
            let rgba = cropped
                .resize_exact(vw, vh, FilterType::Lanczos3)
                .to_rgba8();
            let mut out = Vec::new();
            image::codecs::webp::WebPEncoder::new_lossless(&mut out)
                .encode(rgba.as_raw(), vw, vh, ExtendedColorType::Rgba8)
                .map_err(|_| "startup-image-invalid")?;
            Ok((vw, out))
        })
        .collect()
}

/// The file of `name`'s variant `width` px wide, under [`FOLDER`].
pub fn variant_file(name: &str, width: u32) -> String {
    format!("{name}-{width}.webp")
}

/// A fresh name for a set of variants (random hex, as the database's CHECK asks).
pub fn new_name() -> String {
    let name = crate::web::files::random_name("x");
    name.trim_end_matches(".x").to_owned()
}

/// Writes the variants of `name`.
pub async fn store(
    data_dir: &Path,
    name: &str,
    variants: &[(u32, Vec<u8>)],
) -> Result<(), AppError> {
    let dir = data_dir.join(FOLDER);
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(anyhow::Error::from)?;
    for (width, bytes) in variants {
        tokio::fs::write(dir.join(variant_file(name, *width)), bytes)
            .await
            .map_err(anyhow::Error::from)?;
    }
    Ok(())
}

/// Deletes the variants of `name` (a file already gone is fine: nothing links to it).
pub async fn remove(data_dir: &Path, name: &str, kind: Kind) {
    for (width, _) in kind.sizes() {
        let _ =
            tokio::fs::remove_file(data_dir.join(FOLDER).join(variant_file(name, *width))).await;
    }
}

/// Whether `file` is a variant's name: 32 hex digits, a dash, a known width, `.webp`.
fn is_variant(file: &str) -> bool {
    let Some((name, rest)) = file.split_once('-') else {
        return false;
    };
    let width = rest.strip_suffix(".webp").unwrap_or("");
    name.len() == 32
        && name
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && ["96", "192", "640", "1280"].contains(&width)
}

/// `GET /media/startups/{file}`: a logo's or cover's variant, to anyone.
pub async fn serve(ctx: Ctx, UrlPath(file): UrlPath<String>) -> Result<Response, AppError> {
    if !is_variant(&file) {
        return Err(AppError::NotFound);
    }
    let path = ctx.state().shared().data_dir.join(FOLDER).join(&file);
    crate::web::files::serve_cached(&path, "image/webp", "public, max-age=31536000, immutable")
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let image = image::RgbImage::from_fn(w, h, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 90])
        });
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn crops_resizes_and_encodes_each_variant() {
        let variants = variants(&png(1000, 400), Kind::Cover).unwrap();
        let sizes: Vec<(u32, (u32, u32))> = variants
            .iter()
            .map(|(w, bytes)| {
                let decoded =
                    image::load_from_memory_with_format(bytes, ImageFormat::WebP).unwrap();
                (*w, (decoded.width(), decoded.height()))
            })
            .collect();
        assert_eq!(sizes, [(640, (640, 360)), (1280, (1280, 720))]);
        let logo = super::variants(&png(300, 200), Kind::Logo).unwrap();
        assert_eq!(logo.iter().map(|(w, _)| *w).collect::<Vec<_>>(), [96, 192]);
    }

    #[test]
    fn refuses_what_is_not_an_image_or_too_small() {
        assert_eq!(
            variants(b"%PDF-1.7 not an image", Kind::Logo),
            Err("startup-image-invalid")
        );
        let mut cut = png(200, 200);
        cut.truncate(60);
        assert_eq!(variants(&cut, Kind::Logo), Err("startup-image-invalid"));
        assert_eq!(
            variants(&png(80, 80), Kind::Logo),
            Err("startup-image-too-small")
        );
        assert_eq!(
            variants(&png(1000, 300), Kind::Cover),
            Err("startup-image-too-small")
        );
    }

    #[test]
    fn serves_only_variant_names() {
        assert!(is_variant("0123456789abcdef0123456789abcdef-96.webp"));
        assert!(!is_variant("0123456789abcdef0123456789abcdef-97.webp"));
        assert!(!is_variant("../etc/passwd-96.webp"));
        assert!(!is_variant("0123456789ABCDEF0123456789abcdef-96.webp"));
    }
}

//! The profile photo: uploading it (`/profile/image`) and serving it (`/api/file/{name}`) to
//! its owner and to staff only. Images are recognised by their first bytes (JPEG, PNG, WebP),
//! never their name, and stored under random names in the data folder's `avatars/`.

use axum::extract::{Multipart, Path};
use axum::http::HeaderMap;
use axum::response::Response;
use ortak_app::forms::FieldErrors;
use rand::RngCore;

use super::{queries, refuse, saved};
use crate::error::AppError;
use crate::web::files::{image_kind, serve};
use crate::web::form::{Upload, read_multipart, verify_csrf};
use crate::web::{Ctx, Member, Staff};

/// Profile images: at most 2 MB.
pub const IMAGE_MAX_BYTES: usize = 2 * 1024 * 1024;

/// The posted image's bytes, or the Fluent id of what is wrong with it.
fn checked(upload: Option<Upload>) -> Result<axum::body::Bytes, &'static str> {
    match upload.map(|u| u.bytes) {
        // A body over the route's limit fails while reading.
        Some(Err(())) => Err("profile-image-too-large"),
        Some(Ok(bytes)) if bytes.len() > IMAGE_MAX_BYTES => Err("profile-image-too-large"),
        Some(Ok(bytes)) if image_kind(&bytes).is_some() => Ok(bytes),
        Some(Ok(bytes)) if bytes.is_empty() => Err("validation-required"),
        None => Err("validation-required"),
        Some(Ok(_)) => Err("profile-image-invalid"),
    }
}

/// Writes the image under a new random name in `avatars/` and returns the name.
async fn store(ctx: &Ctx, bytes: &[u8]) -> Result<String, AppError> {
    let ext = image_kind(bytes).unwrap_or("bin");
    let mut name = [0u8; 16];
    rand::rng().fill_bytes(&mut name);
    let filename = format!(
        "{}.{ext}",
        name.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    let dir = ctx.state().shared().data_dir.join("avatars");
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(anyhow::Error::from)?;
    tokio::fs::write(dir.join(&filename), bytes)
        .await
        .map_err(anyhow::Error::from)?;
    Ok(filename)
}

/// `POST /profile/image` (multipart): replaces the photo; the old file is removed.
pub async fn upload(
    ctx: Ctx,
    Member(user): Member,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, AppError> {
    let (fields, upload) = read_multipart(&mut multipart, "image").await?;
    verify_csrf(&ctx, &fields, &headers)?;
    let bytes = match checked(upload) {
        Ok(bytes) => bytes,
        Err(message_id) => {
            let mut errors = FieldErrors::default();
            errors.add("image", message_id);
            return refuse(&ctx, user.id, "info", &errors).await;
        }
    };
    let filename = store(&ctx, &bytes).await?;
    let mut tx = ctx.state().db().begin().await?;
    let old = queries::profile_image(&mut *tx, user.id).await?;
    queries::set_profile_image(&mut tx, user.id, &filename, ctx.state().now()).await?;
    tx.commit().await?;
    if let Some(old) = old.filter(|o| *o != filename) {
        let avatars = ctx.state().shared().data_dir.join("avatars");
        let _ = tokio::fs::remove_file(avatars.join(old)).await;
    }
    saved(&ctx, "profile-image-saved", "info").await
}

/// `GET /api/file/{filename}`: a profile image, to its owner and to staff only.
pub async fn file(
    ctx: Ctx,
    Member(user): Member,
    staff: Option<Staff>,
    Path(filename): Path<String>,
) -> Result<Response, AppError> {
    let valid_name = filename.len() <= 40
        && filename
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.');
    if !valid_name {
        return Err(AppError::NotFound);
    }
    match queries::image_owner(ctx.state().db(), &filename).await? {
        Some(owner) if owner == user.id || staff.is_some() => {}
        Some(_) => return Err(AppError::Forbidden),
        None => return Err(AppError::NotFound),
    }
    let path = ctx
        .state()
        .shared()
        .data_dir
        .join("avatars")
        .join(&filename);
    let kind = match filename.rsplit('.').next() {
        Some("png") => "image/png",
        Some("webp") => "image/webp",
        _ => "image/jpeg",
    };
    serve(&path, kind).await
}

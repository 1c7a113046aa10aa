//! The profile photo: uploading it (`/profile/image`) and serving it (`/api/file/{name}`) to
//! its owner and to staff only. Images are recognised by their first bytes (JPEG, PNG, WebP),
//! never their name, and stored under random names in the data folder's `avatars/`.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::forms::FieldErrors;
use serde::Deserialize;

use super::{queries, refuse, saved};
use crate::error::AppError;
use crate::web::files::{image_kind, random_name, serve};
use crate::web::form::{Upload, UploadForm, UploadedFile};
use crate::web::{Ctx, Member, Staff};

/// Profile images: at most 2 MB.
pub const IMAGE_MAX_BYTES: usize = 2 * 1024 * 1024;

/// The photo form: its only field is the image.
#[derive(Deserialize, Default)]
pub struct PhotoForm {}

impl UploadForm for PhotoForm {
    const FILE_FIELD: &'static str = "image";
    const MAX_FILE_BYTES: u64 = IMAGE_MAX_BYTES as u64;
}

/// The posted image and its extension, or the Fluent id of what is wrong with it.
fn checked(file: Option<UploadedFile>) -> Result<(UploadedFile, &'static str), &'static str> {
    match file {
        None => Err("validation-required"),
        Some(f) if f.too_large() => Err("profile-image-too-large"),
        Some(f) if f.size == 0 => Err("validation-required"),
        Some(f) => match image_kind(&f.head) {
            Some(ext) => Ok((f, ext)),
            None => Err("profile-image-invalid"),
        },
    }
}

/// `POST /profile/image` (multipart): replaces the photo; the old file is removed.
pub async fn upload(
    ctx: Ctx,
    Member(user): Member,
    Upload { file, .. }: Upload<PhotoForm>,
) -> Result<Response, AppError> {
    let (file, ext) = match checked(file) {
        Ok(image) => image,
        Err(message_id) => {
            let mut errors = FieldErrors::default();
            errors.add("image", message_id);
            return refuse(&ctx, user.id, "info", &errors).await;
        }
    };
    let filename = random_name(ext);
    let data_dir = &ctx.state().shared().data_dir;
    let kept = file.keep(data_dir, "avatars", &filename).await?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let old = queries::profile_image(&mut *tx, user.id).await?;
    queries::set_profile_image(&mut tx, user.id, &filename, ctx.state().now()).await?;
    tx.commit().await?;
    kept.committed();
    if let Some(old) = old.filter(|o| *o != filename) {
        let _ = tokio::fs::remove_file(data_dir.join("avatars").join(old)).await;
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

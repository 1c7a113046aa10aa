//! What the startup editor attaches: presentation pages (images shown inline to members,
//! stored under `DATA/presentations`) and quarterly reports (a PDF with a summary, stored by
//! `startups::reports`). A refused upload shows the editor again with its errors.

use axum::body::Bytes;
use axum::extract::{Multipart, Path};
use axum::http::HeaderMap;
use axum::response::Response;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::startup_editor::ReportForm;
use serde::de::IgnoredAny;

use super::PAGE_MAX_BYTES;
use super::editor::refuse;
use crate::db::audit;
use crate::error::AppError;
use crate::staff::queries::startup_pages as queries;
use crate::web::flash::done;
use crate::web::form::{Form, Upload, read_multipart, verify_csrf};
use crate::web::{Ctx, Staff};

/// The uploaded image and its extension, or the field's error.
fn checked_image(upload: Option<Upload>) -> Result<(Bytes, &'static str), &'static str> {
    match upload.map(|u| u.bytes) {
        None => Err("validation-required"),
        Some(Err(())) => Err("profile-image-too-large"),
        Some(Ok(b)) if b.len() > PAGE_MAX_BYTES => Err("profile-image-too-large"),
        Some(Ok(b)) => match crate::web::files::image_kind(&b) {
            Some(ext) => Ok((b, ext)),
            None => Err("profile-image-invalid"),
        },
    }
}

/// `POST /dashboard/startups/{id}/pages`: appends a presentation page (PNG, JPEG or WebP).
pub async fn add_page(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, AppError> {
    let (fields, upload) = read_multipart(&mut multipart, "image").await?;
    verify_csrf(&ctx, &fields, &headers)?;
    let (bytes, ext) = match checked_image(upload) {
        Ok(image) => image,
        Err(message) => {
            let mut errors = FieldErrors::default();
            errors.add("image", message);
            return refuse(&ctx, id, &errors, ReportForm::default()).await;
        }
    };
    let name = crate::web::files::random_name(ext);
    let content_type = match ext {
        "jpg" => "image/jpeg",
        "png" => "image/png",
        _ => "image/webp",
    };
    let mut tx = ctx.state().db().begin().await?;
    if !queries::startup_exists(&mut tx, id).await? {
        return Err(AppError::NotFound);
    }
    let data_dir = &ctx.state().shared().data_dir;
    crate::web::files::write(data_dir, "presentations", &name, &bytes).await?;
    let position = queries::add_page(&mut tx, id, &name, content_type).await?;
    let after = format!("page {position}");
    audit::record(
        &mut tx,
        user.id,
        "startup.page.add",
        &format!("startup:{id}"),
        None,
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/startups/{id}")).await
}

/// `POST /dashboard/startups/{id}/pages/{n}/delete`.
pub async fn remove_page(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path((id, position)): Path<(i64, i64)>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    let mut tx = ctx.state().db().begin().await?;
    let file = queries::remove_page(&mut tx, id, position)
        .await?
        .ok_or(AppError::NotFound)?;
    let before = format!("page {position}");
    let subject = format!("startup:{id}");
    audit::record(
        &mut tx,
        user.id,
        "startup.page.remove",
        &subject,
        Some(&before),
        None,
    )
    .await?;
    tx.commit().await?;
    let presentations = ctx.state().shared().data_dir.join("presentations");
    // A file left behind is harmless: nothing links to it any more.
    let _ = tokio::fs::remove_file(presentations.join(file)).await;
    done(&ctx, &format!("/dashboard/startups/{id}")).await
}

/// `POST /dashboard/startups/{id}/reports`: a quarterly report PDF with its summary.
pub async fn add_report(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, AppError> {
    let (fields, checked) = crate::startups::reports::read_report(&mut multipart).await?;
    verify_csrf(&ctx, &fields, &headers)?;
    match checked {
        Ok((form, bytes)) => {
            crate::startups::reports::store_report(&ctx, user.id, id, &form, &bytes).await?;
            done(&ctx, &format!("/dashboard/startups/{id}")).await
        }
        Err((form, errors)) => refuse(&ctx, id, &errors, form).await,
    }
}

//! What the startup editor attaches: presentation pages (images shown inline to members,
//! stored under `DATA/presentations`) and quarterly reports (a PDF with a summary, stored by
//! `startups::reports`). A refused upload shows the editor again with its errors.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::startup_editor::ReportForm;
use serde::Deserialize;
use serde::de::IgnoredAny;

use super::PAGE_MAX_BYTES;
use super::editor::refuse;
use crate::db::audit;
use crate::error::AppError;
use crate::staff::queries::startup_pages as queries;
use crate::startups::images::{self, Kind};
use crate::startups::reports::{CheckedReport, ReportPost, check_report, store_report};
use crate::startups::set_image;
use crate::web::flash::done;
use crate::web::form::{Form, Upload, UploadForm, UploadedFile};
use crate::web::{Ctx, Staff};

/// The presentation-page form: its only field is the image.
#[derive(Deserialize, Default)]
pub struct PageForm {}

impl UploadForm for PageForm {
    const FILE_FIELD: &'static str = "image";
    const MAX_FILE_BYTES: u64 = PAGE_MAX_BYTES as u64;
}

/// The uploaded image and its extension, or the field's error.
fn checked_image(file: Option<UploadedFile>) -> Result<(UploadedFile, &'static str), &'static str> {
    match file {
        None => Err("validation-required"),
        Some(f) if f.too_large() => Err("profile-image-too-large"),
        Some(f) => match crate::web::files::image_kind(&f.head) {
            Some(ext) => Ok((f, ext)),
            None => Err("profile-image-invalid"),
        },
    }
}

/// `POST /dashboard/startups/{id}/pages`: appends a presentation page (PNG, JPEG or WebP).
pub async fn add_page(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
    Upload { file, .. }: Upload<PageForm>,
) -> Result<Response, AppError> {
    let (file, ext) = match checked_image(file) {
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
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if !queries::startup_exists(&mut tx, id).await? {
        return Err(AppError::NotFound);
    }
    let data_dir = &ctx.state().shared().data_dir;
    let kept = file.keep(data_dir, "presentations", &name).await?;
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
    kept.committed();
    done(&ctx, &format!("/dashboard/startups/{id}")).await
}

/// The logo or cover form: its only field is the picture.
#[derive(Deserialize, Default)]
pub struct PictureForm {}

impl UploadForm for PictureForm {
    const FILE_FIELD: &'static str = "picture";
    const MAX_FILE_BYTES: u64 = images::IMAGE_MAX_BYTES as u64;
}

/// A founder's photo form: the founder (by name, as the editor lists them) and the picture.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FounderPhotoForm {
    founder: String,
}

impl UploadForm for FounderPhotoForm {
    const FILE_FIELD: &'static str = "picture";
    const MAX_FILE_BYTES: u64 = images::IMAGE_MAX_BYTES as u64;
}

/// The uploaded picture's variants, or the Fluent id of why it is refused.
async fn picture_variants(
    file: Option<UploadedFile>,
    kind: Kind,
) -> Result<Result<Vec<(u32, Vec<u8>)>, &'static str>, AppError> {
    Ok(match file {
        None => Err("validation-required"),
        Some(f) if f.too_large() => Err("startup-image-too-large"),
        Some(f) => {
            let bytes = f.read().await?;
            tokio::task::spawn_blocking(move || images::variants(&bytes, kind))
                .await
                .map_err(anyhow::Error::from)?
        }
    })
}

/// The editor again with `message` under the `field` form.
async fn refuse_picture(
    ctx: &Ctx,
    id: i64,
    field: &'static str,
    message: &'static str,
) -> Result<Response, AppError> {
    let mut errors = FieldErrors::default();
    errors.add(field, message);
    refuse(ctx, id, &errors, ReportForm::default()).await
}

/// `POST /dashboard/startups/{id}/images/{logo|cover}`: a new logo or cover, its variants
/// made and stored (the old ones deleted once the new one is saved).
pub async fn set_picture(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path((id, kind)): Path<(i64, String)>,
    Upload { file, .. }: Upload<PictureForm>,
) -> Result<Response, AppError> {
    let kind = match Kind::from_code(&kind) {
        Some(kind @ (Kind::Logo | Kind::Cover)) => kind,
        _ => return Err(AppError::NotFound),
    };
    let variants = match picture_variants(file, kind).await? {
        Ok(v) => v,
        Err(message) => return refuse_picture(&ctx, id, kind.code(), message).await,
    };
    let data_dir = &ctx.state().shared().data_dir;
    let name = images::new_name();
    images::store(data_dir, &name, &variants).await?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let before = match set_image(&mut tx, id, kind == Kind::Cover, &name).await {
        Err(sqlx::Error::RowNotFound) => {
            images::remove(data_dir, &name, kind).await;
            return Err(AppError::NotFound);
        }
        result => result?,
    };
    let action = format!("startup.{}.set", kind.code());
    let subject = format!("startup:{id}");
    audit::record(
        &mut tx,
        user.id,
        &action,
        &subject,
        before.as_deref(),
        Some(&name),
    )
    .await?;
    tx.commit().await?;
    if let Some(old) = before {
        images::remove(data_dir, &old, kind).await;
    }
    done(&ctx, &format!("/dashboard/startups/{id}")).await
}

/// `POST /dashboard/startups/{id}/founders/photo`: a founder's photo, as for logos.
pub async fn set_founder_photo(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
    Upload { fields, file }: Upload<FounderPhotoForm>,
) -> Result<Response, AppError> {
    let variants = match picture_variants(file, Kind::Photo).await? {
        Ok(v) => v,
        Err(message) => return refuse_picture(&ctx, id, "founder-photo", message).await,
    };
    let data_dir = &ctx.state().shared().data_dir;
    let name = images::new_name();
    images::store(data_dir, &name, &variants).await?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let Some(before) =
        crate::startups::set_founder_photo(&mut tx, id, &fields.founder, &name).await?
    else {
        images::remove(data_dir, &name, Kind::Photo).await;
        return Err(AppError::NotFound);
    };
    let subject = format!("startup:{id}");
    let after = format!("{}: {name}", fields.founder);
    audit::record(
        &mut tx,
        user.id,
        "startup.founder.photo",
        &subject,
        before.as_deref(),
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    if let Some(old) = before {
        images::remove(data_dir, &old, Kind::Photo).await;
    }
    done(&ctx, &format!("/dashboard/startups/{id}")).await
}

/// `POST /dashboard/startups/{id}/pages/{n}/delete`.
pub async fn remove_page(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path((id, position)): Path<(i64, i64)>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    let mut tx = crate::db::write(ctx.state().db()).await?;
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
    upload: Upload<ReportPost>,
) -> Result<Response, AppError> {
    match check_report(upload) {
        CheckedReport::Good(form, file) => {
            store_report(&ctx, user.id, id, &form, file).await?;
            done(&ctx, &format!("/dashboard/startups/{id}")).await
        }
        CheckedReport::Refused(form, errors) => refuse(&ctx, id, &errors, form).await,
    }
}

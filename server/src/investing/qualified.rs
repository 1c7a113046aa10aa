//! Qualified-investor declarations: investors declare at `/qualifiedInvestor` with evidence
//! (PDF, PNG or JPEG, at most 5 MB, recognised by content); superadmins review them in
//! `staff::qualified`. Only a member whose address is verified may declare; a member has at
//! most one declaration waiting for review (a new one replaces it and its file), and
//! submissions are rate limited per account, so nobody fills the disk with evidence files.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::time_fmt::format_day;
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::Locale;
use ortak_app::pages::qualified::{BASES, Latest, qualified_page};
use serde::Deserialize;

use super::queries::profiles as queries;
use super::queries::qualified as declarations;
use crate::db::rate_limits::{self as rate_limit, Limit};
use crate::error::AppError;
use crate::web::form::{Upload, UploadForm, UploadedFile};
use crate::web::{Ctx, Member, flash};

pub const EVIDENCE_MAX_BYTES: usize = 5 * 1024 * 1024;
/// Where evidence files are kept, under the data folder.
pub const FOLDER: &str = "qualified";
/// Ten declarations per member an hour (refused ones included).
const PER_ACCOUNT: Limit = Limit {
    max: 10,
    window: 60 * 60,
};

fn evidence_kind(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"%PDF-") {
        Some("pdf")
    } else {
        crate::web::files::image_kind(bytes).filter(|k| *k != "webp")
    }
}

/// The user's latest declaration, dated as the Turkish calendar shows it.
async fn latest(ctx: &Ctx, user: i64) -> Result<Latest, AppError> {
    let latest = queries::latest_declaration(ctx.state().db(), user).await?;
    Ok(latest.map(|d| {
        let day = format_day(d.submitted_at, Locale::Tr);
        (d.basis, d.status, d.rejection_reason, day)
    }))
}

async fn show(
    ctx: &Ctx,
    status: StatusCode,
    user: i64,
    basis: &str,
    errors: &FieldErrors,
) -> Result<Response, AppError> {
    let latest = latest(ctx, user).await?;
    let page = ctx.page_ctx(|pc| qualified_page(pc, latest, basis, errors));
    Ok(ctx.render(status, page).await)
}

/// `GET /qualifiedInvestor`.
pub async fn form(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    show(&ctx, StatusCode::OK, user.id, "", &FieldErrors::default()).await
}

/// The declaration form's text fields (the evidence is its file).
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DeclarationPost {
    basis: String,
    declare: Option<String>,
}

impl UploadForm for DeclarationPost {
    const FILE_FIELD: &'static str = "evidence";
    const MAX_FILE_BYTES: u64 = EVIDENCE_MAX_BYTES as u64;
}

/// The evidence file and its kind, or why it is refused (added to `errors`).
fn check_evidence(
    file: Option<UploadedFile>,
    errors: &mut FieldErrors,
) -> Option<(UploadedFile, &'static str)> {
    match file {
        None => {
            errors.add("evidence", "qualified-evidence-required");
            None
        }
        Some(f) if f.too_large() => {
            errors.add("evidence", "qualified-evidence-size");
            None
        }
        Some(f) => match evidence_kind(&f.head) {
            Some(kind) => Some((f, kind)),
            None => {
                errors.add("evidence", "qualified-evidence-type");
                None
            }
        },
    }
}

/// `POST /qualifiedInvestor` (multipart, with the evidence file).
pub async fn submit(
    ctx: Ctx,
    Member(user): Member,
    Upload { fields: f, file }: Upload<DeclarationPost>,
) -> Result<Response, AppError> {
    if !user.verified {
        let message = ctx.t("qualified-verify-first");
        let page = ctx.page_ctx(|pc| ortak_app::pages::errors::bad_request_text(pc, message));
        return Ok(ctx.render(StatusCode::FORBIDDEN, page).await);
    }
    let key = format!("qualified:user:{}", user.id);
    let now = ctx.state().now();
    if let Err(minutes) = rate_limit::hit(ctx.state().db(), now, &key, PER_ACCOUNT).await? {
        let message = ctx
            .locale
            .t_args("rate-limited", &[("minutes", minutes.into())]);
        let page = ctx.page_ctx(|pc| ortak_app::pages::errors::bad_request_text(pc, message));
        return Ok(ctx.render(StatusCode::TOO_MANY_REQUESTS, page).await);
    }
    let mut errors = FieldErrors::default();
    if !BASES.contains(&f.basis.as_str()) {
        errors.add("basis", "validation-choose-one");
    }
    if f.declare.as_deref() != Some("on") {
        errors.add("declare", "qualified-declare-required");
    }
    let evidence = check_evidence(file, &mut errors);
    let (Some((file, kind)), true) = (evidence, errors.is_empty()) else {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return show(&ctx, status, user.id, &f.basis, &errors).await;
    };
    let name = crate::web::files::random_name(kind);
    let dir = ctx.state().shared().data_dir.join(FOLDER);
    let kept = file
        .keep(&ctx.state().shared().data_dir, FOLDER, &name)
        .await?;
    let db = ctx.state().db();
    let replaced = declarations::replace_pending(db, user.id, &f.basis, &name, kind, now).await?;
    kept.committed();
    if let Some(old) = replaced {
        // A file left behind is harmless: nothing names it any more.
        let _ = tokio::fs::remove_file(dir.join(old)).await;
    }
    flash::success(&ctx, "qualified-sent").await?;
    Ok(Redirect::to("/qualifiedInvestor").into_response())
}

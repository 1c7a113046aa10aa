//! Qualified-investor declarations: investors declare at `/qualifiedInvestor` with evidence
//! (PDF, PNG or JPEG, at most 5 MB, recognised by content); superadmins review them in
//! `staff::qualified`.

use axum::body::Bytes;
use axum::extract::Multipart;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::time_fmt::{format_date_short, istanbul_date};
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::Locale;
use ortak_app::pages::qualified::{BASES, Latest, qualified_page};

use super::queries::profiles as queries;
use crate::error::AppError;
use crate::web::form::{Upload, read_multipart, verify_csrf};
use crate::web::{Ctx, Member, flash};

pub const EVIDENCE_MAX_BYTES: usize = 5 * 1024 * 1024;

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
        let day = format_date_short(istanbul_date(d.submitted_at), Locale::Tr);
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

/// The evidence file and its kind, or why it is refused (added to `errors`).
fn check_evidence(
    upload: Option<Upload>,
    errors: &mut FieldErrors,
) -> Option<(Bytes, &'static str)> {
    match upload.map(|u| u.bytes) {
        None => {
            errors.add("evidence", "qualified-evidence-required");
            None
        }
        Some(Ok(b)) if b.len() <= EVIDENCE_MAX_BYTES => match evidence_kind(&b) {
            Some(kind) => Some((b, kind)),
            None => {
                errors.add("evidence", "qualified-evidence-type");
                None
            }
        },
        Some(_) => {
            errors.add("evidence", "qualified-evidence-size");
            None
        }
    }
}

/// `POST /qualifiedInvestor` (multipart, with the evidence file).
pub async fn submit(
    ctx: Ctx,
    Member(user): Member,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, AppError> {
    let (f, upload) = read_multipart(&mut multipart, "evidence").await?;
    verify_csrf(&ctx, &f, &headers)?;
    let basis = f.get("basis");
    let mut errors = FieldErrors::default();
    if !BASES.contains(&basis.as_str()) {
        errors.add("basis", "validation-choose-one");
    }
    if f.get("declare") != "on" {
        errors.add("declare", "qualified-declare-required");
    }
    let evidence = check_evidence(upload, &mut errors);
    let (Some((bytes, kind)), true) = (evidence, errors.is_empty()) else {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return show(&ctx, status, user.id, &basis, &errors).await;
    };
    let file = crate::web::files::random_name(kind);
    crate::web::files::write(&ctx.state().shared().data_dir, "qualified", &file, &bytes).await?;
    queries::insert_declaration(ctx.state().db(), user.id, &basis, &file, kind).await?;
    flash::success(&ctx, "qualified-sent").await?;
    Ok(Redirect::to("/qualifiedInvestor").into_response())
}

//! Qualified-investor declarations: investors declare at `/qualifiedInvestor` with evidence
//! (PDF, PNG or JPEG, at most 5 MB, recognised by content); superadmins review them in
//! `staff::qualified`.

use axum::extract::Multipart;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::qualified::{BASES, Latest, qualified_page};
use rand::RngCore;

use crate::db::stored_date_tr as date;
use crate::error::AppError;
use crate::web::Ctx;
use crate::web::form::{FormBody, read_multipart};
use crate::web::session::Role;

pub const EVIDENCE_MAX_BYTES: usize = 5 * 1024 * 1024;

fn evidence_kind(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"%PDF-") {
        Some("pdf")
    } else {
        crate::web::files::image_kind(bytes).filter(|k| *k != "webp")
    }
}

async fn latest(ctx: &Ctx, user: i64) -> Result<Latest, AppError> {
    let row: Option<(String, String, Option<String>, String)> = sqlx::query_as(
        "SELECT basis, status, rejection_reason, submitted_at FROM qualified_declarations
         WHERE user_id = ? ORDER BY id DESC LIMIT 1",
    )
    .bind(user)
    .fetch_optional(ctx.state().db())
    .await?;
    Ok(row.map(|(b, s, r, at)| (b, s, r, date(&at))))
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

pub async fn form(ctx: Ctx) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    show(&ctx, StatusCode::OK, user.id, "", &FieldErrors::default()).await
}

pub async fn submit(
    ctx: Ctx,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let (f, upload): (FormBody, _) = read_multipart(&mut multipart, "evidence").await?;
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    let basis = f.get("basis");
    let mut errors = FieldErrors::default();
    if !BASES.contains(&basis.as_str()) {
        errors.add("basis", "validation-choose-one");
    }
    if f.get("declare") != "on" {
        errors.add("declare", "qualified-declare-required");
    }
    let evidence = match upload.map(|u| u.bytes) {
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
    };
    let (Some((bytes, kind)), true) = (evidence, errors.is_empty()) else {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return show(&ctx, status, user.id, &basis, &errors).await;
    };
    let mut name = [0u8; 16];
    rand::rng().fill_bytes(&mut name);
    let file = format!(
        "{}.{kind}",
        name.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    let dir = ctx.state().shared().data_dir.join("qualified");
    tokio::fs::create_dir_all(&dir)
        .await
        .map_err(anyhow::Error::from)?;
    tokio::fs::write(dir.join(&file), &bytes)
        .await
        .map_err(anyhow::Error::from)?;
    sqlx::query(
        "INSERT INTO qualified_declarations (user_id, basis, evidence_file, evidence_type) VALUES (?, ?, ?, ?)",
    )
    .bind(user.id)
    .bind(&basis)
    .bind(&file)
    .bind(kind)
    .execute(ctx.state().db())
    .await?;
    ctx.set_flash(ortak_app::shell::Flash {
        kind: ortak_app::shell::FlashKind::Success,
        message_id: "qualified-sent".into(),
    })
    .await?;
    Ok(axum::response::Redirect::to("/qualifiedInvestor").into_response())
}

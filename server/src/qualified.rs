//! Qualified-investor declarations: investors declare at `/qualifiedInvestor` with evidence
//! (PDF, PNG or JPEG, at most 5 MB, recognised by content); superadmins verify or reject them
//! at `/dashboard/qualifiedUsers`, audited.

use axum::body::Bytes;
use axum::extract::{Multipart, Path};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::dashboard::{NOTE, RowAction, StaffRow, StaffTable};
use ortak_app::pages::qualified::{BASES, Latest, qualified_page};
use rand::RngCore;

use crate::accounts::session::Role;
use crate::context::Ctx;
use crate::dashboard::{audit, date, done, render_table};
use crate::error::AppError;
use crate::form_body::{FormBody, read_multipart};

pub const EVIDENCE_MAX_BYTES: usize = 5 * 1024 * 1024;

fn evidence_kind(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"%PDF-") {
        Some("pdf")
    } else {
        crate::accounts::profile::image_kind(bytes).filter(|k| *k != "webp")
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

/// `/dashboard/qualifiedUsers` (superadmin).
pub async fn list(ctx: Ctx) -> Result<Response, AppError> {
    ctx.require(Role::SuperAdmin)?;
    let rows: Vec<(i64, String, String, String, String, String)> = sqlx::query_as(
        "SELECT q.id, u.email, u.first_name || ' ' || u.last_name, q.basis, q.status, q.submitted_at
         FROM qualified_declarations q JOIN users u ON u.id = q.user_id ORDER BY q.id DESC LIMIT 5000",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, email, name, basis, status, at)| {
            let actions = if status == "submitted" {
                vec![
                    RowAction {
                        action: format!("/dashboard/qualifiedUsers/{id}"),
                        name: "decision",
                        value: "verified".into(),
                        label_id: "dashboard-qualified-verify".into(),
                        fields: &[],
                    },
                    RowAction {
                        action: format!("/dashboard/qualifiedUsers/{id}"),
                        name: "decision",
                        value: "rejected".into(),
                        label_id: "dashboard-qualified-reject".into(),
                        fields: NOTE,
                    },
                ]
            } else {
                Vec::new()
            };
            StaffRow {
                id,
                cells: vec![
                    email,
                    name,
                    ctx.t(&format!("qualified-basis-{basis}")),
                    ctx.t(&format!("dashboard-mkk-{status}")),
                    date(&at),
                ],
                link: Some((
                    format!("/dashboard/qualifiedUsers/{id}/evidence"),
                    "qualified-evidence".to_owned(),
                )),
                actions,
            }
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-qualified-users",
        columns: vec![
            "dashboard-col-email",
            "dashboard-col-name",
            "qualified-basis",
            "dashboard-col-status",
            "dashboard-col-date",
        ],
        rows,
        search: None,
        csv: None,
        create: None,
    };
    render_table(&ctx, true, table).await
}

/// `POST /dashboard/qualifiedUsers/{id}`: verify, or reject with a reason the investor sees.
pub async fn decide(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let staff = ctx.require(Role::SuperAdmin)?.clone();
    let f = FormBody::parse(&body);
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    let decision = f.get("decision");
    if !["verified", "rejected"].contains(&decision.as_str()) {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    let reason: String = f.get("note").trim().chars().take(500).collect();
    let mut tx = ctx.state().db().begin().await?;
    let changed = sqlx::query(
        "UPDATE qualified_declarations SET status = ?, rejection_reason = CASE WHEN ? = 'rejected' THEN ? END,
             reviewed_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = ? AND status = 'submitted'",
    )
    .bind(&decision)
    .bind(&decision)
    .bind(&reason)
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if changed == 0 {
        return Err(AppError::NotFound);
    }
    audit(
        &mut tx,
        staff.id,
        "qualified.review",
        &format!("qualified:{id}"),
        Some("submitted"),
        Some(format!("{decision} {reason}").trim()),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, "/dashboard/qualifiedUsers").await
}

/// `GET /dashboard/qualifiedUsers/{id}/evidence` (superadmin), as a download.
pub async fn evidence(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    ctx.require(Role::SuperAdmin)?;
    let (file, kind): (String, String) = sqlx::query_as(
        "SELECT evidence_file, evidence_type FROM qualified_declarations WHERE id = ?",
    )
    .bind(id)
    .fetch_optional(ctx.state().db())
    .await?
    .ok_or(AppError::NotFound)?;
    let content_type = match kind.as_str() {
        "pdf" => "application/pdf",
        "png" => "image/png",
        _ => "image/jpeg",
    };
    let mut response = crate::files::serve(
        &ctx.state().shared().data_dir.join("qualified").join(&file),
        content_type,
    )
    .await?;
    response.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"evidence-{id}.{kind}\""))
            .map_err(anyhow::Error::from)?,
    );
    Ok(response)
}

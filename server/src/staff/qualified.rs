//! `/dashboard/qualifiedUsers` (superadmins): qualified-investor declarations with their
//! evidence, verified or rejected with a reason, audited.

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::Response;
use ortak_app::pages::staff_table::{NOTE, RowAction, StaffRow, StaffTable};

use super::table::render_table;
use crate::db::audit;
use crate::db::stored_date_tr as date;
use crate::error::AppError;
use crate::web::flash::done;
use crate::web::form::FormBody;
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes};

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
                    email.into(),
                    name.into(),
                    ctx.t(&format!("qualified-basis-{basis}")).into(),
                    ctx.t(&format!("dashboard-mkk-{status}")).into(),
                    date(&at).into(),
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
    render_table(&ctx, table).await
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
    audit::record(
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
    let mut response = crate::web::files::serve(
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

pub fn routes() -> Routes {
    Routes::new(Access::SuperAdmin)
        .get("/dashboard/qualifiedUsers", list)
        .nav("dashboard-qualified-users")
        .get("/dashboard/qualifiedUsers.json", list)
        .post("/dashboard/qualifiedUsers/{id}", decide)
        .get("/dashboard/qualifiedUsers/{id}/evidence", evidence)
}

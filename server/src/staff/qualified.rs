//! `/dashboard/qualifiedUsers` (superadmins): qualified-investor declarations with their
//! evidence, verified or rejected with a reason, audited. The SQL is in
//! `staff/queries/qualified.rs`.

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use ortak_app::domain::mkk::MkkStatus;
use ortak_app::pages::staff_table::{Cell, NOTE, RowAction, StaffRow, StaffTable};
use serde::Deserialize;

use super::queries::qualified as queries;
use super::table::render_table;
use crate::db::audit;
use crate::error::AppError;
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, SuperAdmin};

/// Verify, or reject with a note, a declaration awaiting review.
fn review_actions(id: i64) -> Vec<RowAction> {
    let action = format!("/dashboard/qualifiedUsers/{id}");
    vec![
        RowAction {
            action: action.clone(),
            name: "decision",
            value: "verified".into(),
            label_id: "dashboard-qualified-verify".into(),
            fields: &[],
        },
        RowAction {
            action,
            name: "decision",
            value: "rejected".into(),
            label_id: "dashboard-qualified-reject".into(),
            fields: NOTE,
        },
    ]
}

/// `/dashboard/qualifiedUsers`.
pub async fn list(ctx: Ctx) -> Result<Response, AppError> {
    let rows = queries::declarations(ctx.state().db())
        .await?
        .into_iter()
        .map(|q| {
            let status = q.status;
            StaffRow {
                id: q.id,
                cells: vec![
                    q.email.into(),
                    q.name.into(),
                    Cell::Label(format!("qualified-basis-{}", q.basis)),
                    Cell::Label(format!("dashboard-mkk-{}", status.code())),
                    Cell::Date(q.submitted_at),
                ],
                link: Some((
                    format!("/dashboard/qualifiedUsers/{}/evidence", q.id),
                    "qualified-evidence".to_owned(),
                )),
                actions: if status == MkkStatus::Submitted {
                    review_actions(q.id)
                } else {
                    Vec::new()
                },
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

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Decision {
    /// `verified` or `rejected`.
    decision: String,
    /// The reason a rejected investor sees.
    note: String,
}

/// `POST /dashboard/qualifiedUsers/{id}`: verify, or reject with a reason the investor sees.
pub async fn decide(
    ctx: Ctx,
    SuperAdmin(staff): SuperAdmin,
    Path(id): Path<i64>,
    Form(f): Form<Decision>,
) -> Result<Response, AppError> {
    let decision = match f.decision.as_str() {
        "verified" => MkkStatus::Verified,
        "rejected" => MkkStatus::Rejected,
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    let reason: String = f.note.trim().chars().take(500).collect();
    let kept = (decision == MkkStatus::Rejected).then_some(reason.as_str());
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if !queries::decide(&mut tx, id, decision, kept, ctx.state().now()).await? {
        return Err(AppError::NotFound);
    }
    let after = format!("{} {reason}", f.decision);
    audit::record(
        &mut tx,
        staff.id,
        "qualified.review",
        &format!("qualified:{id}"),
        Some("submitted"),
        Some(after.trim()),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, "/dashboard/qualifiedUsers").await
}

/// `GET /dashboard/qualifiedUsers/{id}/evidence`, as a download.
pub async fn evidence(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    let evidence = queries::evidence(ctx.state().db(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    let content_type = match evidence.kind.as_str() {
        "pdf" => "application/pdf",
        "png" => "image/png",
        _ => "image/jpeg",
    };
    let file = ctx
        .state()
        .shared()
        .data_dir
        .join("qualified")
        .join(&evidence.file);
    let mut response = crate::web::files::serve(&file, content_type).await?;
    let disposition = format!("attachment; filename=\"evidence-{id}.{}\"", evidence.kind);
    response.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&disposition).map_err(anyhow::Error::from)?,
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

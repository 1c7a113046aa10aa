//! `/dashboard/audit` (superadmins): who did what, when, before and after.

use axum::response::Response;
use ortak_app::pages::staff_table::{StaffRow, StaffTable};

use super::table::render_table;
use crate::error::AppError;
use crate::web::{Access, Ctx, Routes, SuperAdmin};

/// id, actor's e-mail, action, subject, before, after, time.
pub(super) type AuditRow = (
    i64,
    Option<String>,
    String,
    String,
    Option<String>,
    Option<String>,
    String,
);

/// `/dashboard/audit` (superadmin): who did what, when, before and after.
pub async fn audit_log(ctx: Ctx, _: SuperAdmin) -> Result<Response, AppError> {
    let rows: Vec<AuditRow> = sqlx::query_as(
        "SELECT a.id, u.email, a.action, a.subject, a.before, a.after, a.created_at
         FROM audit_log a LEFT JOIN users u ON u.id = a.actor_user_id ORDER BY a.id DESC LIMIT 500",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, by, action, subject, before, after, at)| StaffRow {
            id,
            cells: vec![
                crate::db::stored_date_time_tr(&at).into(),
                by.unwrap_or_default().into(),
                action.into(),
                subject.into(),
                before.unwrap_or_default().into(),
                after.unwrap_or_default().into(),
            ],
            link: None,
            actions: Vec::new(),
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-audit",
        columns: vec![
            "dashboard-col-date",
            "dashboard-col-by",
            "dashboard-col-action",
            "dashboard-col-subject",
            "dashboard-audit-before",
            "dashboard-audit-after",
        ],
        rows,
        search: None,
        csv: None,
        create: None,
    };
    render_table(&ctx, table).await
}

pub fn routes() -> Routes {
    Routes::new(Access::SuperAdmin)
        .get("/dashboard/audit", audit_log)
        .nav("dashboard-audit")
        .get("/dashboard/audit.json", audit_log)
}

//! `/dashboard/audit` (superadmins): who did what, when, before and after. The log is written
//! by `db::audit` in the same transaction as each staff action and cannot be changed.

use axum::response::Response;
use ortak_app::pages::staff_table::{Cell, StaffRow, StaffTable};

use super::queries::audit_log as queries;
use super::table::render_table;
use crate::error::AppError;
use crate::web::{Access, Ctx, Routes, SuperAdmin};

/// `/dashboard/audit` (superadmin): who did what, when, before and after.
pub async fn audit_log(ctx: Ctx, _: SuperAdmin) -> Result<Response, AppError> {
    let rows = queries::latest(ctx.state().db())
        .await?
        .into_iter()
        .map(|a| StaffRow {
            id: a.id,
            cells: vec![
                Cell::DateTime(a.created_at),
                a.actor.into(),
                a.action.into(),
                a.subject.into(),
                a.before.into(),
                a.after.into(),
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

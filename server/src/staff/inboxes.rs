//! The inboxes of the visitors' forms: contact messages, GSYF and academy applications.

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::HeaderMap;
use axum::response::Response;
use ortak_app::pages::staff_table::{RowAction, StaffRow, StaffTable};

use super::table::render_table;
use super::{staff, staff_post};
use crate::error::AppError;
use crate::web::{Access, Ctx, Routes};

/// The three inboxes of the forms, `(table, title, columns as SQL, back path)`: name, e-mail,
/// subject, and everything else the sender wrote (`{lang}` is the staff member's language).
const INBOXES: [(&str, &str, &str, &str); 3] = [
    (
        "contact_messages",
        "dashboard-contacts",
        "name, email, subject, phone || ' · ' || message",
        "/dashboard/contacts",
    ),
    (
        "gsyf_applications",
        "dashboard-gsyf",
        "first_name || ' ' || last_name, email, fund_type || ' · ' || investment_range, phone",
        "/dashboard/gsyf",
    ),
    (
        "academy_applications",
        "dashboard-academy",
        "name, email,
         (SELECT COALESCE(NULLIF(e.title_{lang}, ''), e.title_tr) FROM academy_events e WHERE e.id = event_id),
         institution || ' · ' || phone || ' · ' || city || ' · ' || budget || ' · '
             || CASE invested_before WHEN 1 THEN '+' ELSE '-' END || ' · ' || heard_from
             || ' · ' || linkedin || ' · ' || note",
        "/dashboard/academy",
    ),
];

async fn inbox(ctx: Ctx, which: usize) -> Result<Response, AppError> {
    // The academy inbox leads to its events.
    let create = (which == 2).then_some("/dashboard/academy/events");
    let csv = Some(
        [
            "/dashboard/contacts.csv",
            "/dashboard/gsyf.csv",
            "/dashboard/academy.csv",
        ][which],
    );
    staff(&ctx)?;
    let (table, title, columns, back) = INBOXES[which];
    type Row = (i64, String, String, String, String, Option<String>, String);
    let columns = columns.replace("{lang}", ctx.locale.code());
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "SELECT id, {columns}, handled_at, created_at FROM {table} ORDER BY created_at DESC LIMIT 500"
    ))
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, a, b, c, d, handled, created)| StaffRow {
            id,
            cells: vec![
                a.into(),
                b.into(),
                c.into(),
                d.into(),
                ctx.t(if handled.is_some() {
                    "dashboard-handled"
                } else {
                    "dashboard-open"
                })
                .into(),
                crate::db::stored_date_tr(&created).into(),
            ],
            link: None,
            actions: if handled.is_none() {
                vec![RowAction {
                    action: format!("{back}/{id}/handled"),
                    name: "handled",
                    value: "1".into(),
                    label_id: "dashboard-mark-handled".into(),
                    fields: &[],
                }]
            } else {
                Vec::new()
            },
        })
        .collect();
    let table = StaffTable {
        title_id: title,
        columns: vec![
            "dashboard-col-name",
            "dashboard-col-email",
            "dashboard-col-subject",
            "dashboard-col-details",
            "dashboard-col-handled",
            "dashboard-col-date",
        ],
        rows,
        search: None,
        csv,
        create,
    };
    render_table(&ctx, table).await
}

async fn mark_handled(
    ctx: Ctx,
    which: usize,
    id: i64,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, _) = staff_post(&ctx, &headers, &body)?;
    let (table, _, _, back) = INBOXES[which];
    let mut tx = ctx.state().db().begin().await?;
    let updated = sqlx::query(&format!(
        "UPDATE {table} SET handled_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ? AND handled_at IS NULL"
    ))
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if updated == 0 {
        return Err(AppError::NotFound);
    }
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "inbox.handled",
        &format!("{table}:{id}"),
        Some("open"),
        Some("handled"),
    )
    .await?;
    tx.commit().await?;
    crate::web::flash::done(&ctx, back).await
}

pub async fn contacts(ctx: Ctx) -> Result<Response, AppError> {
    inbox(ctx, 0).await
}
pub async fn gsyf(ctx: Ctx) -> Result<Response, AppError> {
    inbox(ctx, 1).await
}
pub async fn academy(ctx: Ctx) -> Result<Response, AppError> {
    inbox(ctx, 2).await
}
pub async fn contact_handled(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    mark_handled(ctx, 0, id, headers, body).await
}
pub async fn gsyf_handled(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    mark_handled(ctx, 1, id, headers, body).await
}
pub async fn academy_handled(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    mark_handled(ctx, 2, id, headers, body).await
}

pub fn contact_routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/contacts", contacts)
        .nav("dashboard-contacts")
        .get("/dashboard/contacts.json", contacts)
        .get("/dashboard/contacts.csv", contacts)
        .post("/dashboard/contacts/{id}/handled", contact_handled)
        .get("/dashboard/gsyf", gsyf)
        .nav("dashboard-gsyf")
        .get("/dashboard/gsyf.json", gsyf)
        .get("/dashboard/gsyf.csv", gsyf)
        .post("/dashboard/gsyf/{id}/handled", gsyf_handled)
        .get("/dashboard/academy", academy)
        .nav("dashboard-academy")
        .get("/dashboard/academy.json", academy)
        .get("/dashboard/academy.csv", academy)
        .post("/dashboard/academy/{id}/handled", academy_handled)
}

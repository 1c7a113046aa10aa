//! `/dashboard/newsletter`: subscribers with their consent records, the export, and
//! unsubscribing on someone's behalf.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::pages::staff_table::{RowAction, StaffRow, StaffTable};
use serde::de::IgnoredAny;

use super::staff;
use super::table::render_table;
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, Staff};

/// `/dashboard/newsletter`: subscribers with their consent records.
pub async fn newsletter(ctx: Ctx) -> Result<Response, AppError> {
    staff(&ctx)?;
    type Row = (i64, String, String, String, String, String);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, email, language, consent_text_version, source, consented_at FROM newsletter_subscribers
         WHERE unsubscribed_at IS NULL ORDER BY consented_at DESC LIMIT 2000",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, email, language, version, source, at)| StaffRow {
            id,
            cells: vec![
                email.into(),
                language.into(),
                version.into(),
                source.into(),
                crate::db::stored_date_time_tr(&at).into(),
            ],
            link: None,
            actions: vec![RowAction {
                action: format!("/dashboard/newsletter/{id}/unsubscribe"),
                name: "unsubscribe",
                value: "1".into(),
                label_id: "dashboard-unsubscribe".into(),
                fields: &[],
            }],
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-newsletter",
        columns: vec![
            "dashboard-col-email",
            "field-language",
            "dashboard-consent-version",
            "dashboard-consent-source",
            "dashboard-consent-at",
        ],
        rows,
        search: None,
        csv: Some("/dashboard/newsletter.csv"),
        create: None,
    };
    render_table(&ctx, table).await
}

pub async fn newsletter_csv(ctx: Ctx) -> Result<Response, AppError> {
    staff(&ctx)?;
    let rows: Vec<(String, String, String, String, String)> = sqlx::query_as(
        "SELECT email, language, consent_text_version, consented_at, source FROM newsletter_subscribers
         WHERE unsubscribed_at IS NULL ORDER BY consented_at",
    )
    .fetch_all(ctx.state().db())
    .await?;
    // The consent records as they are kept (machine-readable names, UTC times), for importing
    // into a mail tool; the table's own CSV is the localized one.
    let header = [
        "email",
        "language",
        "consent_text_version",
        "consented_at",
        "source",
    ];
    let lines = std::iter::once(header.map(str::to_owned).to_vec())
        .chain(rows.into_iter().map(|(a, b, c, d, e)| vec![a, b, c, d, e]))
        .collect();
    super::table::csv_download("ortak-bulten.csv", lines)
}

pub async fn unsubscribe(
    ctx: Ctx,
    Staff { user: staff, .. }: Staff,
    Path(id): Path<i64>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    let mut tx = ctx.state().db().begin().await?;
    let email: Option<String> = sqlx::query_scalar(
        "UPDATE newsletter_subscribers SET unsubscribed_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = ? AND unsubscribed_at IS NULL RETURNING email",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let email = email.ok_or(AppError::NotFound)?;
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "newsletter.unsubscribe",
        &email,
        Some("subscribed"),
        Some("unsubscribed"),
    )
    .await?;
    tx.commit().await?;
    crate::web::flash::done(&ctx, "/dashboard/newsletter").await
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/newsletter", newsletter)
        .nav("dashboard-newsletter")
        .get("/dashboard/newsletter.json", newsletter)
        .get("/dashboard/newsletter.csv", newsletter_csv)
        .post("/dashboard/newsletter/{id}/unsubscribe", unsubscribe)
}

//! `/dashboard/newsletter`: subscribers with their consent records (the law asks for when and
//! to which text they agreed, and when they confirmed their address), the export for a mail
//! tool, and unsubscribing on someone's behalf. Unconfirmed requests are never listed.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::pages::staff_table::{Cell, RowAction, StaffRow, StaffTable};
use serde::de::IgnoredAny;
use time::format_description::well_known::Rfc3339;

use super::queries::newsletter as queries;
use super::table::{csv_download, render_table};
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, Staff};

/// `/dashboard/newsletter`: subscribers with their consent records.
pub async fn newsletter(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    let rows = queries::latest(ctx.state().db())
        .await?
        .into_iter()
        .map(|s| StaffRow {
            id: s.id,
            cells: vec![
                s.email.into(),
                s.language.into(),
                s.consent_text_version.into(),
                s.source.into(),
                Cell::DateTime(s.consented_at),
                Cell::DateTime(s.confirmed_at),
            ],
            link: None,
            actions: vec![RowAction {
                action: format!("/dashboard/newsletter/{}/unsubscribe", s.id),
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
            "dashboard-consent-confirmed",
        ],
        rows,
        search: None,
        csv: Some("/dashboard/newsletter.csv"),
        create: None,
    };
    render_table(&ctx, table).await
}

/// `/dashboard/newsletter.csv`: the consent records as they are kept (machine-readable names,
/// UTC times in RFC 3339), for importing into a mail tool; the table's own CSV is the
/// localized one.
pub async fn newsletter_csv(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    let header = [
        "email",
        "language",
        "consent_text_version",
        "consented_at",
        "source",
        "confirmed_at",
    ];
    let mut lines = vec![header.map(str::to_owned).to_vec()];
    for s in queries::all(ctx.state().db()).await? {
        let consented_at = s
            .consented_at
            .format(&Rfc3339)
            .map_err(anyhow::Error::from)?;
        let confirmed_at = s
            .confirmed_at
            .format(&Rfc3339)
            .map_err(anyhow::Error::from)?;
        lines.push(vec![
            s.email,
            s.language,
            s.consent_text_version,
            consented_at,
            s.source,
            confirmed_at,
        ]);
    }
    csv_download("ortak-bulten.csv", lines)
}

pub async fn unsubscribe(
    ctx: Ctx,
    Staff { user: staff, .. }: Staff,
    Path(id): Path<i64>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let email = queries::unsubscribe(&mut tx, id, ctx.state().now())
        .await?
        .ok_or(AppError::NotFound)?;
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

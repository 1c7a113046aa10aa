//! `/dashboard/takasbank`: the escrow transfers expected by reference, what the clearing bank
//! reported as received, and mismatches.

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::HeaderMap;
use axum::response::Response;
use ortak_app::pages::staff_table::{RowAction, StaffRow, StaffTable};

use super::table::render_table;
use super::{staff, staff_post};
use crate::error::AppError;
use crate::web::{Access, Ctx, Routes};

/// Inputs for recording a received transfer.
const RECEIVED: &[(&str, &str, &str)] = &[
    ("amount", "dashboard-amount", "text"),
    ("date", "dashboard-col-date", "date"),
];

/// request id, reference, investor, startup, expected kuruş, received kuruş, received on.
type TransferRow = (
    i64,
    String,
    String,
    String,
    i64,
    Option<i64>,
    Option<String>,
);

/// `/dashboard/takasbank`: transfers expected by reference, what arrived, and mismatches.
pub async fn takasbank(ctx: Ctx) -> Result<Response, AppError> {
    staff(&ctx)?;
    let rows: Vec<TransferRow> = sqlx::query_as(
        "SELECT b.request_id, b.reference, u.email, s.name, b.amount_kurus, b.received_amount_kurus, b.received_at
         FROM bank_transfers b JOIN investment_requests r ON r.id = b.request_id
         JOIN users u ON u.id = r.user_id JOIN startups s ON s.id = r.startup_id
         ORDER BY b.created_at DESC LIMIT 500",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let tr = ortak_app::i18n::Locale::Tr;
    let money = |k: i64| ortak_app::domain::money::Money::from_kurus(k).format(tr);
    let rows = rows
        .into_iter()
        .map(|(id, reference, email, startup, expected, received, on)| {
            // A state of its own (the island filters on it), then what arrived and when.
            let state = ctx.t(match received {
                None => "dashboard-transfer-waiting",
                Some(r) if r == expected => "dashboard-transfer-received",
                Some(_) => "dashboard-transfer-mismatch",
            });
            let on = on
                .map(|d| {
                    ortak_app::domain::time_fmt::format_date_short(crate::db::parse_date(&d), tr)
                })
                .unwrap_or_default();
            StaffRow {
                id,
                cells: vec![
                    reference.into(),
                    email.into(),
                    startup.into(),
                    money(expected).into(),
                    state.into(),
                    received.map(money).unwrap_or_default().into(),
                    on.into(),
                ],
                link: None,
                actions: vec![RowAction {
                    action: format!("/dashboard/takasbank/{id}/received"),
                    name: "received",
                    value: "1".into(),
                    label_id: "dashboard-transfer-mark".into(),
                    fields: RECEIVED,
                }],
            }
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-takasbank",
        columns: vec![
            "dashboard-transfer-reference",
            "dashboard-col-email",
            "dashboard-col-startup",
            "dashboard-col-amount",
            "dashboard-col-status",
            "dashboard-transfer-received-amount",
            "dashboard-transfer-received-on",
        ],
        rows,
        search: None,
        csv: None,
        create: None,
    };
    render_table(&ctx, table).await
}

/// `POST /dashboard/takasbank/{request}/received`: the amount and date the bank reported.
pub async fn transfer_received(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, f) = staff_post(&ctx, &headers, &body)?;
    let amount = ortak_app::domain::profile::parse_lira(&f.get("amount"))
        .ok_or(AppError::BadRequest("validation-number"))?;
    let date = time::Date::parse(
        f.get("date").trim(),
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .map_err(|_| AppError::BadRequest("validation-date"))?;
    let mut tx = ctx.state().db().begin().await?;
    let before: Option<(i64, Option<i64>)> = sqlx::query_as(
        "SELECT amount_kurus, received_amount_kurus FROM bank_transfers WHERE request_id = ?",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let (expected, previous) = before.ok_or(AppError::NotFound)?;
    sqlx::query(
        "UPDATE bank_transfers SET received_amount_kurus = ?, received_at = ? WHERE request_id = ?",
    )
    .bind(amount.kurus())
    .bind(date.to_string())
    .bind(id)
    .execute(&mut *tx)
    .await?;
    let mismatch = if amount.kurus() == expected {
        ""
    } else {
        " (mismatch)"
    };
    let after = format!("{} on {date}{mismatch}", amount.kurus());
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "transfer.received",
        &format!("request:{id}"),
        previous.map(|p| p.to_string()).as_deref(),
        Some(&after),
    )
    .await?;
    // The request's history shows it too, under its current status.
    let status: String = sqlx::query_scalar("SELECT status FROM investment_requests WHERE id = ?")
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    if let Some(status) = ortak_app::domain::investing::RequestStatus::from_code(&status) {
        let note = format!(
            "transfer received: {} on {date}{mismatch}",
            amount.format(ortak_app::i18n::Locale::Tr)
        );
        crate::investing::record_event(&mut tx, id, status, &note, Some(staff.id)).await?;
    }
    tx.commit().await?;
    crate::web::flash::done(&ctx, "/dashboard/takasbank").await
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/takasbank", takasbank)
        .nav("dashboard-takasbank")
        .get("/dashboard/takasbank.json", takasbank)
        .post("/dashboard/takasbank/{id}/received", transfer_received)
}

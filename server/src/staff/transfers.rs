//! `/dashboard/takasbank`: the escrow transfers expected by reference, what the clearing bank
//! reported as received, and mismatches. Recording a receipt also notes it in the request's
//! history.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::domain::profile::parse_lira;
use ortak_app::i18n::Locale;
use ortak_app::pages::staff_table::{Cell, RowAction, StaffRow, StaffTable};
use serde::Deserialize;
use time::macros::format_description;

use super::queries::transfers::{self as queries, Transfer};
use super::table::render_table;
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, Staff};

/// Inputs for recording a received transfer.
const RECEIVED: &[(&str, &str, &str)] = &[
    ("amount", "dashboard-amount", "text"),
    ("date", "dashboard-col-date", "date"),
];

/// `/dashboard/takasbank`: transfers expected by reference, what arrived, and mismatches.
pub async fn takasbank(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    let rows = queries::list(ctx.state().db())
        .await?
        .into_iter()
        .map(transfer_row)
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

fn transfer_row(t: Transfer) -> StaffRow {
    let id = t.request_id;
    // A state of its own (the island filters on it), then what arrived and when.
    let state = match t.received_amount_kurus {
        None => "dashboard-transfer-waiting",
        Some(r) if r == t.amount_kurus => "dashboard-transfer-received",
        Some(_) => "dashboard-transfer-mismatch",
    };
    StaffRow {
        id,
        cells: vec![
            t.reference.into(),
            t.investor.into(),
            t.startup.into(),
            Cell::Money(Money::from_kurus(t.amount_kurus)),
            Cell::Label(state.into()),
            t.received_amount_kurus
                .map(|k| Cell::Money(Money::from_kurus(k)))
                .into(),
            t.received_on.map(Cell::Day).into(),
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
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Received {
    /// In lira, as the bank reported it (`1.250.000,50`).
    amount: String,
    /// `YYYY-MM-DD`.
    date: String,
}

/// `POST /dashboard/takasbank/{request}/received`: the amount and date the bank reported.
pub async fn transfer_received(
    ctx: Ctx,
    Staff { user: staff, .. }: Staff,
    Path(id): Path<i64>,
    Form(form): Form<Received>,
) -> Result<Response, AppError> {
    let amount = parse_lira(&form.amount).ok_or(AppError::BadRequest("validation-number"))?;
    let date = time::Date::parse(
        form.date.trim(),
        format_description!("[year]-[month]-[day]"),
    )
    .map_err(|_| AppError::BadRequest("validation-date"))?;
    let mut tx = ctx.state().db().begin().await?;
    let expected = queries::expected(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    queries::record_received(&mut tx, id, amount.kurus(), date).await?;
    let mismatch = if amount.kurus() == expected.amount_kurus {
        ""
    } else {
        " (mismatch)"
    };
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "transfer.received",
        &format!("request:{id}"),
        expected
            .received_amount_kurus
            .map(|p| p.to_string())
            .as_deref(),
        Some(&format!("{} on {date}{mismatch}", amount.kurus())),
    )
    .await?;
    // The request's history shows it too, under its current status.
    let status = queries::request_status(&mut tx, id).await?;
    let note = format!(
        "transfer received: {} on {date}{mismatch}",
        amount.format(Locale::Tr)
    );
    crate::investing::record_event(&mut tx, id, status, &note, Some(staff.id)).await?;
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

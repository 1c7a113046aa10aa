//! `/dashboard/takasbank`: the escrow transfers expected by reference, what the clearing bank
//! reported as received, and mismatches. Recording a receipt writes it to the ledger and moves
//! the request when the expected amount is in escrow (`investing::transfer_received`).

use axum::extract::Path;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::money::Money;
use ortak_app::domain::profile::parse_lira;
use ortak_app::pages::staff_table::{Cell, RowAction, StaffRow, StaffTable};
use serde::Deserialize;
use time::macros::format_description;

use super::queries::transfers::{self as queries, Transfer};
use super::table::render_table;
use crate::error::AppError;
use crate::investing::{Receipt, transfer_received as record_receipt};
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, Staff};

/// Inputs for recording a received transfer.
const RECEIVED: &[(&str, &str, &str)] = &[
    ("amount", "dashboard-amount", "text"),
    ("date", "dashboard-col-date", "date"),
];

/// `/dashboard/takasbank`: transfers expected by reference, what arrived, and mismatches.
pub async fn takasbank(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    let rows = queries::list(ctx.state().db(), None)
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
            "dashboard-transfer-returned-amount",
        ],
        rows,
        search: None,
        csv: None,
        create: None,
    };
    render_table(&ctx, table).await
}

/// Where a transfer stands, as the reconciliation flags it (a label the island filters on).
pub fn reconciliation_state(t: &Transfer) -> &'static str {
    use ortak_app::domain::investing::RequestStatus::*;
    match (t.received_amount_kurus, t.status) {
        (None, _) => "dashboard-transfer-waiting",
        (Some(_), Funded | Allocated) => "dashboard-transfer-received",
        (Some(_), FeePaid) => "dashboard-transfer-mismatch",
        (Some(_), _) => "dashboard-transfer-returned",
    }
}

pub fn transfer_row(t: Transfer) -> StaffRow {
    let id = t.request_id;
    // A state of its own (the island filters on it), then what arrived and when.
    let state = reconciliation_state(&t);
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
            (t.returned_kurus > 0)
                .then(|| Cell::Money(Money::from_kurus(t.returned_kurus)))
                .into(),
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
    let message = match record_receipt(ctx.state(), id, amount, date, staff.id).await? {
        Receipt::Funded => "dashboard-receipt-funded",
        Receipt::Short => "dashboard-receipt-short",
        Receipt::Returned => "dashboard-receipt-returned",
    };
    crate::web::flash::success(&ctx, message).await?;
    Ok(Redirect::to("/dashboard/takasbank").into_response())
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/takasbank", takasbank)
        .nav("dashboard-takasbank")
        .get("/dashboard/takasbank.json", takasbank)
        .post("/dashboard/takasbank/{id}/received", transfer_received)
}

//! `/dashboard/takasbank` (superadmins): the escrow transfers expected by reference, what the
//! clearing bank reported as received, and mismatches. Receipts come from the imported
//! statement (`staff::statements`); a receipt the bank reported another way is typed here by
//! one superadmin and recorded only once a second confirms it.

use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::pages::staff_table::{Cell, RowAction, StaffRow, StaffTable};

use super::queries::transfers::{self as queries, Transfer};
use super::table::render_table;
use crate::error::AppError;
use crate::web::{Access, Ctx, Routes, SuperAdmin};

/// Inputs for typing a receipt the bank reported another way.
const TYPED: &[(&str, &str, &str)] = &[
    ("amount", "dashboard-amount", "text"),
    ("date", "dashboard-col-date", "date"),
    ("note", "statements-typed-source", "text"),
];

/// `/dashboard/takasbank`: transfers expected by reference, what arrived, and mismatches.
pub async fn takasbank(ctx: Ctx, _: SuperAdmin) -> Result<Response, AppError> {
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
        // A receipt is typed only for a transfer still waiting for its money.
        actions: (state == "dashboard-transfer-waiting")
            .then(|| RowAction {
                action: format!("/dashboard/takasbank/{id}/receipts"),
                name: "typed",
                value: "1".into(),
                label_id: "statements-type-receipt".into(),
                fields: TYPED,
            })
            .into_iter()
            .collect(),
    }
}

pub fn routes() -> Routes {
    Routes::new(Access::SuperAdmin)
        .get("/dashboard/takasbank", takasbank)
        .nav("dashboard-takasbank")
        .get("/dashboard/takasbank.json", takasbank)
}

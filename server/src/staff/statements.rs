//! `/dashboard/takasbank/statements` (superadmins): money in escrow is recorded from the
//! clearing bank's statement (`investing::statements`), never from a figure typed alone. Staff
//! import the day's statement, resolve each flagged line with a note (what became of the money),
//! and, when the bank reported a receipt another way, one superadmin types it and a second
//! confirms it before anything is recorded. Every step is audited.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::money::Money;
use ortak_app::domain::profile::parse_lira;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::dashboard::{StatementsPage, statements_page};
use ortak_app::pages::staff_table::{Cell, NOTE, RowAction, StaffRow};
use serde::Deserialize;
use time::macros::format_description;

use super::queries::statements::{self as queries, ListedLine, PendingReceipt};
use crate::db::audit;
use crate::error::AppError;
use crate::investing::receipts;
use crate::investing::statements::import;
use crate::web::form::{Form, Upload, UploadForm};
use crate::web::{Access, Ctx, Routes, SuperAdmin, flash};

/// The largest statement file taken (a day's statement is kilobytes).
const STATEMENT_MAX_BYTES: u64 = 5 * 1024 * 1024;

fn line_row(l: ListedLine) -> StaffRow {
    let open = l.resolution.is_none()
        && matches!(
            l.outcome.as_str(),
            "unknown_reference" | "amount_mismatch" | "payer_mismatch"
        );
    StaffRow {
        id: l.id,
        cells: vec![
            Cell::Day(l.booked_on),
            Cell::Money(Money::from_kurus(l.amount_kurus)),
            l.payer_name.into(),
            ortak_app::domain::iban::group_iban(&l.payer_iban).into(),
            l.remittance.into(),
            Cell::Label(format!("statements-outcome-{}", l.outcome)),
            l.request_id.map(|r| r.to_string()).into(),
            l.resolution.into(),
        ],
        link: l.request_id.map(|r| {
            (
                format!("/dashboard/investments/{r}"),
                "dashboard-history".into(),
            )
        }),
        actions: open
            .then(|| RowAction {
                action: format!("/dashboard/takasbank/lines/{}/resolve", l.id),
                name: "resolve",
                value: "1".into(),
                label_id: "statements-resolve".into(),
                fields: NOTE,
            })
            .into_iter()
            .collect(),
    }
}

fn receipt_row(r: PendingReceipt) -> StaffRow {
    StaffRow {
        id: r.id,
        cells: vec![
            r.reference.into(),
            Cell::Money(Money::from_kurus(r.amount_kurus)),
            Cell::Day(r.received_on),
            r.note.into(),
            r.proposed_by.into(),
            Cell::DateTime(r.proposed_at),
        ],
        link: Some((
            format!("/dashboard/investments/{}", r.request_id),
            "dashboard-history".into(),
        )),
        actions: vec![RowAction {
            action: format!("/dashboard/takasbank/receipts/{}/confirm", r.id),
            name: "confirm",
            value: "1".into(),
            label_id: "statements-confirm".into(),
            fields: &[],
        }],
    }
}

async fn show(ctx: &Ctx, status: StatusCode, errors: FieldErrors) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let lines: Vec<StaffRow> = queries::lines(db)
        .await?
        .into_iter()
        .map(line_row)
        .collect();
    let flagged = lines.iter().filter(|r| !r.actions.is_empty()).count();
    let receipts = queries::pending(db)
        .await?
        .into_iter()
        .map(receipt_row)
        .collect();
    let page = StatementsPage {
        errors,
        lines,
        flagged,
        receipts,
    };
    let page = ctx.page_ctx(|pc| statements_page(pc, page));
    Ok(ctx.render(status, page).await)
}

/// `GET /dashboard/takasbank/statements`.
pub async fn page(ctx: Ctx, _: SuperAdmin) -> Result<Response, AppError> {
    show(&ctx, StatusCode::OK, FieldErrors::default()).await
}

/// The upload's text fields (the statement is its file).
#[derive(Deserialize, Default)]
pub struct StatementPost {}

impl UploadForm for StatementPost {
    const FILE_FIELD: &'static str = "statement";
    const MAX_FILE_BYTES: u64 = STATEMENT_MAX_BYTES;
}

/// `POST /dashboard/takasbank/statements`: imports a statement file, whole or not at all.
pub async fn upload(
    ctx: Ctx,
    SuperAdmin(staff): SuperAdmin,
    Upload { file, .. }: Upload<StatementPost>,
) -> Result<Response, AppError> {
    let refuse = |id: &'static str| {
        let mut errors = FieldErrors::default();
        errors.add("statement", id);
        errors
    };
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    let bytes = match file {
        None => return show(&ctx, unprocessable, refuse("statements-file-required")).await,
        Some(f) if f.too_large() => {
            return show(&ctx, unprocessable, refuse("statements-file-size")).await;
        }
        Some(f) => f.read().await?,
    };
    match import(ctx.state(), &bytes, staff.id).await? {
        Err(refusal) => show(&ctx, unprocessable, refuse(refusal)).await,
        Ok(done) => {
            tracing::info!(
                lines = done.lines,
                funded = done.funded,
                returned = done.returned,
                flagged = done.flagged,
                "statement imported"
            );
            let message = if done.flagged > 0 {
                "statements-imported-flagged"
            } else {
                "statements-imported"
            };
            flash::success(&ctx, message).await?;
            Ok(Redirect::to("/dashboard/takasbank/statements").into_response())
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Note {
    note: String,
}

fn reason(note: &str) -> Result<String, AppError> {
    let note: String = note.trim().chars().take(500).collect();
    if note.is_empty() {
        return Err(AppError::BadRequest("dashboard-reason-required"));
    }
    Ok(note)
}

/// `POST /dashboard/takasbank/lines/{id}/resolve`: what became of a flagged line's money.
pub async fn resolve(
    ctx: Ctx,
    SuperAdmin(staff): SuperAdmin,
    Path(id): Path<i64>,
    Form(form): Form<Note>,
) -> Result<Response, AppError> {
    let note = reason(&form.note)?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if !queries::resolve(&mut tx, id, staff.id, &note, ctx.state().now()).await? {
        return Err(AppError::Refused(
            StatusCode::CONFLICT,
            "statements-not-open",
        ));
    }
    let subject = format!("statement_line:{id}");
    audit::record(
        &mut tx,
        staff.id,
        "statement.resolve",
        &subject,
        None,
        Some(&note),
    )
    .await?;
    tx.commit().await?;
    flash::done(&ctx, "/dashboard/takasbank/statements").await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Typed {
    /// In lira, as the bank reported it (`1.250.000,50`).
    amount: String,
    /// `YYYY-MM-DD`.
    date: String,
    /// Where the figure comes from (the bank's letter, say).
    note: String,
}

/// `POST /dashboard/takasbank/{request}/receipts`: a superadmin types a receipt the bank
/// reported another way. Nothing is recorded until a second superadmin confirms it.
pub async fn propose(
    ctx: Ctx,
    SuperAdmin(staff): SuperAdmin,
    Path(id): Path<i64>,
    Form(form): Form<Typed>,
) -> Result<Response, AppError> {
    let amount = parse_lira(&form.amount).ok_or(AppError::BadRequest("validation-number"))?;
    let day = format_description!("[year]-[month]-[day]");
    let on = time::Date::parse(form.date.trim(), day)
        .map_err(|_| AppError::BadRequest("validation-date"))?;
    let note = reason(&form.note)?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let now = ctx.state().now();
    let typed = (amount.kurus(), on);
    let proposed = queries::propose(&mut tx, id, typed, &note, staff.id, now)
        .await?
        .ok_or(AppError::NotFound)?;
    let after = format!("{} on {on}: {note}", amount.kurus());
    let subject = format!("typed_receipt:{proposed}");
    audit::record(
        &mut tx,
        staff.id,
        "receipt.propose",
        &subject,
        None,
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    flash::success(&ctx, "statements-proposed").await?;
    Ok(Redirect::to("/dashboard/takasbank/statements").into_response())
}

/// `POST /dashboard/takasbank/receipts/{id}/confirm`: a second superadmin confirms a typed
/// receipt, which is then recorded as received. The one who typed it cannot.
pub async fn confirm(
    ctx: Ctx,
    SuperAdmin(staff): SuperAdmin,
    Path(id): Path<i64>,
    Form(_): Form<serde::de::IgnoredAny>,
) -> Result<Response, AppError> {
    let state = ctx.state();
    let mut tx = crate::db::write(state.db()).await?;
    let Some(c) = queries::confirm(&mut tx, id, staff.id, state.now()).await? else {
        let message = "statements-second-superadmin";
        return Err(AppError::Refused(StatusCode::CONFLICT, message));
    };
    let amount = (Money::from_kurus(c.amount_kurus), c.received_on);
    let source = format!("typed receipt {id}, confirmed");
    receipts::record(&mut tx, state, c.request_id, amount, staff.id, &source).await?;
    tx.commit().await?;
    state.wake_mailer();
    flash::done(&ctx, "/dashboard/takasbank/statements").await
}

pub fn routes() -> Routes {
    Routes::new(Access::SuperAdmin)
        .get("/dashboard/takasbank/statements", page)
        .nav("statements-title")
        .post_limited(
            "/dashboard/takasbank/statements",
            upload,
            STATEMENT_MAX_BYTES as usize + 64 * 1024,
        )
        .post("/dashboard/takasbank/lines/{id}/resolve", resolve)
        .post("/dashboard/takasbank/{id}/receipts", propose)
        .post("/dashboard/takasbank/receipts/{id}/confirm", confirm)
}

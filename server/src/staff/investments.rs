//! `/dashboard/investments` and `/dashboard/pre-investments` (superadmins): investors'
//! requests, each with its page of facts and history, moved along their statuses (see
//! `investing::staff_transition`) or noted as contacted; the investor is mailed either way.
//! The SQL is in `staff/queries/investments.rs`.

use axum::extract::Path;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::money::Money;
use ortak_app::domain::startups::PeriodKind;
use ortak_app::pages::dashboard::StaffDetail;
use ortak_app::shell::{Flash, FlashKind};

use super::table::render_detail;
use ortak_app::pages::staff_table::{Cell, NOTE, RowAction, StaffRow, StaffTable};
use serde::Deserialize;

use super::queries::investments::{self as queries, ListedRequest, RequestEvent, RequestFacts};
use crate::db::audit;
use crate::error::AppError;
use crate::investing::staff_transition;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, SuperAdmin, flash};

/// The list a request of `kind` is in.
fn list_of(kind: PeriodKind) -> &'static str {
    match kind {
        PeriodKind::PreInvestment => "/dashboard/pre-investments",
        PeriodKind::Investment => "/dashboard/investments",
    }
}

/// The list's (and the kind's) title.
fn title_of(kind: PeriodKind) -> &'static str {
    match kind {
        PeriodKind::PreInvestment => "dashboard-pre-investments",
        PeriodKind::Investment => "dashboard-investments-title",
    }
}

/// The moves staff may make from `status`, each a button (`note` is the reason).
fn moves(id: i64, status: RequestStatus, note_on_all: bool) -> Vec<RowAction> {
    RequestStatus::ALL
        .iter()
        .filter(|to| status.staff_can_move_to(**to))
        .map(|to| RowAction {
            action: format!("/dashboard/investments/{id}/status"),
            name: "to",
            value: to.code().to_owned(),
            label_id: format!("dashboard-move-{}", to.code()),
            fields: if note_on_all || *to == RequestStatus::Rejected {
                NOTE
            } else {
                &[]
            },
        })
        .collect()
}

fn row(r: ListedRequest) -> StaffRow {
    let status = r.status;
    let mut actions = moves(r.id, status, false);
    if status.is_open() {
        actions.push(RowAction {
            action: format!("/dashboard/investments/{}/contacted", r.id),
            name: "contacted",
            value: "1".into(),
            label_id: "dashboard-mark-contacted".into(),
            fields: NOTE,
        });
    }
    StaffRow {
        id: r.id,
        cells: vec![
            r.id.to_string().into(),
            r.investor.into(),
            r.startup.into(),
            Cell::Money(Money::from_kurus(r.amount_kurus)),
            Cell::Label(format!("request-status-{}", status.code())),
            Cell::Date(r.created_at),
        ],
        link: Some((
            format!("/dashboard/investments/{}", r.id),
            "dashboard-history".to_owned(),
        )),
        actions,
    }
}

async fn list(ctx: Ctx, kind: PeriodKind) -> Result<Response, AppError> {
    let requests = queries::requests(ctx.state().db(), kind).await?;
    let table = StaffTable {
        title_id: title_of(kind),
        columns: vec![
            "dashboard-col-number",
            "dashboard-col-investor",
            "dashboard-col-startup",
            "dashboard-col-amount",
            "dashboard-col-status",
            "dashboard-col-date",
        ],
        rows: requests.into_iter().map(row).collect(),
        search: None,
        csv: None,
        create: None,
    };
    super::table::render_table(&ctx, table).await
}

pub async fn investments(ctx: Ctx) -> Result<Response, AppError> {
    list(ctx, PeriodKind::Investment).await
}

pub async fn pre_investments(ctx: Ctx) -> Result<Response, AppError> {
    list(ctx, PeriodKind::PreInvestment).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Move {
    /// The next status.
    to: String,
    /// The reason (required for a rejection).
    note: String,
}

/// `POST /dashboard/investments/{id}/status`: `to` is the next status, `note` the reason.
pub async fn move_request(
    ctx: Ctx,
    SuperAdmin(staff): SuperAdmin,
    Path(id): Path<i64>,
    Form(f): Form<Move>,
) -> Result<Response, AppError> {
    let to = RequestStatus::from_code(&f.to).ok_or(AppError::BadRequest("bad-request-text"))?;
    let note: String = f.note.trim().chars().take(500).collect();
    staff_transition(ctx.state(), id, to, staff.id, &note).await?;
    ctx.state().wake_mailer();
    flash::success(&ctx, "dashboard-moved").await?;
    let kind = queries::kind(ctx.state().db(), id).await?;
    Ok(Redirect::to(list_of(kind)).into_response())
}

/// The request's facts, in the viewer's language.
fn facts(ctx: &Ctx, r: RequestFacts) -> Vec<(String, Cell)> {
    let money = |k: i64| Cell::Money(Money::from_kurus(k));
    let status = r.status;
    let mut facts = vec![
        (
            ctx.t("dashboard-col-investor"),
            format!("{} <{}>", r.name, r.email).into(),
        ),
        (ctx.t("dashboard-col-startup"), r.startup.into()),
        (
            ctx.t("dashboard-col-kind"),
            Cell::Label(title_of(r.kind).to_owned()),
        ),
        (ctx.t("dashboard-col-amount"), money(r.amount_kurus)),
        (ctx.t("dashboard-col-fee"), money(r.fee_kurus)),
        (ctx.t("dashboard-col-total"), money(r.total_kurus)),
        (
            ctx.t("dashboard-col-status"),
            Cell::Label(format!("request-status-{}", status.code())),
        ),
    ];
    if let Some(reason) = r.rejection_reason.filter(|r| !r.is_empty()) {
        facts.push((ctx.t("dashboard-note"), reason.into()));
    }
    if let Some(reference) = r.reference {
        facts.push((ctx.t("dashboard-transfer-reference"), reference.into()));
    }
    facts
}

/// A history row: when, what, the note, and who (empty for the investor's own steps).
fn history_cells(e: RequestEvent) -> [Cell; 4] {
    let what = if e.status == "contacted" {
        "dashboard-contacted".to_owned()
    } else {
        format!("request-status-{}", e.status)
    };
    [
        Cell::DateTime(e.created_at),
        Cell::Label(what),
        e.note.into(),
        e.by.into(),
    ]
}

/// `/dashboard/investments/{id}`: the request, its moves, and what staff may do next.
pub async fn request_page(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let request = queries::request(db, id).await?.ok_or(AppError::NotFound)?;
    let mut actions = moves(id, request.status, true);
    let (payment_facts, refunds) = card_payments(&ctx, id, request.status).await?;
    actions.extend(refunds);
    let investor = super::request_investor::investor_facts(&ctx, &request).await?;
    let mut facts = facts(&ctx, request);
    facts.extend(investor);
    // The ledger: every move of the request's money, in order.
    for m in queries::ledger(db, id).await? {
        let what = format!(
            "{} · {}",
            ctx.t(&format!("money-{}", m.kind)),
            ortak_app::domain::timeline::format_moment(m.created_at, ctx.locale)
        );
        let reference = if m.reference.is_empty() {
            String::new()
        } else {
            format!(" ({})", m.reference)
        };
        let amount = Money::from_kurus(m.amount_kurus).format(ctx.locale);
        facts.push((what, format!("{amount}{reference}").into()));
    }
    facts.extend(payment_facts);
    let events = queries::events(db, id).await?;
    let title = format!("{} #{id}", ctx.t("dashboard-request"));
    let columns = vec![
        "dashboard-col-date",
        "dashboard-col-status",
        "dashboard-note",
        "dashboard-col-by",
    ];
    let detail = StaffDetail {
        title,
        facts,
        columns,
        history: events
            .into_iter()
            .map(|e| history_cells(e).into())
            .collect(),
        actions,
        link: None,
        irreversible: Vec::new(),
    };
    Ok(render_detail(&ctx, detail).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Contacted {
    /// How staff reached the investor.
    note: String,
}

/// `POST /dashboard/investments/{id}/contacted`: staff reached the investor; the note says how.
pub async fn contacted(
    ctx: Ctx,
    SuperAdmin(staff): SuperAdmin,
    Path(id): Path<i64>,
    Form(f): Form<Contacted>,
) -> Result<Response, AppError> {
    let note: String = f.note.trim().chars().take(500).collect();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let request = queries::contacted_request(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    let status = request.status;
    if !status.is_open() {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    queries::record_contacted(&mut tx, id, &note, staff.id, ctx.state().now()).await?;
    let investor = &request.investor;
    let link = format!("{}/pendingInvestments", ctx.state().shared().public_url);
    let mail = crate::mail::Mail::action(
        &investor.email,
        investor.language,
        &investor.first_name,
        "request-contacted",
        &link,
    );
    crate::mail::enqueue(&mut tx, &mail).await?;
    let after = format!("contacted {note}");
    audit::record(
        &mut tx,
        staff.id,
        "request.contacted",
        &format!("request:{id}"),
        Some(status.code()),
        Some(after.trim()),
    )
    .await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    flash::success(&ctx, "dashboard-moved").await?;
    Ok(Redirect::to(list_of(request.kind)).into_response())
}

// --- Card payments (the payments work): each payment's provider id and state on the request's
// page, and a refund of a fee owed back. Self-contained: `request_page` adds what
// `card_payments` gives; `refund_fee` is its route.

/// Facts about each card payment of request `id`, and a refund button for each fee owed back.
async fn card_payments(
    ctx: &Ctx,
    id: i64,
    status: RequestStatus,
) -> Result<(Vec<(String, Cell)>, Vec<RowAction>), AppError> {
    use crate::payments::refunds::staff_payments;
    let (mut facts, mut actions) = (Vec::new(), Vec::new());
    for (n, (p, refundable)) in staff_payments(ctx.state(), id, status)
        .await?
        .into_iter()
        .enumerate()
    {
        let title = format!("{} {}", ctx.t("dashboard-payments"), n + 1);
        let provider_id = p.provider_payment_id.as_deref().unwrap_or("-");
        facts.push((
            format!("{title}: {}", ctx.t("dashboard-payment-provider-id")),
            format!("{} {provider_id} ({})", p.provider, p.public_id).into(),
        ));
        facts.push((
            format!("{title}: {}", ctx.t("dashboard-col-amount")),
            Cell::Money(Money::from_kurus(p.amount_kurus)),
        ));
        // In the staff member's language; what the provider or the records say stays verbatim.
        let mut state = vec![
            ctx.t(&format!("dashboard-payment-status-{}", p.status.code())),
            ortak_app::domain::card::masked(&p.card_brand, &p.card_last4),
        ];
        if p.charged {
            state.push(ctx.t("dashboard-payment-charged"));
        }
        for (label, value) in [
            ("dashboard-payment-provider-state", p.provider_state),
            ("dashboard-payment-reason", p.failure_reason),
            (
                "dashboard-payment-refund-status",
                p.refund_status
                    .map(|r| ctx.t(&format!("dashboard-refund-status-{}", r.code()))),
            ),
            ("dashboard-payment-refund-reference", p.refund_reference),
            ("dashboard-payment-refund-error", p.refund_error),
        ] {
            if let Some(value) = value {
                state.push(format!("{}: {value}", ctx.t(label)));
            }
        }
        facts.push((
            format!("{title}: {}", ctx.t("dashboard-payment-state")),
            state.join(" · ").into(),
        ));
        facts.push((
            format!("{title}: {}", ctx.t("dashboard-col-date")),
            Cell::DateTime(p.created_at),
        ));
        if refundable {
            actions.push(RowAction {
                action: format!("/dashboard/investments/{id}/refund"),
                name: "payment",
                value: p.public_id,
                label_id: "dashboard-payment-refund".into(),
                fields: &[],
            });
        }
    }
    Ok((facts, actions))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RefundFee {
    /// The payment's public id.
    payment: String,
}

/// `POST /dashboard/investments/{id}/refund`: gives a fee owed back to the card (audited).
pub async fn refund_fee(
    ctx: Ctx,
    SuperAdmin(staff): SuperAdmin,
    Path(id): Path<i64>,
    Form(f): Form<RefundFee>,
) -> Result<Response, AppError> {
    use crate::payments::refunds::{StaffRefund, refund_by_staff};
    let state = ctx.state();
    let outcome =
        refund_by_staff(state, id, &f.payment, staff.id, &ctx.ip, &ctx.request_id).await?;
    let (kind, message) = match outcome {
        StaffRefund::Refunded => (FlashKind::Success, "dashboard-payment-refunded"),
        StaffRefund::Refused => (FlashKind::Error, "dashboard-payment-refund-refused"),
        StaffRefund::Pending => (FlashKind::Success, "dashboard-payment-refund-pending"),
    };
    let message_id = message.to_owned();
    flash::set(&ctx, Flash { kind, message_id }).await?;
    Ok(Redirect::to(&format!("/dashboard/investments/{id}")).into_response())
}

pub fn routes() -> Routes {
    Routes::new(Access::SuperAdmin)
        .get("/dashboard/investments", investments)
        .nav("dashboard-investments-title")
        .get("/dashboard/investments.json", investments)
        .get("/dashboard/pre-investments", pre_investments)
        .nav("dashboard-pre-investments")
        .get("/dashboard/pre-investments.json", pre_investments)
        .get("/dashboard/investments/{id}", request_page)
        .post("/dashboard/investments/{id}/status", move_request)
        .post("/dashboard/investments/{id}/contacted", contacted)
        .post("/dashboard/investments/{id}/refund", refund_fee)
}

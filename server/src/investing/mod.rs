//! Investing: MKK membership, investment and pre-investment requests, the investor's lists.

pub mod mkk;
pub mod portfolio;
pub mod qualified;
pub mod vip;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use base64::Engine;
use ortak_app::domain::investing::{RequestStatus, breakdown, parse_amount};
use ortak_app::domain::money::Money;
use ortak_app::domain::startups::{Offer, PeriodKind};
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::Locale;
use ortak_app::pages::investing::{
    InvestmentForm, RequestRow, investment_blocked_page, investment_created_page, investment_page,
    my_investments_page, pending_page,
};
use ortak_app::shell::{Flash, FlashKind};
use rand::RngCore;
use serde::Deserialize;
use serde_json::json;
use sqlx::{FromRow, SqliteConnection};

use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::startups::{CardRow, find_card};
use crate::web::form::FormBody;
use crate::web::session::{CurrentUser, Role};
use crate::web::{Access, Ctx, Routes};

fn new_key() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Why the user may not send a request for this startup now, if so: the message, whether it
/// leads to `/mkk`, and the status to answer with.
async fn blocked(
    ctx: &Ctx,
    user: &CurrentUser,
    row: &CardRow,
) -> Result<Option<(&'static str, bool, StatusCode)>, AppError> {
    let vip = vip::is_vip(ctx.state().db(), user.id, row.id).await?;
    match row.funding().offer_for(ctx.state().today(), vip) {
        Offer::Closed => return Ok(Some(("investment-closed", false, StatusCode::CONFLICT))),
        Offer::VipOnly => return Ok(Some(("startup-vip-only", false, StatusCode::CONFLICT))),
        Offer::Invest | Offer::PreInvest => {}
    }
    Ok(match mkk::status(ctx.state().db(), user.id).await? {
        None => Some(("investment-needs-mkk", true, StatusCode::CONFLICT)),
        Some(s) if !s.allows_investing() => {
            Some(("investment-needs-mkk-fix", true, StatusCode::CONFLICT))
        }
        Some(_) => None,
    })
}

/// The page that says why a request cannot be sent, if it cannot.
async fn gate(ctx: &Ctx, user: &CurrentUser, row: &CardRow) -> Result<Option<Response>, AppError> {
    let Some((message, to_mkk, status)) = blocked(ctx, user, row).await? else {
        return Ok(None);
    };
    // Missing MKK data is explained on a normal page; a closed round is a conflict.
    let status = if to_mkk { StatusCode::OK } else { status };
    let page = ctx.page_ctx(|pc| investment_blocked_page(pc, message, to_mkk));
    Ok(Some(ctx.render(status, page).await))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FlowQuery {
    startup: String,
}

pub async fn amount_page(ctx: Ctx, Query(q): Query<FlowQuery>) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let row = find_card(&ctx, &q.startup).await?;
    if let Some(blocked) = gate(&ctx, &user, &row).await? {
        return Ok(blocked);
    }
    let form = InvestmentForm {
        startup_slug: row.slug.clone(),
        startup_name: row.name.clone(),
        kind: PeriodKind::from_code(&row.period_kind),
        amount: String::new(),
        fee_added: true,
        risk: false,
        fee_rate_bp: ctx.state().shared().service_fee_bp,
        breakdown: None,
        idempotency_key: new_key(),
    };
    let page = ctx.page_ctx(|pc| investment_page(pc, &form, &FieldErrors::default()));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// A request as posted, by the plain form or the island.
#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct RequestInput {
    csrf: String,
    startup: String,
    amount: String,
    quick: String,
    fee_added: Option<String>,
    risk: Option<String>,
    idempotency_key: String,
}

enum Outcome {
    Created,
    Invalid(FieldErrors, InvestmentForm),
}

/// Checks and stores one request; the same idempotency key never makes a second one.
async fn create(
    ctx: &Ctx,
    user: &CurrentUser,
    row: &CardRow,
    input: &RequestInput,
) -> Result<Outcome, AppError> {
    let fee_rate_bp = ctx.state().shared().service_fee_bp;
    let typed = if input.amount.trim().is_empty() {
        input.quick.clone()
    } else {
        input.amount.clone()
    };
    let fee_added = input.fee_added.as_deref() == Some("on");
    let risk = input.risk.as_deref() == Some("on");
    let mut errors = FieldErrors::default();
    let amount = errors.check("amount", parse_amount(&typed), |e| e.message_id());
    if !risk {
        errors.add("risk", "validation-risk");
    }
    let key = input.idempotency_key.trim();
    if key.is_empty() || key.len() > 64 {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    let kind = PeriodKind::from_code(&row.period_kind);
    let Some(amount) = amount.filter(|_| errors.is_empty()) else {
        let summary = parse_amount(&typed)
            .ok()
            .map(|a| breakdown(a, fee_rate_bp, fee_added));
        let form = InvestmentForm {
            startup_slug: row.slug.clone(),
            startup_name: row.name.clone(),
            kind,
            amount: typed,
            fee_added,
            risk,
            fee_rate_bp,
            breakdown: summary,
            idempotency_key: key.to_owned(),
        };
        return Ok(Outcome::Invalid(errors, form));
    };
    let b = breakdown(amount, fee_rate_bp, fee_added);
    let db = ctx.state().db();
    let mut tx = db.begin().await?;
    let created: Option<i64> = sqlx::query_scalar(
        "INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus, fee_added,
             investment_kurus, total_kurus, risk_accepted_at, idempotency_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?)
         ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
    )
    .bind(user.id)
    .bind(row.id)
    .bind(kind.code())
    .bind(b.amount.kurus())
    .bind(b.fee.kurus())
    .bind(fee_added)
    .bind(b.investment.kurus())
    .bind(b.total.kurus())
    .bind(key)
    .fetch_optional(&mut *tx)
    .await?;
    if created.is_none() {
        // The key was used before: fine when it was this investor's own form, sent twice.
        let owner: Option<i64> =
            sqlx::query_scalar("SELECT user_id FROM investment_requests WHERE idempotency_key = ?")
                .bind(key)
                .fetch_optional(&mut *tx)
                .await?;
        if owner != Some(user.id) {
            return Err(AppError::BadRequest("bad-request-text"));
        }
    }
    if let Some(id) = created {
        record_event(&mut tx, id, RequestStatus::Submitted, "", Some(user.id)).await?;
        let locale = Locale::from_code(&user.language).unwrap_or_default();
        let link = format!("{}/pendingInvestments", ctx.state().shared().public_url);
        enqueue(
            &mut tx,
            &Mail::action(&user.email, locale, &user.first_name, "request", &link),
        )
        .await?;
    }
    tx.commit().await?;
    ctx.state().wake_mailer();
    Ok(Outcome::Created)
}

pub async fn record_event(
    conn: &mut SqliteConnection,
    request_id: i64,
    status: RequestStatus,
    note: &str,
    actor: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO request_events (request_id, status, note, actor_user_id) VALUES (?, ?, ?, ?)",
    )
    .bind(request_id)
    .bind(status.code())
    .bind(note)
    .bind(actor)
    .execute(conn)
    .await?;
    Ok(())
}

fn fields(body: &Bytes) -> RequestInput {
    let f = FormBody::parse(body);
    RequestInput {
        csrf: f.get("csrf"),
        startup: f.get("startup"),
        amount: f.get("amount"),
        quick: f.get("quick"),
        fee_added: f.opt("fee_added"),
        risk: f.opt("risk"),
        idempotency_key: f.get("idempotency_key"),
    }
}

pub async fn submit_form(ctx: Ctx, headers: HeaderMap, body: Bytes) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let input = fields(&body);
    ctx.verify_csrf(&input.csrf, &headers)?;
    let row = find_card(&ctx, &input.startup).await?;
    if let Some(blocked) = gate(&ctx, &user, &row).await? {
        return Ok(blocked);
    }
    match create(&ctx, &user, &row, &input).await? {
        Outcome::Created => Ok(Redirect::to("/investmentFlow/created").into_response()),
        Outcome::Invalid(errors, form) => {
            let page = ctx.page_ctx(|pc| investment_page(pc, &form, &errors));
            Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await)
        }
    }
}

/// `POST /api/investmentRequests`: the amount island's submit.
pub async fn submit_json(ctx: Ctx, headers: HeaderMap, body: Bytes) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let token = headers
        .get("x-csrf-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    ctx.verify_csrf(token, &headers)?;
    let value: serde_json::Value =
        serde_json::from_slice(&body).map_err(|_| AppError::BadRequest("bad-request-text"))?;
    let text = |k: &str| {
        value
            .get(k)
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_owned()
    };
    let flag = |k: &str| {
        value
            .get(k)
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
            .then(|| "on".to_owned())
    };
    let input = RequestInput {
        csrf: String::new(),
        startup: text("startup"),
        amount: text("amount"),
        quick: String::new(),
        fee_added: flag("feeAdded"),
        risk: flag("risk"),
        idempotency_key: text("idempotencyKey"),
    };
    let row = find_card(&ctx, &input.startup).await?;
    if let Some((message, _, status)) = blocked(&ctx, &user, &row).await? {
        return Ok((
            status,
            Json(json!({ "ok": false, "message": ctx.t(message) })),
        )
            .into_response());
    }
    match create(&ctx, &user, &row, &input).await? {
        Outcome::Created => Ok((
            StatusCode::CREATED,
            Json(json!({ "ok": true, "message": ctx.t("investment-created"), "pending": "/pendingInvestments" })),
        )
            .into_response()),
        Outcome::Invalid(errors, _) => {
            let errors: serde_json::Map<String, serde_json::Value> = ["amount", "risk"]
                .iter()
                .filter_map(|f| errors.get(f).map(|m| ((*f).to_owned(), ctx.t(m).into())))
                .collect();
            Ok((StatusCode::UNPROCESSABLE_ENTITY, Json(json!({ "ok": false, "errors": errors }))).into_response())
        }
    }
}

pub async fn created(ctx: Ctx) -> Result<Response, AppError> {
    ctx.require(Role::Investor)?;
    let page = ctx.page_ctx(investment_created_page);
    Ok(ctx.render(StatusCode::OK, page).await)
}

#[derive(FromRow)]
struct ListRow {
    id: i64,
    slug: String,
    name: String,
    kind: String,
    amount_kurus: i64,
    total_kurus: i64,
    status: String,
    created_at: String,
}

async fn requests(ctx: &Ctx, user_id: i64, completed: bool) -> Result<Vec<RequestRow>, AppError> {
    let rows: Vec<ListRow> = sqlx::query_as(
        "SELECT r.id, s.slug, s.name, r.kind, r.amount_kurus, r.total_kurus, r.status, r.created_at
         FROM investment_requests r JOIN startups s ON s.id = r.startup_id
         WHERE r.user_id = ? AND (r.status = 'completed') = ? ORDER BY r.created_at DESC, r.id DESC",
    )
    .bind(user_id)
    .bind(completed)
    .fetch_all(ctx.state().db())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| RequestRow {
            id: r.id,
            startup_slug: r.slug,
            startup_name: r.name,
            kind: r.kind,
            amount: Money::from_kurus(r.amount_kurus),
            total: Money::from_kurus(r.total_kurus),
            status: RequestStatus::from_code(&r.status).unwrap_or(RequestStatus::Submitted),
            created: crate::db::parse_utc(&r.created_at)
                .map(ortak_app::domain::time_fmt::istanbul_date)
                .unwrap_or(time::Date::MIN),
        })
        .collect())
}

pub async fn pending(ctx: Ctx) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let rows = requests(&ctx, user.id, false).await?;
    let page = ctx.page_ctx(|pc| pending_page(pc, rows));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn mine(ctx: Ctx) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let rows = requests(&ctx, user.id, true).await?;
    let page = ctx.page_ctx(|pc| my_investments_page(pc, rows));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `POST /pendingInvestments/{id}/cancel`: the investor withdraws a request not yet paid.
pub async fn cancel(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let token = FormBody::parse(&body).get("csrf");
    ctx.verify_csrf(&token, &headers)?;
    let mut tx = ctx.state().db().begin().await?;
    let status: Option<String> =
        sqlx::query_scalar("SELECT status FROM investment_requests WHERE id = ? AND user_id = ?")
            .bind(id)
            .bind(user.id)
            .fetch_optional(&mut *tx)
            .await?;
    // Someone else's request is as invisible as a missing one.
    let status = status
        .and_then(|s| RequestStatus::from_code(&s))
        .ok_or(AppError::NotFound)?;
    if !status.cancellable() {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    sqlx::query("UPDATE investment_requests SET status = 'cancelled', updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    record_event(&mut tx, id, RequestStatus::Cancelled, "", Some(user.id)).await?;
    tx.commit().await?;
    ctx.set_flash(Flash {
        kind: FlashKind::Success,
        message_id: "pending-cancelled".into(),
    })
    .await?;
    Ok(Redirect::to("/pendingInvestments").into_response())
}

/// Moves a request as staff do (review, approve, reject, confirm payment, complete). The
/// admin dashboard calls this; tests call it too instead of writing SQL.
/// Queues the automatic mail `kind` to the investor who sent `request_id`, in their language,
/// with staff's `note` (a reason) when there is one.
pub async fn mail_investor(
    conn: &mut SqliteConnection,
    request_id: i64,
    kind: &str,
    link: &str,
    note: &str,
) -> Result<(), AppError> {
    let (email, name, language): (String, String, String) = sqlx::query_as(
        "SELECT u.email, u.first_name, u.language FROM investment_requests r JOIN users u ON u.id = r.user_id WHERE r.id = ?",
    )
    .bind(request_id)
    .fetch_one(&mut *conn)
    .await?;
    let locale = Locale::from_code(&language).unwrap_or_default();
    let mail = Mail::action_noted(&email, locale, &name, kind, link, note);
    enqueue(conn, &mail).await?;
    Ok(())
}

pub async fn staff_transition(
    db: &sqlx::SqlitePool,
    public_url: &str,
    request_id: i64,
    to: RequestStatus,
    actor: i64,
    note: &str,
) -> Result<(), AppError> {
    let mut tx = db.begin().await?;
    let status: Option<String> =
        sqlx::query_scalar("SELECT status FROM investment_requests WHERE id = ?")
            .bind(request_id)
            .fetch_optional(&mut *tx)
            .await?;
    let from = status
        .and_then(|s| RequestStatus::from_code(&s))
        .ok_or(AppError::NotFound)?;
    if !from.staff_can_move_to(to) {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    if to == RequestStatus::Rejected && note.is_empty() {
        return Err(AppError::BadRequest("dashboard-reason-required"));
    }
    sqlx::query(
        "UPDATE investment_requests SET status = ?, rejection_reason = CASE WHEN ? = 'rejected' THEN ? END,
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
    )
    .bind(to.code())
    .bind(to.code())
    .bind(note)
    .bind(request_id)
    .execute(&mut *tx)
    .await?;
    record_event(&mut tx, request_id, to, note, Some(actor)).await?;
    let after = if note.is_empty() {
        to.code().to_owned()
    } else {
        format!("{} {note}", to.code())
    };
    // The investor hears of every move, in their language.
    let link = match to {
        RequestStatus::Approved => format!("{public_url}/invFlow?request={request_id}"),
        RequestStatus::Completed => format!("{public_url}/userInvestments"),
        _ => format!("{public_url}/pendingInvestments"),
    };
    mail_investor(
        &mut tx,
        request_id,
        &format!("request-{}", to.code()),
        &link,
        note,
    )
    .await?;
    crate::db::audit::record(
        &mut tx,
        actor,
        "request.status",
        &format!("request:{request_id}"),
        Some(from.code()),
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Member)
            .get("/mkk", mkk::page)
            .post("/mkk", mkk::save)
            .get("/investmentFlow", amount_page)
            .post("/investmentFlow", submit_form)
            .get("/investmentFlow/created", created)
            .post("/api/investmentRequests", submit_json)
            .get("/pendingInvestments", pending)
            .post("/pendingInvestments/{id}/cancel", cancel)
            .get("/userInvestments", mine)
            .get("/overview", portfolio::overview)
            .get("/reports", portfolio::reports)
            .get("/reports/{id}/file", portfolio::report_file)
            .get("/qualifiedInvestor", qualified::form)
            .post_limited(
                "/qualifiedInvestor",
                qualified::submit,
                qualified::EVIDENCE_MAX_BYTES + 64 * 1024,
            ),
    ]
}

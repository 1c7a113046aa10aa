//! Sending an investment or pre-investment request: the amount page, the plain form's submit
//! and the checks both it and the island's JSON submit (`api`) share: whether the round is
//! open to this member, their MKK data, the amount and risk notice, and the idempotency key
//! that makes a form sent twice one request.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use base64::Engine;
use ortak_app::domain::investing::{RequestStatus, breakdown, parse_amount};
use ortak_app::domain::money::Money;
use ortak_app::domain::startups::Offer;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::investing::{
    InvestmentForm, investment_blocked_page, investment_created_page, investment_page,
};
use rand::RngCore;
use serde::Deserialize;

use super::queries::{self, NewRequest};
use super::{mkk, transitions};
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::startups::{CardRow, is_vip, published_card};
use crate::web::form::Form;
use crate::web::session::CurrentUser;
use crate::web::{Ctx, Member};

fn new_key() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Why a request cannot be sent now.
pub(super) struct Blocked {
    /// The Fluent id of the explanation.
    pub message: &'static str,
    /// The fix is on `/mkk`.
    pub to_mkk: bool,
    pub status: StatusCode,
}

/// Why the user may not send a request for this startup now, if so.
pub(super) async fn blocked(
    ctx: &Ctx,
    user: &CurrentUser,
    row: &CardRow,
) -> Result<Option<Blocked>, AppError> {
    let db = ctx.state().db();
    let refuse = |message, to_mkk| {
        Some(Blocked {
            message,
            to_mkk,
            status: StatusCode::CONFLICT,
        })
    };
    let vip = is_vip(db, user.id, row.id).await?;
    match row.funding().offer_for(ctx.state().today(), vip) {
        Offer::Closed => return Ok(refuse("investment-closed", false)),
        Offer::VipOnly => return Ok(refuse("startup-vip-only", false)),
        Offer::Invest | Offer::PreInvest => {}
    }
    Ok(match mkk::status(db, user.id).await? {
        None => refuse("investment-needs-mkk", true),
        Some(s) if !s.allows_investing() => refuse("investment-needs-mkk-fix", true),
        Some(_) => None,
    })
}

/// The page that says why a request cannot be sent, if it cannot.
async fn gate(ctx: &Ctx, user: &CurrentUser, row: &CardRow) -> Result<Option<Response>, AppError> {
    let Some(blocked) = blocked(ctx, user, row).await? else {
        return Ok(None);
    };
    // Missing MKK data is explained on a normal page; a closed round is a conflict.
    let status = if blocked.to_mkk {
        StatusCode::OK
    } else {
        blocked.status
    };
    let page = ctx.page_ctx(|pc| investment_blocked_page(pc, blocked.message, blocked.to_mkk));
    Ok(Some(ctx.render(status, page).await))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FlowQuery {
    startup: String,
}

/// `GET /investmentFlow?startup=SLUG`: the amount page.
pub async fn amount_page(
    ctx: Ctx,
    Member(user): Member,
    Query(q): Query<FlowQuery>,
) -> Result<Response, AppError> {
    let row = published_card(&ctx, &q.startup).await?;
    if let Some(blocked) = gate(&ctx, &user, &row).await? {
        return Ok(blocked);
    }
    let form = InvestmentForm {
        startup_slug: row.slug.clone(),
        startup_name: row.name.clone(),
        kind: row.period_kind,
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

/// A request as posted, by the plain form or (converted) by the island.
#[derive(Deserialize, Default, Clone)]
#[serde(default)]
pub struct RequestInput {
    pub startup: String,
    pub amount: String,
    /// A quick-pick amount button, used when no amount was typed.
    pub quick: String,
    pub fee_added: Option<String>,
    pub risk: Option<String>,
    pub idempotency_key: String,
}

pub(super) enum Outcome {
    Created,
    Invalid(FieldErrors, InvestmentForm),
}

/// A checked request: the amount and whether the fee is added on top.
struct Checked {
    amount: Money,
    fee_added: bool,
}

/// Checks the input; the form back with its errors when something needs attention. A missing
/// or oversized idempotency key is no person's mistake: it is refused.
fn check(
    ctx: &Ctx,
    row: &CardRow,
    input: &RequestInput,
) -> Result<Result<Checked, Outcome>, AppError> {
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
    if let Some(amount) = amount.filter(|_| errors.is_empty()) {
        return Ok(Ok(Checked { amount, fee_added }));
    }
    let summary = parse_amount(&typed)
        .ok()
        .map(|a| breakdown(a, fee_rate_bp, fee_added));
    let form = InvestmentForm {
        startup_slug: row.slug.clone(),
        startup_name: row.name.clone(),
        kind: row.period_kind,
        amount: typed,
        fee_added,
        risk,
        fee_rate_bp,
        breakdown: summary,
        idempotency_key: key.to_owned(),
    };
    Ok(Err(Outcome::Invalid(errors, form)))
}

/// Checks and stores one request; the same idempotency key never makes a second one.
pub(super) async fn create(
    ctx: &Ctx,
    user: &CurrentUser,
    row: &CardRow,
    input: &RequestInput,
) -> Result<Outcome, AppError> {
    let checked = match check(ctx, row, input)? {
        Ok(checked) => checked,
        Err(invalid) => return Ok(invalid),
    };
    let b = breakdown(
        checked.amount,
        ctx.state().shared().service_fee_bp,
        checked.fee_added,
    );
    let key = input.idempotency_key.trim();
    let mut tx = ctx.state().db().begin().await?;
    let request = NewRequest {
        user: user.id,
        startup: row.id,
        kind: row.period_kind,
        amount_kurus: b.amount.kurus(),
        fee_kurus: b.fee.kurus(),
        fee_added: checked.fee_added,
        investment_kurus: b.investment.kurus(),
        total_kurus: b.total.kurus(),
        risk_accepted_at: ctx.state().now(),
        idempotency_key: key,
    };
    let Some(id) = queries::insert_request(&mut tx, &request).await? else {
        // The key was used before: fine when it was this investor's own form, sent twice.
        if queries::key_owner(&mut tx, key).await? != Some(user.id) {
            return Err(AppError::BadRequest("bad-request-text"));
        }
        tx.commit().await?;
        ctx.state().wake_mailer();
        return Ok(Outcome::Created);
    };
    transitions::record_event(&mut tx, id, RequestStatus::Submitted, "", Some(user.id)).await?;
    let link = format!("{}/pendingInvestments", ctx.state().shared().public_url);
    let mail = Mail::action(&user.email, user.locale, &user.first_name, "request", &link);
    enqueue(&mut tx, &mail).await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    Ok(Outcome::Created)
}

/// `POST /investmentFlow`: the plain form (without JavaScript).
pub async fn submit_form(
    ctx: Ctx,
    Member(user): Member,
    Form(input): Form<RequestInput>,
) -> Result<Response, AppError> {
    let row = published_card(&ctx, &input.startup).await?;
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

/// `GET /investmentFlow/created`.
pub async fn created(ctx: Ctx) -> Result<Response, AppError> {
    let page = ctx.page_ctx(investment_created_page);
    Ok(ctx.render(StatusCode::OK, page).await)
}

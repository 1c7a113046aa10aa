//! Sending an investment or pre-investment request: the amount page, the plain form's submit
//! and the checks both it and the island's JSON submit (`api`) share: a verified e-mail
//! address, whether the round is open to this member, their MKK data, their annual limit
//! (shown before they start; a request over it is refused), the amount and risk notice, and
//! the idempotency key that makes a form sent twice one request. A request that does not fit
//! beside the round's commitments (its goal plus the overfunding margin) goes on the waitlist;
//! one larger than the round could ever take is refused. Each request keeps the verified class,
//! identity and limit it was made under.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use base64::Engine;
use ortak_app::domain::investing::{RequestStatus, breakdown, checked_breakdown, parse_amount};
use ortak_app::domain::money::{MINIMUM_INVESTMENT, Money};
use ortak_app::domain::startups::Offer;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::investing::{
    Fix, InvestmentForm, investment_created_page, investment_page, investment_refused_page,
};
use rand::RngCore;
use serde::Deserialize;
use time::Duration;

use super::admission::{self, Admission};
use super::notify::mail_status;
use super::queries::moves;
use super::queries::{self, NewRequest};
use super::transitions::record_event;
use super::{limits, mkk};
use crate::error::AppError;
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
    /// The explanation, in the page's language.
    pub message: String,
    /// Where the member fixes it.
    pub fix: Fix,
    pub status: StatusCode,
}

/// Why the user may not send a request for this startup now, if so.
pub(super) async fn blocked(
    ctx: &Ctx,
    user: &CurrentUser,
    row: &CardRow,
) -> Result<Option<Blocked>, AppError> {
    let db = ctx.state().db();
    let refuse = |id: &str, fix, status| {
        Some(Blocked {
            message: ctx.t(id),
            fix,
            status,
        })
    };
    if !user.verified {
        return Ok(refuse(
            "investment-needs-verified",
            Fix::Verify,
            StatusCode::FORBIDDEN,
        ));
    }
    let vip = is_vip(db, user.id, row.id).await?;
    match row.funding().offer_for(ctx.state().today(), vip) {
        Offer::Closed => {
            return Ok(refuse(
                "investment-closed",
                Fix::Nothing,
                StatusCode::CONFLICT,
            ));
        }
        Offer::VipOnly => {
            return Ok(refuse(
                "startup-vip-only",
                Fix::Nothing,
                StatusCode::CONFLICT,
            ));
        }
        Offer::Invest | Offer::PreInvest => {}
    }
    if let Some(id) = mkk::investing_blocked(db, user.id).await? {
        // Data waiting for staff's review needs nothing from the member: no link to the form.
        let missing = matches!(id, "investment-needs-mkk" | "investment-needs-mkk-fix");
        let fix = if missing { Fix::Mkk } else { Fix::Nothing };
        return Ok(refuse(id, fix, StatusCode::CONFLICT));
    }
    let mut conn = db.acquire().await?;
    if moves::round(&mut conn, row.id).await?.close_scheduled {
        let id = "round-closing-scheduled";
        return Ok(refuse(id, Fix::Nothing, StatusCode::CONFLICT));
    }
    let limit = limits::status(&mut conn, ctx.state(), user.id).await?;
    let rules = ctx.state().shared().rounds.limits();
    let income = ortak_app::domain::limits::income_needed_for(&rules, MINIMUM_INVESTMENT)
        .unwrap_or(rules.cap);
    Ok(limit.filter(|l| l.below_minimum()).map(|l| Blocked {
        message: ctx.locale.t_args(
            "limit-below-minimum",
            &[
                ("remaining", l.remaining.format(ctx.locale).into()),
                ("income", income.format(ctx.locale).into()),
            ],
        ),
        fix: Fix::Qualified,
        status: StatusCode::CONFLICT,
    }))
}

/// The page that says why a request cannot be sent, if it cannot.
async fn gate(ctx: &Ctx, user: &CurrentUser, row: &CardRow) -> Result<Option<Response>, AppError> {
    let Some(blocked) = blocked(ctx, user, row).await? else {
        return Ok(None);
    };
    // What the member can fix is explained on a normal page; a closed round is a conflict.
    let status = if blocked.fix == Fix::Nothing {
        blocked.status
    } else {
        StatusCode::OK
    };
    let page = ctx.page_ctx(|pc| investment_refused_page(pc, blocked.message, blocked.fix));
    Ok(Some(ctx.render(status, page).await))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FlowQuery {
    startup: String,
}

/// `GET /investmentFlow?startup=SLUG`: the amount page, with the member's annual limit.
pub async fn amount_page(
    ctx: Ctx,
    Member(user): Member,
    Query(q): Query<FlowQuery>,
) -> Result<Response, AppError> {
    let row = published_card(&ctx, &q.startup).await?;
    if let Some(blocked) = gate(&ctx, &user, &row).await? {
        return Ok(blocked);
    }
    let mut conn = ctx.state().db().acquire().await?;
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
        limit: limits::status(&mut conn, ctx.state(), user.id).await?,
        information_form: crate::startups::documents::information_form(&mut conn, row.id, user.id)
            .await?
            .form,
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
    /// Boxed: the typed form is large and the outcome is mostly `Created`.
    Invalid(FieldErrors, Box<InvestmentForm>),
}

/// A checked request: the amount and whether the fee is added on top.
struct Checked {
    amount: Money,
    fee_added: bool,
}

/// The form back, as typed.
fn typed_form(ctx: &Ctx, row: &CardRow, input: &RequestInput) -> InvestmentForm {
    let fee_rate_bp = ctx.state().shared().service_fee_bp;
    let typed = typed_amount(input);
    let fee_added = input.fee_added.as_deref() == Some("on");
    InvestmentForm {
        startup_slug: row.slug.clone(),
        startup_name: row.name.clone(),
        kind: row.period_kind,
        breakdown: parse_amount(&typed)
            .ok()
            .map(|a| breakdown(a, fee_rate_bp, fee_added)),
        amount: typed,
        fee_added,
        risk: input.risk.as_deref() == Some("on"),
        fee_rate_bp,
        idempotency_key: input.idempotency_key.trim().to_owned(),
        limit: None,
        information_form: None,
    }
}

fn typed_amount(input: &RequestInput) -> String {
    if input.amount.trim().is_empty() {
        input.quick.clone()
    } else {
        input.amount.clone()
    }
}

/// Checks the input; the form back with its errors when something needs attention. A missing
/// or oversized idempotency key is no person's mistake: it is refused.
fn check(
    ctx: &Ctx,
    row: &CardRow,
    input: &RequestInput,
) -> Result<Result<Checked, Outcome>, AppError> {
    let mut errors = FieldErrors::default();
    let fee_rate_bp = ctx.state().shared().service_fee_bp;
    let fee_added = input.fee_added.as_deref() == Some("on");
    // What goes to escrow must meet the minimum too (issue 28): with the fee taken out of the
    // amount, the amount must cover both.
    let checked = checked_breakdown(&typed_amount(input), fee_rate_bp, fee_added);
    let amount = errors.check("amount", checked.map(|b| b.amount), |e| e.message_id());
    if input.risk.as_deref() != Some("on") {
        errors.add("risk", "validation-risk");
    }
    let key = input.idempotency_key.trim();
    if key.is_empty() || key.len() > 64 {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    match amount.filter(|_| errors.is_empty()) {
        Some(amount) => Ok(Ok(Checked {
            amount,
            fee_added: input.fee_added.as_deref() == Some("on"),
        })),
        None => Ok(Err(Outcome::Invalid(
            errors,
            Box::new(typed_form(ctx, row, input)),
        ))),
    }
}

/// The round's current information form (SPK), which the investor must have opened: its id
/// to record with the request, or the form back with the message (the page adds the form's
/// link, as for every refusal).
async fn information_form(
    conn: &mut sqlx::SqliteConnection,
    ctx: &Ctx,
    row: &CardRow,
    user: &CurrentUser,
    input: &RequestInput,
) -> Result<Result<Option<i64>, Outcome>, AppError> {
    let check = crate::startups::documents::information_form(conn, row.id, user.id).await?;
    if check.form.is_some() && check.opened {
        return Ok(Ok(check.form));
    }
    // No money is asked for on a round without its approved information form (the database
    // refuses the request too).
    let message = if check.form.is_none() {
        "validation-no-information-form"
    } else {
        "validation-information-form"
    };
    let mut errors = FieldErrors::default();
    errors.add("risk", message);
    let typed = typed_form(ctx, row, input);
    Ok(Err(Outcome::Invalid(errors, Box::new(typed))))
}

/// Checks and stores one request; the same idempotency key never makes a second one. The
/// limit and the round's room are read in the write transaction that stores it.
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
    let state = ctx.state();
    let b = breakdown(
        checked.amount,
        state.shared().service_fee_bp,
        checked.fee_added,
    );
    let key = input.idempotency_key.trim();
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    if let Some(owner) = queries::key_owner(&mut tx, key).await? {
        // The key was used before: fine when it was this investor's own form, sent twice.
        if owner != user.id {
            return Err(AppError::BadRequest("bad-request-text"));
        }
        return Ok(Outcome::Created);
    }
    let form = match information_form(&mut tx, ctx, row, user, input).await? {
        Ok(form) => form,
        Err(refused) => return Ok(refused),
    };
    let admitted = match admission::admit(&mut tx, state, row, user.id, b.investment).await? {
        Admission::Admitted(admitted) => admitted,
        Admission::Refused { error, limit } => {
            let mut errors = FieldErrors::default();
            errors.add("amount", error);
            let typed = InvestmentForm {
                limit,
                ..typed_form(ctx, row, input)
            };
            return Ok(Outcome::Invalid(errors, Box::new(typed)));
        }
    };
    let (status, standing) = (admitted.status, admitted.standing);
    let window = Duration::hours(state.shared().rounds.cancel_window_hours);
    let request = NewRequest {
        user: user.id,
        startup: row.id,
        kind: row.period_kind,
        amount_kurus: b.amount.kurus(),
        fee_kurus: b.fee.kurus(),
        fee_added: checked.fee_added,
        investment_kurus: b.investment.kurus(),
        total_kurus: b.total.kurus(),
        risk_accepted_at: now,
        information_form_id: form,
        investor_class: standing.class.code(),
        identity_key: &standing.identity_key,
        limit_kurus: standing.limit.map(|l| l.limit.kurus()),
        idempotency_key: key,
        status,
        now,
        cancel_until: now + window,
    };
    let Some(id) = queries::insert_request(&mut tx, &request).await? else {
        return Err(AppError::BadRequest("bad-request-text"));
    };
    record_event(&mut tx, id, status, "", Some(user.id), now).await?;
    let kind = match status {
        RequestStatus::Waitlisted => "request-waitlisted",
        _ => "request",
    };
    mail_status(&mut tx, state, id, kind, "").await?;
    tx.commit().await?;
    state.wake_mailer();
    Ok(Outcome::Created)
}

/// `POST /investmentFlow`: the plain form (without JavaScript).
pub async fn submit_form(
    ctx: Ctx,
    Member(user): Member,
    Form(input): Form<RequestInput>,
) -> Result<Response, AppError> {
    let row = published_card(&ctx, &input.startup).await?;
    if let Some(blocked) = blocked(&ctx, &user, &row).await? {
        let page = ctx.page_ctx(|pc| investment_refused_page(pc, blocked.message, blocked.fix));
        return Ok(ctx.render(blocked.status, page).await);
    }
    match create(&ctx, &user, &row, &input).await? {
        Outcome::Created => Ok(Redirect::to("/investmentFlow/created").into_response()),
        Outcome::Invalid(errors, mut form) => {
            let mut conn = ctx.state().db().acquire().await?;
            let check = crate::startups::documents::information_form(&mut conn, row.id, user.id);
            form.information_form = check.await?.form;
            drop(conn);
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

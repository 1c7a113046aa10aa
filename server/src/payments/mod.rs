//! Paying an approved request: the service fee by card through a [`PaymentProvider`], then the
//! escrow transfer details. Card numbers and CVVs pass through to the provider in memory and are
//! never stored or logged; only the brand and last four digits are kept.

use axum::body::Bytes;
use axum::extract::{Path, Query};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::card::{CardInput, validate_card};
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::money::Money;
use ortak_app::domain::phone::normalize_mobile;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::investing::investment_blocked_page;
use ortak_app::pages::payment::{
    BankForm, PaymentSummary, TransferInstructions, bank_step_page, card_step_page,
    payment_fail_page, payment_success_page, sandbox_challenge_page,
};
use rand::RngCore;
use serde::Deserialize;
use sqlx::{FromRow, SqlitePool};

use crate::error::AppError;
use crate::investing::{mail_investor, record_event};
use crate::providers::payments::Started;
use crate::providers::sandbox;
use crate::web::form::FormBody;
use crate::web::session::{CurrentUser, Role};
use crate::web::{Access, Ctx, Routes};

#[derive(FromRow)]
struct RequestRow {
    id: i64,
    status: String,
    fee_kurus: i64,
    investment_kurus: i64,
    fee_paid_at: Option<String>,
    startup: String,
    has_transfer: bool,
}

/// The user's own request; another investor's is as invisible as a missing one.
async fn own_request(ctx: &Ctx, user: &CurrentUser, id: i64) -> Result<RequestRow, AppError> {
    sqlx::query_as(
        "SELECT r.id, r.status, r.fee_kurus, r.investment_kurus, r.fee_paid_at, s.name AS startup,
                EXISTS (SELECT 1 FROM bank_transfers b WHERE b.request_id = r.id) AS has_transfer
         FROM investment_requests r JOIN startups s ON s.id = r.startup_id WHERE r.id = ? AND r.user_id = ?",
    )
    .bind(id)
    .bind(user.id)
    .fetch_optional(ctx.state().db())
    .await?
    .ok_or(AppError::NotFound)
}

fn summary(r: &RequestRow) -> PaymentSummary {
    PaymentSummary {
        request_id: r.id,
        startup: r.startup.clone(),
        fee: Money::from_kurus(r.fee_kurus),
        investment: Money::from_kurus(r.investment_kurus),
    }
}

async fn not_payable(ctx: &Ctx) -> Response {
    let page = ctx.page_ctx(|pc| investment_blocked_page(pc, "payment-not-payable", false));
    ctx.render(StatusCode::CONFLICT, page).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RequestQuery {
    request: i64,
    /// Set when the issuer declined the card (the fail page says so).
    declined: Option<String>,
}

/// `GET /invFlow?request=ID`: the step the payment is at.
pub async fn flow(ctx: Ctx, Query(q): Query<RequestQuery>) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let r = own_request(&ctx, &user, q.request).await?;
    if RequestStatus::from_code(&r.status) != Some(RequestStatus::Approved) {
        return Ok(not_payable(&ctx).await);
    }
    let page = match (&r.fee_paid_at, r.has_transfer) {
        (None, _) => ctx.page_ctx(|pc| {
            card_step_page(
                pc,
                &summary(&r),
                &CardInput::default(),
                &FieldErrors::default(),
            )
        }),
        (Some(_), false) => ctx.page_ctx(|pc| {
            bank_step_page(
                pc,
                &summary(&r),
                &BankForm::default(),
                &FieldErrors::default(),
                None,
            )
        }),
        (Some(_), true) => {
            return Ok(Redirect::to(&format!("/paymentSuccess?request={}", r.id)).into_response());
        }
    };
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `POST /invFlow/card`: checks the card and hands it to the provider.
pub async fn pay_card(ctx: Ctx, headers: HeaderMap, body: Bytes) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let f = FormBody::parse(&body);
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    let r = own_request(&ctx, &user, f.get("request").parse().unwrap_or(0)).await?;
    if RequestStatus::from_code(&r.status) != Some(RequestStatus::Approved)
        || r.fee_paid_at.is_some()
    {
        return Ok(not_payable(&ctx).await);
    }
    let input = CardInput {
        holder: f.get("holder"),
        number: f.get("number"),
        month: f.get("month"),
        year: f.get("year"),
        cvv: f.get("cvv"),
    };
    let card = match validate_card(&input, ctx.state().today()) {
        Ok(card) => card,
        Err(errors) => {
            let page = ctx.page_ctx(|pc| card_step_page(pc, &summary(&r), &input, &errors));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let provider = &ctx.state().shared().payments;
    let mut id = [0u8; 16];
    rand::rng().fill_bytes(&mut id);
    let public_id = id.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let fee = Money::from_kurus(r.fee_kurus);
    let db = ctx.state().db();
    sqlx::query(
        "INSERT INTO payments (public_id, request_id, provider, amount_kurus, status, card_brand, card_last4)
         VALUES (?, ?, ?, ?, 'challenge', ?, ?)",
    )
    .bind(&public_id)
    .bind(r.id)
    .bind(provider.name())
    .bind(fee.kurus())
    .bind(card.brand())
    .bind(card.last4())
    .execute(db)
    .await?;
    tracing::info!(request_id = r.id, card = ?card, "card payment started");
    match provider.start(&public_id, fee, &card).await? {
        Started::Challenge(url) => Ok(Redirect::to(&url).into_response()),
        Started::Declined(reason) => {
            let public_url = &ctx.state().shared().public_url;
            finish(ctx.state().db(), public_url, &public_id, false, &reason).await?;
            Ok(Redirect::to(&format!("/paymentFail?request={}&declined=1", r.id)).into_response())
        }
    }
}

/// Records a payment's outcome once; later calls change nothing. Returns the request id.
async fn finish(
    db: &SqlitePool,
    public_url: &str,
    public_id: &str,
    success: bool,
    reason: &str,
) -> Result<Option<i64>, AppError> {
    let mut tx = db.begin().await?;
    let updated: Option<(i64, String, String)> = sqlx::query_as(
        "UPDATE payments SET status = ?, failure_reason = ?, completed_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE public_id = ? AND status = 'challenge' RETURNING request_id, card_brand, card_last4",
    )
    .bind(if success { "succeeded" } else { "failed" })
    .bind((!success).then_some(reason))
    .bind(public_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((request_id, brand, last4)) = updated else {
        tx.rollback().await?;
        return Ok(None);
    };
    if success {
        sqlx::query("UPDATE investment_requests SET fee_paid_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ? AND fee_paid_at IS NULL")
            .bind(request_id)
            .execute(&mut *tx)
            .await?;
        record_event(
            &mut tx,
            request_id,
            RequestStatus::Approved,
            &format!("service fee paid by {brand} ****{last4}"),
            None,
        )
        .await?;
        // The investor hears that the fee arrived, and where the transfer details are.
        let link = format!("{public_url}/invFlow?request={request_id}");
        mail_investor(&mut tx, request_id, "fee-paid", &link, "").await?;
    }
    tx.commit().await?;
    Ok(Some(request_id))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Callback {
    payment: String,
    outcome: String,
    sig: String,
}

/// `GET /invFlow/callback`: the provider's signed answer. Idempotent: a replay only redirects.
pub async fn callback(ctx: Ctx, Query(c): Query<Callback>) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    if !ctx
        .state()
        .shared()
        .callback_key
        .verify(&c.payment, &c.outcome, &c.sig)
    {
        tracing::warn!("payment callback with a bad signature");
        return Err(AppError::BadRequest("bad-request-text"));
    }
    let request_id: Option<i64> = sqlx::query_scalar(
        "SELECT p.request_id FROM payments p JOIN investment_requests r ON r.id = p.request_id
         WHERE p.public_id = ? AND r.user_id = ?",
    )
    .bind(&c.payment)
    .bind(user.id)
    .fetch_optional(ctx.state().db())
    .await?;
    let request_id = request_id.ok_or(AppError::NotFound)?;
    let success = c.outcome == "success";
    finish(
        ctx.state().db(),
        &ctx.state().shared().public_url,
        &c.payment,
        success,
        "declined at 3-D Secure",
    )
    .await?;
    ctx.state().wake_mailer();
    let status: String = sqlx::query_scalar("SELECT status FROM payments WHERE public_id = ?")
        .bind(&c.payment)
        .fetch_one(ctx.state().db())
        .await?;
    let target = if status == "succeeded" {
        format!("/invFlow?request={request_id}")
    } else {
        format!("/paymentFail?request={request_id}")
    };
    Ok(Redirect::to(&target).into_response())
}

#[derive(FromRow)]
struct Challenge {
    amount_kurus: i64,
    card_brand: String,
    card_last4: String,
}

async fn challenge(ctx: &Ctx, user: &CurrentUser, public_id: &str) -> Result<Challenge, AppError> {
    sqlx::query_as(
        "SELECT p.amount_kurus, p.card_brand, p.card_last4
         FROM payments p JOIN investment_requests r ON r.id = p.request_id
         WHERE p.public_id = ? AND p.provider = 'sandbox' AND p.status = 'challenge' AND r.user_id = ?",
    )
    .bind(public_id)
    .bind(user.id)
    .fetch_optional(ctx.state().db())
    .await?
    .ok_or(AppError::NotFound)
}

/// `GET /sandbox/3ds/{payment}`: the sandbox bank's challenge page.
pub async fn sandbox_page(ctx: Ctx, Path(public_id): Path<String>) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let c = challenge(&ctx, &user, &public_id).await?;
    let page = ctx.page_ctx(|pc| {
        sandbox_challenge_page(
            pc,
            &public_id,
            Money::from_kurus(c.amount_kurus),
            &c.card_brand,
            &c.card_last4,
            false,
        )
    });
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `POST /sandbox/3ds/{payment}`: the code is checked and the browser sent back signed.
pub async fn sandbox_answer(
    ctx: Ctx,
    Path(public_id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let f = FormBody::parse(&body);
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    let c = challenge(&ctx, &user, &public_id).await?;
    let outcome = if f.get("action") == "cancel" {
        "failed"
    } else if f.get("code").trim() == sandbox::CHALLENGE_CODE {
        "success"
    } else {
        let page = ctx.page_ctx(|pc| {
            sandbox_challenge_page(
                pc,
                &public_id,
                Money::from_kurus(c.amount_kurus),
                &c.card_brand,
                &c.card_last4,
                true,
            )
        });
        return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
    };
    let sig = ctx.state().shared().callback_key.sign(&public_id, outcome);
    let public_url = &ctx.state().shared().public_url;
    Ok(Redirect::to(&format!(
        "{public_url}/invFlow/callback?payment={public_id}&outcome={outcome}&sig={sig}"
    ))
    .into_response())
}

fn check_bank(form: &mut BankForm) -> FieldErrors {
    let mut errors = FieldErrors::default();
    for (field, value, max) in [
        ("payer_name", &form.payer_name, 100),
        ("address", &form.address, 300),
        ("country", &form.country, 100),
        ("city", &form.city, 100),
        ("post_code", &form.post_code, 10),
    ] {
        let v = value.trim();
        if v.is_empty() {
            errors.add(field, "validation-required");
        } else if v.chars().count() > max || v.chars().any(char::is_control) {
            errors.add(field, "validation-too-long");
        }
    }
    match normalize_mobile(&form.phone) {
        Ok(phone) => form.phone = phone,
        Err(e) => errors.add("phone", e.message_id()),
    }
    errors
}

/// `POST /invFlow/bank`: the payer's details; answers with the transfer instructions.
pub async fn bank(ctx: Ctx, headers: HeaderMap, body: Bytes) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let f = FormBody::parse(&body);
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    let r = own_request(&ctx, &user, f.get("request").parse().unwrap_or(0)).await?;
    if RequestStatus::from_code(&r.status) != Some(RequestStatus::Approved)
        || r.fee_paid_at.is_none()
    {
        return Ok(not_payable(&ctx).await);
    }
    let mut bank = BankForm {
        payer_name: f.get("payer_name"),
        address: f.get("address"),
        country: f.get("country"),
        city: f.get("city"),
        post_code: f.get("post_code"),
        phone: f.get("phone"),
    };
    let errors = check_bank(&mut bank);
    if !errors.is_empty() {
        let page = ctx.page_ctx(|pc| bank_step_page(pc, &summary(&r), &bank, &errors, None));
        return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
    }
    let mut suffix = [0u8; 3];
    rand::rng().fill_bytes(&mut suffix);
    let reference = format!(
        "ORT{:06}{}",
        r.id,
        suffix
            .iter()
            .map(|b| format!("{:02X}", b))
            .collect::<String>()
    );
    sqlx::query(
        "INSERT OR IGNORE INTO bank_transfers (request_id, reference, payer_name, address, country, city, post_code, phone, amount_kurus)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(r.id)
    .bind(reference)
    .bind(bank.payer_name.trim())
    .bind(bank.address.trim())
    .bind(bank.country.trim())
    .bind(bank.city.trim())
    .bind(bank.post_code.trim())
    .bind(&bank.phone)
    .bind(r.investment_kurus)
    .execute(ctx.state().db())
    .await?;
    Ok(Redirect::to(&format!("/paymentSuccess?request={}", r.id)).into_response())
}

pub async fn success(ctx: Ctx, Query(q): Query<RequestQuery>) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let r = own_request(&ctx, &user, q.request).await?;
    if r.fee_paid_at.is_none() {
        return Ok(Redirect::to(&format!("/paymentFail?request={}", r.id)).into_response());
    }
    let transfer: Option<(String, i64)> =
        sqlx::query_as("SELECT reference, amount_kurus FROM bank_transfers WHERE request_id = ?")
            .bind(r.id)
            .fetch_optional(ctx.state().db())
            .await?;
    let escrow = &ctx.state().shared().escrow;
    let instructions = transfer.map(|(reference, amount)| TransferInstructions {
        bank: escrow.bank.clone(),
        account_name: escrow.account_name.clone(),
        iban: escrow.iban.clone(),
        reference,
        amount: Money::from_kurus(amount),
    });
    let page = ctx.page_ctx(|pc| payment_success_page(pc, instructions));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn fail(ctx: Ctx, Query(q): Query<RequestQuery>) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let r = own_request(&ctx, &user, q.request).await?;
    let retry = (RequestStatus::from_code(&r.status) == Some(RequestStatus::Approved)
        && r.fee_paid_at.is_none())
    .then_some(r.id);
    let declined = q.declined.is_some();
    let page = ctx.page_ctx(|pc| payment_fail_page(pc, retry, declined));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Member)
            .get("/invFlow", flow)
            .post("/invFlow/card", pay_card)
            .get("/invFlow/callback", callback)
            .post("/invFlow/bank", bank)
            .get("/sandbox/3ds/{payment}", sandbox_page)
            .post("/sandbox/3ds/{payment}", sandbox_answer)
            .get("/paymentSuccess", success)
            .get("/paymentFail", fail),
    ]
}

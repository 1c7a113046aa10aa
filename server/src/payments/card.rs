//! The service fee by card: the card step's submit, the provider's signed callback (a replay
//! changes nothing) and the fail page. The outcome of a payment is recorded once, with the
//! request's event and the investor's mail in the same transaction.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::card::{CardInput, validate_card};
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::money::Money;
use ortak_app::pages::payment::{card_step_page, payment_fail_page};
use rand::RngCore;
use serde::Deserialize;

use super::queries::{self, NewPayment, PaymentStatus};
use super::{RequestQuery, not_payable, own_request, posted_request, summary};
use crate::error::AppError;
use crate::investing::fee_paid;
use crate::providers::payments::Started;
use crate::state::AppState;
use crate::web::form::Form;
use crate::web::{Ctx, Member};

/// The card step as posted. No `Debug`: the number and CVV must never reach a log.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CardPost {
    request: String,
    holder: String,
    number: String,
    month: String,
    year: String,
    cvv: String,
}

fn new_public_id() -> String {
    let mut id = [0u8; 16];
    rand::rng().fill_bytes(&mut id);
    id.iter().map(|b| format!("{b:02x}")).collect()
}

/// `POST /invFlow/card`: checks the card and hands it to the provider.
pub async fn pay_card(
    ctx: Ctx,
    Member(user): Member,
    Form(posted): Form<CardPost>,
) -> Result<Response, AppError> {
    let r = posted_request(&ctx, user.id, &posted.request).await?;
    if r.status != RequestStatus::Approved || r.fee_paid_at.is_some() {
        return Ok(not_payable(&ctx).await);
    }
    let input = CardInput {
        holder: posted.holder,
        number: posted.number,
        month: posted.month,
        year: posted.year,
        cvv: posted.cvv,
    };
    let card = match validate_card(&input, ctx.state().today()) {
        Ok(card) => card,
        Err(errors) => {
            let page = ctx.page_ctx(|pc| card_step_page(pc, &summary(&r), &input, &errors));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let provider = &ctx.state().shared().payments;
    let public_id = new_public_id();
    let fee = Money::from_kurus(r.fee_kurus);
    let payment = NewPayment {
        public_id: &public_id,
        request: r.id,
        provider: provider.name(),
        amount_kurus: fee.kurus(),
        card_brand: card.brand(),
        card_last4: card.last4(),
    };
    queries::insert_payment(ctx.state().db(), &payment).await?;
    tracing::info!(request_id = r.id, card = ?card, "card payment started");
    match provider.start(&public_id, fee, &card).await? {
        Started::Challenge(url) => Ok(Redirect::to(&url).into_response()),
        Started::Declined(reason) => {
            finish(ctx.state(), &public_id, false, &reason).await?;
            Ok(Redirect::to(&format!("/paymentFail?request={}&declined=1", r.id)).into_response())
        }
    }
}

/// Records a payment's outcome once; later calls change nothing. Returns the request id.
async fn finish(
    state: &AppState,
    public_id: &str,
    success: bool,
    reason: &str,
) -> Result<Option<i64>, AppError> {
    let now = state.now();
    let mut tx = state.db().begin().await?;
    let (outcome, failure) = if success {
        (PaymentStatus::Succeeded, None)
    } else {
        (PaymentStatus::Failed, Some(reason))
    };
    let Some(done) = queries::finish_payment(&mut tx, public_id, outcome, failure, now).await?
    else {
        tx.rollback().await?;
        return Ok(None);
    };
    let request_id = done.request_id;
    tracing::info!(request_id, success, card = %format!("{} ****{}", done.card_brand, done.card_last4), "card payment finished");
    // The request moves with the money (ledger, history, mail): only while it is payable.
    if success && !fee_paid(&mut tx, state, request_id, public_id, done.amount_kurus).await? {
        return Err(AppError::Refused(
            axum::http::StatusCode::CONFLICT,
            "payment-not-payable",
        ));
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
pub async fn callback(
    ctx: Ctx,
    Member(user): Member,
    Query(c): Query<Callback>,
) -> Result<Response, AppError> {
    let key = &ctx.state().shared().callback_key;
    if !key.verify(&c.payment, &c.outcome, &c.sig) {
        tracing::warn!("payment callback with a bad signature");
        return Err(AppError::BadRequest("bad-request-text"));
    }
    let db = ctx.state().db();
    let request_id = queries::payment_request(db, &c.payment, user.id)
        .await?
        .ok_or(AppError::NotFound)?;
    let success = c.outcome == "success";
    finish(ctx.state(), &c.payment, success, "declined at 3-D Secure").await?;
    ctx.state().wake_mailer();
    let target = match queries::payment_status(db, &c.payment).await? {
        PaymentStatus::Succeeded => format!("/invFlow?request={request_id}"),
        _ => format!("/paymentFail?request={request_id}"),
    };
    Ok(Redirect::to(&target).into_response())
}

/// `GET /paymentFail?request=ID`: offers another try while the fee is unpaid.
pub async fn fail(
    ctx: Ctx,
    Member(user): Member,
    Query(q): Query<RequestQuery>,
) -> Result<Response, AppError> {
    let r = own_request(&ctx, user.id, q.request).await?;
    let retry = (r.status == RequestStatus::Approved && r.fee_paid_at.is_none()).then_some(r.id);
    let declined = q.declined.is_some();
    let page = ctx.page_ctx(|pc| payment_fail_page(pc, retry, declined));
    Ok(ctx.render(StatusCode::OK, page).await)
}

//! The service fee by card: the card step's submit and the fail page. A request has at most
//! one open payment (the database's `payments_one_open` index): posting the card again while a
//! 3-D Secure challenge is open goes back to that challenge instead of opening another.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::card::{Card, CardInput, validate_card};
use ortak_app::domain::investing::RequestStatus;
use ortak_app::pages::payment::{card_step_page, fail_reason, payment_fail_page};
use rand::RngCore;
use serde::Deserialize;

use super::outcome::{Landing, reference};
use super::queries::charges::{self, Closing, NewPayment, PaymentRow, PaymentStatus};
use super::queries::{self, PayableRequest};
use super::{RequestQuery, not_payable, own_request, posted_request, sandbox_banner, summary};
use crate::error::AppError;
use crate::providers::payments::{Buyer, StartPayment, Started};
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

/// Where the browser answers an open payment's challenge.
fn challenge_url(row: &PaymentRow) -> String {
    match (row.status, row.provider.as_str()) {
        (PaymentStatus::Challenge, "sandbox") => format!("/sandbox/3ds/{}", row.public_id),
        (PaymentStatus::Challenge, _) => format!("/invFlow/3ds/{}", row.public_id),
        _ => Landing::Pending(row.request_id).location(),
    }
}

/// `POST /invFlow/card`: checks the card and hands it to the provider, or goes back to the
/// request's open challenge.
pub async fn pay_card(
    ctx: Ctx,
    Member(user): Member,
    Form(posted): Form<CardPost>,
) -> Result<Response, AppError> {
    let r = posted_request(&ctx, user.id, &posted.request).await?;
    if r.status != RequestStatus::Approved || r.fee_paid_at.is_some() {
        return Ok(not_payable(&ctx).await);
    }
    if let Some(held) = super::on_hold(&ctx, user.id, r.id).await? {
        return Ok(held);
    }
    let db = ctx.state().db();
    if let Some(open) = charges::open_of_request(db, r.id).await? {
        tracing::info!(
            request_id = ctx.request_id,
            payment = open.public_id,
            "card step posted again: back to the open payment"
        );
        return Ok(Redirect::to(&challenge_url(&open)).into_response());
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
            let banner = sandbox_banner(&ctx);
            let page = ctx.page_ctx(|pc| card_step_page(pc, &summary(&r), &input, &errors, banner));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    let public_id = new_public_id();
    let provider = &ctx.state().shared().payments;
    let payment = NewPayment {
        public_id: &public_id,
        request: r.id,
        provider: provider.name(),
        amount_kurus: r.fee_kurus,
        card_brand: card.brand(),
        card_last4: card.last4(),
    };
    if let Err(e) = charges::insert(db, &payment, ctx.state().now()).await {
        if !crate::db::unique_violation(&e, "payments.request_id") {
            return Err(e.into());
        }
        // Another tab opened one a moment ago: that one is the payment.
        let open = charges::open_of_request(db, r.id).await?;
        return Ok(match open {
            Some(open) => Redirect::to(&challenge_url(&open)).into_response(),
            None => not_payable(&ctx).await,
        });
    }
    tracing::info!(request_id = ctx.request_id, payment = public_id, card = ?card, "card payment started");
    start(&ctx, &r, &public_id, &card).await
}

/// Hands the card to the provider and sends the browser where 3-D Secure goes on.
async fn start(
    ctx: &Ctx,
    r: &PayableRequest,
    public_id: &str,
    card: &Card,
) -> Result<Response, AppError> {
    let state = ctx.state();
    let row = charges::by_public_id(state.db(), public_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let b = queries::buyer(state.db(), r.id)
        .await?
        .ok_or(AppError::BadRequest("payment-not-payable"))?;
    let (city, country) = (
        non_empty(b.city, "İstanbul"),
        non_empty(b.country, "Türkiye"),
    );
    let buyer = Buyer {
        user_id: b.user_id,
        first_name: b.first_name,
        last_name: b.last_name,
        identity_number: b.identity_number,
        email: b.email,
        phone: b.phone,
        // Ortak asks for no postal address before the fee: the account's city and country.
        address: format!("{city}, {country}"),
        city,
        country,
        registered_at: b.registered_at,
        last_sign_in_at: b.last_sign_in_at,
        ip: ctx.ip.clone(),
    };
    let callback_url = format!("{}/payments/iyzico/callback", state.shared().public_url);
    let start = StartPayment {
        payment: reference(&row, &ctx.request_id),
        card,
        buyer: &buyer,
        callback_url: &callback_url,
    };
    match state.shared().payments.start(&start).await {
        Started::Redirect(url) => Ok(Redirect::to(&url).into_response()),
        Started::Page {
            provider_payment_id,
            html,
        } => {
            charges::set_started(state.db(), public_id, &provider_payment_id, &html).await?;
            Ok(Redirect::to(&format!("/invFlow/3ds/{public_id}")).into_response())
        }
        Started::Refused(refusal) => {
            tracing::info!(
                request_id = ctx.request_id,
                payment = public_id,
                code = refusal.code,
                "card payment refused at the start"
            );
            let closing = Closing {
                status: PaymentStatus::Failed,
                charged: false,
                reason: Some(&refusal.code),
                provider_state: None,
            };
            let mut conn = state.db().acquire().await?;
            charges::close(&mut conn, public_id, &closing, state.now()).await?;
            let landing = Landing::Failed(r.id, Some(refusal.kind));
            Ok(Redirect::to(&landing.location()).into_response())
        }
    }
}

fn non_empty(value: String, otherwise: &str) -> String {
    if value.trim().is_empty() {
        otherwise.to_owned()
    } else {
        value
    }
}

/// `GET /paymentFail?request=ID[&reason=…]`: why, and another try while the fee is unpaid.
pub async fn fail(
    ctx: Ctx,
    Member(user): Member,
    Query(q): Query<RequestQuery>,
) -> Result<Response, AppError> {
    let r = own_request(&ctx, user.id, q.request).await?;
    let retry = (r.status == RequestStatus::Approved && r.fee_paid_at.is_none()).then_some(r.id);
    let reason = match (q.reason.as_deref(), q.declined.is_some()) {
        (Some(code), _) => fail_reason(code),
        (None, true) => fail_reason("declined"),
        (None, false) => None,
    };
    let page = ctx.page_ctx(|pc| payment_fail_page(pc, retry, reason));
    Ok(ctx.render(StatusCode::OK, page).await)
}

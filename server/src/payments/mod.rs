//! Paying an approved request: the service fee by card through the configured
//! [`PaymentProvider`](crate::providers::payments::PaymentProvider) (`card` starts it, with the
//! built-in sandbox's 3-D Secure pages in `sandbox_pages`; `callbacks` brings the browser back;
//! `outcome` records how it ended, once), then the payer's details and the escrow transfer
//! instructions (`bank`). `/invFlow` (here) shows whichever step a request is at. The
//! background jobs `reconcile` (payments whose answer never came, challenges of requests no
//! longer payable) and `refunds::settle_refunds` (fees owed back) finish what the browser left.
//! Card numbers and CVVs pass through to the provider in memory and are never stored or
//! logged; only the brand, last four digits and the provider's payment id are kept. All SQL is
//! in `queries`.

mod bank;
mod callbacks;
mod card;
mod outcome;
mod queries;
pub mod reconcile;
pub mod refunds;
mod sandbox_pages;

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::card::CardInput;
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::money::Money;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::investing::investment_blocked_page;
use ortak_app::pages::payment::{BankForm, PaymentSummary, bank_step_page, card_step_page};
use serde::Deserialize;

use crate::error::AppError;
use crate::web::{Access, Ctx, Member, Routes};
use queries::PayableRequest;

/// The user's own request; another investor's is as invisible as a missing one.
async fn own_request(ctx: &Ctx, user: i64, id: i64) -> Result<PayableRequest, AppError> {
    queries::own_request(ctx.state().db(), id, user)
        .await?
        .ok_or(AppError::NotFound)
}

/// The request id a form posted: not a number is as missing as an unknown one.
async fn posted_request(ctx: &Ctx, user: i64, id: &str) -> Result<PayableRequest, AppError> {
    own_request(ctx, user, id.parse().unwrap_or(0)).await
}

fn summary(r: &PayableRequest) -> PaymentSummary {
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
    /// Why the payment failed (`payment-fail-reason-…`).
    reason: Option<String>,
    /// Older links' way of saying "declined".
    declined: Option<String>,
}

/// Whether the payment pages say that payments are the sandbox's (no money moves).
fn sandbox_banner(ctx: &Ctx) -> bool {
    ctx.state().shared().payments.name() == "sandbox"
}

/// Back to the investor's requests when request `id` is on hold: it waits on a reconfirmation
/// after the round's terms changed, or the investor's MKK data was rejected. Nothing is paid
/// on it until then.
async fn on_hold(ctx: &Ctx, user: i64, id: i64) -> Result<Option<Response>, AppError> {
    let mut conn = ctx.state().db().acquire().await?;
    let why = if crate::investing::reconfirmation::awaits(&mut conn, id).await? {
        "request-awaits-reconfirmation"
    } else if crate::investing::mkk::investing_blocked(&mut *conn, user)
        .await?
        .is_some()
    {
        "pending-held-mkk"
    } else {
        return Ok(None);
    };
    crate::web::flash::error(ctx, why).await?;
    Ok(Some(Redirect::to("/pendingInvestments").into_response()))
}

/// `GET /invFlow?request=ID`: the step the payment is at.
pub async fn flow(
    ctx: Ctx,
    Member(user): Member,
    Query(q): Query<RequestQuery>,
) -> Result<Response, AppError> {
    let r = own_request(&ctx, user.id, q.request).await?;
    if let Some(held) = on_hold(&ctx, user.id, r.id).await? {
        return Ok(held);
    }
    let none = FieldErrors::default();
    // The step follows the request's state: the fee while approved, then the transfer.
    let banner = sandbox_banner(&ctx);
    let page = match (r.status, r.has_transfer) {
        (RequestStatus::Approved, _) if r.fee_paid_at.is_none() => ctx
            .page_ctx(|pc| card_step_page(pc, &summary(&r), &CardInput::default(), &none, banner)),
        (RequestStatus::FeePaid, false) => {
            let form = BankForm {
                payer_name: r.verified_name.clone().unwrap_or_default(),
                ..BankForm::default()
            };
            ctx.page_ctx(|pc| bank_step_page(pc, &summary(&r), &form, &none, None))
        }
        (RequestStatus::FeePaid | RequestStatus::Funded, true) => {
            return Ok(Redirect::to(&format!("/paymentSuccess?request={}", r.id)).into_response());
        }
        _ => return Ok(not_payable(&ctx).await),
    };
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Member)
            .get("/invFlow", flow)
            .post("/invFlow/card", card::pay_card)
            .get("/invFlow/callback", callbacks::sandbox)
            .get("/invFlow/3ds/{payment}", callbacks::three_ds_page)
            .post("/invFlow/bank", bank::bank)
            .get("/sandbox/3ds/{payment}", sandbox_pages::challenge_page)
            .post("/sandbox/3ds/{payment}", sandbox_pages::answer)
            .get("/paymentSuccess", bank::success)
            .get("/paymentFail", card::fail),
        // iyzico's callback comes from the bank's page, cross-site: no session, no CSRF token;
        // its own signature is checked instead.
        Routes::new(Access::Public).post("/payments/iyzico/callback", callbacks::iyzico),
    ]
}

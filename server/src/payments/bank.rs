//! The escrow transfer: once the fee is paid, the payer's details (checked here), then the
//! transfer instructions with a reference the imported bank statement is matched by
//! (`investing::statements`). The payer is the investor: the name is the one verified in their
//! MKK data (not typed), and they declare the IBAN is in their own name; a transfer from anyone
//! else is flagged, and refunds go back to this IBAN only.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::iban::normalize_iban;
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::money::Money;
use ortak_app::domain::phone::normalize_mobile;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::payment::{
    BankForm, TransferInstructions, bank_step_page, payment_success_page,
};
use rand::RngCore;
use serde::Deserialize;

use super::queries::{self, NewTransfer};
use super::{RequestQuery, not_payable, own_request, posted_request, summary};
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::{Ctx, Member};

fn check_bank(form: &mut BankForm) -> FieldErrors {
    let mut errors = FieldErrors::default();
    for (field, value, max) in [
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
    match normalize_iban(&form.iban) {
        Ok(iban) => form.iban = iban,
        Err(e) => errors.add("iban", e.message_id()),
    }
    if !form.iban_own {
        errors.add("iban_own", "validation-iban-own");
    }
    errors
}

/// The transfer's reference: the request's number and a random suffix.
fn new_reference(request: i64) -> String {
    let mut suffix = [0u8; 3];
    rand::rng().fill_bytes(&mut suffix);
    let suffix: String = suffix.iter().map(|b| format!("{b:02X}")).collect();
    format!("ORT{request:06}{suffix}")
}

/// The bank step as posted.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct BankPost {
    request: String,
    address: String,
    country: String,
    city: String,
    post_code: String,
    phone: String,
    iban: String,
    /// "on": the IBAN is in the payer's own name.
    iban_own: Option<String>,
}

/// `POST /invFlow/bank`: the payer's details; answers with the transfer instructions.
pub async fn bank(
    ctx: Ctx,
    Member(user): Member,
    Form(posted): Form<BankPost>,
) -> Result<Response, AppError> {
    let r = posted_request(&ctx, user.id, &posted.request).await?;
    if r.status != RequestStatus::FeePaid {
        return Ok(not_payable(&ctx).await);
    }
    if let Some(held) = super::on_hold(&ctx, user.id, r.id).await? {
        return Ok(held);
    }
    // Money comes from the investor only: their verified name, not what anyone types.
    let Some(payer_name) = r.verified_name.clone() else {
        return Ok(not_payable(&ctx).await);
    };
    let mut bank = BankForm {
        payer_name,
        address: posted.address,
        country: posted.country,
        city: posted.city,
        post_code: posted.post_code,
        phone: posted.phone,
        iban: posted.iban,
        iban_own: posted.iban_own.as_deref() == Some("on"),
    };
    let errors = check_bank(&mut bank);
    if !errors.is_empty() {
        let page = ctx.page_ctx(|pc| bank_step_page(pc, &summary(&r), &bank, &errors, None));
        return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
    }
    let reference = new_reference(r.id);
    let transfer = NewTransfer {
        request: r.id,
        reference: &reference,
        payer_name: &bank.payer_name,
        address: bank.address.trim(),
        country: bank.country.trim(),
        city: bank.city.trim(),
        post_code: bank.post_code.trim(),
        phone: &bank.phone,
        amount_kurus: r.investment_kurus,
        payer_iban: &bank.iban,
        iban_own_declared_at: ctx.state().now(),
    };
    queries::insert_transfer(ctx.state().db(), &transfer).await?;
    Ok(Redirect::to(&format!("/paymentSuccess?request={}", r.id)).into_response())
}

/// `GET /paymentSuccess?request=ID`: the fee is paid; the transfer instructions once the
/// payer's details are in.
pub async fn success(
    ctx: Ctx,
    Member(user): Member,
    Query(q): Query<RequestQuery>,
) -> Result<Response, AppError> {
    let r = own_request(&ctx, user.id, q.request).await?;
    if r.fee_paid_at.is_none() {
        return Ok(Redirect::to(&format!("/paymentFail?request={}", r.id)).into_response());
    }
    let transfer = queries::transfer(ctx.state().db(), r.id).await?;
    let escrow = &ctx.state().shared().escrow;
    let instructions = transfer.map(|t| TransferInstructions {
        bank: escrow.bank.clone(),
        account_name: escrow.account_name.clone(),
        iban: escrow.iban.clone(),
        reference: t.reference,
        amount: Money::from_kurus(t.amount_kurus),
        deadline: r.transfer_due_at,
    });
    let page = ctx.page_ctx(|pc| payment_success_page(pc, instructions));
    Ok(ctx.render(StatusCode::OK, page).await)
}

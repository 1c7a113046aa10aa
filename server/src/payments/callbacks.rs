//! The way back from 3-D Secure. The bank's page (iyzico) is shown on a route of its own with
//! its own Content-Security-Policy: it posts to the bank's origin and auto-submits with an
//! inline script, which our site-wide policy forbids. iyzico's callback is a cross-site browser
//! POST (no session cookie under SameSite=Lax, no CSRF token): it is trusted only for what
//! iyzico signed, the money is taken server to server, and the browser is sent on with a 303 to
//! a GET page where its session cookie comes back. The sandbox's callback is a signed GET.

use axum::body::Bytes;
use axum::extract::{Path, Query};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::outcome::after_callback;
use super::queries::charges;
use crate::error::AppError;
use crate::providers::payments::VerifiedCallback;
use crate::web::{Ctx, Member};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SandboxCallback {
    payment: String,
    outcome: String,
    sig: String,
}

/// `GET /invFlow/callback`: the sandbox's signed answer. A replay lands where the first did.
pub async fn sandbox(
    ctx: Ctx,
    Member(user): Member,
    Query(c): Query<SandboxCallback>,
) -> Result<Response, AppError> {
    let key = &ctx.state().shared().callback_key;
    if !key.verify(&c.payment, &c.outcome, &c.sig) {
        tracing::warn!(
            request_id = ctx.request_id,
            "payment callback with a bad signature"
        );
        return Err(AppError::BadRequest("bad-request-text"));
    }
    let row = charges::by_public_id(ctx.state().db(), &c.payment)
        .await?
        .filter(|row| row.user_id == user.id && row.provider == "sandbox")
        .ok_or(AppError::NotFound)?;
    let passed = c.outcome == "success";
    let callback = VerifiedCallback {
        provider_payment_id: String::new(),
        payment: c.payment,
        passed,
        md_status: if passed { "1" } else { "0" }.into(),
        conversation_data: String::new(),
    };
    let landing = after_callback(ctx.state(), row, &callback, &ctx.request_id).await;
    // A GET that moves money: what pages keep is not shown across it (`db::writes`).
    ctx.state().wrote();
    Ok(Redirect::to(&landing?.location()).into_response())
}

/// `POST /payments/iyzico/callback`: the form iyzico has the browser post after 3-D Secure.
/// Only a genuine signature for a payment of ours, echoing that payment's conversation id, is
/// acted on; anything else changes nothing.
pub async fn iyzico(ctx: Ctx, body: Bytes) -> Result<Response, AppError> {
    crate::web::input_screen::screen_form(&body)?;
    let fields: Vec<(String, String)> = form_urlencoded::parse(&body).into_owned().collect();
    let state = ctx.state();
    let Some(callback) = state.shared().payments.verify_callback(&fields) else {
        tracing::warn!(
            request_id = ctx.request_id,
            "payment callback refused: not signed by the provider"
        );
        return Err(AppError::BadRequest("bad-request-text"));
    };
    let provider = state.shared().payments.name();
    let row = charges::by_provider_id(state.db(), provider, &callback.provider_payment_id).await?;
    let Some(row) = row.filter(|r| callback.payment.is_empty() || callback.payment == r.public_id)
    else {
        tracing::warn!(
            request_id = ctx.request_id,
            provider_payment = callback.provider_payment_id,
            "payment callback refused: not for a payment of ours"
        );
        return Err(AppError::BadRequest("bad-request-text"));
    };
    tracing::info!(
        request_id = ctx.request_id,
        payment = row.public_id,
        passed = callback.passed,
        md_status = callback.md_status,
        "payment callback"
    );
    let landing = after_callback(state, row, &callback, &ctx.request_id).await?;
    Ok(Redirect::to(&landing.location()).into_response())
}

/// `GET /invFlow/3ds/{payment}`: the bank's 3-D Secure page, as the provider sent it, while
/// the challenge is open. Its policy lets it run its own inline script and post only to
/// `https:` origins (banks) and the provider's.
pub async fn three_ds_page(
    ctx: Ctx,
    Member(user): Member,
    Path(public_id): Path<String>,
) -> Result<Response, AppError> {
    let page = charges::three_ds_page(ctx.state().db(), &public_id, user.id)
        .await?
        .ok_or(AppError::NotFound)?;
    let origins = ctx.state().shared().payments.form_origins().join(" ");
    let policy = format!(
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
         img-src https: data:; form-action https: {origins}; base-uri 'none'; \
         frame-ancestors 'none'"
    );
    let mut response = page.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(policy) = HeaderValue::from_str(&policy) {
        headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    Ok(response)
}

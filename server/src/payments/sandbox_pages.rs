//! The sandbox provider's own 3-D Secure pages (`/sandbox/3ds/{payment}`): they stand in for
//! an issuer's challenge, so the whole card flow runs, and is tested, without a real bank.
//! The answer goes back to `/invFlow/callback` signed, as a real provider's would.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::money::Money;
use ortak_app::pages::payment::sandbox_challenge_page;
use serde::Deserialize;

use super::outcome::landing_of;
use super::queries::{self, Challenge, charges};
use crate::error::AppError;
use crate::providers::sandbox;
use crate::web::form::Form;
use crate::web::{Ctx, Member};

/// The open challenge, or (`Err(Ok(..))`) where a challenge of this member that already ended
/// landed: cancelling or rejecting the request voids it at once, and the investor still on the
/// bank's page then reads why instead of a bare 404.
async fn challenge(
    ctx: &Ctx,
    user: i64,
    public_id: &str,
) -> Result<Result<Challenge, Response>, AppError> {
    let db = ctx.state().db();
    if let Some(c) = queries::sandbox_challenge(db, public_id, user).await? {
        return Ok(Ok(c));
    }
    match charges::by_public_id(db, public_id).await? {
        Some(row) if row.user_id == user && row.provider == "sandbox" => {
            let to = landing_of(&row).location();
            Ok(Err(Redirect::to(&to).into_response()))
        }
        _ => Err(AppError::NotFound),
    }
}

/// The challenge page, `wrong_code` after a wrong answer.
async fn show(
    ctx: &Ctx,
    status: StatusCode,
    public_id: &str,
    c: &Challenge,
    wrong_code: bool,
) -> Response {
    let page = ctx.page_ctx(|pc| {
        sandbox_challenge_page(
            pc,
            public_id,
            Money::from_kurus(c.amount_kurus),
            &c.card_brand,
            &c.card_last4,
            wrong_code,
        )
    });
    ctx.render(status, page).await
}

/// `GET /sandbox/3ds/{payment}`: the sandbox bank's challenge page.
pub async fn challenge_page(
    ctx: Ctx,
    Member(user): Member,
    Path(public_id): Path<String>,
) -> Result<Response, AppError> {
    let c = match challenge(&ctx, user.id, &public_id).await? {
        Ok(c) => c,
        Err(ended) => return Ok(ended),
    };
    Ok(show(&ctx, StatusCode::OK, &public_id, &c, false).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Answer {
    /// "cancel" gives up; anything else submits the code.
    action: String,
    code: String,
}

/// `POST /sandbox/3ds/{payment}`: the code is checked and the browser sent back signed.
pub async fn answer(
    ctx: Ctx,
    Member(user): Member,
    Path(public_id): Path<String>,
    Form(answer): Form<Answer>,
) -> Result<Response, AppError> {
    let c = match challenge(&ctx, user.id, &public_id).await? {
        Ok(c) => c,
        Err(ended) => return Ok(ended),
    };
    let outcome = if answer.action == "cancel" {
        "failed"
    } else if answer.code.trim() == sandbox::CHALLENGE_CODE {
        "success"
    } else {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return Ok(show(&ctx, status, &public_id, &c, true).await);
    };
    let sig = ctx.state().shared().callback_key.sign(&public_id, outcome);
    let public_url = &ctx.state().shared().public_url;
    Ok(Redirect::to(&format!(
        "{public_url}/invFlow/callback?payment={public_id}&outcome={outcome}&sig={sig}"
    ))
    .into_response())
}

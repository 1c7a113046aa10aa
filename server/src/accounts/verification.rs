//! Proving the mailbox: `/verification` says a link was mailed (and mails another on request),
//! `/verificationtoken` takes the link, marks the address verified and signs that browser in.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::forms::Notice;
use ortak_app::pages::auth::verification_page;
use serde::Deserialize;
use serde::de::IgnoredAny;

use super::tokens::{self, TokenKind};
use super::{limited, mail_limits, onboarding, queries, rate_limited, token_link};
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::web::form::Form;
use crate::web::session::{self, CurrentUser, Method};
use crate::web::{Ctx, flash};

/// `GET /verification`.
pub async fn page(ctx: Ctx) -> Response {
    let signed_in_unverified = ctx.user.as_ref().is_some_and(|u| !u.verified);
    let page = ctx.page_ctx(|pc| verification_page(pc, None, signed_in_unverified));
    ctx.render(StatusCode::OK, page).await
}

/// `POST /verification`: mails a new link to the signed-in, unverified member (anyone else
/// goes home).
pub async fn resend(ctx: Ctx, Form(_): Form<IgnoredAny>) -> Result<Response, AppError> {
    let Some(user) = ctx.user.clone().filter(|u| !u.verified) else {
        return Ok(Redirect::to("/").into_response());
    };
    let (status, notice) =
        if let Some(minutes) = limited(&ctx, &mail_limits(&ctx, &user.email, false)).await? {
            (
                StatusCode::TOO_MANY_REQUESTS,
                Notice::Error(rate_limited(&ctx, minutes)),
            )
        } else {
            mail_link(&ctx, &user).await?;
            (StatusCode::OK, Notice::Success(ctx.t("verification-sent")))
        };
    let page = ctx.page_ctx(|pc| verification_page(pc, Some(notice), true));
    Ok(ctx.render(status, page).await)
}

async fn mail_link(ctx: &Ctx, user: &CurrentUser) -> Result<(), AppError> {
    let mut tx = ctx.state().db().begin().await?;
    let link = token_link(
        &mut tx,
        ctx,
        user.id,
        TokenKind::Verify,
        "/verificationtoken",
    )
    .await?;
    let mail = Mail::action(&user.email, user.locale, &user.first_name, "verify", &link);
    enqueue(&mut tx, &mail).await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    Ok(())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TokenQuery {
    pub token: String,
}

/// `GET /verificationtoken?token=…`: the mailed link.
pub async fn verify(ctx: Ctx, Query(query): Query<TokenQuery>) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let now = ctx.state().now();
    let mut tx = db.begin().await?;
    let Some(user_id) = tokens::consume(&mut tx, TokenKind::Verify, &query.token, now).await?
    else {
        tx.rollback().await?;
        session::log_attempt(
            Method::VerificationLink,
            &ctx.ip,
            None,
            "invalid-or-used-token",
        );
        let notice = Notice::Error(ctx.t("verification-invalid"));
        let page = ctx.page_ctx(|pc| verification_page(pc, Some(notice), ctx.user.is_some()));
        return Ok(ctx.render(StatusCode::GONE, page).await);
    };
    queries::mark_verified(&mut tx, user_id, now).await?;
    tx.commit().await?;
    // The link proves the mailbox, so it also signs this browser in.
    if ctx.user.as_ref().map(|u| u.id) != Some(user_id) {
        ctx.sign_in(user_id, Method::VerificationLink).await?;
    }
    flash::success(&ctx, "verification-done").await?;
    let next = onboarding::resume_path(db, user_id).await?;
    Ok(Redirect::to(&next).into_response())
}

//! Proving the mailbox: `/verification` says a link was mailed (and mails another on request);
//! the link (`GET /verificationtoken`) opens a page with one button, and only that POST marks
//! the address verified and signs in. A GET never signs anyone in, so a link planted by someone
//! else cannot switch a visitor's browser into their account (login CSRF), and mail scanners
//! that follow links do not use it up. If another member is signed in on this browser, the
//! address is verified but their session stays as it is.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::forms::Notice;
use ortak_app::pages::auth::{verification_confirm_page, verification_page};
use serde::Deserialize;
use serde::de::IgnoredAny;

use super::tokens::{self, TokenKind};
use super::{limited, mail_limits, onboarding, queries, rate_limited};
use crate::error::AppError;
use crate::mail::{Mail, MailLink, enqueue};
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
/// goes home). The new link makes the older ones useless once it is sent.
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
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let link = MailLink {
        kind: TokenKind::Verify,
        user_id: user.id,
        next: None,
    };
    // The address is not proved yet: the mail carries nothing the member typed.
    let mail = Mail::with_link(&user.email, user.locale, "", "verify", link);
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

/// `GET /verificationtoken?token=…`: the mailed link's page, naming the address it verifies,
/// with the one button (410 when the link is dead).
pub async fn confirm_page(ctx: Ctx, Query(query): Query<TokenQuery>) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let user = tokens::peek(db, TokenKind::Verify, &query.token, ctx.state().now()).await?;
    let email = match user {
        Some(id) => queries::email_of(db, id).await?,
        None => None,
    };
    let status = if email.is_some() {
        StatusCode::OK
    } else {
        StatusCode::GONE
    };
    let token = email.as_ref().map(|e| (query.token.as_str(), e.as_str()));
    let page = ctx.page_ctx(|pc| verification_confirm_page(pc, token));
    Ok(ctx.render_private(status, page).await)
}

/// `POST /verificationtoken`: uses the link up, marks the address verified and signs in, unless
/// another member is signed in on this browser (then their session is kept, and the page says
/// so).
pub async fn verify(ctx: Ctx, Form(form): Form<TokenQuery>) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let now = ctx.state().now();
    let mut tx = crate::db::write(db).await?;
    let Some(user_id) = tokens::consume(&mut tx, TokenKind::Verify, &form.token, now).await? else {
        tx.rollback().await?;
        session::log_attempt(
            Method::VerificationLink,
            &ctx.ip,
            None,
            "invalid-or-used-token",
        );
        let page = ctx.page_ctx(|pc| verification_confirm_page(pc, None));
        return Ok(ctx.render_private(StatusCode::GONE, page).await);
    };
    queries::mark_verified(&mut tx, user_id, now).await?;
    tx.commit().await?;
    let next = onboarding::resume_path(db, user_id).await?;
    match ctx.user.as_ref().map(|u| u.id) {
        Some(current) if current == user_id => {
            flash::success(&ctx, "verification-done").await?;
            Ok(Redirect::to(&next).into_response())
        }
        Some(_) => {
            // Never switch a signed-in member into another account.
            session::log_attempt(
                Method::VerificationLink,
                &ctx.ip,
                Some(user_id),
                "verified-another-member-signed-in",
            );
            flash::success(&ctx, "verification-done-other").await?;
            Ok(Redirect::to("/").into_response())
        }
        None => {
            let to = ctx
                .sign_in(user_id, Method::VerificationLink, &next)
                .await?;
            flash::success(&ctx, "verification-done").await?;
            Ok(Redirect::to(&to).into_response())
        }
    }
}

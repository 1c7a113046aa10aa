//! Password recovery: `/forgotpassword` (also `/forgot-password`) mails a reset link valid for
//! 30 minutes; `/resetpassword` sets the new password, ends every session of the user and uses
//! up every other link mailed to them. As the spec's flow asks, the forgot form names a missing
//! account, so it is rate-limited per IP as well as per address. A reset is checked against its
//! token before the (slow) password hash is computed, and rate limited per IP.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::accounts::check_new_password;
use ortak_app::domain::email::normalize_email;
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::pages::auth::{forgot_page, reset_page};
use serde::Deserialize;

use super::tokens::{self, TokenKind};
use super::verification::TokenQuery;
use super::{hashing_limits, limited, mail_limits, passwords, queries, rate_limited};
use crate::error::AppError;
use crate::mail::{Mail, MailLink, enqueue};
use crate::web::form::Form;
use crate::web::session::{self, Method};
use crate::web::{Ctx, flash};

/// `GET /forgotpassword`.
pub async fn forgot_form(ctx: Ctx) -> Response {
    let page = ctx.page_ctx(|pc| forgot_page(pc, "", &FieldErrors::default(), None));
    ctx.render(StatusCode::OK, page).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ForgotForm {
    email: String,
}

/// `POST /forgotpassword`.
pub async fn forgot(ctx: Ctx, Form(form): Form<ForgotForm>) -> Result<Response, AppError> {
    let mut errors = FieldErrors::default();
    let (status, notice) = match normalize_email(&form.email) {
        Err(e) => {
            errors.add("email", e.message_id());
            (StatusCode::UNPROCESSABLE_ENTITY, None)
        }
        Ok(email) => {
            if let Some(minutes) = limited(&ctx, &mail_limits(&ctx, &email, true)).await? {
                session::log_attempt(Method::Password, &ctx.ip, None, "rate-limited");
                let notice = Notice::Error(rate_limited(&ctx, minutes));
                (StatusCode::TOO_MANY_REQUESTS, Some(notice))
            } else {
                match mail_reset_link(&ctx, &email).await? {
                    None => {
                        errors.add("email", "forgot-no-user");
                        (StatusCode::UNPROCESSABLE_ENTITY, None)
                    }
                    Some(answer) => answer,
                }
            }
        }
    };
    let page = ctx.page_ctx(|pc| forgot_page(pc, &form.email, &errors, notice));
    Ok(ctx.render(status, page).await)
}

/// Queues a reset link for the active account using `email`: `None` when there is no such
/// account, otherwise the answer to show (a queueing failure says the mail was not sent).
async fn mail_reset_link(
    ctx: &Ctx,
    email: &str,
) -> Result<Option<(StatusCode, Option<Notice>)>, AppError> {
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let Some(user) = queries::active_account(&mut tx, email).await? else {
        return Ok(None);
    };
    let link = MailLink {
        kind: TokenKind::Reset,
        user_id: user.id,
        next: None,
    };
    let mail = Mail::with_link(email, user.language, &user.first_name, "reset", link);
    let queued = enqueue(&mut tx, &mail).await.is_ok() && tx.commit().await.is_ok();
    Ok(Some(if queued {
        ctx.state().wake_mailer();
        (StatusCode::OK, Some(Notice::Success(ctx.t("forgot-sent"))))
    } else {
        let notice = Notice::Error(ctx.t("forgot-not-sent"));
        (StatusCode::SERVICE_UNAVAILABLE, Some(notice))
    }))
}

/// Whether `token` is a live reset link.
async fn live(ctx: &Ctx, token: &str) -> Result<bool, AppError> {
    let now = ctx.state().now();
    Ok(tokens::peek(ctx.state().db(), TokenKind::Reset, token, now)
        .await?
        .is_some())
}

/// `GET /resetpassword?token=…` (410 when the link is dead).
pub async fn reset_form(ctx: Ctx, Query(query): Query<TokenQuery>) -> Result<Response, AppError> {
    let valid = live(&ctx, &query.token).await?;
    let page = ctx.page_ctx(|pc| {
        reset_page(
            pc,
            valid.then_some(query.token.as_str()),
            &FieldErrors::default(),
        )
    });
    let status = if valid {
        StatusCode::OK
    } else {
        StatusCode::GONE
    };
    Ok(ctx.render_private(status, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ResetForm {
    token: String,
    password: String,
    password_confirm: String,
}

/// `POST /resetpassword`.
pub async fn reset(ctx: Ctx, Form(form): Form<ResetForm>) -> Result<Response, AppError> {
    let mut errors = FieldErrors::default();
    check_new_password(
        &mut errors,
        "password",
        "password_confirm",
        &form.password,
        &form.password_confirm,
    );
    if !errors.is_empty() {
        let valid = live(&ctx, &form.token).await?;
        let page = ctx.page_ctx(|pc| reset_page(pc, valid.then_some(form.token.as_str()), &errors));
        return Ok(ctx
            .render_private(StatusCode::UNPROCESSABLE_ENTITY, page)
            .await);
    }
    if limited(&ctx, &hashing_limits(&ctx, "reset", None))
        .await?
        .is_some()
    {
        let mut errors = FieldErrors::default();
        errors.add("password", "reset-rate-limited");
        let page = ctx.page_ctx(|pc| reset_page(pc, Some(form.token.as_str()), &errors));
        return Ok(ctx
            .render_private(StatusCode::TOO_MANY_REQUESTS, page)
            .await);
    }
    // A dead or made-up link costs no hashing.
    if !live(&ctx, &form.token).await? {
        let page = ctx.page_ctx(|pc| reset_page(pc, None, &FieldErrors::default()));
        return Ok(ctx.render_private(StatusCode::GONE, page).await);
    }
    let hash = passwords::hash(form.password.clone()).await?;
    let now = ctx.state().now();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let Some(user_id) = tokens::consume(&mut tx, TokenKind::Reset, &form.token, now).await? else {
        tx.rollback().await?;
        let page = ctx.page_ctx(|pc| reset_page(pc, None, &FieldErrors::default()));
        return Ok(ctx.render_private(StatusCode::GONE, page).await);
    };
    // A new epoch ends every session of the user, on every device.
    queries::reset_password(&mut tx, user_id, &hash, now).await?;
    // Every other link mailed to the user (sign-in, reset, verification) dies with the old
    // password.
    tokens::revoke_all(&mut tx, user_id, now).await?;
    tx.commit().await?;
    tracing::info!(user_id, "password reset");
    if let Ok(session) = ctx.session() {
        session::sign_out(session).await?;
    }
    // The session was flushed, so the message rides on a new one.
    flash::success(&ctx, "reset-done").await?;
    Ok(Redirect::to("/signin").into_response())
}

//! Proving the mailbox: `/verification` says a link was mailed (and mails another on request,
//! to a signed-in member or by address to a visitor, who learns nothing about the address);
//! the link (`GET /verificationtoken`) opens a page with one button, and only that POST marks
//! the address verified and signs in. A GET never signs anyone in, so a link planted by someone
//! else cannot switch a visitor's browser into their account (login CSRF), and mail scanners
//! that follow links do not use it up. If another member is signed in on this browser, the
//! address is verified but their session stays as it is.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::email::normalize_email;
use ortak_app::forms::Notice;
use ortak_app::i18n::Locale;
use ortak_app::pages::auth::{VerificationState, verification_confirm_page, verification_page};
use serde::Deserialize;

use super::signup::kept_next;
use super::tokens::{self, TokenKind};
use super::{limited, mail_limits, onboarding, queries, rate_limited};
use crate::error::AppError;
use crate::mail::{Mail, MailLink, enqueue};
use crate::web::form::Form;
use crate::web::session::{self, Method};
use crate::web::{Ctx, flash};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NextQuery {
    next: String,
}

/// `GET /verification?next=…`: says a link was mailed, and offers another: with one button to
/// a signed-in member whose address is not verified, by address to anyone signed out.
pub async fn page(ctx: Ctx, Query(query): Query<NextQuery>) -> Response {
    let state = VerificationState {
        signed_in: ctx.user.as_ref().is_some_and(|u| !u.verified),
        next: kept_next(&query.next),
        ..VerificationState::default()
    };
    let page = ctx.page_ctx(|pc| verification_page(pc, &state));
    ctx.render(StatusCode::OK, page).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ResendForm {
    email: String,
    next: String,
}

/// `POST /verification`: mails a new link, which makes the older ones useless once it is sent.
/// A signed-in, unverified member gets it at their address; a visitor types the address, and
/// is told the same whether or not an unverified account uses it (limited per client and per
/// address like every mail anyone can ask for, so it tells nobody which addresses have
/// accounts). A verified member goes home.
pub async fn resend(ctx: Ctx, Form(form): Form<ResendForm>) -> Result<Response, AppError> {
    let next = kept_next(&form.next);
    let mut state = VerificationState {
        next: next.clone(),
        ..VerificationState::default()
    };
    let (status, to) = match ctx.user.clone() {
        Some(user) if user.verified => return Ok(Redirect::to("/").into_response()),
        Some(user) => {
            state.signed_in = true;
            let limits = mail_limits(&ctx, &user.email, false);
            let to = Some((user.id, user.locale, user.email));
            (limited(&ctx, &limits).await?, to)
        }
        None => match normalize_email(&form.email) {
            Err(e) => {
                state.email = form.email;
                state.errors.add("email", e.message_id());
                let page = ctx.page_ctx(|pc| verification_page(pc, &state));
                return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
            }
            Ok(email) => {
                state.email = email.clone();
                let limited = limited(&ctx, &mail_limits(&ctx, &email, true)).await?;
                let mut conn = ctx.state().db().acquire().await?;
                let account = queries::unverified_account(&mut conn, &email).await?;
                (limited, account.map(|a| (a.id, a.language, email)))
            }
        },
    };
    let status = match (status, to) {
        (Some(minutes), _) => {
            state.notice = Some(Notice::Error(rate_limited(&ctx, minutes)));
            StatusCode::TOO_MANY_REQUESTS
        }
        (None, to) => {
            if let Some((id, locale, email)) = to {
                mail_link(&ctx, id, locale, &email, &next).await?;
            }
            let sent = if state.signed_in {
                "verification-sent"
            } else {
                "verification-sent-if"
            };
            state.notice = Some(Notice::Success(ctx.t(sent)));
            StatusCode::OK
        }
    };
    let page = ctx.page_ctx(|pc| verification_page(pc, &state));
    Ok(ctx.render(status, page).await)
}

async fn mail_link(
    ctx: &Ctx,
    user_id: i64,
    locale: Locale,
    email: &str,
    next: &str,
) -> Result<(), AppError> {
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let link = MailLink {
        kind: TokenKind::Verify,
        user_id,
        next: (!next.is_empty()).then(|| next.to_owned()),
    };
    // The address is not proved yet: the mail carries nothing the member typed.
    let mail = Mail::with_link(email, locale, "", "verify", link);
    enqueue(&mut tx, &mail).await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    Ok(())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TokenQuery {
    pub token: String,
    /// Where a verification link goes on to (kept from sign-up).
    pub next: String,
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
    let next = kept_next(&query.next);
    let page = ctx.page_ctx(|pc| verification_confirm_page(pc, token, &next));
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
        let next = kept_next(&form.next);
        let page = ctx.page_ctx(|pc| verification_confirm_page(pc, None, &next));
        return Ok(ctx.render_private(StatusCode::GONE, page).await);
    };
    queries::mark_verified(&mut tx, user_id, now).await?;
    tx.commit().await?;
    // Where the sign-up was going (a founder: their dashboard), else the next onboarding step.
    let next = match kept_next(&form.next) {
        next if next.is_empty() => onboarding::resume_path(db, user_id).await?,
        next => next,
    };
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

//! Signing in with an e-mailed, single-use link. Asking for one answers the same whether or
//! not the address has an account. The link opens a page with one button: mail scanners that
//! follow links must not use up the token, so only the POST signs in.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::email::normalize_email;
use ortak_app::domain::paths::local_path;
use ortak_app::forms::Notice;
use ortak_app::pages::auth::{SigninState, signin_link_page, signin_page};
use serde::Deserialize;

use super::signin::state;
use super::tokens::{self, TokenKind};
use super::{limited, mail_limits, queries, rate_limited};
use crate::error::AppError;
use crate::mail::{Mail, MailLink, enqueue};
use crate::web::Ctx;
use crate::web::form::Form;
use crate::web::session::{self, Method};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RequestForm {
    link_email: String,
    next: String,
}

/// `POST /signin/link`: mails a sign-in link to the address, if it has an account.
pub async fn request(ctx: Ctx, Form(form): Form<RequestForm>) -> Result<Response, AppError> {
    let mut state = state(&ctx, local_path(&form.next).to_owned());
    state.link_email = form.link_email.clone();
    let status = match normalize_email(&form.link_email) {
        Err(e) => {
            state.errors.add("link_email", e.message_id());
            StatusCode::UNPROCESSABLE_ENTITY
        }
        Ok(email) => {
            if let Some(minutes) = limited(&ctx, &mail_limits(&ctx, &email, true)).await? {
                state.notice = Some(Notice::Error(rate_limited(&ctx, minutes)));
                StatusCode::TOO_MANY_REQUESTS
            } else {
                mail_link(&ctx, &email, &state).await?;
                state.notice = Some(Notice::Success(ctx.t("signin-link-sent")));
                state.link_email.clear();
                StatusCode::OK
            }
        }
    };
    let page = ctx.page_ctx(|pc| signin_page(pc, &state));
    Ok(ctx.render(status, page).await)
}

/// Queues the link for the active account using `email`; nothing when there is none.
async fn mail_link(ctx: &Ctx, email: &str, state: &SigninState) -> Result<(), AppError> {
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if let Some(user) = queries::active_account(&mut tx, email).await? {
        let link = MailLink {
            kind: TokenKind::SignIn,
            user_id: user.id,
            next: Some(state.next.clone()),
        };
        let mail = Mail::with_link(email, user.language, &user.first_name, "signin", link);
        enqueue(&mut tx, &mail).await?;
    }
    tx.commit().await?;
    ctx.state().wake_mailer();
    Ok(())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct LinkQuery {
    token: String,
    next: String,
}

/// `GET /signin/link?token=…`: the page with the one button (410 when the link is dead).
pub async fn page(ctx: Ctx, Query(query): Query<LinkQuery>) -> Result<Response, AppError> {
    let valid = tokens::peek(
        ctx.state().db(),
        TokenKind::SignIn,
        &query.token,
        ctx.state().now(),
    )
    .await?
    .is_some();
    let next = local_path(&query.next).to_owned();
    let page =
        ctx.page_ctx(|pc| signin_link_page(pc, valid.then_some(query.token.as_str()), &next));
    let status = if valid {
        StatusCode::OK
    } else {
        StatusCode::GONE
    };
    Ok(ctx.render_private(status, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct UseForm {
    token: String,
    next: String,
}

/// `POST /signin/link/use`: uses the token up and signs in.
pub async fn use_link(ctx: Ctx, Form(form): Form<UseForm>) -> Result<Response, AppError> {
    let now = ctx.state().now();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let Some(user_id) = tokens::consume(&mut tx, TokenKind::SignIn, &form.token, now).await? else {
        tx.rollback().await?;
        session::log_attempt(Method::EmailedLink, &ctx.ip, None, "invalid-or-used-token");
        let page = ctx.page_ctx(|pc| signin_link_page(pc, None, "/"));
        return Ok(ctx.render(StatusCode::GONE, page).await);
    };
    // Following the link proves the mailbox.
    queries::mark_verified(&mut tx, user_id, now).await?;
    tx.commit().await?;
    let to = ctx
        .sign_in(user_id, Method::EmailedLink, local_path(&form.next))
        .await?;
    Ok(Redirect::to(&to).into_response())
}

//! Signing in with a password (`/signin`, also `/login`) and signing out (`/logout`). Wrong
//! credentials get one message whatever the cause, and unknown addresses are checked against a
//! dummy hash, so neither the answer nor its timing tells which addresses have accounts.

use axum::extract::Query;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::email::normalize_email;
use ortak_app::domain::paths::local_path;
use ortak_app::forms::Notice;
use ortak_app::pages::auth::{SigninState, signin_page};
use serde::Deserialize;
use serde::de::IgnoredAny;

use super::{passwords, queries, rate_limited};
use crate::db::rate_limits as rate_limit;
use crate::error::AppError;
use crate::web::Ctx;
use crate::web::form::Form;
use crate::web::session::{self, Method};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NextQuery {
    next: String,
}

/// The sign-in page's state, with the professional-network button when it is configured.
pub(super) fn state(ctx: &Ctx, next: String) -> SigninState {
    SigninState {
        next,
        oidc: ctx.state().shared().oidc.is_some(),
        ..SigninState::default()
    }
}

/// `GET /signin?next=…` (a signed-in member goes straight to `next`).
pub async fn form(ctx: Ctx, Query(query): Query<NextQuery>) -> Response {
    let next = local_path(&query.next).to_owned();
    if ctx.user.is_some() {
        return Redirect::to(&next).into_response();
    }
    let state = state(&ctx, next);
    let page = ctx.page_ctx(|pc| signin_page(pc, &state));
    ctx.render(StatusCode::OK, page).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SigninForm {
    email: String,
    password: String,
    terms: Option<String>,
    next: String,
}

/// `POST /signin`.
pub async fn signin(ctx: Ctx, Form(form): Form<SigninForm>) -> Result<Response, AppError> {
    let next = local_path(&form.next).to_owned();
    let mut state = state(&ctx, next.clone());
    state.email = form.email.clone();
    state.terms = form.terms.is_some();
    let email = normalize_email(&form.email);
    if let Err(e) = &email {
        state.errors.add("email", e.message_id());
    }
    if form.password.is_empty() {
        state.errors.add("password", "validation-required");
    }
    let (status, notice) = match email {
        Ok(email) if !form.password.is_empty() => {
            match check_password(&ctx, &email, &form.password).await? {
                Ok(user_id) if terms_accepted(&ctx, user_id, form.terms.is_some()).await? => {
                    let to = ctx.sign_in(user_id, Method::Password, &next).await?;
                    return Ok(Redirect::to(&to).into_response());
                }
                Ok(user_id) => {
                    session::log_attempt(
                        Method::Password,
                        &ctx.ip,
                        Some(user_id),
                        "terms-not-accepted",
                    );
                    state.errors.add("terms", "validation-terms");
                    (
                        StatusCode::UNPROCESSABLE_ENTITY,
                        Notice::Error(ctx.t("form-has-errors")),
                    )
                }
                Err(refusal) => refusal,
            }
        }
        _ => {
            session::log_attempt(Method::Password, &ctx.ip, None, "incomplete-form");
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Notice::Error(ctx.t("form-has-errors")),
            )
        }
    };
    state.notice = Some(notice);
    let page = ctx.page_ctx(|pc| signin_page(pc, &state));
    Ok(ctx.render(status, page).await)
}

/// Whether `user_id` may sign in as far as the terms go: they accepted the current version
/// before, or accept it now (`ticked`, recorded with its version and time).
async fn terms_accepted(ctx: &Ctx, user_id: i64, ticked: bool) -> Result<bool, AppError> {
    if queries::terms::current(ctx.state().db(), user_id).await? {
        return Ok(true);
    }
    if ticked {
        let mut tx = crate::db::write(ctx.state().db()).await?;
        queries::terms::accept(&mut tx, user_id, ctx.state().now()).await?;
        tx.commit().await?;
    }
    Ok(ticked)
}

/// The account `email` and `password` open, or the status and message to answer with. Every
/// refusal is logged.
async fn check_password(
    ctx: &Ctx,
    email: &str,
    password: &str,
) -> Result<Result<i64, (StatusCode, Notice)>, AppError> {
    let checks = failure_keys(ctx, email);
    let (db, now) = (ctx.state().db(), ctx.state().now());
    if let Some(minutes) = rate_limit::attempt(db, now, &checks).await? {
        tracing::warn!(ip = %ctx.ip, "sign-in rate limited");
        session::log_attempt(Method::Password, &ctx.ip, None, "rate-limited");
        let notice = Notice::Error(rate_limited(ctx, minutes));
        return Ok(Err((StatusCode::TOO_MANY_REQUESTS, notice)));
    }
    let found = queries::credentials(ctx.state().db(), email).await?;
    // Verify against a real hash even for unknown addresses, so timing does not reveal which
    // addresses have accounts.
    let (user_id, stored) = match found {
        Some(queries::Credentials {
            id,
            password_hash: Some(hash),
        }) => (Some(id), hash),
        _ => (None, passwords::DUMMY_HASH.to_owned()),
    };
    let ok = passwords::verify(password.to_owned(), stored).await?;
    if let (true, Some(user_id)) = (ok, user_id) {
        // A success does not count, and forgets the account's failures (not the address's).
        let [(ip_key, ip_limit), account, anywhere] = checks;
        rate_limit::forgive(db, now, &ip_key, ip_limit).await?;
        rate_limit::clear(db, &[account.0, anywhere.0]).await?;
        return Ok(Ok(user_id));
    }
    let outcome = match user_id {
        Some(_) => "wrong-password",
        None => "unknown-account",
    };
    session::log_attempt(Method::Password, &ctx.ip, user_id, outcome);
    let notice = Notice::Error(ctx.t("signin-failed"));
    Ok(Err((StatusCode::UNPROCESSABLE_ENTITY, notice)))
}

/// What failed password sign-ins count against: the client's address (first), the account
/// from that address, and the account from everywhere (see `db::rate_limits`).
fn failure_keys(ctx: &Ctx, email: &str) -> [(String, rate_limit::Limit); 3] {
    [
        (format!("signin:ip:{}", ctx.ip), rate_limit::SIGNIN_PER_IP),
        (
            format!("signin:account:{email}:ip:{}", ctx.ip),
            rate_limit::SIGNIN_PER_ACCOUNT,
        ),
        (
            format!("signin:account:{email}"),
            rate_limit::SIGNIN_PER_ACCOUNT_ANYWHERE,
        ),
    ]
}

/// `POST /logout`: ends the session on the server and asks the browser to drop its caches.
pub async fn signout(ctx: Ctx, Form(_): Form<IgnoredAny>) -> Result<Response, AppError> {
    session::sign_out(ctx.session()?).await?;
    Ok(clear_site_data(Redirect::to("/").into_response()))
}

/// Adds `Clear-Site-Data` to a response that ends a session.
pub(super) fn clear_site_data(mut response: Response) -> Response {
    response.headers_mut().insert(
        "clear-site-data",
        HeaderValue::from_static("\"cache\", \"storage\""),
    );
    response
}

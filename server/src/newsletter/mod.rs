//! Newsletter subscription with double opt-in: the footer's plain form (`POST /newsletter`),
//! the island's JSON endpoint (`POST /api/newsletter`) and the forms of `applications` (their
//! consent box) only *request* a subscription. The request records the consent shown (time,
//! text version, source, language) and mails the address a confirmation link in the language of
//! the page it was made on; the subscription counts once the link's page is confirmed with its
//! button (`/newsletter/confirm`), so nobody can subscribe someone else. Only confirmed,
//! current subscribers are listed and exported to staff (the consent the law asks for, KVKK and
//! the İYS rules). Requests are rate limited per client and per address; unconfirmed ones are
//! purged after [`CONFIRM_WITHIN`], withdrawn consents' records after [`KEEP_WITHDRAWN`].
//! Subscribing again after unsubscribing needs a new confirmation.

pub mod queries;

use axum::Json;
use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::components::NewsletterState;
use ortak_app::domain::email::normalize_email;
use ortak_app::domain::paths::local_path;
use ortak_app::pages::newsletter::{Confirmation, newsletter_confirm_page, newsletter_page};
use serde::Deserialize;
use serde_json::json;
use sqlx::SqliteConnection;
use time::{Duration, OffsetDateTime};

use crate::db::rate_limits::{self as rate_limit, Limit};
use crate::error::AppError;
use crate::mail::links::digest;
use crate::mail::{Mail, TokenKind, enqueue};
use crate::state::AppState;
use crate::web::form::{Form, JsonBody};
use crate::web::{Access, Ctx, Routes, flash};

/// Version of the consent sentence shown beside the form (`newsletter-consent`); stored with
/// each subscription as the record of what the subscriber agreed to.
pub const CONSENT_TEXT_VERSION: &str = "newsletter-consent/2026-11-24";
/// A confirmation link works this long; an unconfirmed request is purged after it.
pub const CONFIRM_WITHIN: Duration = TokenKind::Newsletter.lifetime();
/// How long the record of a withdrawn consent is kept (the commercial-message rules ask for
/// three years after a consent ends).
pub const KEEP_WITHDRAWN: Duration = Duration::days(3 * 365);
/// Requests from one client address (a browser, or a script flooding the form).
const PER_CLIENT: Limit = Limit {
    max: 20,
    window: 60 * 60,
};
/// Confirmation mails to one address.
const PER_ADDRESS: Limit = Limit {
    max: 3,
    window: 24 * 60 * 60,
};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SubscribeForm {
    #[serde(rename = "return")]
    return_to: String,
    email: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SubscribeJson {
    email: String,
}

/// Counts a confirmation mail to `email` against its limit; `false` when over it.
pub async fn may_mail(ctx: &Ctx, email: &str) -> Result<bool, AppError> {
    let key = format!("newsletter:email:{email}");
    let now = ctx.state().now();
    Ok(rate_limit::hit(ctx.state().db(), now, &key, PER_ADDRESS)
        .await?
        .is_ok())
}

/// Requests a subscription for `email` in the caller's transaction: records the consent and
/// queues the confirmation mail in `locale` (nothing happens for a current subscriber). The
/// mail worker issues the link's token when it sends the mail, so no stored mail holds it. The
/// caller checked [`may_mail`] first.
pub async fn request(
    conn: &mut SqliteConnection,
    ctx: &Ctx,
    email: &str,
    source: &str,
) -> Result<(), AppError> {
    let request = queries::Request {
        email,
        language: ctx.locale.code(),
        consent_text_version: CONSENT_TEXT_VERSION,
        source,
    };
    if queries::request(&mut *conn, &request, ctx.state().now()).await? {
        enqueue(conn, &Mail::newsletter_confirm(email, ctx.locale)).await?;
    }
    Ok(())
}

/// Why a request was not taken: the client or the address is over its limit (429).
async fn limited(ctx: &Ctx, email: &str) -> Result<Option<String>, AppError> {
    let key = format!("newsletter:ip:{}", ctx.ip);
    let (db, now) = (ctx.state().db(), ctx.state().now());
    let minutes = match rate_limit::hit(db, now, &key, PER_CLIENT).await? {
        Err(minutes) => Some(minutes),
        Ok(()) if !may_mail(ctx, email).await? => Some(PER_ADDRESS.window / 60),
        Ok(()) => None,
    };
    Ok(minutes.map(|minutes| {
        tracing::warn!(ip = %ctx.ip, "newsletter requests rate limited");
        ctx.locale
            .t_args("rate-limited", &[("minutes", minutes.into())])
    }))
}

/// Records the request and wakes the mailer.
async fn take(ctx: &Ctx, email: &str, source: &str) -> Result<(), AppError> {
    let mut tx = crate::db::write(ctx.state().db()).await?;
    request(&mut tx, ctx, email, source).await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    Ok(())
}

pub async fn page(ctx: Ctx) -> Response {
    let page = ctx.page_ctx(|pc| newsletter_page(pc, &NewsletterState::default()));
    ctx.render(StatusCode::OK, page).await
}

pub async fn subscribe_form(
    ctx: Ctx,
    Form(form): Form<SubscribeForm>,
) -> Result<Response, AppError> {
    let back = local_path(&form.return_to).to_owned();
    let email = match normalize_email(&form.email) {
        Ok(email) => email,
        Err(error) => {
            let state = NewsletterState {
                email: form.email,
                error_id: Some(error.message_id()),
                return_to: Some(back),
            };
            let page = ctx.page_ctx(|pc| newsletter_page(pc, &state));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    };
    if let Some(message) = limited(&ctx, &email).await? {
        let page = ctx.page_ctx(|pc| ortak_app::pages::errors::bad_request_text(pc, message));
        return Ok(ctx.render(StatusCode::TOO_MANY_REQUESTS, page).await);
    }
    take(&ctx, &email, "form").await?;
    flash::success(&ctx, "newsletter-check-mail").await?;
    Ok(Redirect::to(&back).into_response())
}

pub async fn subscribe_json(
    ctx: Ctx,
    JsonBody(body): JsonBody<SubscribeJson>,
) -> Result<Response, AppError> {
    let email = match normalize_email(&body.email) {
        Ok(email) => email,
        Err(error) => {
            let errors = json!({ "email": ctx.t(error.message_id()) });
            let body = json!({ "ok": false, "errors": errors });
            return Ok((StatusCode::UNPROCESSABLE_ENTITY, Json(body)).into_response());
        }
    };
    if let Some(message) = limited(&ctx, &email).await? {
        let body = json!({ "ok": false, "message": message });
        return Ok((StatusCode::TOO_MANY_REQUESTS, Json(body)).into_response());
    }
    take(&ctx, &email, "island").await?;
    Ok(Json(json!({ "ok": true, "message": ctx.t("newsletter-check-mail") })).into_response())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TokenQuery {
    token: String,
}

/// `GET /newsletter/confirm?token=…`: the page with the button that confirms.
pub async fn confirm_page(ctx: Ctx, Query(query): Query<TokenQuery>) -> Result<Response, AppError> {
    let since = ctx.state().now() - CONFIRM_WITHIN;
    let open = !query.token.is_empty()
        && queries::open_request(ctx.state().db(), &digest(&query.token), since).await?;
    let (status, state) = if open {
        (StatusCode::OK, Confirmation::Ask(&query.token))
    } else {
        (StatusCode::GONE, Confirmation::Invalid)
    };
    let page = ctx.page_ctx(|pc| newsletter_confirm_page(pc, state));
    Ok(ctx.render(status, page).await)
}

/// `POST /newsletter/confirm`: the subscription counts from now.
pub async fn confirm(ctx: Ctx, Form(form): Form<TokenQuery>) -> Result<Response, AppError> {
    let now = ctx.state().now();
    let confirmed = if form.token.is_empty() {
        None
    } else {
        queries::confirm(
            ctx.state().db(),
            &digest(&form.token),
            now - CONFIRM_WITHIN,
            now,
        )
        .await?
    };
    let (status, state) = match confirmed {
        Some(_) => (StatusCode::OK, Confirmation::Done),
        None => (StatusCode::GONE, Confirmation::Invalid),
    };
    let page = ctx.page_ctx(|pc| newsletter_confirm_page(pc, state));
    Ok(ctx.render(status, page).await)
}

/// The `newsletter` job: purges unconfirmed requests and old records of withdrawn consents.
pub async fn purge(state: &AppState) -> anyhow::Result<()> {
    let now: OffsetDateTime = state.now();
    let purged = queries::purge(state.db(), now - CONFIRM_WITHIN, now - KEEP_WITHDRAWN).await?;
    if purged.unconfirmed + purged.withdrawn > 0 {
        tracing::info!(
            unconfirmed = purged.unconfirmed,
            withdrawn = purged.withdrawn,
            "newsletter rows purged"
        );
    }
    Ok(())
}

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Public)
            .get("/newsletter", page)
            .post("/newsletter", subscribe_form)
            .post("/api/newsletter", subscribe_json)
            .get("/newsletter/confirm", confirm_page)
            .post("/newsletter/confirm", confirm),
    ]
}

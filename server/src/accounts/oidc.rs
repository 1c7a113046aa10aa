//! Professional-network sign-in with OpenID Connect: the authorization-code flow with PKCE,
//! `state` and `nonce`. The provider is found by discovery from its issuer URL, and the ID
//! token is verified against the provider's published keys. Shown only when configured.

use crate::web::form::Form;
use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::pages::auth::{SigninState, oidc_terms_page, signin_page};
use serde::{Deserialize, Serialize};

use crate::error::AppError;
use crate::providers::oidc::{AuthFlow, Oidc};
use crate::web::Ctx;
use crate::web::session::{self, Method};

const FLOW_KEY: &str = "oidc_flow";
const PENDING_KEY: &str = "oidc_pending";

/// This browser's attempt: what the provider's answer must match, and where to go after.
#[derive(Serialize, Deserialize)]
struct Flow {
    auth: AuthFlow,
    next: String,
}

/// A verified identity without an account yet, waiting for the terms to be accepted.
#[derive(Serialize, Deserialize, Clone)]
struct Pending {
    email: String,
    first_name: String,
    last_name: String,
    next: String,
}

fn redirect_uri(ctx: &Ctx) -> String {
    format!("{}/signin/oidc/callback", ctx.state().shared().public_url)
}

fn provider(ctx: &Ctx) -> Result<&Oidc, AppError> {
    ctx.state()
        .shared()
        .oidc
        .as_deref()
        .ok_or(AppError::NotFound)
}

async fn failed(ctx: &Ctx) -> Response {
    let state = SigninState {
        notice: Some(Notice::Error(ctx.t("oidc-failed"))),
        oidc: true,
        next: "/".into(),
        ..SigninState::default()
    };
    let page = ctx.page_ctx(|pc| signin_page(pc, &state));
    ctx.render(StatusCode::BAD_GATEWAY, page).await
}

fn session_error(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("session: {e}"))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct StartQuery {
    next: String,
}

/// `GET /signin/oidc`: off to the provider.
pub async fn start(ctx: Ctx, Query(query): Query<StartQuery>) -> Result<Response, AppError> {
    let oidc = provider(&ctx)?;
    let (url, auth) = match oidc.authorize(&redirect_uri(&ctx)).await {
        Ok(started) => started,
        Err(e) => {
            tracing::warn!(error = %e, "OpenID Connect discovery failed");
            return Ok(failed(&ctx).await);
        }
    };
    let flow = Flow {
        auth,
        next: ortak_app::domain::paths::local_path(&query.next).to_owned(),
    };
    ctx.session()?
        .insert(FLOW_KEY, flow)
        .await
        .map_err(session_error)?;
    Ok(Redirect::to(&url).into_response())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct CallbackQuery {
    code: String,
    state: String,
}

/// `GET /signin/oidc/callback`: the provider sends the browser back with a code.
pub async fn callback(ctx: Ctx, Query(query): Query<CallbackQuery>) -> Result<Response, AppError> {
    let oidc = provider(&ctx)?;
    let session = ctx.session()?;
    let flow: Option<Flow> = session.remove(FLOW_KEY).await.map_err(session_error)?;
    let Some(flow) = flow.filter(|f| !query.code.is_empty() && f.auth.state == query.state) else {
        tracing::warn!("OpenID Connect callback without a matching state");
        session::log_attempt(Method::ProfessionalNetwork, &ctx.ip, None, "state-mismatch");
        return Ok(failed(&ctx).await);
    };
    let claims = match oidc
        .identity(&query.code, &redirect_uri(&ctx), &flow.auth)
        .await
    {
        Ok(claims) => claims,
        Err(e) => {
            tracing::warn!(error = %e, "OpenID Connect sign-in refused");
            session::log_attempt(Method::ProfessionalNetwork, &ctx.ip, None, "refused");
            return Ok(failed(&ctx).await);
        }
    };
    let email = claims
        .email
        .as_deref()
        .map(ortak_app::domain::email::normalize_email);
    let Some(Ok(email)) = email.filter(|_| claims.email_verified) else {
        tracing::warn!("OpenID Connect identity without a verified e-mail");
        session::log_attempt(
            Method::ProfessionalNetwork,
            &ctx.ip,
            None,
            "unverified-e-mail",
        );
        return Ok(failed(&ctx).await);
    };
    let db = ctx.state().db();
    let existing: Option<i64> =
        sqlx::query_scalar("SELECT id FROM users WHERE email = ? AND deactivated_at IS NULL")
            .bind(&email)
            .fetch_optional(db)
            .await?;
    match existing {
        Some(user_id) => {
            // The provider verified the address, so it vouches for the account that uses it. If
            // the account never proved the address, whoever created it may not own it: their
            // password and sessions end (no pre-hijacking).
            let mut tx = db.begin().await?;
            let unverified: bool =
                sqlx::query_scalar("SELECT email_verified_at IS NULL FROM users WHERE id = ?")
                    .bind(user_id)
                    .fetch_one(&mut *tx)
                    .await?;
            if unverified {
                sqlx::query(
                    "UPDATE users SET password_hash = NULL, session_epoch = session_epoch + 1,
                         email_verified_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
                )
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
                sqlx::query("DELETE FROM auth_tokens WHERE user_id = ?")
                    .bind(user_id)
                    .execute(&mut *tx)
                    .await?;
                tracing::warn!(
                    user_id,
                    "unverified account claimed through OpenID Connect; its password was cleared"
                );
            }
            tx.commit().await?;
            ctx.sign_in(user_id, Method::ProfessionalNetwork).await?;
            Ok(Redirect::to(&flow.next).into_response())
        }
        None => {
            let pending = Pending {
                email,
                first_name: claims.given_name,
                last_name: claims.family_name,
                next: flow.next,
            };
            session
                .insert(PENDING_KEY, pending)
                .await
                .map_err(session_error)?;
            Ok(Redirect::to("/signin/oidc/terms").into_response())
        }
    }
}

/// `GET /signin/oidc/terms`: a new member accepts the terms before the account exists.
pub async fn terms_form(ctx: Ctx) -> Result<Response, AppError> {
    provider(&ctx)?;
    let pending: Option<Pending> = ctx
        .session()?
        .get(PENDING_KEY)
        .await
        .map_err(session_error)?;
    let Some(pending) = pending else {
        return Ok(Redirect::to("/signin").into_response());
    };
    let page = ctx.page_ctx(|pc| oidc_terms_page(pc, &pending.email, &FieldErrors::default()));
    Ok(ctx.render(StatusCode::OK, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TermsForm {
    csrf: String,
    terms: Option<String>,
}

pub async fn accept_terms(ctx: Ctx, Form(form): Form<TermsForm>) -> Result<Response, AppError> {
    provider(&ctx)?;
    let session = ctx.session()?;
    let pending: Option<Pending> = session.get(PENDING_KEY).await.map_err(session_error)?;
    let Some(pending) = pending else {
        return Ok(Redirect::to("/signin").into_response());
    };
    if form.terms.as_deref() != Some("on") {
        let mut errors = FieldErrors::default();
        errors.add("terms", "validation-terms");
        let page = ctx.page_ctx(|pc| oidc_terms_page(pc, &pending.email, &errors));
        return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
    }
    let db = ctx.state().db();
    let user_id: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, first_name, last_name, language, email_verified_at, terms_accepted_at)
         VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
         ON CONFLICT (email) DO UPDATE SET email_verified_at = COALESCE(email_verified_at, excluded.email_verified_at)
         RETURNING id",
    )
    .bind(&pending.email)
    .bind(&pending.first_name)
    .bind(&pending.last_name)
    .bind(ctx.locale.code())
    .fetch_one(db)
    .await?;
    session
        .remove::<Pending>(PENDING_KEY)
        .await
        .map_err(session_error)?;
    ctx.sign_in(user_id, Method::ProfessionalNetwork).await?;
    let next = super::onboarding::resume_path(db, user_id).await?;
    Ok(Redirect::to(if next == "/" { &pending.next } else { &next }).into_response())
}

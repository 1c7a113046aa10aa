//! Professional-network sign-in with OpenID Connect: the authorization-code flow with `state`,
//! `nonce` and PKCE (the last two as the provider allows, `providers::oidc`). The provider is
//! found by discovery from its issuer URL, and the ID token is verified against the provider's
//! published keys. Shown only when configured. The attempt and a new member's pending identity
//! wait in the session.
//!
//! Every callback uses the attempt up before anything else: the flow leaves the session and
//! the session is saved at once, so neither a forged callback nor a failure lets the same
//! answer be replayed. Refusals answer 400; a provider that cannot be reached, 502. Staff (and
//! members who enrolled) still give their second factor after the provider, and staff without
//! one cannot enrol this way (`web::session::PendingSignIn::may_enrol`).

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::pages::auth::{SigninState, oidc_terms_page, signin_page};
use serde::{Deserialize, Serialize};

use super::queries;
use crate::error::AppError;
use crate::providers::oidc::{AuthFlow, Identity, Oidc, OidcError};
use crate::web::Ctx;
use crate::web::form::Form;
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

/// The sign-in page saying the professional network did not sign anyone in: 400 for a refusal,
/// 502 when the provider could not be reached.
async fn failed_with(ctx: &Ctx, status: StatusCode) -> Response {
    let state = SigninState {
        notice: Some(Notice::Error(ctx.t("oidc-failed"))),
        oidc: true,
        next: "/".into(),
        ..SigninState::default()
    };
    let page = ctx.page_ctx(|pc| signin_page(pc, &state));
    ctx.render(status, page).await
}

async fn failed(ctx: &Ctx) -> Response {
    failed_with(ctx, StatusCode::BAD_REQUEST).await
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
            return Ok(failed_with(&ctx, StatusCode::BAD_GATEWAY).await);
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
    /// The provider's refusal (`access_denied`, LinkedIn's `user_cancelled_login`, ...).
    error: String,
    error_description: String,
}

/// `GET /signin/oidc/callback`: the provider sends the browser back with a code. A verified
/// address with an account signs in; a new one goes to accept the terms first.
pub async fn callback(ctx: Ctx, Query(query): Query<CallbackQuery>) -> Result<Response, AppError> {
    let oidc = provider(&ctx)?;
    let session = ctx.session()?;
    // Used up first, and for good: saved now, whatever the answer turns out to be.
    let flow: Option<Flow> = session.remove(FLOW_KEY).await.map_err(session_error)?;
    session.save().await.map_err(session_error)?;
    let Some(flow) = flow.filter(|f| f.auth.state == query.state) else {
        tracing::warn!("OpenID Connect callback without a matching state");
        session::log_attempt(Method::ProfessionalNetwork, &ctx.ip, None, "state-mismatch");
        return Ok(failed(&ctx).await);
    };
    if !query.error.is_empty() || query.code.is_empty() {
        let description: String = query.error_description.chars().take(200).collect();
        tracing::warn!(
            error = query.error,
            description,
            "OpenID Connect provider refused the sign-in"
        );
        session::log_attempt(
            Method::ProfessionalNetwork,
            &ctx.ip,
            None,
            "provider-refused",
        );
        return Ok(failed(&ctx).await);
    }
    let (email, identity) = match verified_identity(&ctx, oidc, &query.code, &flow).await {
        Ok(found) => found,
        Err(status) => return Ok(failed_with(&ctx, status).await),
    };
    match queries::active_account_id(ctx.state().db(), &email).await? {
        Some(user_id) => {
            claim_if_unverified(&ctx, user_id).await?;
            let to = ctx
                .sign_in(user_id, Method::ProfessionalNetwork, &flow.next)
                .await?;
            Ok(Redirect::to(&to).into_response())
        }
        None => {
            let (first_name, last_name) = identity.names();
            let pending = Pending {
                email,
                first_name,
                last_name,
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

/// The provider's verified identity for `code`, with its normalized e-mail address; the status
/// to answer with (logged) when the provider refuses, fails or vouches for no address.
async fn verified_identity(
    ctx: &Ctx,
    oidc: &Oidc,
    code: &str,
    flow: &Flow,
) -> Result<(String, Identity), StatusCode> {
    let identity = match oidc.identity(code, &redirect_uri(ctx), &flow.auth).await {
        Ok(identity) => identity,
        Err(e) => {
            tracing::warn!(error = %e, "OpenID Connect sign-in failed");
            let (status, outcome) = match e {
                OidcError::Refused(_) => (StatusCode::BAD_REQUEST, "refused"),
                OidcError::Unavailable(_) => (StatusCode::BAD_GATEWAY, "provider-unavailable"),
            };
            session::log_attempt(Method::ProfessionalNetwork, &ctx.ip, None, outcome);
            return Err(status);
        }
    };
    let Some(address) = identity.email.as_deref() else {
        tracing::warn!("OpenID Connect identity without an e-mail address");
        session::log_attempt(Method::ProfessionalNetwork, &ctx.ip, None, "no-e-mail");
        return Err(StatusCode::BAD_REQUEST);
    };
    let email = ortak_app::domain::email::normalize_email(address);
    let (Ok(email), Some(true)) = (email, identity.email_verified) else {
        tracing::warn!("OpenID Connect identity without a verified e-mail");
        session::log_attempt(
            Method::ProfessionalNetwork,
            &ctx.ip,
            None,
            "unverified-e-mail",
        );
        return Err(StatusCode::BAD_REQUEST);
    };
    Ok((email, identity))
}

/// The provider verified the address, so it vouches for the account that uses it. If the
/// account never proved the address, whoever created it may not own it: their password, links
/// and sessions end (no pre-hijacking).
async fn claim_if_unverified(ctx: &Ctx, user_id: i64) -> Result<(), AppError> {
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if queries::unverified(&mut tx, user_id).await? {
        claim(&mut tx, user_id, ctx.state().now()).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Hands an unverified account to the owner the provider vouched for: the password is cleared,
/// every session ends, every mailed link dies, and the address counts as verified.
async fn claim(
    conn: &mut sqlx::SqliteConnection,
    user_id: i64,
    now: time::OffsetDateTime,
) -> Result<(), AppError> {
    queries::claim_for_verified_owner(&mut *conn, user_id, now).await?;
    queries::tokens::delete_all(conn, user_id).await?;
    tracing::warn!(
        user_id,
        "unverified account claimed through OpenID Connect; its password was cleared"
    );
    Ok(())
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
    Ok(ctx.render_private(StatusCode::OK, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TermsForm {
    terms: Option<String>,
}

/// `POST /signin/oidc/terms`: creates the verified account, signs it in and goes on to
/// onboarding (or where the member was going).
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
    let now = ctx.state().now();
    let mut tx = crate::db::write(db).await?;
    let user_id = match queries::insert_verified_member(
        &mut tx,
        &pending.email,
        &pending.first_name,
        &pending.last_name,
        ctx.locale.code(),
        now,
    )
    .await?
    {
        Some(user_id) => user_id,
        None => {
            // Someone took the address while this member read the terms: the account is the
            // verified owner's now, exactly as if it had existed at the callback (never merged
            // with the password and sessions of whoever created it).
            let Some(user_id) = queries::active_account_id(db, &pending.email).await? else {
                tx.rollback().await?;
                session
                    .remove::<Pending>(PENDING_KEY)
                    .await
                    .map_err(session_error)?;
                return Ok(failed(&ctx).await);
            };
            if queries::unverified(&mut tx, user_id).await? {
                claim(&mut tx, user_id, now).await?;
            }
            queries::terms::accept(&mut tx, user_id, now).await?;
            user_id
        }
    };
    tx.commit().await?;
    session
        .remove::<Pending>(PENDING_KEY)
        .await
        .map_err(session_error)?;
    let next = super::onboarding::resume_path(db, user_id).await?;
    let next = if next == "/" {
        pending.next.clone()
    } else {
        next
    };
    let to = ctx
        .sign_in(user_id, Method::ProfessionalNetwork, &next)
        .await?;
    Ok(Redirect::to(&to).into_response())
}

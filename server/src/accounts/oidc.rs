//! Professional-network sign-in with OpenID Connect: the authorization-code flow with PKCE,
//! `state` and `nonce`. The provider is found by discovery from its issuer URL, and the ID
//! token is verified against the provider's published keys (`providers::oidc`). Shown only
//! when configured. The attempt and a new member's pending identity wait in the session.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::pages::auth::{SigninState, oidc_terms_page, signin_page};
use serde::{Deserialize, Serialize};

use super::queries;
use crate::error::AppError;
use crate::providers::oidc::{AuthFlow, Identity, Oidc};
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

/// `GET /signin/oidc/callback`: the provider sends the browser back with a code. A verified
/// address with an account signs in; a new one goes to accept the terms first.
pub async fn callback(ctx: Ctx, Query(query): Query<CallbackQuery>) -> Result<Response, AppError> {
    let oidc = provider(&ctx)?;
    let session = ctx.session()?;
    let flow: Option<Flow> = session.remove(FLOW_KEY).await.map_err(session_error)?;
    let Some(flow) = flow.filter(|f| !query.code.is_empty() && f.auth.state == query.state) else {
        tracing::warn!("OpenID Connect callback without a matching state");
        session::log_attempt(Method::ProfessionalNetwork, &ctx.ip, None, "state-mismatch");
        return Ok(failed(&ctx).await);
    };
    let Some((email, identity)) = verified_identity(&ctx, oidc, &query.code, &flow).await else {
        return Ok(failed(&ctx).await);
    };
    match queries::active_account_id(ctx.state().db(), &email).await? {
        Some(user_id) => {
            claim_if_unverified(&ctx, user_id).await?;
            ctx.sign_in(user_id, Method::ProfessionalNetwork).await?;
            Ok(Redirect::to(&flow.next).into_response())
        }
        None => {
            let pending = Pending {
                email,
                first_name: identity.given_name,
                last_name: identity.family_name,
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

/// The provider's verified identity for `code`, with its normalized e-mail address; `None`
/// (logged) when the provider refuses or vouches for no address.
async fn verified_identity(
    ctx: &Ctx,
    oidc: &Oidc,
    code: &str,
    flow: &Flow,
) -> Option<(String, Identity)> {
    let identity = match oidc.identity(code, &redirect_uri(ctx), &flow.auth).await {
        Ok(identity) => identity,
        Err(e) => {
            tracing::warn!(error = %e, "OpenID Connect sign-in refused");
            session::log_attempt(Method::ProfessionalNetwork, &ctx.ip, None, "refused");
            return None;
        }
    };
    let email = identity
        .email
        .as_deref()
        .map(ortak_app::domain::email::normalize_email);
    let Some(Ok(email)) = email.filter(|_| identity.email_verified) else {
        tracing::warn!("OpenID Connect identity without a verified e-mail");
        session::log_attempt(
            Method::ProfessionalNetwork,
            &ctx.ip,
            None,
            "unverified-e-mail",
        );
        return None;
    };
    Some((email, identity))
}

/// The provider verified the address, so it vouches for the account that uses it. If the
/// account never proved the address, whoever created it may not own it: their password, links
/// and sessions end (no pre-hijacking).
async fn claim_if_unverified(ctx: &Ctx, user_id: i64) -> Result<(), AppError> {
    let mut tx = ctx.state().db().begin().await?;
    if queries::unverified(&mut tx, user_id).await? {
        queries::claim_for_verified_owner(&mut tx, user_id, ctx.state().now()).await?;
        queries::tokens::delete_all(&mut tx, user_id).await?;
        tracing::warn!(
            user_id,
            "unverified account claimed through OpenID Connect; its password was cleared"
        );
    }
    tx.commit().await?;
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
    Ok(ctx.render(StatusCode::OK, page).await)
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
    let user_id = queries::upsert_verified_member(
        db,
        &pending.email,
        &pending.first_name,
        &pending.last_name,
        ctx.locale.code(),
        ctx.state().now(),
    )
    .await?;
    session
        .remove::<Pending>(PENDING_KEY)
        .await
        .map_err(session_error)?;
    ctx.sign_in(user_id, Method::ProfessionalNetwork).await?;
    let next = super::onboarding::resume_path(db, user_id).await?;
    Ok(Redirect::to(if next == "/" { &pending.next } else { &next }).into_response())
}

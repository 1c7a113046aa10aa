//! Professional-network sign-in with OpenID Connect: the authorization-code flow with PKCE,
//! `state` and `nonce`. The provider is found by discovery from its issuer URL, and the ID
//! token is verified against the provider's published keys. Shown only when configured.

use axum::Form;
use axum::extract::Query;
use axum::extract::rejection::FormRejection;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use base64::Engine;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{DecodingKey, Validation, decode, decode_header};
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::pages::auth::{SigninState, oidc_terms_page, signin_page};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio::sync::OnceCell;

use super::session::{self, Method};
use crate::context::Ctx;
use crate::error::AppError;

const FLOW_KEY: &str = "oidc_flow";
const PENDING_KEY: &str = "oidc_pending";

/// The provider settings (`ORTAK_OIDC_*`).
pub struct Oidc {
    issuer: String,
    client_id: String,
    client_secret: String,
    http: reqwest::Client,
    discovered: OnceCell<Discovery>,
}

#[derive(Deserialize, Clone)]
struct Discovery {
    issuer: String,
    authorization_endpoint: String,
    token_endpoint: String,
    jwks_uri: String,
}

/// What this browser's sign-in attempt must match when the provider sends it back.
#[derive(Serialize, Deserialize)]
struct Flow {
    state: String,
    nonce: String,
    verifier: String,
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

#[derive(Deserialize)]
struct Claims {
    email: Option<String>,
    #[serde(default, deserialize_with = "bool_or_string")]
    email_verified: bool,
    nonce: Option<String>,
    #[serde(default)]
    given_name: String,
    #[serde(default)]
    family_name: String,
}

/// Some providers send `email_verified` as the string "true".
fn bool_or_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(matches!(value, serde_json::Value::Bool(true)) || value.as_str() == Some("true"))
}

fn random() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

impl Oidc {
    pub fn new(issuer: &str, client_id: &str, client_secret: &str) -> anyhow::Result<Oidc> {
        Ok(Oidc {
            issuer: issuer.trim_end_matches('/').to_owned(),
            client_id: client_id.to_owned(),
            client_secret: client_secret.to_owned(),
            http: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(10))
                .build()?,
            discovered: OnceCell::new(),
        })
    }

    async fn discovery(&self) -> anyhow::Result<&Discovery> {
        self.discovered
            .get_or_try_init(|| async {
                let url = format!("{}/.well-known/openid-configuration", self.issuer);
                let d: Discovery = self
                    .http
                    .get(url)
                    .send()
                    .await?
                    .error_for_status()?
                    .json()
                    .await?;
                anyhow::ensure!(
                    d.issuer.trim_end_matches('/') == self.issuer,
                    "discovery names another issuer"
                );
                Ok(d)
            })
            .await
    }

    /// Exchanges the code and returns the verified ID token's claims.
    async fn claims(&self, code: &str, redirect_uri: &str, flow: &Flow) -> anyhow::Result<Claims> {
        #[derive(Deserialize)]
        struct TokenResponse {
            id_token: String,
        }
        let d = self.discovery().await?;
        let tokens: TokenResponse = self
            .http
            .post(&d.token_endpoint)
            .form(&[
                ("grant_type", "authorization_code"),
                ("code", code),
                ("redirect_uri", redirect_uri),
                ("client_id", &self.client_id),
                ("client_secret", &self.client_secret),
                ("code_verifier", &flow.verifier),
            ])
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        let header = decode_header(&tokens.id_token)?;
        let keys: JwkSet = self
            .http
            .get(&d.jwks_uri)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        let jwk = match &header.kid {
            Some(kid) => keys.find(kid),
            None => keys.keys.first(),
        }
        .ok_or_else(|| anyhow::anyhow!("no matching signing key"))?;
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&d.issuer]);
        validation.set_audience(&[&self.client_id]);
        let claims =
            decode::<Claims>(&tokens.id_token, &DecodingKey::from_jwk(jwk)?, &validation)?.claims;
        anyhow::ensure!(
            claims.nonce.as_deref() == Some(flow.nonce.as_str()),
            "nonce mismatch"
        );
        Ok(claims)
    }
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
    let d = match oidc.discovery().await {
        Ok(d) => d,
        Err(e) => {
            tracing::warn!(error = %e, "OpenID Connect discovery failed");
            return Ok(failed(&ctx).await);
        }
    };
    let flow = Flow {
        state: random(),
        nonce: random(),
        verifier: random(),
        next: ortak_app::domain::paths::local_path(&query.next).to_owned(),
    };
    let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(Sha256::digest(flow.verifier.as_bytes()));
    let mut url = reqwest::Url::parse(&d.authorization_endpoint).map_err(anyhow::Error::from)?;
    url.query_pairs_mut()
        .append_pair("response_type", "code")
        .append_pair("client_id", &oidc.client_id)
        .append_pair("redirect_uri", &redirect_uri(&ctx))
        .append_pair("scope", "openid email profile")
        .append_pair("state", &flow.state)
        .append_pair("nonce", &flow.nonce)
        .append_pair("code_challenge", &challenge)
        .append_pair("code_challenge_method", "S256");
    ctx.session()?
        .insert(FLOW_KEY, flow)
        .await
        .map_err(session_error)?;
    Ok(Redirect::to(url.as_str()).into_response())
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
    let Some(flow) = flow.filter(|f| !query.code.is_empty() && f.state == query.state) else {
        tracing::warn!("OpenID Connect callback without a matching state");
        session::log_attempt(Method::ProfessionalNetwork, &ctx.ip, None, "state-mismatch");
        return Ok(failed(&ctx).await);
    };
    let claims = match oidc.claims(&query.code, &redirect_uri(&ctx), &flow).await {
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
            session::sign_in(db, session, user_id, Method::ProfessionalNetwork, &ctx.ip).await?;
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

pub async fn accept_terms(
    ctx: Ctx,
    headers: HeaderMap,
    form: Result<Form<TermsForm>, FormRejection>,
) -> Result<Response, AppError> {
    provider(&ctx)?;
    let form = crate::form_body::typed(form)?;
    ctx.verify_csrf(&form.csrf, &headers)?;
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
    session::sign_in(db, session, user_id, Method::ProfessionalNetwork, &ctx.ip).await?;
    let next = super::onboarding::resume_path(db, user_id).await?;
    Ok(Redirect::to(if next == "/" { &pending.next } else { &next }).into_response())
}

//! The OpenID Connect client for professional-network sign-in: the authorization-code flow with
//! `state`, `nonce` and (by default) PKCE. The provider is found by discovery from its issuer
//! URL, and the ID token is verified against the provider's published keys.
//!
//! Real providers differ (docs/notes/oidc.md): LinkedIn answers 401 `invalid_client` to a token
//! request carrying `code_verifier` and leaves `nonce` out of its ID tokens, so both are
//! settings ([`OidcOptions`]); a nonce that is present must match whatever the setting. A
//! certified provider with its defaults puts the e-mail address and names only in the userinfo
//! response, so userinfo is read whenever the ID token lacks them (and must be about the same
//! `sub`).

use crate::settings::Secret;
use base64::Engine;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{DecodingKey, Validation, decode, decode_header};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio::sync::OnceCell;

/// How this provider is spoken to (`ORTAK_OIDC_PKCE`, `ORTAK_OIDC_REQUIRE_NONCE`).
#[derive(Clone, Copy, Debug)]
pub struct OidcOptions {
    /// Send a PKCE S256 challenge and its verifier.
    pub pkce: bool,
    /// Refuse an ID token without a `nonce` (one that is present must match anyway).
    pub require_nonce: bool,
}

impl Default for OidcOptions {
    fn default() -> Self {
        OidcOptions {
            pkce: true,
            require_nonce: true,
        }
    }
}

/// The provider settings (`ORTAK_OIDC_*`).
pub struct Oidc {
    issuer: String,
    client_id: String,
    client_secret: Secret,
    options: OidcOptions,
    http: reqwest::Client,
    discovered: OnceCell<Discovery>,
}

#[derive(Deserialize, Clone)]
struct Discovery {
    issuer: String,
    authorization_endpoint: String,
    token_endpoint: String,
    jwks_uri: String,
    userinfo_endpoint: Option<String>,
}

/// What the browser's sign-in attempt must match when the provider sends it back.
#[derive(Serialize, Deserialize)]
pub struct AuthFlow {
    pub state: String,
    nonce: String,
    verifier: String,
}

/// Why a sign-in failed: the provider (or its answer) refused it, or it could not be reached.
#[derive(Debug, thiserror::Error)]
pub enum OidcError {
    /// The provider refused, or what it sent does not hold up (a 4xx for the browser).
    #[error("refused: {0}")]
    Refused(String),
    /// The provider could not be reached or failed (a 502 for the browser).
    #[error("provider unavailable: {0}")]
    Unavailable(String),
}

fn refused(e: impl std::fmt::Display) -> OidcError {
    OidcError::Refused(e.to_string())
}

fn unavailable(e: impl std::fmt::Display) -> OidcError {
    OidcError::Unavailable(e.to_string())
}

/// The identity the provider asserts (ID token, completed from userinfo).
#[derive(Deserialize, Default, Debug)]
pub struct Identity {
    #[serde(default)]
    pub sub: String,
    pub email: Option<String>,
    #[serde(default, deserialize_with = "bool_or_string")]
    pub email_verified: Option<bool>,
    nonce: Option<String>,
    pub given_name: Option<String>,
    pub family_name: Option<String>,
    pub name: Option<String>,
}

impl Identity {
    /// Whether the claims Ortak needs are all here.
    fn complete(&self) -> bool {
        self.email.is_some()
            && self.email_verified.is_some()
            && (self.given_name.is_some() || self.name.is_some())
    }

    /// Fills what is missing from `more` (userinfo).
    fn complete_from(&mut self, more: Identity) {
        self.email = self.email.take().or(more.email);
        self.email_verified = self.email_verified.or(more.email_verified);
        self.given_name = self.given_name.take().or(more.given_name);
        self.family_name = self.family_name.take().or(more.family_name);
        self.name = self.name.take().or(more.name);
    }

    /// The first and last name to create an account with.
    pub fn names(&self) -> (String, String) {
        match (&self.given_name, &self.family_name) {
            (Some(given), family) => (given.clone(), family.clone().unwrap_or_default()),
            (None, _) => (self.name.clone().unwrap_or_default(), String::new()),
        }
    }
}

/// `email_verified` comes as a boolean, or (LinkedIn's ID token) the string "true".
fn bool_or_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(match value {
        serde_json::Value::Bool(b) => Some(b),
        serde_json::Value::String(s) => Some(s == "true"),
        _ => None,
    })
}

fn random() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A response's status and (short) body as an error text, for the log: the provider's own
/// words (`invalid_client`, ...) are what an operator needs.
async fn answer_text(response: reqwest::Response) -> String {
    let status = response.status();
    let body = response.text().await.unwrap_or_default();
    let body: String = body.chars().take(500).collect();
    format!("HTTP {status}: {body}")
}

impl Oidc {
    pub fn new(
        issuer: &str,
        client_id: &str,
        client_secret: &Secret,
        options: OidcOptions,
    ) -> anyhow::Result<Oidc> {
        Ok(Oidc {
            issuer: issuer.trim_end_matches('/').to_owned(),
            client_id: client_id.to_owned(),
            client_secret: client_secret.clone(),
            options,
            http: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(10))
                .redirect(reqwest::redirect::Policy::none())
                .build()?,
            discovered: OnceCell::new(),
        })
    }

    async fn discovery(&self) -> Result<&Discovery, OidcError> {
        self.discovered
            .get_or_try_init(|| async {
                let url = format!("{}/.well-known/openid-configuration", self.issuer);
                let response = self.http.get(url).send().await.map_err(unavailable)?;
                if !response.status().is_success() {
                    return Err(unavailable(answer_text(response).await));
                }
                let d: Discovery = response.json().await.map_err(unavailable)?;
                if d.issuer.trim_end_matches('/') != self.issuer {
                    return Err(unavailable(format!(
                        "discovery names another issuer: {}",
                        d.issuer
                    )));
                }
                Ok(d)
            })
            .await
    }

    /// The provider's authorization URL for a new attempt, and what its answer must match.
    pub async fn authorize(&self, redirect_uri: &str) -> Result<(String, AuthFlow), OidcError> {
        let d = self.discovery().await?;
        let flow = AuthFlow {
            state: random(),
            nonce: random(),
            verifier: random(),
        };
        let mut url = reqwest::Url::parse(&d.authorization_endpoint).map_err(unavailable)?;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &self.client_id)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("scope", "openid email profile")
            .append_pair("state", &flow.state)
            .append_pair("nonce", &flow.nonce);
        if self.options.pkce {
            let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD
                .encode(Sha256::digest(flow.verifier.as_bytes()));
            url.query_pairs_mut()
                .append_pair("code_challenge", &challenge)
                .append_pair("code_challenge_method", "S256");
        }
        Ok((url.into(), flow))
    }

    /// Exchanges the code and returns the verified identity: the ID token's claims, completed
    /// from userinfo when the token lacks the address or the names.
    pub async fn identity(
        &self,
        code: &str,
        redirect_uri: &str,
        flow: &AuthFlow,
    ) -> Result<Identity, OidcError> {
        let d = self.discovery().await?;
        let tokens = self.exchange(d, code, redirect_uri, flow).await?;
        let mut identity = self.verify_id_token(d, &tokens.id_token).await?;
        match identity.nonce.as_deref() {
            Some(nonce) if nonce != flow.nonce => return Err(refused("nonce mismatch")),
            None if self.options.require_nonce => return Err(refused("ID token without nonce")),
            _ => {}
        }
        if !identity.complete()
            && let (Some(endpoint), Some(access)) = (&d.userinfo_endpoint, &tokens.access_token)
        {
            let more = self.userinfo(endpoint, access).await?;
            // OpenID Connect Core 5.3.2: userinfo about anyone else must not be used.
            if more.sub != identity.sub {
                return Err(refused("userinfo is about another subject"));
            }
            identity.complete_from(more);
        }
        Ok(identity)
    }

    async fn exchange(
        &self,
        d: &Discovery,
        code: &str,
        redirect_uri: &str,
        flow: &AuthFlow,
    ) -> Result<TokenResponse, OidcError> {
        let mut form = vec![
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("client_id", self.client_id.as_str()),
            ("client_secret", self.client_secret.expose()),
        ];
        if self.options.pkce {
            form.push(("code_verifier", flow.verifier.as_str()));
        }
        let response = self
            .http
            .post(&d.token_endpoint)
            .form(&form)
            .send()
            .await
            .map_err(unavailable)?;
        let status = response.status();
        if status.is_client_error() {
            return Err(refused(format!(
                "token endpoint: {}",
                answer_text(response).await
            )));
        }
        if !status.is_success() {
            return Err(unavailable(format!(
                "token endpoint: {}",
                answer_text(response).await
            )));
        }
        response.json().await.map_err(refused)
    }

    async fn verify_id_token(&self, d: &Discovery, id_token: &str) -> Result<Identity, OidcError> {
        let header = decode_header(id_token).map_err(refused)?;
        let response = self
            .http
            .get(&d.jwks_uri)
            .send()
            .await
            .map_err(unavailable)?;
        if !response.status().is_success() {
            return Err(unavailable(format!(
                "keys: {}",
                answer_text(response).await
            )));
        }
        let keys: JwkSet = response.json().await.map_err(unavailable)?;
        let jwk = match &header.kid {
            Some(kid) => keys.find(kid),
            None => keys.keys.first(),
        }
        .ok_or_else(|| refused("no matching signing key"))?;
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&d.issuer]);
        validation.set_audience(&[&self.client_id]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let key = DecodingKey::from_jwk(jwk).map_err(refused)?;
        Ok(decode::<Identity>(id_token, &key, &validation)
            .map_err(refused)?
            .claims)
    }

    async fn userinfo(&self, endpoint: &str, access_token: &str) -> Result<Identity, OidcError> {
        let response = self
            .http
            .get(endpoint)
            .bearer_auth(access_token)
            .send()
            .await
            .map_err(unavailable)?;
        if !response.status().is_success() {
            return Err(refused(format!(
                "userinfo: {}",
                answer_text(response).await
            )));
        }
        response.json().await.map_err(refused)
    }
}

#[derive(Deserialize)]
struct TokenResponse {
    id_token: String,
    access_token: Option<String>,
}

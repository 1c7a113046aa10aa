//! The OpenID Connect client for professional-network sign-in: the authorization-code flow
//! with PKCE, `state` and `nonce`. The provider is found by discovery from its issuer URL, and
//! the ID token is verified against the provider's published keys.

use base64::Engine;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{DecodingKey, Validation, decode, decode_header};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio::sync::OnceCell;

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

/// What the browser's sign-in attempt must match when the provider sends it back.
#[derive(Serialize, Deserialize)]
pub struct AuthFlow {
    pub state: String,
    nonce: String,
    verifier: String,
}

/// The identity a verified ID token asserts.
#[derive(Deserialize)]
pub struct Identity {
    pub email: Option<String>,
    #[serde(default, deserialize_with = "bool_or_string")]
    pub email_verified: bool,
    nonce: Option<String>,
    #[serde(default)]
    pub given_name: String,
    #[serde(default)]
    pub family_name: String,
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

    /// The provider's authorization URL for a new attempt, and what its answer must match.
    pub async fn authorize(&self, redirect_uri: &str) -> anyhow::Result<(String, AuthFlow)> {
        let d = self.discovery().await?;
        let flow = AuthFlow {
            state: random(),
            nonce: random(),
            verifier: random(),
        };
        let challenge = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(Sha256::digest(flow.verifier.as_bytes()));
        let mut url = reqwest::Url::parse(&d.authorization_endpoint)?;
        url.query_pairs_mut()
            .append_pair("response_type", "code")
            .append_pair("client_id", &self.client_id)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("scope", "openid email profile")
            .append_pair("state", &flow.state)
            .append_pair("nonce", &flow.nonce)
            .append_pair("code_challenge", &challenge)
            .append_pair("code_challenge_method", "S256");
        Ok((url.into(), flow))
    }

    /// Exchanges the code and returns the verified ID token's identity.
    pub async fn identity(
        &self,
        code: &str,
        redirect_uri: &str,
        flow: &AuthFlow,
    ) -> anyhow::Result<Identity> {
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
        let identity =
            decode::<Identity>(&tokens.id_token, &DecodingKey::from_jwk(jwk)?, &validation)?.claims;
        anyhow::ensure!(
            identity.nonce.as_deref() == Some(flow.nonce.as_str()),
            "nonce mismatch"
        );
        Ok(identity)
    }
}

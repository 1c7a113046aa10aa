//! A stand-in OpenID Connect provider on 127.0.0.1: discovery, an authorize endpoint that
//! consents at once, a token endpoint that checks PKCE, and its signing keys.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Form, Query, State};
use axum::response::{IntoResponse, Redirect};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::json;
use sha2::{Digest, Sha256};

pub const CLIENT_ID: &str = "ortak-test";
pub const CLIENT_SECRET: &str = "stand-in-secret";
const KEY_PEM: &[u8] = include_bytes!("../fixtures/oidc-test-key.pem");

/// Who the provider says the user is, and how it may misbehave.
#[derive(Clone)]
pub struct Identity {
    pub email: String,
    pub email_verified: bool,
    pub given_name: String,
    pub family_name: String,
    /// Sign the token for another client.
    pub wrong_audience: bool,
    /// Put another nonce in the token than the one sent.
    pub wrong_nonce: bool,
}

#[derive(Clone)]
struct Provider {
    issuer: String,
    identity: Arc<Mutex<Identity>>,
    /// code -> (nonce, code challenge)
    codes: Arc<Mutex<HashMap<String, (String, String)>>>,
}

pub struct StandIn {
    pub issuer: String,
    identity: Arc<Mutex<Identity>>,
}

impl StandIn {
    pub async fn start(identity: Identity) -> StandIn {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let identity = Arc::new(Mutex::new(identity));
        let provider = Provider {
            issuer: issuer.clone(),
            identity: identity.clone(),
            codes: Arc::default(),
        };
        let app = Router::new()
            .route("/.well-known/openid-configuration", get(discovery))
            .route("/authorize", get(authorize))
            .route("/token", post(token))
            .route("/jwks", get(jwks))
            .with_state(provider);
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        StandIn { issuer, identity }
    }

    pub fn set(&self, identity: Identity) {
        *self.identity.lock().unwrap() = identity;
    }
}

async fn discovery(State(p): State<Provider>) -> impl IntoResponse {
    Json(json!({
        "issuer": p.issuer,
        "authorization_endpoint": format!("{}/authorize", p.issuer),
        "token_endpoint": format!("{}/token", p.issuer),
        "jwks_uri": format!("{}/jwks", p.issuer),
    }))
}

async fn authorize(
    State(p): State<Provider>,
    Query(q): Query<HashMap<String, String>>,
) -> impl IntoResponse {
    assert_eq!(q["response_type"], "code");
    assert_eq!(q["client_id"], CLIENT_ID);
    assert_eq!(q["code_challenge_method"], "S256");
    assert!(q["scope"].contains("openid"));
    let code = format!("code-{}", p.codes.lock().unwrap().len());
    p.codes.lock().unwrap().insert(
        code.clone(),
        (q["nonce"].clone(), q["code_challenge"].clone()),
    );
    Redirect::to(&format!(
        "{}?code={code}&state={}",
        q["redirect_uri"], q["state"]
    ))
}

async fn token(
    State(p): State<Provider>,
    Form(f): Form<HashMap<String, String>>,
) -> impl IntoResponse {
    let refuse = |why: &str| {
        (
            axum::http::StatusCode::BAD_REQUEST,
            Json(json!({ "error": why })),
        )
            .into_response()
    };
    if f.get("client_secret").map(String::as_str) != Some(CLIENT_SECRET) {
        return refuse("invalid_client");
    }
    let Some((nonce, challenge)) = p.codes.lock().unwrap().remove(&f["code"]) else {
        return refuse("invalid_grant");
    };
    let computed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(Sha256::digest(f["code_verifier"].as_bytes()));
    if computed != challenge {
        return refuse("invalid_grant");
    }
    let id = p.identity.lock().unwrap().clone();
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let claims = json!({
        "iss": p.issuer,
        "aud": if id.wrong_audience { "someone-else" } else { CLIENT_ID },
        "sub": format!("sub-{}", id.email),
        "iat": now,
        "exp": now + 300,
        "nonce": if id.wrong_nonce { "not-the-one-sent".to_owned() } else { nonce },
        "email": id.email,
        "email_verified": id.email_verified,
        "given_name": id.given_name,
        "family_name": id.family_name,
    });
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some("stand-in".into());
    let id_token = encode(
        &header,
        &claims,
        &EncodingKey::from_rsa_pem(KEY_PEM).unwrap(),
    )
    .unwrap();
    Json(json!({ "access_token": "opaque", "token_type": "Bearer", "id_token": id_token }))
        .into_response()
}

async fn jwks() -> impl IntoResponse {
    let mut jwk = Jwk::from_encoding_key(
        &EncodingKey::from_rsa_pem(KEY_PEM).unwrap(),
        Algorithm::RS256,
    )
    .unwrap();
    jwk.common.key_id = Some("stand-in".into());
    Json(JwkSet { keys: vec![jwk] })
}

//! Professional-network sign-in against a certified OpenID Provider (panva's oidc-provider,
//! end2end/standins/oidc-certified.mjs, run locally with node) in its two modes: `certified`
//! (its defaults: e-mail and names only from userinfo, PKCE verified, nonce echoed) and
//! `linkedin` (what LinkedIn does: 401 invalid_client to a token request with code_verifier,
//! no nonce in the ID token). Issue 12, item 18: each behaviour is proved here, plus refusals
//! that use the attempt up, the provider's refusal and error body in the log, and staff who
//! never get in by the professional network alone.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Command, Stdio};

use common::journeys::{ADMIN_PASSWORD, create_admin, second_factor, sign_in};
use common::{Server, client, csrf_of};
use serde_json::{Value, json};
use tempfile::TempDir;

/// The certified provider, running until dropped.
struct Provider {
    child: Child,
    _stdin: ChildStdin,
    issuer: String,
    origin: String,
    http: reqwest::Client,
}

impl Provider {
    fn start(mode: &str) -> Provider {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../end2end/standins/oidc-certified.mjs"
        );
        let mut child = Command::new("node")
            .arg(script)
            .args(["--mode", mode, "--exit-with-stdin"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("node runs the certified provider");
        let stdin = child.stdin.take().unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let issuer = line
            .trim()
            .strip_prefix("oidc provider listening on ")
            .unwrap_or_else(|| panic!("the provider's listening line, not {line:?}"))
            .to_owned();
        let url = reqwest::Url::parse(&issuer).unwrap();
        let origin = format!("http://{}:{}", url.host_str().unwrap(), url.port().unwrap());
        Provider {
            child,
            _stdin: stdin,
            issuer,
            origin,
            http: reqwest::Client::new(),
        }
    }

    /// Ortak's settings for this provider, with `extra` ones.
    fn env<'a>(&'a self, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
        let mut env = vec![
            ("ORTAK_OIDC_ISSUER", self.issuer.as_str()),
            ("ORTAK_OIDC_CLIENT_ID", "ortak-test"),
            ("ORTAK_OIDC_CLIENT_SECRET", "stand-in-secret"),
            ("RUST_LOG", "warn"),
        ];
        env.extend_from_slice(extra);
        env
    }

    /// The account the next sign-in uses.
    async fn account(&self, account: Value) {
        let r = self
            .http
            .post(format!("{}/stand-in/account", self.origin))
            .json(&account)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
    }

    /// The redirect URIs the registered client may use (one per Ortak server).
    async fn redirect_uris(&self, servers: &[&Server]) {
        let uris: Vec<String> = servers
            .iter()
            .map(|s| s.url("/signin/oidc/callback"))
            .collect();
        let r = self
            .http
            .post(format!("{}/stand-in/client", self.origin))
            .json(&json!({ "redirect_uris": uris }))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
    }

    /// Every request the provider answered, in order.
    async fn log(&self) -> Vec<Value> {
        self.http
            .get(format!("{}/stand-in/log", self.origin))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts a sign-in in `browser` and follows it through the provider; returns the callback URL
/// the provider sent the browser back to (not opened yet).
async fn to_callback(server: &Server, provider: &Provider, browser: &reqwest::Client) -> String {
    let start = browser
        .get(server.url("/signin/oidc"))
        .send()
        .await
        .unwrap();
    assert_eq!(start.status(), 303);
    let mut location = start.headers()["location"].to_str().unwrap().to_owned();
    while location.starts_with(&provider.origin) {
        let hop = browser.get(&location).send().await.unwrap();
        assert!(
            hop.status().is_redirection(),
            "{location}: {}",
            hop.status()
        );
        location = hop.headers()["location"].to_str().unwrap().to_owned();
    }
    assert!(
        location.starts_with(&server.url("/signin/oidc/callback?")),
        "{location}"
    );
    location
}

/// A full round trip; returns the callback's answer.
async fn round_trip(
    server: &Server,
    provider: &Provider,
    browser: &reqwest::Client,
) -> reqwest::Response {
    let callback = to_callback(server, provider, browser).await;
    browser.get(&callback).send().await.unwrap()
}

fn account(email: &str) -> Value {
    json!({ "sub": format!("sub-{email}"), "email": email, "given_name": "Deniz", "family_name": "Aksoy" })
}

/// Accepts the terms a new member is shown; returns the answer.
async fn accept_terms(server: &Server, browser: &reqwest::Client) -> reqwest::Response {
    let terms = common::text(browser, server.url("/signin/oidc/terms")).await;
    browser
        .post(server.url("/signin/oidc/terms"))
        .form(&[("csrf", csrf_of(&terms).as_str()), ("terms", "on")])
        .send()
        .await
        .unwrap()
}

fn server_log(server: &Server) -> String {
    server.output.lock().unwrap().join("\n")
}

#[tokio::test]
async fn a_certified_provider_with_its_defaults_signs_a_new_member_in_through_userinfo() {
    let provider = Provider::start("certified");
    let server = Server::start_in(TempDir::new().unwrap(), &provider.env(&[]));
    provider.account(account("sertifika@example.com")).await;
    let browser = client();
    let back = round_trip(&server, &provider, &browser).await;
    assert_eq!(
        back.headers()["location"],
        "/signin/oidc/terms",
        "the e-mail address came from userinfo: {}",
        server_log(&server)
    );
    let log = provider.log().await;
    assert!(
        log.iter().any(|e| e["path"] == "/me" && e["status"] == 200),
        "userinfo was read: {log:?}"
    );
    let token = log.iter().find(|e| e["path"] == "/token").unwrap();
    assert!(
        token["params"]
            .as_array()
            .unwrap()
            .contains(&json!("code_verifier")),
        "PKCE by default"
    );
    assert_eq!(accept_terms(&server, &browser).await.status(), 303);
    let name: String =
        sqlx::query_scalar("SELECT first_name FROM users WHERE email = 'sertifika@example.com'")
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    assert_eq!(name, "Deniz", "the names came from userinfo too");
}

#[tokio::test]
async fn linkedin_as_it_behaves_works_with_the_documented_settings_only() {
    let provider = Provider::start("linkedin");
    provider.account(account("baglanti@example.com")).await;
    // With Ortak's defaults, LinkedIn refuses the token request (code_verifier) and sends no nonce.
    let strict = Server::start_in(TempDir::new().unwrap(), &provider.env(&[]));
    let back = round_trip(&strict, &provider, &client()).await;
    assert_eq!(back.status(), 400);
    assert!(
        server_log(&strict).contains("invalid_client"),
        "the token endpoint's error body reaches the log: {}",
        server_log(&strict)
    );

    let server = Server::start_in(
        TempDir::new().unwrap(),
        &provider.env(&[
            ("ORTAK_OIDC_PKCE", "false"),
            ("ORTAK_OIDC_REQUIRE_NONCE", "false"),
        ]),
    );
    provider.redirect_uris(&[&strict, &server]).await;
    let browser = client();
    let callback = to_callback(&server, &provider, &browser).await;
    let back = browser.get(&callback).send().await.unwrap();
    assert_eq!(
        back.headers()["location"],
        "/signin/oidc/terms",
        "{}",
        server_log(&server)
    );
    let log = provider.log().await;
    let token = log
        .iter()
        .rev()
        .find(|e| e["path"] == "/oauth/token")
        .unwrap();
    assert_eq!(token["status"], 200);
    assert!(
        !token["params"]
            .as_array()
            .unwrap()
            .contains(&json!("code_verifier"))
    );
    assert_eq!(accept_terms(&server, &browser).await.status(), 303);
}

#[tokio::test]
async fn a_refused_callback_uses_the_attempt_up() {
    let provider = Provider::start("certified");
    let server = Server::start_in(TempDir::new().unwrap(), &provider.env(&[]));
    provider.account(account("durum@example.com")).await;
    let browser = client();
    let genuine = to_callback(&server, &provider, &browser).await;
    let mut tampered = reqwest::Url::parse(&genuine).unwrap();
    let pairs: Vec<(String, String)> = tampered
        .query_pairs()
        .map(|(k, v)| {
            let v = if k == "state" {
                format!("{v}x")
            } else {
                v.into_owned()
            };
            (k.into_owned(), v)
        })
        .collect();
    tampered.query_pairs_mut().clear().extend_pairs(pairs);
    let refused = browser.get(tampered.as_str()).send().await.unwrap();
    assert_eq!(refused.status(), 400, "a refusal is a 4xx");
    let replayed = browser.get(&genuine).send().await.unwrap();
    assert_eq!(
        replayed.status(),
        400,
        "the tampered callback used the attempt up"
    );
    assert_eq!(
        browser
            .get(server.url("/signin/oidc/terms"))
            .send()
            .await
            .unwrap()
            .headers()["location"],
        "/signin"
    );
    let log = provider.log().await;
    assert!(
        !log.iter().any(|e| e["path"] == "/token"),
        "the code was never exchanged"
    );
}

#[tokio::test]
async fn the_providers_refusal_is_logged_as_such() {
    let provider = Provider::start("linkedin");
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &provider.env(&[
            ("ORTAK_OIDC_PKCE", "false"),
            ("ORTAK_OIDC_REQUIRE_NONCE", "false"),
        ]),
    );
    for code in ["access_denied", "user_cancelled_authorize"] {
        let mut denied = account("hayir@example.com");
        denied["deny"] = json!(code);
        provider.account(denied).await;
        let back = round_trip(&server, &provider, &client()).await;
        assert_eq!(back.status(), 400);
        let log = server_log(&server);
        assert!(
            log.lines()
                .any(|l| l.contains(code) && l.contains("provider refused")),
            "{code} in {log}"
        );
        assert!(
            !log.contains("without a matching state"),
            "not a state mismatch"
        );
    }
}

#[tokio::test]
async fn staff_never_get_in_by_the_professional_network_alone() {
    let provider = Provider::start("certified");
    let data = TempDir::new().unwrap();
    create_admin(&data, "staff@ortak.test", true);
    let server = Server::start_in(data, &provider.env(&[]));
    // Anyone whose provider account asserts the staff address as verified...
    provider.account(account("staff@ortak.test")).await;
    let intruder = client();
    let back = round_trip(&server, &provider, &intruder).await;
    assert_eq!(back.headers()["location"], "/signin/2fa");
    let r = intruder
        .get(server.url("/signin/2fa"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403, "cannot enrol a second factor this way");
    for path in ["/dashboard", "/signin/2fa/setup", "/dashboard/audit"] {
        let r = intruder.get(server.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 303, "{path}");
        assert_ne!(r.headers()["location"], path);
    }

    // Once enrolled (after the password), the professional network is a first factor.
    sign_in(&server, "staff@ortak.test", ADMIN_PASSWORD).await;
    let browser = client();
    let back = round_trip(&server, &provider, &browser).await;
    assert_eq!(back.headers()["location"], "/signin/2fa");
    assert_eq!(
        browser
            .get(server.url("/dashboard"))
            .send()
            .await
            .unwrap()
            .status(),
        303,
        "nothing before the code"
    );
    second_factor(&server, &browser, "staff@ortak.test").await;
    assert_eq!(
        browser
            .get(server.url("/dashboard"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

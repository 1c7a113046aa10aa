//! What the payment tests share: a server with a superadmin, an investor with an approved
//! request, the card step, and the iyzico stand-in (end2end/standins/iyzico.mjs) run as a
//! child process that exits with the test.

#![allow(dead_code)] // each payment test file uses a different part

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use tempfile::TempDir;

use crate::common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in, sign_up};
use crate::common::money::{make_qualified, verify_email};
use crate::common::{Server, client, csrf_of};

pub use crate::common::money::tckn;

pub const SUPERADMIN: &str = "super@example.com";

/// A server with the demo content and a superadmin, and `env` on top.
pub fn start(env: &[(&str, &str)]) -> Server {
    let data = TempDir::new().unwrap();
    create_admin(&data, SUPERADMIN, true);
    let mut all = vec![("ORTAK_DEMO", "1")];
    all.extend_from_slice(env);
    Server::start_in(data, &all)
}

/// The superadmin, signed in.
pub async fn staff(server: &Server) -> reqwest::Client {
    sign_in(server, SUPERADMIN, ADMIN_PASSWORD).await
}

/// Staff move request `id` to `to` (with `note`); returns the answer's status.
pub async fn move_request(server: &Server, staff: &reqwest::Client, id: i64, to: &str) -> u16 {
    let board = crate::common::text(staff, server.url("/dashboard/investments")).await;
    post_form(
        staff,
        server.url(&format!("/dashboard/investments/{id}/status")),
        &csrf_of(&board),
        &[("to", to.into()), ("note", "test".into())],
    )
    .await
    .status()
    .as_u16()
}

/// `email` signs up, gives MKK data (TCKN from `seed`) and sends a 400.000 TL request for
/// Cemre Enerji (fee 10.000 TL) that staff approve; returns the investor and the request id.
pub async fn approved_request(server: &Server, email: &str, seed: u32) -> (reqwest::Client, i64) {
    let browser = sign_up(server, email).await;
    // A verified address may send MKK data; a qualified investor is not capped by the
    // annual limit (the limits have their own tests).
    verify_email(server, email).await;
    make_qualified(server, email).await;
    let token = csrf(&browser, server, "/mkk").await;
    let identity = tckn(seed);
    let mkk = [
        ("investor_type", "individual"),
        ("citizen", "yes"),
        ("id_type", "tckn"),
        ("first_name", "Ayşe"),
        ("last_name", "Yılmaz"),
        ("email", email),
        ("phone", "05321234567"),
        ("annual_income", "900000"),
        ("identity_number", identity.as_str()),
        ("birth_date", "1980-01-01"),
    ];
    let mkk: Vec<(&str, String)> = mkk.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
    let saved = post_form(&browser, server.url("/mkk"), &token, &mkk).await;
    assert_eq!(saved.status(), 303, "MKK data saved");
    crate::common::money::verify_mkk(server, email).await;
    crate::common::money::open_information_form(server, &browser, "cemre-enerji").await;
    let request = [
        ("startup", "cemre-enerji".to_owned()),
        ("amount", "400.000".into()),
        ("fee_added", "on".into()),
        ("risk", "on".into()),
        ("idempotency_key", format!("pay-{email}")),
    ];
    let sent = post_form(&browser, server.url("/investmentFlow"), &token, &request).await;
    assert_eq!(sent.status(), 303, "request sent");
    let id: i64 = sqlx::query_scalar(
        "SELECT r.id FROM investment_requests r JOIN users u ON u.id = r.user_id WHERE u.email = ?",
    )
    .bind(email)
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    let staff = staff(server).await;
    assert_eq!(move_request(server, &staff, id, "approved").await, 303);
    (browser, id)
}

pub fn card(number: &str, id: i64) -> Vec<(&'static str, String)> {
    vec![
        ("request", id.to_string()),
        ("holder", "Ayşe Yılmaz".into()),
        ("number", number.into()),
        ("month", "12".into()),
        ("year", "2030".into()),
        ("cvv", "123".into()),
    ]
}

/// Posts the card step for request `id`; returns the answer.
pub async fn pay(
    server: &Server,
    browser: &reqwest::Client,
    id: i64,
    number: &str,
) -> reqwest::Response {
    let token = csrf(browser, server, &format!("/invFlow?request={id}")).await;
    post_form(
        browser,
        server.url("/invFlow/card"),
        &token,
        &card(number, id),
    )
    .await
}

pub fn location(response: &reqwest::Response) -> String {
    response.headers()["location"].to_str().unwrap().to_owned()
}

/// A row of `payments` as the tests read it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Payment {
    pub public_id: String,
    pub status: String,
    pub charged: bool,
    pub provider_payment_id: Option<String>,
    pub refund_status: Option<String>,
    pub failure_reason: Option<String>,
}

pub async fn payments(server: &Server, id: i64) -> Vec<Payment> {
    sqlx::query_as(
        "SELECT public_id, status, charged, provider_payment_id, refund_status, failure_reason
         FROM payments WHERE request_id = ? ORDER BY id",
    )
    .bind(id)
    .fetch_all(&server.db().await)
    .await
    .unwrap()
}

/// Whether request `id`'s fee is stamped paid.
pub async fn fee_paid(server: &Server, id: i64) -> bool {
    sqlx::query_scalar::<_, Option<String>>(
        "SELECT fee_paid_at FROM investment_requests WHERE id = ?",
    )
    .bind(id)
    .fetch_one(&server.db().await)
    .await
    .unwrap()
    .is_some()
}

/// How many "fee paid" mails went out.
pub async fn fee_mails(server: &Server) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE subject LIKE '%hizmet bedeliniz alındı%'")
        .fetch_one(&server.db().await)
        .await
        .unwrap()
}

/// Waits (up to 15 s) until `check` holds, for the background jobs.
pub async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..150 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("timed out waiting until {what}");
}

/// The iyzico stand-in, as a child process that leaves when the test drops it.
pub struct Iyzico {
    child: Child,
    _stdin: ChildStdin,
    pub url: String,
    pub api_key: String,
    pub secret_key: String,
}

impl Iyzico {
    /// Starts the stand-in; the timeout card's auth answer takes `hang_ms`.
    pub fn start(hang_ms: u64) -> Iyzico {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../end2end/standins/iyzico.mjs"
        );
        let (api_key, secret_key) = (
            "sandbox-ortak-test-api-key",
            "sandbox-ortak-test-secret-key",
        );
        let mut child = Command::new("node")
            .arg(script)
            .args(["--api-key", api_key, "--secret-key", secret_key])
            .args(["--hang-ms", &hang_ms.to_string(), "--exit-with-stdin"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node runs the iyzico stand-in");
        let stdin = child.stdin.take().unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("iyzico stand-in listening on ")
            .unwrap_or_else(|| panic!("the stand-in reports its address: {line:?}"))
            .to_owned();
        Iyzico {
            child,
            _stdin: stdin,
            url,
            api_key: api_key.into(),
            secret_key: secret_key.into(),
        }
    }

    /// The settings that point a server at this stand-in.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("ORTAK_PAYMENT_PROVIDER", "iyzico".into()),
            ("ORTAK_IYZICO_API_KEY", self.api_key.clone()),
            ("ORTAK_IYZICO_SECRET_KEY", self.secret_key.clone()),
            ("ORTAK_IYZICO_BASE_URL", self.url.clone()),
        ]
    }

    async fn get(&self, path: &str) -> Value {
        reqwest::get(format!("{}{path}", self.url))
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// The next `count` refunds happen but their answers come only after the hang: lost.
    pub async fn lose_refund_answers(&self, count: u32) {
        let sent = reqwest::Client::new()
            .post(format!("{}/stand-in/lose-refund-answers", self.url))
            .body(format!(r#"{{"count":{count}}}"#))
            .send()
            .await
            .unwrap();
        assert_eq!(sent.status(), 204);
    }

    /// The cardholder answers the bank's page (`code` 123456 passes); returns the callback
    /// form iyzico has the browser post: `(callbackUrl, fields)`.
    pub async fn bank_step(&self, payment_id: &str, code: &str) -> (String, Vec<(String, String)>) {
        let answer: Value = reqwest::Client::new()
            .post(format!("{}/stand-in/complete-3ds/{payment_id}", self.url))
            .json(&serde_json::json!({ "code": code }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let fields = answer["fields"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
            .collect();
        (answer["callbackUrl"].as_str().unwrap().to_owned(), fields)
    }

    /// The stand-in's view of a payment (status, amounts, auth calls, refunds).
    pub async fn payment(&self, payment_id: &str) -> Value {
        self.get(&format!("/stand-in/payments/{payment_id}")).await
    }

    /// Every call the stand-in saw.
    pub async fn log(&self) -> Vec<Value> {
        self.get("/stand-in/log").await.as_array().unwrap().clone()
    }

    /// iyzico's callback signature over `fields`, as the stand-in (or a forger with the
    /// secret) makes it.
    pub fn sign(&self, fields: &[(String, String)]) -> String {
        use hmac::{Hmac, Mac};
        let field = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k == name)
                .map_or(String::new(), |(_, v)| v.clone())
        };
        let joined = [
            "conversationData",
            "conversationId",
            "mdStatus",
            "paymentId",
            "status",
        ]
        .map(field)
        .join(":");
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(self.secret_key.as_bytes()).unwrap();
        mac.update(joined.as_bytes());
        mac.finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

impl Drop for Iyzico {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Posts a callback form as the bank's page has the browser do it: cross-site, so with no
/// cookie and no CSRF token.
pub async fn post_callback(url: &str, fields: &[(String, String)]) -> reqwest::Response {
    client().post(url).form(fields).send().await.unwrap()
}

/// Replaces (or adds) `name` in a callback form.
pub fn with_field(fields: &[(String, String)], name: &str, value: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> =
        fields.iter().filter(|(k, _)| k != name).cloned().collect();
    out.push((name.to_owned(), value.to_owned()));
    out
}

pub fn field(fields: &[(String, String)], name: &str) -> String {
    fields
        .iter()
        .find(|(k, _)| k == name)
        .map_or(String::new(), |(_, v)| v.clone())
}

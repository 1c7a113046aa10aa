//! Steps many account tests share: joining, posting forms with the page's CSRF token.

use tempfile::TempDir;

use super::smtp::{SmtpSink, link_in};
use super::{Server, client, csrf_of};

/// A server that mails through a local SMTP sink.
pub async fn start_with_mail() -> (Server, SmtpSink) {
    let sink = SmtpSink::start().await;
    let server = Server::start_in(TempDir::new().unwrap(), &[("ORTAK_SMTP_URL", &sink.url())]);
    (server, sink)
}

pub fn signup_fields(email: &str) -> Vec<(&'static str, String)> {
    vec![
        ("email", email.to_owned()),
        ("password", "gizli-sifre-123".into()),
        ("password_confirm", "gizli-sifre-123".into()),
        ("first_name", "Ayşe".into()),
        ("last_name", "Yılmaz".into()),
        ("phone", "0532 123 45 67".into()),
        ("country", "Türkiye".into()),
        ("city", "İstanbul".into()),
        ("language", "tr".into()),
        ("investor_type", "individual".into()),
        ("terms", "on".into()),
    ]
}

pub async fn post_form(
    browser: &reqwest::Client,
    url: String,
    csrf: &str,
    fields: &[(&str, String)],
) -> reqwest::Response {
    let mut form: Vec<(&str, &str)> = vec![("csrf", csrf)];
    form.extend(fields.iter().map(|(k, v)| (*k, v.as_str())));
    browser.post(url).form(&form).send().await.unwrap()
}

pub async fn csrf(browser: &reqwest::Client, server: &Server, path: &str) -> String {
    csrf_of(
        &browser
            .get(server.url(path))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap(),
    )
}

pub async fn users(server: &Server) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&server.db().await)
        .await
        .unwrap()
}

/// Signs up `email` and follows the verification mail; returns the signed-in browser.
pub async fn join(server: &Server, sink: &SmtpSink, email: &str) -> reqwest::Client {
    let browser = client();
    let token = csrf(&browser, server, "/signup").await;
    let response = post_form(
        &browser,
        server.url("/signup"),
        &token,
        &signup_fields(email),
    )
    .await;
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()["location"], "/verification");
    let mail = sink.wait_for(email, "doğrulayın").await;
    let link = link_in(&mail.text, &server.url("/verificationtoken?token="));
    let response = browser.get(&link).send().await.unwrap();
    assert_eq!(response.status(), 303);
    browser
}

/// Signs up `email` (without reading the verification mail); returns the signed-in browser.
pub async fn sign_up(server: &Server, email: &str) -> reqwest::Client {
    let browser = client();
    let token = csrf(&browser, server, "/signup").await;
    let response = post_form(
        &browser,
        server.url("/signup"),
        &token,
        &signup_fields(email),
    )
    .await;
    assert_eq!(response.status(), 303, "{email} signs up");
    browser
}

/// The password every test admin gets from [`create_admin`].
pub const ADMIN_PASSWORD: &str = "parola-1234";

/// Creates an admin (or superadmin) with `ortak create-admin`, before the server starts.
pub fn create_admin(data: &TempDir, email: &str, superadmin: bool) {
    let mut args = vec![
        "create-admin",
        "--email",
        email,
        "--password",
        ADMIN_PASSWORD,
    ];
    if superadmin {
        args.push("--super");
    }
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_ortak"))
        .args(&args)
        .env("ORTAK_DATA_DIR", data.path())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
}

/// Signs `email` in with a fresh browser.
pub async fn sign_in(server: &Server, email: &str, password: &str) -> reqwest::Client {
    let browser = client();
    let token = csrf(&browser, server, "/signin").await;
    let r = post_form(
        &browser,
        server.url("/signin"),
        &token,
        &[("email", email.into()), ("password", password.into())],
    )
    .await;
    assert_eq!(r.status(), 303, "{email} signs in");
    browser
}

/// The newsletter confirmation link last queued for `email` (read from the outbox).
pub async fn newsletter_link(server: &Server, email: &str) -> String {
    let body: String = sqlx::query_scalar(
        "SELECT text_body FROM outbox WHERE to_email = ? AND text_body LIKE '%/newsletter/confirm?token=%'
         ORDER BY id DESC LIMIT 1",
    )
    .bind(email)
    .fetch_one(&server.db().await)
    .await
    .unwrap_or_else(|e| panic!("no newsletter confirmation for {email}: {e}"));
    super::smtp::link_in(&body, &server.url("/newsletter/confirm?token="))
}

/// Opens `email`'s newsletter confirmation link and presses its button, as the subscriber.
pub async fn confirm_newsletter(server: &Server, email: &str) -> reqwest::Response {
    let link = newsletter_link(server, email).await;
    let browser = client();
    let page = browser.get(&link).send().await.unwrap();
    assert_eq!(page.status(), 200, "the link opens its page");
    let page = page.text().await.unwrap();
    let token = link.split("token=").nth(1).unwrap().to_owned();
    post_form(
        &browser,
        server.url("/newsletter/confirm"),
        &super::csrf_of(&page),
        &[("token", token)],
    )
    .await
}

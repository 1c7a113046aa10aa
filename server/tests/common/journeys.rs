//! Steps many account tests share: joining, signing in (with the second factor staff and
//! enrolled members give), posting forms with the page's CSRF token.
//!
//! Sign-up never signs in (issue 12): [`join`] follows the mailed verification link and presses
//! its button; [`sign_up`] (no mail server) signs in with the password after joining. Staff
//! sign in with two factors: [`sign_in`] enrols an authenticator the first time (reading the
//! secret the enrolment page shows) and computes its codes after that, as a phone would.

use std::collections::HashMap;
use std::sync::Mutex;

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

/// Signs up `email` and follows the verification mail (its page, then its one button); returns
/// the signed-in browser.
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
    let response = follow_verification_link(server, &browser, &link).await;
    assert_eq!(response.status(), 303);
    browser
}

/// Opens a mailed verification link in `browser` and presses its button; returns the answer to
/// the button's POST.
pub async fn follow_verification_link(
    server: &Server,
    browser: &reqwest::Client,
    link: &str,
) -> reqwest::Response {
    let page = browser.get(link).send().await.unwrap();
    assert_eq!(page.status(), 200, "the verification link opens its page");
    let page = page.text().await.unwrap();
    let secret = link.split("token=").nth(1).unwrap().to_owned();
    post_form(
        browser,
        server.url("/verificationtoken"),
        &csrf_of(&page),
        &[("token", secret)],
    )
    .await
}

/// Signs up `email` and, as sign-up signs nobody in, signs in with the password (the address
/// stays unverified); returns the signed-in browser.
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
    let token = csrf(&browser, server, "/signin").await;
    let response = post_form(
        &browser,
        server.url("/signin"),
        &token,
        &[
            ("email", email.into()),
            ("password", "gizli-sifre-123".into()),
        ],
    )
    .await;
    assert_eq!(response.status(), 303, "{email} signs in after joining");
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
        // The server has not started yet: the data folder has no database.
        "--create",
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

/// Signs `email` in with a fresh browser (with the second factor when one is asked for).
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
    let location = r.headers()["location"].to_str().unwrap().to_owned();
    if location.starts_with("/signin/2fa") {
        second_factor(server, &browser, email).await;
    }
    browser
}

/// The newsletter confirmation link in the last mail `email` received (links are issued when
/// a mail is sent: no stored mail holds one).
pub async fn newsletter_link(server: &Server, sink: &SmtpSink, email: &str) -> String {
    let prefix = server.url("/newsletter/confirm?token=");
    let mail = sink.wait_for_text(email, &prefix).await;
    link_in(&mail.text, &prefix)
}

/// Opens `email`'s newsletter confirmation link and presses its button, as the subscriber.
pub async fn confirm_newsletter(
    server: &Server,
    sink: &SmtpSink,
    email: &str,
) -> reqwest::Response {
    let link = newsletter_link(server, sink, email).await;
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

/// Authenticator secrets enrolled by the helpers, by server and address, with the last time
/// step whose code was used (a code works once).
static AUTHENTICATORS: Mutex<Option<Authenticators>> = Mutex::new(None);

/// `(server base, address)` -> `(secret, last step used)`.
type Authenticators = HashMap<(String, String), (String, u64)>;

/// The secret of `email`'s authenticator on `server`, if a helper enrolled one.
pub fn authenticator_secret(server: &Server, email: &str) -> Option<String> {
    let key = (server.base.clone(), email.to_owned());
    AUTHENTICATORS
        .lock()
        .unwrap()
        .as_ref()
        .and_then(|m| m.get(&key))
        .map(|(secret, _)| secret.clone())
}

/// Remembers an authenticator a test enrolled by hand.
pub fn remember_authenticator(server: &Server, email: &str, secret: &str) {
    let key = (server.base.clone(), email.to_owned());
    AUTHENTICATORS
        .lock()
        .unwrap()
        .get_or_insert_with(HashMap::new)
        .insert(key, (secret.to_owned(), 0));
}

/// A code `secret` gives at `step` (30-second steps since the epoch).
pub fn code_at(secret: &str, step: u64) -> String {
    let bytes = totp_rs::Secret::try_from_base32(secret).expect("a base32 secret");
    let totp = totp_rs::Builder::new()
        .with_secret(bytes)
        .build()
        .expect("a valid authenticator");
    totp.generate(step * 30).to_string()
}

fn now_step() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        / 30
}

/// A fresh code for `email`'s authenticator on `server`, as its phone would show it: the server
/// takes each code once and codes of the neighbouring steps, so a step after the last one used
/// is picked (waiting for the clock when three were used within half a minute).
pub async fn next_code(server: &Server, email: &str) -> String {
    let key = (server.base.clone(), email.to_owned());
    loop {
        let (secret, step) = {
            let mut guard = AUTHENTICATORS.lock().unwrap();
            let map = guard.get_or_insert_with(HashMap::new);
            let (secret, last) = map.get(&key).cloned().expect("an enrolled authenticator");
            let now = now_step();
            let step = (now - 1).max(last + 1);
            if step <= now + 1 {
                map.insert(key.clone(), (secret.clone(), step));
                (secret, Some(step))
            } else {
                (secret, None)
            }
        };
        match step {
            Some(step) => return code_at(&secret, step),
            None => tokio::time::sleep(std::time::Duration::from_secs(1)).await,
        }
    }
}

/// The secret the enrolment page shows.
pub fn secret_on_page(html: &str) -> String {
    let marker = "data-secret=\"";
    let start = html
        .find(marker)
        .expect("the enrolment page shows the secret")
        + marker.len();
    html[start..start + html[start..].find('"').unwrap()].to_owned()
}

/// What giving the second factor led to.
pub struct SecondFactor {
    /// Where the member goes next.
    pub next: String,
    /// The recovery codes, when an authenticator was enrolled.
    pub codes: Vec<String>,
    /// The new session cookie's value (`ortak_session`).
    pub session: String,
}

/// The value of the `ortak_session` cookie a response sets.
pub fn session_cookie(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .find_map(|c| {
            // Behind an https public URL the cookie is `__Host-` prefixed.
            let c = c.to_str().unwrap();
            c.strip_prefix("ortak_session=")
                .or_else(|| c.strip_prefix("__Host-ortak_session="))
                .map(|v| v.split(';').next().unwrap().to_owned())
        })
}

/// Gives the second factor of the sign-in pending in `browser`: enrols an authenticator the
/// first time (remembering its secret), gives a code after that.
pub async fn second_factor(
    server: &Server,
    browser: &reqwest::Client,
    email: &str,
) -> SecondFactor {
    let page = browser.get(server.url("/signin/2fa")).send().await.unwrap();
    if page.status() == 303 {
        assert_eq!(page.headers()["location"], "/signin/2fa/setup");
        let html = common_text(browser, server.url("/signin/2fa/setup")).await;
        remember_authenticator(server, email, &secret_on_page(&html));
        let code = next_code(server, email).await;
        let done = post_form(
            browser,
            server.url("/signin/2fa/setup"),
            &csrf_of(&html),
            &[("code", code)],
        )
        .await;
        assert_eq!(done.status(), 200, "{email} enrols an authenticator");
        let session = session_cookie(&done).expect("a new session");
        let html = done.text().await.unwrap();
        let codes = html
            .split("<li><code>")
            .skip(1)
            .map(|s| s[..s.find('<').unwrap()].to_owned())
            .collect();
        // The page's last link: "Continue", to where the member was going.
        let marker = "<p><a href=\"";
        let start = html.rfind(marker).unwrap_or_else(|| panic!("{html}")) + marker.len();
        let next = html[start..start + html[start..].find('"').unwrap()].replace("&amp;", "&");
        return SecondFactor {
            next,
            codes,
            session,
        };
    }
    assert_eq!(page.status(), 200, "{email} is asked for a code");
    let html = page.text().await.unwrap();
    let code = next_code(server, email).await;
    let done = post_form(
        browser,
        server.url("/signin/2fa"),
        &csrf_of(&html),
        &[("code", code)],
    )
    .await;
    assert_eq!(done.status(), 303, "{email} gives the second factor");
    let next = done.headers()["location"].to_str().unwrap().to_owned();
    SecondFactor {
        next,
        codes: Vec::new(),
        session: session_cookie(&done).expect("a new session"),
    }
}

async fn common_text(browser: &reqwest::Client, url: String) -> String {
    browser.get(url).send().await.unwrap().text().await.unwrap()
}

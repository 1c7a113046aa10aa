//! The attacks of issue 12 on accounts (the review's F1, F6, F12, F15 and F16), performed
//! against the real server: live links read from the staff mailbox, links that outlive a
//! credential change, login CSRF through a verification link, account enumeration and CPU
//! burning through sign-up and reset, connections that trickle headers, cached personal pages,
//! and an unbounded service-fee setting.

use crate::common;

use std::time::Duration;

use common::journeys::{
    ADMIN_PASSWORD, create_admin, csrf, follow_verification_link, join, post_form, sign_in,
    signup_fields, start_with_mail,
};
use common::smtp::link_in;
use common::{Server, client, csrf_of, scalar};
use tempfile::TempDir;

/// Asks for a sign-in link for `email` as an anonymous visitor.
async fn ask_for_link(server: &Server, email: &str, next: &str) {
    let visitor = client();
    let token = csrf(&visitor, server, "/signin").await;
    let r = post_form(
        &visitor,
        server.url("/signin/link"),
        &token,
        &[("link_email", email.into()), ("next", next.into())],
    )
    .await;
    assert_eq!(r.status(), 200);
}

/// The token of a link.
fn token_of(link: &str) -> String {
    link.split("token=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn an_admin_cannot_take_over_the_superadmin_through_the_mailbox() {
    let sink = common::smtp::SmtpSink::start().await;
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@ortak.test", false);
    create_admin(&data, "boss@ortak.test", true);
    let server = Server::start_in(data, &[("ORTAK_SMTP_URL", &sink.url())]);

    // F1: a visitor asks for the superadmin's sign-in link; an admin reads the mailbox.
    ask_for_link(&server, "boss@ortak.test", "/dashboard/audit").await;
    let mail = sink.wait_for("boss@ortak.test", "giriş bağlantınız").await;
    let admin = sign_in(&server, "admin@ortak.test", ADMIN_PASSWORD).await;
    let mailbox = admin
        .get(server.url("/dashboard/mailbox"))
        .send()
        .await
        .unwrap();
    assert_eq!(mailbox.status(), 403, "the mailbox is for superadmins only");

    // Nothing stored holds the token: not the outbox, nor anything a backup copies.
    let stored = scalar(
        &server,
        "SELECT COUNT(*) FROM outbox WHERE text_body LIKE '%token=%' OR html_body LIKE '%token=%'",
    )
    .await;
    assert_eq!(stored, 0, "no stored mail holds a token");
    // The mail that was sent carries a working link (its token stored only as a hash).
    let link = link_in(&mail.text, &server.url("/signin/link?token="));
    let hash = scalar(
        &server,
        &format!(
            "SELECT COUNT(*) FROM auth_tokens WHERE token_hash = '{}'",
            token_of(&link)
        ),
    )
    .await;
    assert_eq!(hash, 0, "only the hash is stored");
    let page = client().get(&link).send().await.unwrap();
    assert_eq!(page.status(), 200);
    // (Enrolling the second factor at this first sign-in uses that link up.)
    let boss = sign_in(&server, "boss@ortak.test", ADMIN_PASSWORD).await;
    let page = common::text(&boss, server.url("/dashboard/mailbox")).await;
    assert!(page.contains("boss@ortak.test"));
    assert!(page.contains("[link sent only by e-mail]"));
    assert!(!page.contains("token="));
}

#[tokio::test]
async fn without_smtp_no_link_is_ever_issued() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "boss@ortak.test", true);
    let server = Server::start_in(data, &[]);
    ask_for_link(&server, "boss@ortak.test", "/").await;
    let visitor = client();
    let token = csrf(&visitor, &server, "/forgotpassword").await;
    let r = post_form(
        &visitor,
        server.url("/forgotpassword"),
        &token,
        &[("email", "boss@ortak.test".into())],
    )
    .await;
    assert_eq!(r.status(), 200);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(scalar(&server, "SELECT COUNT(*) FROM outbox").await, 2);
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM auth_tokens").await,
        0,
        "no token exists while the mails wait unsent"
    );
}

#[tokio::test]
async fn sent_mail_bodies_are_purged_after_thirty_days() {
    let clock = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(clock.path(), "0").unwrap();
    let sink = common::smtp::SmtpSink::start().await;
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[
            ("ORTAK_SMTP_URL", &sink.url()),
            ("ORTAK_CLOCK_FILE", clock.path().to_str().unwrap()),
            ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
        ],
    );
    join(&server, &sink, "eski@example.com").await;
    let bodies = "SELECT COUNT(*) FROM outbox WHERE text_body != '' AND html_body != ''";
    server.run_jobs().await;
    assert_eq!(scalar(&server, bodies).await, 1, "kept for 30 days");
    std::fs::write(clock.path(), (31 * 24 * 3600).to_string()).unwrap();
    for _ in 0..50 {
        if scalar(&server, bodies).await == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the sent mail's body is still stored after 31 days");
}

#[tokio::test]
async fn a_password_reset_or_change_uses_up_every_link_mailed_before() {
    let (server, sink) = start_with_mail().await;
    // F6: a verification link kept from sign-up still signs in after a password reset.
    let browser = client();
    let token = csrf(&browser, &server, "/signup").await;
    let r = post_form(
        &browser,
        server.url("/signup"),
        &token,
        &signup_fields("kurban@example.com"),
    )
    .await;
    assert_eq!(r.status(), 303);
    let mail = sink.wait_for("kurban@example.com", "doğrulayın").await;
    let verification = link_in(&mail.text, &server.url("/verificationtoken?token="));
    let r = post_form(
        &browser,
        server.url("/forgotpassword"),
        &token,
        &[("email", "kurban@example.com".into())],
    )
    .await;
    assert_eq!(r.status(), 200);
    let mail = sink.wait_for("kurban@example.com", "şifre sıfırlama").await;
    let reset = link_in(&mail.text, &server.url("/resetpassword?token="));
    let r = post_form(
        &browser,
        server.url("/resetpassword"),
        &token,
        &[
            ("token", token_of(&reset)),
            ("password", "yeni-sifre-456".into()),
            ("password_confirm", "yeni-sifre-456".into()),
        ],
    )
    .await;
    assert_eq!(r.status(), 303);
    assert_eq!(
        client().get(&verification).send().await.unwrap().status(),
        410,
        "the verification link died with the reset"
    );

    // A password change: sign-in and reset links asked for before it no longer work.
    let member = common::journeys::sign_in(&server, "kurban@example.com", "yeni-sifre-456").await;
    ask_for_link(&server, "kurban@example.com", "/").await;
    let signin_mail = sink
        .wait_for("kurban@example.com", "giriş bağlantınız")
        .await;
    let signin_link = link_in(&signin_mail.text, &server.url("/signin/link?token="));
    let r = post_form(
        &browser,
        server.url("/forgotpassword"),
        &token,
        &[("email", "kurban@example.com".into())],
    )
    .await;
    assert_eq!(r.status(), 200);
    for _ in 0..100 {
        if sink.count_to("kurban@example.com") == 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mail = sink.wait_for("kurban@example.com", "şifre sıfırlama").await;
    let second_reset = link_in(&mail.text, &server.url("/resetpassword?token="));
    assert_ne!(second_reset, reset);
    let page = common::text(&member, server.url("/profile?tab=security")).await;
    let r = post_form(
        &member,
        server.url("/profile/password"),
        &csrf_of(&page),
        &[
            ("current_password", "yeni-sifre-456".into()),
            ("password", "ucuncu-sifre-789".into()),
            ("password_confirm", "ucuncu-sifre-789".into()),
        ],
    )
    .await;
    assert_eq!(r.status(), 303);
    assert_eq!(
        client().get(&signin_link).send().await.unwrap().status(),
        410,
        "the sign-in link died with the password change"
    );
    assert_eq!(
        client().get(&second_reset).send().await.unwrap().status(),
        410,
        "and so did the reset link"
    );
    let open = scalar(
        &server,
        "SELECT COUNT(*) FROM auth_tokens t JOIN users u ON u.id = t.user_id
         WHERE u.email = 'kurban@example.com' AND t.used_at IS NULL",
    )
    .await;
    assert_eq!(open, 0, "no link of any kind is left open");
}

#[tokio::test]
async fn deactivation_uses_up_open_links() {
    let sink = common::smtp::SmtpSink::start().await;
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@ortak.test", false);
    let server = Server::start_in(data, &[("ORTAK_SMTP_URL", &sink.url())]);
    join(&server, &sink, "gider@example.com").await;
    ask_for_link(&server, "gider@example.com", "/").await;
    let mail = sink
        .wait_for("gider@example.com", "giriş bağlantınız")
        .await;
    let link = link_in(&mail.text, &server.url("/signin/link?token="));
    let id = scalar(
        &server,
        "SELECT id FROM users WHERE email = 'gider@example.com'",
    )
    .await;
    let admin = sign_in(&server, "admin@ortak.test", ADMIN_PASSWORD).await;
    let page = common::text(&admin, server.url(&format!("/dashboard/users/{id}"))).await;
    let r = post_form(
        &admin,
        server.url(&format!("/dashboard/users/{id}/active")),
        &csrf_of(&page),
        &[
            ("active", "0".into()),
            ("confirm", "gider@example.com".into()),
        ],
    )
    .await;
    assert_eq!(r.status(), 303);
    // Even restored, the account's old link stays dead.
    let r = post_form(
        &admin,
        server.url(&format!("/dashboard/users/{id}/active")),
        &csrf_of(&page),
        &[
            ("active", "1".into()),
            ("confirm", "gider@example.com".into()),
        ],
    )
    .await;
    assert_eq!(r.status(), 303);
    assert_eq!(client().get(&link).send().await.unwrap().status(), 410);
}

#[tokio::test]
async fn a_planted_verification_link_never_switches_the_victims_session() {
    let (server, sink) = start_with_mail().await;
    let victim = join(&server, &sink, "kurban@example.com").await;
    // The attacker joins with a throw-away address and keeps the verification link.
    let attacker = client();
    let token = csrf(&attacker, &server, "/signup").await;
    let mut fields = signup_fields("saldirgan@example.com");
    fields.retain(|(k, _)| *k != "first_name");
    fields.push(("first_name", "SALDIRGAN".into()));
    let r = post_form(&attacker, server.url("/signup"), &token, &fields).await;
    assert_eq!(r.status(), 303);
    let mail = sink.wait_for("saldirgan@example.com", "doğrulayın").await;
    let link = link_in(&mail.text, &server.url("/verificationtoken?token="));

    // F6: the victim, signed in, is sent to the link (a top-level GET carries Lax cookies).
    let opened = victim.get(&link).send().await.unwrap();
    assert_eq!(opened.status(), 200, "a page with one button, nothing more");
    let html = opened.text().await.unwrap();
    assert!(
        html.contains("saldirgan@example.com"),
        "it names the address"
    );
    let home = common::text(&victim, server.url("/")).await;
    assert!(home.contains("Ayşe Yılmaz") && !home.contains("SALDIRGAN"));
    // Even pressing the button keeps the victim in their own account.
    let r = post_form(
        &victim,
        server.url("/verificationtoken"),
        &csrf_of(&html),
        &[("token", token_of(&link))],
    )
    .await;
    assert_eq!(r.status(), 303);
    let home = common::text(&victim, server.url("/")).await;
    assert!(home.contains("Ayşe Yılmaz"), "still the victim");
    assert!(!home.contains("SALDIRGAN"), "never the attacker's account");
    assert!(home.contains("doğrulandı"), "the page says what happened");

    // A visitor who merely opens a link is not signed in by it.
    let (server2, sink2) = start_with_mail().await;
    let browser = client();
    let token = csrf(&browser, &server2, "/signup").await;
    post_form(
        &browser,
        server2.url("/signup"),
        &token,
        &signup_fields("yeni@example.com"),
    )
    .await;
    let mail = sink2.wait_for("yeni@example.com", "doğrulayın").await;
    let link = link_in(&mail.text, &server2.url("/verificationtoken?token="));
    let visitor = client();
    assert_eq!(visitor.get(&link).send().await.unwrap().status(), 200);
    let profile = visitor.get(server2.url("/profile")).send().await.unwrap();
    assert_eq!(profile.status(), 303, "a GET signs nobody in");
    let r = follow_verification_link(&server2, &visitor, &link).await;
    assert_eq!(r.status(), 303, "the button does");
    assert_eq!(
        visitor
            .get(server2.url("/profile"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

#[tokio::test]
async fn a_new_verification_link_makes_the_older_ones_useless() {
    let (server, sink) = start_with_mail().await;
    let member = common::journeys::sign_up(&server, "iki@example.com").await;
    let first = sink.wait_for("iki@example.com", "doğrulayın").await;
    let first = link_in(&first.text, &server.url("/verificationtoken?token="));
    let page = common::text(&member, server.url("/verification")).await;
    let r = post_form(&member, server.url("/verification"), &csrf_of(&page), &[]).await;
    assert_eq!(r.status(), 200);
    for _ in 0..100 {
        if sink.count_to("iki@example.com") == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(client().get(&first).send().await.unwrap().status(), 410);
}

/// The cookies a response sets, by name.
fn cookie_names(response: &reqwest::Response) -> Vec<String> {
    let mut names: Vec<String> = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|c| c.to_str().unwrap().split('=').next().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn sign_up_answers_a_new_and_a_taken_address_alike_and_is_rate_limited() {
    let (server, sink) = start_with_mail().await;
    join(&server, &sink, "var@example.com").await;
    // F12: the same answer, and no session for either.
    let mut answers = Vec::new();
    for email in ["var@example.com", "yok@example.com"] {
        let browser = client();
        let token = csrf(&browser, &server, "/signup").await;
        let r = post_form(
            &browser,
            server.url("/signup"),
            &token,
            &signup_fields(email),
        )
        .await;
        let location = r.headers()["location"].to_str().unwrap().to_owned();
        answers.push((r.status().as_u16(), location, cookie_names(&r)));
        let profile = browser.get(server.url("/profile")).send().await.unwrap();
        assert_eq!(profile.status(), 303, "{email}: nobody is signed in");
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0].0, 303);
    assert!(answers[0].2.is_empty(), "no cookie: {:?}", answers[0].2);

    // F12/F15: sign-ups (each an argon2 hash) are limited per client address.
    let browser = client();
    let token = csrf(&browser, &server, "/signup").await;
    let mut statuses = Vec::new();
    for i in 0..22 {
        let r = post_form(
            &browser,
            server.url("/signup"),
            &token,
            &signup_fields(&format!("toplu-{i}@example.com")),
        )
        .await;
        statuses.push(r.status().as_u16());
    }
    assert!(
        statuses.contains(&429),
        "sign-ups are rate limited: {statuses:?}"
    );
}

#[tokio::test]
async fn bogus_resets_are_refused_before_hashing_and_rate_limited() {
    let server = Server::start_in(TempDir::new().unwrap(), &[]);
    let browser = client();
    let token = csrf(&browser, &server, "/forgotpassword").await;
    let mut statuses = Vec::new();
    for _ in 0..24 {
        let r = post_form(
            &browser,
            server.url("/resetpassword"),
            &token,
            &[
                ("token", "uydurma-bir-belirtec".into()),
                ("password", "uzun-bir-sifre-1".into()),
                ("password_confirm", "uzun-bir-sifre-1".into()),
            ],
        )
        .await;
        statuses.push(r.status().as_u16());
    }
    assert_eq!(statuses[0], 410, "a made-up link is dead");
    assert!(
        statuses.contains(&429),
        "resets are rate limited: {statuses:?}"
    );
}

#[tokio::test]
async fn connections_that_trickle_headers_are_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[("ORTAK_HEADER_TIMEOUT_SECONDS", "2")],
    );
    let address = server.base.trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(&address).await.unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let started = std::time::Instant::now();
    // One header line every half second, never the blank line that ends them.
    let closed = loop {
        if started.elapsed() > Duration::from_secs(8) {
            break false;
        }
        let mut buf = [0u8; 512];
        match tokio::time::timeout(Duration::from_millis(500), stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break true,
            Ok(Ok(_)) => {} // a 408 answer before the close
            Err(_) => {
                if stream.write_all(b"X-Trickle: 1\r\n").await.is_err() {
                    break true;
                }
            }
        }
    };
    assert!(closed, "the connection was still open after 8 s");
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "closed after {:?}",
        started.elapsed()
    );
    // A normal request still works.
    assert_eq!(server.get("/healthz").await.0, 200);
}

#[tokio::test]
async fn personal_pages_are_never_stored_by_caches() {
    let (server, sink) = start_with_mail().await;
    let member = join(&server, &sink, "onbellek@example.com").await;
    for path in [
        "/profile?tab=investor",
        "/mkk",
        "/profile",
        "/api/getProfile",
    ] {
        let r = member.get(server.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert_eq!(r.headers()["cache-control"], "no-store, private", "{path}");
    }
    // Hashed assets keep their long cache, for members too.
    let home = common::text(&member, server.url("/")).await;
    let css = home.split("href=\"/assets/").nth(1).unwrap();
    let css = &css[..css.find('"').unwrap()];
    let r = member
        .get(server.url(&format!("/assets/{css}")))
        .send()
        .await
        .unwrap();
    assert!(
        r.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
    // Anonymous visitors' public pages stay shareable by the browser's own cache.
    let r = client().get(server.url("/faq")).send().await.unwrap();
    assert_eq!(r.headers()["cache-control"], "no-cache");
    // A page holding a secret from its link is private whoever opens it.
    ask_for_link(&server, "onbellek@example.com", "/").await;
    let mail = sink
        .wait_for("onbellek@example.com", "giriş bağlantınız")
        .await;
    let link = link_in(&mail.text, &server.url("/signin/link?token="));
    for url in [link, server.url("/resetpassword?token=x")] {
        let r = client().get(&url).send().await.unwrap();
        assert_eq!(r.headers()["cache-control"], "no-store, private", "{url}");
    }
}

#[tokio::test]
async fn a_service_fee_outside_0_to_1000_basis_points_refuses_to_start() {
    for (value, starts) in [
        ("-1", false),
        ("1001", false),
        ("10000", false),
        ("1000", true),
    ] {
        let data = TempDir::new().unwrap();
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_ortak"))
            .args(["migrate", "--create"])
            .env("ORTAK_DATA_DIR", data.path())
            .env("ORTAK_SERVICE_FEE_BP", value)
            .output()
            .unwrap();
        assert_eq!(
            output.status.success(),
            starts,
            "ORTAK_SERVICE_FEE_BP={value}"
        );
        if !starts {
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(stderr.contains("ORTAK_SERVICE_FEE_BP") || stderr.contains("service-fee"));
        }
    }
}

//! Sign-up, verification, sign-in by password and by e-mailed link, recovery and sign-out,
//! against the real server and a local SMTP sink.

use crate::common;

use common::journeys::{csrf, join, post_form, signup_fields, start_with_mail as start, users};
use common::smtp::link_in;
use common::{client, csrf_of};

#[tokio::test]
async fn sign_up_refuses_each_bad_input_with_the_spec_message_and_stores_nothing() {
    let (server, _sink) = start().await;
    let browser = client();
    let token = csrf(&browser, &server, "/signup").await;
    let cases: [(&str, &str, &str, &str); 8] = [
        (
            "email",
            "not-an-email",
            "Lütfen geçerli bir e-posta girin",
            "Please enter a valid email address.",
        ),
        (
            "password",
            "short",
            "Şifre en az 8 karakter olmalıdır",
            "Password must be at least 8 characters",
        ),
        (
            "password_confirm",
            "other-password",
            "Şifreler eşleşmelidir",
            "Passwords must match",
        ),
        (
            "first_name",
            "",
            "Bu alan zorunludur",
            "This field is required",
        ),
        (
            "phone",
            "0532 12",
            "Lütfen telefon numaranızı eksiksiz girin.",
            "Please enter your phone number completely.",
        ),
        (
            "phone",
            "0532 abc 4567",
            "Lütfen yalnızca rakam girin.",
            "Please enter only numbers.",
        ),
        (
            "investor_type",
            "",
            "Kullanıcı tipi seçilmelidir",
            "User type must be selected",
        ),
        (
            "terms",
            "",
            "Kullanım koşullarını kabul etmelisiniz",
            "You must accept the terms and conditions",
        ),
    ];
    for (field, bad, tr, en) in cases {
        for (lang, message) in [("tr", tr), ("en", en)] {
            let mut fields = signup_fields("yeni@example.com");
            fields.retain(|(k, _)| *k != field);
            if !bad.is_empty() {
                fields.push((field, bad.to_owned()));
            }
            let response = post_form(
                &browser,
                server.url(&format!("/signup?lang={lang}")),
                &token,
                &fields,
            )
            .await;
            assert_eq!(response.status(), 422, "{field}={bad}");
            let html = response.text().await.unwrap();
            assert!(
                html.contains(message),
                "{field}={bad} ({lang}) lacks {message:?}"
            );
            assert!(
                html.contains("value=\"Ayşe\"") || field == "first_name",
                "keeps what was typed"
            );
            assert!(html.contains("value=\"İstanbul\""), "keeps what was typed");
            assert!(
                !html.contains("gizli-sifre-123"),
                "passwords are never echoed"
            );
        }
    }
    assert_eq!(users(&server).await, 0);
}

#[tokio::test]
async fn a_new_investor_signs_up_verifies_signs_out_and_signs_back_in() {
    let (server, sink) = start().await;
    let browser = join(&server, &sink, "ayse@example.com").await;
    let home = common::text(&browser, server.url("/")).await;
    assert!(
        home.contains("E-posta adresiniz doğrulandı"),
        "verification flash"
    );
    assert!(
        home.contains("Ayşe Yılmaz"),
        "the header shows the signed-in user"
    );
    assert!(
        home.contains("href=\"/contactUs\""),
        "the avatar menu has the contact link"
    );

    let db = server.db().await;
    let (hash, verified): (String, Option<String>) = sqlx::query_as(
        "SELECT password_hash, email_verified_at FROM users WHERE email = 'ayse@example.com'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(hash.starts_with("$argon2id$"));
    assert!(verified.is_some());
    let mail = sink.wait_for("ayse@example.com", "doğrulayın").await;
    let token = link_in(&mail.text, &server.url("/verificationtoken?token="))
        .split("token=")
        .nth(1)
        .unwrap()
        .to_owned();
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM auth_tokens WHERE token_hash = ?")
        .bind(&token)
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(stored, 0, "tokens are stored hashed");
    // The link is single-use.
    let again = client()
        .get(server.url(&format!("/verificationtoken?token={token}")))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 410);

    let token = csrf_of(&home);
    let out = browser
        .post(server.url("/logout"))
        .form(&[("csrf", token.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 303);
    assert_eq!(out.headers()["location"], "/");
    let home = common::text(&browser, server.url("/")).await;
    assert!(
        !home.contains("Ayşe Yılmaz") && home.contains("href=\"/signin\""),
        "signed out"
    );

    // Wrong password: one generic message, the address kept.
    let token = csrf(&browser, &server, "/signin").await;
    for (email, password) in [
        ("ayse@example.com", "wrong-password"),
        ("nobody@example.com", "whatever1"),
    ] {
        let response = post_form(
            &browser,
            server.url("/signin"),
            &token,
            &[
                ("email", email.into()),
                ("password", password.into()),
                ("next", "/".into()),
            ],
        )
        .await;
        assert_eq!(response.status(), 422);
        let html = response.text().await.unwrap();
        assert!(html.contains("E-posta adresi veya şifre hatalı."));
        assert!(html.contains(&format!("value=\"{email}\"")));
    }
    let response = post_form(
        &browser,
        server.url("/login"),
        &token,
        &[
            ("email", "AYSE@example.com".into()),
            ("password", "gizli-sifre-123".into()),
            ("next", "/faq".into()),
        ],
    )
    .await;
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()["location"], "/faq");
    let cookie = response.headers().get_all("set-cookie").iter().any(|c| {
        let c = c.to_str().unwrap();
        c.starts_with("ortak_session=") && c.contains("HttpOnly") && c.contains("SameSite=Lax")
    });
    assert!(cookie, "a fresh HttpOnly, SameSite=Lax session cookie");
    let faq = common::text(&browser, server.url("/faq")).await;
    assert!(faq.contains("Ayşe Yılmaz"));
}

#[tokio::test]
async fn an_emailed_link_signs_in_once() {
    let (server, sink) = start().await;
    join(&server, &sink, "link@example.com").await;
    let browser = client();
    let token = csrf(&browser, &server, "/signin").await;
    for email in ["link@example.com", "stranger@example.com"] {
        let response = post_form(
            &browser,
            server.url("/signin/link"),
            &token,
            &[("link_email", email.into()), ("next", "/blog".into())],
        )
        .await;
        assert_eq!(response.status(), 200);
        assert!(
            response
                .text()
                .await
                .unwrap()
                .contains("giriş bağlantısı gönderildi"),
            "same answer for {email}"
        );
    }
    assert_eq!(sink.count_to("stranger@example.com"), 0);
    let mail = sink.wait_for("link@example.com", "giriş bağlantınız").await;
    let link = link_in(&mail.text, &server.url("/signin/link?token="));

    // Opening the link (as a mail scanner would) does not use it up.
    let page = common::text(&browser, &link).await;
    let page = browser
        .get(&link)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap_or(page);
    let secret = link
        .split("token=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_owned();
    let response = post_form(
        &browser,
        server.url("/signin/link/use"),
        &csrf_of(&page),
        &[("token", secret.clone()), ("next", "/blog".into())],
    )
    .await;
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()["location"], "/blog");
    let blog = common::text(&browser, server.url("/blog")).await;
    assert!(blog.contains("Ayşe Yılmaz"));

    let reuse = post_form(
        &browser,
        server.url("/signin/link/use"),
        &csrf_of(&blog),
        &[("token", secret), ("next", "/".into())],
    )
    .await;
    assert_eq!(reuse.status(), 410);
}

#[tokio::test]
async fn a_forgotten_password_is_reset_once_and_ends_other_sessions() {
    let (server, sink) = start().await;
    let other_device = join(&server, &sink, "reset@example.com").await;
    let browser = client();
    let token = csrf(&browser, &server, "/forgotpassword").await;

    let unknown = post_form(
        &browser,
        server.url("/forgot-password"),
        &token,
        &[("email", "nobody@example.com".into())],
    )
    .await;
    assert_eq!(unknown.status(), 422);
    assert!(
        unknown
            .text()
            .await
            .unwrap()
            .contains("Bu e-posta adresiyle kayıtlı kullanıcı bulunamadı.")
    );
    let english = client();
    let english_token = csrf(&english, &server, "/forgotpassword?lang=en").await;
    let unknown = post_form(
        &english,
        server.url("/forgotpassword"),
        &english_token,
        &[("email", "nobody@example.com".into())],
    )
    .await;
    assert!(
        unknown
            .text()
            .await
            .unwrap()
            .contains("No user found with this email address.")
    );

    let sent = post_form(
        &browser,
        server.url("/forgotpassword"),
        &token,
        &[("email", "reset@example.com".into())],
    )
    .await;
    assert_eq!(sent.status(), 200);
    let mail = sink.wait_for("reset@example.com", "şifre sıfırlama").await;
    let link = link_in(&mail.text, &server.url("/resetpassword?token="));
    let secret = link.split("token=").nth(1).unwrap().to_owned();
    assert_eq!(browser.get(&link).send().await.unwrap().status(), 200);

    let mismatch = post_form(
        &browser,
        server.url("/resetpassword"),
        &token,
        &[
            ("token", secret.clone()),
            ("password", "yeni-sifre-456".into()),
            ("password_confirm", "baska".into()),
        ],
    )
    .await;
    assert_eq!(mismatch.status(), 422);
    assert!(
        mismatch
            .text()
            .await
            .unwrap()
            .contains("Şifreler eşleşmelidir")
    );

    let done = post_form(
        &browser,
        server.url("/resetpassword"),
        &token,
        &[
            ("token", secret.clone()),
            ("password", "yeni-sifre-456".into()),
            ("password_confirm", "yeni-sifre-456".into()),
        ],
    )
    .await;
    assert_eq!(done.status(), 303);
    assert_eq!(done.headers()["location"], "/signin");
    let signin = common::text(&browser, server.url("/signin")).await;
    assert!(signin.contains("Şifreniz sıfırlandı"), "says so");

    let elsewhere = common::text(&other_device, server.url("/")).await;
    assert!(
        !elsewhere.contains("Ayşe Yılmaz"),
        "the other device was signed out"
    );
    assert_eq!(
        browser.get(&link).send().await.unwrap().status(),
        410,
        "the link is used up"
    );

    let old = post_form(
        &browser,
        server.url("/signin"),
        &csrf_of(&signin),
        &[
            ("email", "reset@example.com".into()),
            ("password", "gizli-sifre-123".into()),
        ],
    )
    .await;
    assert_eq!(old.status(), 422);
    let new = post_form(
        &browser,
        server.url("/signin"),
        &csrf_of(&signin),
        &[
            ("email", "reset@example.com".into()),
            ("password", "yeni-sifre-456".into()),
        ],
    )
    .await;
    assert_eq!(new.status(), 303);

    // An expired link is refused.
    post_form(
        &browser,
        server.url("/forgotpassword"),
        &token,
        &[("email", "reset@example.com".into())],
    )
    .await;
    sqlx::query("UPDATE auth_tokens SET expires_at = '2000-01-01T00:00:00Z' WHERE kind = 'reset' AND used_at IS NULL")
        .execute(&server.db().await)
        .await
        .unwrap();
    let mail = sink.wait_for("reset@example.com", "şifre sıfırlama").await;
    let expired = link_in(&mail.text, &server.url("/resetpassword?token="));
    let response = browser.get(&expired).send().await.unwrap();
    assert_eq!(response.status(), 410);
    assert!(response.text().await.unwrap().contains("süresi dolmuş"));
}

#[tokio::test]
async fn joining_with_a_taken_address_reveals_nothing_and_mails_the_owner() {
    let (server, sink) = start().await;
    join(&server, &sink, "taken@example.com").await;
    let browser = client();
    let token = csrf(&browser, &server, "/register").await;
    let response = post_form(
        &browser,
        server.url("/register"),
        &token,
        &signup_fields("taken@example.com"),
    )
    .await;
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()["location"], "/verification");
    sink.wait_for("taken@example.com", "zaten var").await;
    assert_eq!(users(&server).await, 1);

    // Repeating it cannot flood the owner's mailbox.
    for _ in 0..4 {
        let response = post_form(
            &browser,
            server.url("/register"),
            &token,
            &signup_fields("taken@example.com"),
        )
        .await;
        assert_eq!(response.status(), 303);
    }
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    assert_eq!(
        sink.count_to("taken@example.com"),
        1 + 3,
        "the verification mail and three notices"
    );
}

#[tokio::test]
async fn repeated_wrong_passwords_are_rate_limited() {
    let (server, _sink) = start().await;
    let browser = client();
    let token = csrf(&browser, &server, "/signin").await;
    let mut statuses = Vec::new();
    for _ in 0..6 {
        let response = post_form(
            &browser,
            server.url("/signin"),
            &token,
            &[
                ("email", "victim@example.com".into()),
                ("password", "guess-guess".into()),
            ],
        )
        .await;
        statuses.push(response.status().as_u16());
        if response.status() == 429 {
            assert!(
                response
                    .text()
                    .await
                    .unwrap()
                    .contains("Çok fazla deneme yapıldı")
            );
        }
    }
    assert_eq!(statuses, [422, 422, 422, 422, 422, 429]);
}

#[tokio::test]
async fn mail_waits_in_the_outbox_while_smtp_is_down() {
    // Nothing listens on port 9 of the loopback: every attempt fails and is retried later.
    let server = common::Server::start_in(
        tempfile::TempDir::new().unwrap(),
        &[("ORTAK_SMTP_URL", "smtp://127.0.0.1:9")],
    );
    let browser = client();
    let token = csrf(&browser, &server, "/signup").await;
    let response = post_form(
        &browser,
        server.url("/signup"),
        &token,
        &signup_fields("bekle@example.com"),
    )
    .await;
    assert_eq!(response.status(), 303);
    let db = server.db().await;
    for _ in 0..100 {
        let row: (String, i64, Option<String>, String) = sqlx::query_as(
            "SELECT status, attempts, last_error, next_attempt_at FROM outbox WHERE to_email = 'bekle@example.com'",
        )
        .fetch_one(&db)
        .await
        .unwrap();
        if row.1 > 0 {
            assert_eq!(row.0, "pending", "kept for another try");
            assert!(row.2.is_some(), "the error is recorded");
            assert!(
                row.3.as_str() > common::now_text().as_str(),
                "the next try is later (backoff)"
            );
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the worker never tried to send");
}

#[tokio::test]
async fn sessions_end_after_the_idle_and_the_absolute_timeouts() {
    for (setting, keep_busy) in [
        ("ORTAK_SESSION_IDLE_SECONDS", false),
        ("ORTAK_SESSION_MAX_SECONDS", true),
    ] {
        let data = tempfile::TempDir::new().unwrap();
        common::journeys::create_admin(&data, "zaman@example.com", false);
        let server = common::Server::start_in(data, &[(setting, "2")]);
        let browser = common::journeys::sign_in(
            &server,
            "zaman@example.com",
            common::journeys::ADMIN_PASSWORD,
        )
        .await;
        let status = |b: &reqwest::Client| {
            let b = b.clone();
            let url = server.url("/profile");
            async move { b.get(url).send().await.unwrap().status().as_u16() }
        };
        assert_eq!(status(&browser).await, 200, "{setting}: signed in");
        if keep_busy {
            // Busy all along: only the absolute limit can end it.
            for _ in 0..3 {
                tokio::time::sleep(std::time::Duration::from_millis(800)).await;
                status(&browser).await;
            }
        } else {
            tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
        }
        assert_eq!(status(&browser).await, 303, "{setting}: sent to sign in");
    }
}

#[tokio::test]
async fn every_sign_in_attempt_is_logged_without_the_secret() {
    let data = tempfile::TempDir::new().unwrap();
    common::journeys::create_admin(&data, "kayit@example.com", false);
    let server = common::Server::start_in(data, &[("RUST_LOG", "info")]);
    let attempt = |password: &'static str, email: &'static str| {
        let server = &server;
        async move {
            let browser = common::client();
            let token = common::journeys::csrf(&browser, server, "/signin").await;
            common::journeys::post_form(
                &browser,
                server.url("/signin"),
                &token,
                &[("email", email.into()), ("password", password.into())],
            )
            .await
            .status()
            .as_u16()
        }
    };
    assert_eq!(attempt("yanlis-parola-9", "kayit@example.com").await, 422);
    assert_eq!(attempt("yanlis-parola-9", "kimse@example.com").await, 422);
    // Staff give a second factor after the password; that completes the sign-in.
    common::journeys::sign_in(
        &server,
        "kayit@example.com",
        common::journeys::ADMIN_PASSWORD,
    )
    .await;
    let browser = common::client();
    let token = common::journeys::csrf(&browser, &server, "/signin").await;
    let link = common::journeys::post_form(
        &browser,
        server.url("/signin/link/use"),
        &token,
        &[("token", "uydurma".into())],
    )
    .await;
    assert_eq!(link.status(), 410);
    // The log is written as the requests finish.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let log = server.output.lock().unwrap().join("\n");
    let attempts: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("sign-in attempt"))
        .collect();
    for expected in [
        "method=\"password\"",
        "outcome=\"wrong-password\"",
        "outcome=\"unknown-account\"",
        "outcome=\"second-factor-required\"",
        "method=\"second-factor\"",
        "outcome=\"success\"",
        "method=\"emailed-link\"",
        "outcome=\"invalid-or-used-token\"",
    ] {
        assert!(
            attempts.iter().any(|l| l.contains(expected)),
            "{expected} in {attempts:#?}"
        );
    }
    assert!(attempts.iter().all(|l| l.contains("ip=")));
    assert!(!log.contains("yanlis-parola-9") && !log.contains(common::journeys::ADMIN_PASSWORD));
}

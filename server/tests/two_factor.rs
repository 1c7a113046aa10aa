//! Two-factor sign-in (issue 12, "Beyond"): staff cannot get past a password alone, enrol an
//! authenticator with a QR code, give a code on every way in (a code works once, wrong codes
//! are limited), recovery codes work once and are stored hashed, members turn it on and off in
//! the profile, a superadmin resets a lost one, and every step is audited.

use crate::common;

use common::journeys::{
    ADMIN_PASSWORD, create_admin, csrf, join, next_code, post_form, remember_authenticator,
    second_factor, secret_on_page, sign_in, start_with_mail,
};
use common::smtp::link_in;
use common::{Server, client, csrf_of, scalar};
use tempfile::TempDir;

/// Posts the password form; returns the browser and where it was sent.
async fn password(server: &Server, email: &str, password: &str) -> (reqwest::Client, String) {
    let browser = client();
    let token = csrf(&browser, server, "/signin").await;
    let r = post_form(
        &browser,
        server.url("/signin"),
        &token,
        &[
            ("email", email.into()),
            ("password", password.into()),
            ("next", "/dashboard".into()),
        ],
    )
    .await;
    assert_eq!(r.status(), 303, "{email}: the password is right");
    (
        browser,
        r.headers()["location"].to_str().unwrap().to_owned(),
    )
}

async fn status(browser: &reqwest::Client, url: String) -> u16 {
    browser.get(url).send().await.unwrap().status().as_u16()
}

#[tokio::test]
async fn staff_enrol_at_their_first_sign_in_and_give_a_code_every_time() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@ortak.test", false);
    let server = Server::start_in(data, &[]);

    // The password alone opens nothing: only the enrolment page.
    let (browser, next) = password(&server, "admin@ortak.test", ADMIN_PASSWORD).await;
    assert_eq!(next, "/signin/2fa");
    for path in [
        "/dashboard",
        "/dashboard/users",
        "/profile",
        "/api/getProfile",
    ] {
        let got = status(&browser, server.url(path)).await;
        assert!(got == 303 || got == 401, "{path}: {got}");
    }
    let r = browser.get(server.url("/signin/2fa")).send().await.unwrap();
    assert_eq!(r.headers()["location"], "/signin/2fa/setup");
    let page = common::text(&browser, server.url("/signin/2fa/setup")).await;
    assert!(page.contains("<svg"), "a QR code");
    let secret = secret_on_page(&page);
    assert_eq!(secret.len(), 32, "160 bits in base32");

    // A wrong code is refused; the right one enrols and shows ten recovery codes once.
    let wrong = post_form(
        &browser,
        server.url("/signin/2fa/setup"),
        &csrf_of(&page),
        &[("code", "000000".into())],
    )
    .await;
    assert_eq!(wrong.status(), 422);
    remember_authenticator(&server, "admin@ortak.test", &secret);
    let code = next_code(&server, "admin@ortak.test").await;
    let done = post_form(
        &browser,
        server.url("/signin/2fa/setup"),
        &csrf_of(&page),
        &[("code", code.clone())],
    )
    .await;
    assert_eq!(done.status(), 200);
    let html = done.text().await.unwrap();
    let codes: Vec<String> = html
        .split("<li><code>")
        .skip(1)
        .map(|s| s[..s.find('<').unwrap()].to_owned())
        .collect();
    assert_eq!(codes.len(), 10);
    assert!(
        html.contains("href=\"/dashboard\""),
        "then on where the admin was going"
    );
    assert_eq!(status(&browser, server.url("/dashboard")).await, 200);
    let stored = scalar(
        &server,
        &format!(
            "SELECT COUNT(*) FROM recovery_codes WHERE code_hash = '{}' OR code_hash = '{}'",
            codes[0],
            codes[0].replace('-', "")
        ),
    )
    .await;
    assert_eq!(stored, 0, "recovery codes are stored hashed");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'user.2fa_enrolled'"
        )
        .await,
        1
    );

    // Next time: the code. The code just used does not work twice.
    let (again, next) = password(&server, "admin@ortak.test", ADMIN_PASSWORD).await;
    assert_eq!(next, "/signin/2fa");
    let page = common::text(&again, server.url("/signin/2fa")).await;
    let replay = post_form(
        &again,
        server.url("/signin/2fa"),
        &csrf_of(&page),
        &[("code", code)],
    )
    .await;
    assert_eq!(replay.status(), 422, "a code is accepted once");
    let fresh = next_code(&server, "admin@ortak.test").await;
    let ok = post_form(
        &again,
        server.url("/signin/2fa"),
        &csrf_of(&page),
        &[("code", fresh)],
    )
    .await;
    assert_eq!(ok.status(), 303);
    assert_eq!(ok.headers()["location"], "/dashboard");

    // A recovery code works once, and its use is audited.
    for (attempt, expected) in [(1, 303), (2, 422)] {
        let (browser, _) = password(&server, "admin@ortak.test", ADMIN_PASSWORD).await;
        let page = common::text(&browser, server.url("/signin/2fa")).await;
        let r = post_form(
            &browser,
            server.url("/signin/2fa"),
            &csrf_of(&page),
            &[("code", codes[3].to_uppercase())],
        )
        .await;
        assert_eq!(r.status(), expected, "recovery code, attempt {attempt}");
    }
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'user.2fa_recovery_code_used'"
        )
        .await,
        1
    );
}

#[tokio::test]
async fn wrong_codes_are_limited_per_account() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@ortak.test", false);
    let server = Server::start_in(data, &[]);
    sign_in(&server, "admin@ortak.test", ADMIN_PASSWORD).await;
    let (browser, _) = password(&server, "admin@ortak.test", ADMIN_PASSWORD).await;
    let page = common::text(&browser, server.url("/signin/2fa")).await;
    let mut statuses = Vec::new();
    for guess in 0..5 {
        let r = post_form(
            &browser,
            server.url("/signin/2fa"),
            &csrf_of(&page),
            &[("code", format!("{guess:06}"))],
        )
        .await;
        statuses.push(r.status().as_u16());
    }
    // Even the right code waits now.
    let right = next_code(&server, "admin@ortak.test").await;
    let r = post_form(
        &browser,
        server.url("/signin/2fa"),
        &csrf_of(&page),
        &[("code", right)],
    )
    .await;
    statuses.push(r.status().as_u16());
    assert_eq!(statuses, [422, 422, 422, 422, 422, 429]);
}

#[tokio::test]
async fn every_way_in_asks_staff_for_the_second_factor() {
    let sink = common::smtp::SmtpSink::start().await;
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@ortak.test", false);
    create_admin(&data, "yeni@ortak.test", false);
    let server = Server::start_in(data, &[("ORTAK_SMTP_URL", &sink.url())]);
    sign_in(&server, "admin@ortak.test", ADMIN_PASSWORD).await;

    // An e-mailed link is a first factor only.
    for (email, enrolled) in [("admin@ortak.test", true), ("yeni@ortak.test", false)] {
        let visitor = client();
        let token = csrf(&visitor, &server, "/signin").await;
        post_form(
            &visitor,
            server.url("/signin/link"),
            &token,
            &[("link_email", email.into())],
        )
        .await;
        let mail = sink.wait_for(email, "giriş bağlantınız").await;
        let link = link_in(&mail.text, &server.url("/signin/link?token="));
        let page = common::text(&visitor, &link).await;
        let secret = link.split("token=").nth(1).unwrap().to_owned();
        let r = post_form(
            &visitor,
            server.url("/signin/link/use"),
            &csrf_of(&page),
            &[("token", secret)],
        )
        .await;
        assert_eq!(r.headers()["location"], "/signin/2fa", "{email}");
        assert_eq!(status(&visitor, server.url("/dashboard")).await, 303);
        let r = visitor.get(server.url("/signin/2fa")).send().await.unwrap();
        if enrolled {
            assert_eq!(r.status(), 200, "the code is asked for");
            let done = second_factor(&server, &visitor, email).await;
            assert_eq!(done.next, "/dashboard", "staff land on the dashboard");
            assert_eq!(status(&visitor, server.url("/dashboard")).await, 200);
        } else {
            // A mailbox alone must never choose a staff member's second factor.
            assert_eq!(r.status(), 403);
            assert_eq!(
                status(&visitor, server.url("/signin/2fa/setup")).await,
                303,
                "no enrolment after a link"
            );
            assert_eq!(status(&visitor, server.url("/dashboard")).await, 303);
        }
    }
}

#[tokio::test]
async fn members_turn_it_on_and_off_in_the_profile() {
    let (server, sink) = start_with_mail().await;
    let member = join(&server, &sink, "uye@example.com").await;
    let tab = common::text(&member, server.url("/profile?tab=security")).await;
    assert!(
        tab.contains("href=\"/profile/2fa\""),
        "offered in the security tab"
    );
    let other_device =
        common::journeys::sign_in(&server, "uye@example.com", "gizli-sifre-123").await;
    let page = common::text(&member, server.url("/profile/2fa")).await;
    let secret = secret_on_page(&page);
    remember_authenticator(&server, "uye@example.com", &secret);
    let code = next_code(&server, "uye@example.com").await;
    let r = post_form(
        &member,
        server.url("/profile/2fa"),
        &csrf_of(&page),
        &[("code", code)],
    )
    .await;
    assert_eq!(r.status(), 200);
    assert_eq!(
        status(&member, server.url("/profile")).await,
        200,
        "this session goes on"
    );
    assert_eq!(
        status(&other_device, server.url("/profile")).await,
        303,
        "sessions without the second factor end"
    );

    // From now on the password asks for the code.
    let (browser, next) = password(&server, "uye@example.com", "gizli-sifre-123").await;
    assert_eq!(next, "/signin/2fa");
    let done = second_factor(&server, &browser, "uye@example.com").await;
    assert_eq!(done.next, "/dashboard");

    // Turning it off takes a current code.
    let tab = common::text(&member, server.url("/profile?tab=security")).await;
    let wrong = post_form(
        &member,
        server.url("/profile/2fa/disable"),
        &csrf_of(&tab),
        &[("code", "123456".into())],
    )
    .await;
    assert_eq!(wrong.status(), 422);
    let code = next_code(&server, "uye@example.com").await;
    let off = post_form(
        &member,
        server.url("/profile/2fa/disable"),
        &csrf_of(&tab),
        &[("code", code)],
    )
    .await;
    assert_eq!(off.status(), 303);
    let (_, next) = password(&server, "uye@example.com", "gizli-sifre-123").await;
    assert_eq!(next, "/dashboard", "the password alone again");
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'user.2fa_disabled'"
        )
        .await,
        1
    );
}

#[tokio::test]
async fn a_superadmin_resets_a_lost_authenticator_and_staff_cannot_turn_it_off() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@ortak.test", false);
    create_admin(&data, "boss@ortak.test", true);
    let server = Server::start_in(data, &[]);
    let admin = sign_in(&server, "admin@ortak.test", ADMIN_PASSWORD).await;
    let tab = common::text(&admin, server.url("/profile?tab=security")).await;
    assert!(!tab.contains("/profile/2fa/disable"), "required for staff");
    let code = next_code(&server, "admin@ortak.test").await;
    let r = post_form(
        &admin,
        server.url("/profile/2fa/disable"),
        &csrf_of(&tab),
        &[("code", code)],
    )
    .await;
    assert_eq!(r.status(), 403);

    let id = scalar(
        &server,
        "SELECT id FROM users WHERE email = 'admin@ortak.test'",
    )
    .await;
    let boss = sign_in(&server, "boss@ortak.test", ADMIN_PASSWORD).await;
    let page = common::text(&boss, server.url(&format!("/dashboard/users/{id}"))).await;
    assert!(page.contains(&format!("/dashboard/users/{id}/2fa")));
    // Admins cannot reset anyone's second factor.
    let refused = post_form(
        &admin,
        server.url(&format!("/dashboard/users/{id}/2fa")),
        &csrf_of(&tab),
        &[("reset", "1".into())],
    )
    .await;
    assert_eq!(refused.status(), 403);
    // The reset is confirmed on its own page by typing the member's address.
    let confirm = common::text(&boss, server.url(&format!("/dashboard/users/{id}/2fa"))).await;
    assert!(confirm.contains("admin@ortak.test") && confirm.contains("name=\"confirm\""));
    let unconfirmed = post_form(
        &boss,
        server.url(&format!("/dashboard/users/{id}/2fa")),
        &csrf_of(&page),
        &[
            ("reset", "1".into()),
            ("confirm", "baska@ortak.test".into()),
        ],
    )
    .await;
    assert_eq!(unconfirmed.status(), 422);
    let reset = post_form(
        &boss,
        server.url(&format!("/dashboard/users/{id}/2fa")),
        &csrf_of(&page),
        &[
            ("reset", "1".into()),
            ("confirm", "Admin@Ortak.test".into()),
        ],
    )
    .await;
    assert_eq!(reset.status(), 303);
    assert_eq!(
        status(&admin, server.url("/dashboard")).await,
        303,
        "the admin's sessions ended"
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'user.2fa_reset'"
        )
        .await,
        1
    );
    let (browser, _) = password(&server, "admin@ortak.test", ADMIN_PASSWORD).await;
    let r = browser.get(server.url("/signin/2fa")).send().await.unwrap();
    assert_eq!(r.headers()["location"], "/signin/2fa/setup", "enrols again");
}

#[tokio::test]
async fn create_admin_says_how_the_first_superadmin_enrols_and_can_reset_it() {
    let data = TempDir::new().unwrap();
    let run = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_ortak"))
            .args([
                "create-admin",
                "--email",
                "ilk@ortak.test",
                "--password",
                ADMIN_PASSWORD,
                "--super",
                "--create",
            ])
            .env("ORTAK_DATA_DIR", data.path())
            .output()
            .unwrap()
    };
    let out = String::from_utf8(run().stdout).unwrap();
    assert!(out.contains("superadmin"), "{out}");
    assert!(
        out.contains("authenticator app") && out.contains("recovery codes"),
        "{out}"
    );

    let server = Server::start_in(data, &[]);
    sign_in(&server, "ilk@ortak.test", ADMIN_PASSWORD).await;
    let data = server.stop();
    // The operator's way back in when the phone and the codes are lost.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ortak"))
        .args([
            "create-admin",
            "--email",
            "ilk@ortak.test",
            "--password",
            ADMIN_PASSWORD,
            "--super",
        ])
        .env("ORTAK_DATA_DIR", data.path())
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(out.contains("two-factor sign-in was removed"), "{out}");
    let server = Server::start_in(data, &[]);
    let (browser, _) = password(&server, "ilk@ortak.test", ADMIN_PASSWORD).await;
    let r = browser.get(server.url("/signin/2fa")).send().await.unwrap();
    assert_eq!(r.headers()["location"], "/signin/2fa/setup", "enrols anew");
}

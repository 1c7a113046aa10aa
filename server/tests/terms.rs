//! The sign-in form's terms box (spec: "terms must be accepted"): asked of a member who has not
//! accepted the current version of the membership agreement and KVKK notice, recorded with the
//! version and time when ticked, and not asked again after that.

use crate::common;

use common::journeys::{csrf, post_form, sign_in, sign_up};
use common::{Server, client};

const PASSWORD: &str = "gizli-sifre-123";

async fn acceptances(server: &Server, email: &str) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT a.document || ' ' || a.version FROM acceptances a JOIN users u ON u.id = a.user_id
         WHERE u.email = ? ORDER BY a.version, a.document",
    )
    .bind(email)
    .fetch_all(&server.db().await)
    .await
    .unwrap()
}

#[tokio::test]
async fn sign_in_asks_for_the_terms_until_the_current_version_is_accepted() {
    let server = Server::start();
    // Joining accepts the current version; signing in after that needs no tick (the helper
    // does not tick the box).
    sign_up(&server, "uye@example.com").await;
    assert_eq!(
        acceptances(&server, "uye@example.com").await,
        ["kvkk-notice 2026-11-21", "membership-agreement 2026-11-21"]
    );
    sign_in(&server, "uye@example.com", PASSWORD).await;

    // The texts changed since: the member's acceptance is of an older version.
    sqlx::query("UPDATE acceptances SET version = '2025-01-01'")
        .execute(&server.db().await)
        .await
        .unwrap();
    let browser = client();
    for (lang, message) in [
        ("tr", "Kullanım koşullarını kabul etmelisiniz"),
        ("en", "You must accept the terms and conditions"),
    ] {
        let token = csrf(&browser, &server, "/signin").await;
        let response = post_form(
            &browser,
            server.url(&format!("/signin?lang={lang}")),
            &token,
            &[
                ("email", "uye@example.com".into()),
                ("password", PASSWORD.into()),
            ],
        )
        .await;
        assert_eq!(response.status(), 422, "{lang}");
        let html = response.text().await.unwrap();
        assert!(html.contains(message), "{lang}: {message}");
        assert!(
            html.contains("value=\"uye@example.com\""),
            "keeps the address"
        );
        assert!(!html.contains(PASSWORD), "never echoes the password");
    }
    let profile = browser.get(server.url("/profile")).send().await.unwrap();
    assert_eq!(profile.status(), 303, "nobody was signed in");
    assert_eq!(
        acceptances(&server, "uye@example.com").await,
        ["kvkk-notice 2025-01-01", "membership-agreement 2025-01-01"],
        "nothing stored"
    );

    // A wrong password with the box unticked says only that the credentials are wrong.
    let token = csrf(&browser, &server, "/signin").await;
    let wrong = post_form(
        &browser,
        server.url("/signin"),
        &token,
        &[
            ("email", "uye@example.com".into()),
            ("password", "yanlis-sifre".into()),
        ],
    )
    .await;
    assert_eq!(wrong.status(), 422);
    let html = wrong.text().await.unwrap();
    // (The language chosen last, English, stays with the browser.)
    assert!(html.contains("The e-mail address or password is incorrect."));
    assert!(!html.contains("You must accept the terms and conditions"));

    // Ticking the box signs in and records the current version beside the old one.
    let token = csrf(&browser, &server, "/signin").await;
    let ticked = post_form(
        &browser,
        server.url("/signin"),
        &token,
        &[
            ("email", "uye@example.com".into()),
            ("password", PASSWORD.into()),
            ("terms", "on".into()),
        ],
    )
    .await;
    assert_eq!(ticked.status(), 303);
    assert_eq!(
        acceptances(&server, "uye@example.com").await,
        [
            "kvkk-notice 2025-01-01",
            "membership-agreement 2025-01-01",
            "kvkk-notice 2026-11-21",
            "membership-agreement 2026-11-21"
        ]
    );
    // The next sign-in is not asked again, and the export lists every acceptance.
    let again = sign_in(&server, "uye@example.com", PASSWORD).await;
    let export: serde_json::Value = again
        .get(server.url("/profile/export"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut versions: Vec<&str> = export["accepted_terms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["version"].as_str().unwrap())
        .collect();
    versions.sort_unstable();
    assert_eq!(
        versions,
        ["2025-01-01", "2025-01-01", "2026-11-21", "2026-11-21"]
    );
}

#[tokio::test]
async fn a_member_signed_in_before_the_new_version_accepts_it_before_any_member_page() {
    let server = Server::start();
    sign_up(&server, "link@example.com").await;
    // Signed in (as by an e-mailed link or a provider, which have no box), then the texts
    // change: the acceptance on record is of an older version.
    let member = sign_in(&server, "link@example.com", PASSWORD).await;
    sqlx::query("UPDATE acceptances SET version = '2025-01-01'")
        .execute(&server.db().await)
        .await
        .unwrap();

    // Every member page sends them to the terms, to come back after; the API says why.
    let page = member
        .get(server.url("/overview?tab=1"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 303);
    assert_eq!(
        page.headers()["location"],
        "/signin/terms?next=/overview%3Ftab%3D1"
    );
    let api = member
        .get(server.url("/api/getProfile"))
        .send()
        .await
        .unwrap();
    assert_eq!(api.status(), 403);
    let body: serde_json::Value = api.json().await.unwrap();
    assert_eq!(
        body["message"],
        "Devam etmek için KVKK aydınlatma metnini okuyup güncel üyelik sözleşmesini kabul edin."
    );
    // Public pages stay open, and so do the member's KVKK rights.
    assert_eq!(
        member
            .get(server.url("/startups"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    let export = member
        .get(server.url("/profile/export"))
        .send()
        .await
        .unwrap();
    assert_eq!(export.status(), 200);

    // The page names the version; unticked: the exact message, 422, nothing stored.
    let form = common::text(&member, server.url("/signin/terms?next=/overview")).await;
    assert!(form.contains("(2026-11-21)") && form.contains("value=\"/overview\""));
    let token = csrf(&member, &server, "/signin/terms?next=/overview").await;
    let unticked = post_form(
        &member,
        server.url("/signin/terms"),
        &token,
        &[("next", "/overview".into())],
    )
    .await;
    assert_eq!(unticked.status(), 422);
    assert!(
        unticked
            .text()
            .await
            .unwrap()
            .contains("Kullanım koşullarını kabul etmelisiniz")
    );
    assert_eq!(
        acceptances(&server, "link@example.com").await,
        ["kvkk-notice 2025-01-01", "membership-agreement 2025-01-01"]
    );
    // Ticked: recorded, and on to a page of this site only.
    let ticked = post_form(
        &member,
        server.url("/signin/terms"),
        &token,
        &[("next", "//evil.example/x".into()), ("terms", "on".into())],
    )
    .await;
    assert_eq!(ticked.status(), 303);
    assert_eq!(ticked.headers()["location"], "/");
    assert_eq!(acceptances(&server, "link@example.com").await.len(), 4);
    assert_eq!(
        member
            .get(server.url("/overview"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    // Visitors are sent to sign in.
    let visitor = client()
        .get(server.url("/signin/terms"))
        .send()
        .await
        .unwrap();
    assert_eq!(visitor.headers()["location"], "/signin?next=/");
}

//! Professional-network sign-in against a local stand-in OpenID Connect provider.

mod common;

use common::journeys::sign_up;
use common::oidc::{CLIENT_ID, CLIENT_SECRET, Identity, StandIn};
use common::{Server, client, csrf_of};
use tempfile::TempDir;

fn identity(email: &str) -> Identity {
    Identity {
        email: email.into(),
        email_verified: true,
        given_name: "Deniz".into(),
        family_name: "Aksoy".into(),
        wrong_audience: false,
    }
}

async fn start(provider: &StandIn) -> Server {
    Server::start_in(
        TempDir::new().unwrap(),
        &[
            ("ORTAK_OIDC_ISSUER", &provider.issuer),
            ("ORTAK_OIDC_CLIENT_ID", CLIENT_ID),
            ("ORTAK_OIDC_CLIENT_SECRET", CLIENT_SECRET),
        ],
    )
}

/// Runs the browser through the provider and back; returns the callback's response.
async fn round_trip(server: &Server, browser: &reqwest::Client, next: &str) -> reqwest::Response {
    let start = browser
        .get(server.url(&format!("/signin/oidc?next={next}")))
        .send()
        .await
        .unwrap();
    assert_eq!(start.status(), 303);
    let authorize = start.headers()["location"].to_str().unwrap().to_owned();
    for param in ["code_challenge=", "state=", "nonce=", "redirect_uri="] {
        assert!(authorize.contains(param), "{param} in {authorize}");
    }
    let consent = browser.get(&authorize).send().await.unwrap();
    let callback = consent.headers()["location"].to_str().unwrap().to_owned();
    assert!(callback.starts_with(&server.url("/signin/oidc/callback?code=")));
    browser.get(&callback).send().await.unwrap()
}

#[tokio::test]
async fn a_new_member_joins_through_the_professional_network() {
    let provider = StandIn::start(identity("deniz@example.com")).await;
    let server = start(&provider).await;
    let signin = client()
        .get(server.url("/signin"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        signin.contains("href=\"/signin/oidc\""),
        "the button appears when configured"
    );

    let browser = client();
    let back = round_trip(&server, &browser, "/faq").await;
    assert_eq!(back.headers()["location"], "/signin/oidc/terms");
    let terms = common::text(&browser, server.url("/signin/oidc/terms")).await;
    assert!(terms.contains("deniz@example.com"));
    let refused = browser
        .post(server.url("/signin/oidc/terms"))
        .form(&[("csrf", csrf_of(&terms))])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 422);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("Kullanım koşullarını kabul etmelisiniz")
    );
    let joined = browser
        .post(server.url("/signin/oidc/terms"))
        .form(&[("csrf", csrf_of(&terms).as_str()), ("terms", "on")])
        .send()
        .await
        .unwrap();
    assert_eq!(joined.headers()["location"], "/boardingFlow/1");
    let (name, verified): (String, Option<String>) = sqlx::query_as(
        "SELECT first_name, email_verified_at FROM users WHERE email = 'deniz@example.com'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert_eq!(name, "Deniz");
    assert!(verified.is_some());

    // Next time the same identity signs straight in.
    let again = client();
    let back = round_trip(&server, &again, "/faq").await;
    assert_eq!(back.headers()["location"], "/faq");
    let faq = common::text(&again, server.url("/faq")).await;
    assert!(faq.contains("Deniz Aksoy"));
}

#[tokio::test]
async fn an_existing_account_is_linked_by_verified_email_and_forgeries_fail() {
    let provider = StandIn::start(identity("mevcut@example.com")).await;
    let server = start(&provider).await;
    // A member (staff never sign in by the professional network alone: tests/oidc_certified.rs).
    sign_up(&server, "mevcut@example.com").await;
    let browser = client();
    let back = round_trip(&server, &browser, "/blog").await;
    assert_eq!(back.headers()["location"], "/blog");

    // An unverified address, a token for another client, or a forged state: no sign-in.
    for bad in [
        Identity {
            email_verified: false,
            ..identity("mevcut@example.com")
        },
        Identity {
            wrong_audience: true,
            ..identity("mevcut@example.com")
        },
    ] {
        provider.set(bad);
        let stranger = client();
        let back = round_trip(&server, &stranger, "/").await;
        assert_eq!(
            back.status(),
            400,
            "a refusal is the client's problem, not a bad gateway"
        );
        assert!(
            back.text()
                .await
                .unwrap()
                .contains("LinkedIn ile giriş yapılamadı")
        );
    }
    provider.set(identity("mevcut@example.com"));
    let forged = client()
        .get(server.url("/signin/oidc/callback?code=code-0&state=forged"))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 400);
}

#[tokio::test]
async fn without_configuration_there_is_no_professional_network_sign_in() {
    let server = Server::start_in(TempDir::new().unwrap(), &[]);
    let signin = client()
        .get(server.url("/signin"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!signin.contains("/signin/oidc"));
    assert_eq!(
        client()
            .get(server.url("/signin/oidc"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

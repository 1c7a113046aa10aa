//! Professional-network sign-in against a local stand-in OpenID Connect provider.

use crate::common;

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
        wrong_nonce: false,
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

#[tokio::test]
async fn accepting_the_terms_never_merges_into_an_account_someone_created_meanwhile() {
    // F7: the victim is on the terms page when an attacker joins with the victim's address.
    let provider = StandIn::start(identity("kurban@example.com")).await;
    let server = start(&provider).await;
    let victim = client();
    let back = round_trip(&server, &victim, "/").await;
    assert_eq!(back.headers()["location"], "/signin/oidc/terms");
    let attacker = sign_up(&server, "kurban@example.com").await;
    assert_eq!(
        attacker
            .get(server.url("/profile"))
            .send()
            .await
            .unwrap()
            .status(),
        200,
        "the attacker is signed in with the password chosen"
    );
    let terms = common::text(&victim, server.url("/signin/oidc/terms")).await;
    let joined = victim
        .post(server.url("/signin/oidc/terms"))
        .form(&[("csrf", csrf_of(&terms).as_str()), ("terms", "on")])
        .send()
        .await
        .unwrap();
    assert_eq!(joined.status(), 303);
    let (password, verified): (Option<String>, Option<String>) = sqlx::query_as(
        "SELECT password_hash, email_verified_at FROM users WHERE email = 'kurban@example.com'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert!(password.is_none(), "the attacker's password is gone");
    assert!(verified.is_some());
    assert_eq!(
        attacker
            .get(server.url("/profile"))
            .send()
            .await
            .unwrap()
            .status(),
        303,
        "the attacker's session ended"
    );
    let page = common::text(&client(), server.url("/signin")).await;
    let again = client()
        .post(server.url("/signin"))
        .form(&[
            ("csrf", csrf_of(&page).as_str()),
            ("email", "kurban@example.com"),
            ("password", "gizli-sifre-123"),
        ])
        .send()
        .await
        .unwrap();
    assert_ne!(
        again.status(),
        303,
        "the attacker's password no longer signs in"
    );
    assert_eq!(
        victim
            .get(server.url("/profile"))
            .send()
            .await
            .unwrap()
            .status(),
        200,
        "the owner is in"
    );
}

#[tokio::test]
async fn without_required_nonces_a_nonce_that_is_present_must_still_match() {
    let provider = StandIn::start(Identity {
        wrong_nonce: true,
        ..identity("nonce@example.com")
    })
    .await;
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[
            ("ORTAK_OIDC_ISSUER", &provider.issuer),
            ("ORTAK_OIDC_CLIENT_ID", CLIENT_ID),
            ("ORTAK_OIDC_CLIENT_SECRET", CLIENT_SECRET),
            ("ORTAK_OIDC_REQUIRE_NONCE", "false"),
        ],
    );
    let back = round_trip(&server, &client(), "/").await;
    assert_eq!(back.status(), 400, "a wrong nonce is refused");
    provider.set(identity("nonce@example.com"));
    let back = round_trip(&server, &client(), "/").await;
    assert_eq!(back.headers()["location"], "/signin/oidc/terms");
}

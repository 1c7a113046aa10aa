//! The newsletter box: plain form and JSON endpoint, validation, CSRF and idempotency.

mod common;

use common::{Server, client, csrf_of};

async fn subscribers(server: &Server, email: &str) -> i64 {
    let db = server.db().await;
    let (n,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM newsletter_subscribers WHERE email = ?")
            .bind(email)
            .fetch_one(&db)
            .await
            .unwrap();
    n
}

#[tokio::test]
async fn plain_form_validates_keeps_input_and_stores_nothing() {
    let server = Server::start();
    let browser = client();
    let page = common::text(&browser, server.url("/blog")).await;
    let csrf = csrf_of(&page);

    for (typed, message) in [
        ("not-an-email", "Lütfen geçerli bir e-posta girin"),
        ("", "Bu alan zorunludur"),
    ] {
        let response = browser
            .post(server.url("/newsletter"))
            .form(&[
                ("csrf", csrf.as_str()),
                ("return", "/blog"),
                ("email", typed),
            ])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 422);
        let html = response.text().await.unwrap();
        assert!(html.contains(message), "{typed:?}");
        assert!(
            html.contains(&format!("value=\"{typed}\"")),
            "keeps what was typed"
        );
        assert!(html.contains("aria-invalid=\"true\""));
        assert!(
            html.contains("name=\"return\" value=\"/blog\""),
            "still returns to the page it came from"
        );
    }
    let db = server.db().await;
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM newsletter_subscribers")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(n, 0);

    let response = browser
        .post(server.url("/newsletter?lang=en"))
        .form(&[
            ("csrf", csrf.as_str()),
            ("return", "/blog"),
            ("email", "nope@"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 422);
    assert!(
        response
            .text()
            .await
            .unwrap()
            .contains("Please enter a valid email address.")
    );
}

#[tokio::test]
async fn plain_form_subscribes_once_and_returns_with_a_message() {
    let server = Server::start();
    let browser = client();
    let page = common::text(&browser, server.url("/faq")).await;
    let csrf = csrf_of(&page);
    for _ in 0..2 {
        let response = browser
            .post(server.url("/newsletter"))
            .form(&[
                ("csrf", csrf.as_str()),
                ("return", "/faq"),
                ("email", " Yatirimci@Example.com "),
            ])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 303);
        assert_eq!(response.headers()["location"], "/faq");
        let html = common::text(&browser, server.url("/faq")).await;
        assert!(
            html.contains("Bülten aboneliğiniz tamamlandı"),
            "flash after redirect"
        );
        let again = common::text(&browser, server.url("/faq")).await;
        assert!(!again.contains("flash--success"), "the message shows once");
    }
    assert_eq!(subscribers(&server, "yatirimci@example.com").await, 1);
    let db = server.db().await;
    let (version, language): (String, String) =
        sqlx::query_as("SELECT consent_text_version, language FROM newsletter_subscribers")
            .fetch_one(&db)
            .await
            .unwrap();
    assert!(!version.is_empty());
    assert_eq!(language, "tr");

    // An open redirect is not possible through the return field.
    let response = browser
        .post(server.url("/newsletter"))
        .form(&[
            ("csrf", csrf.as_str()),
            ("return", "//evil.example"),
            ("email", "b@example.com"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["location"], "/");
}

#[tokio::test]
async fn forged_requests_are_refused() {
    let server = Server::start();
    let browser = client();
    let page = common::text(&browser, server.url("/")).await;
    let csrf = csrf_of(&page);

    let no_token = browser
        .post(server.url("/newsletter"))
        .form(&[("return", "/"), ("email", "a@example.com")])
        .send()
        .await
        .unwrap();
    assert_eq!(no_token.status(), 400);
    let foreign = browser
        .post(server.url("/newsletter"))
        .header("origin", "https://evil.example")
        .form(&[
            ("csrf", csrf.as_str()),
            ("return", "/"),
            ("email", "a@example.com"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 400);
    // A fresh browser has no CSRF cookie, so a copied token does not help.
    let stranger = client()
        .post(server.url("/api/newsletter"))
        .header("x-csrf-token", &csrf)
        .json(&serde_json::json!({ "email": "a@example.com" }))
        .send()
        .await
        .unwrap();
    assert_eq!(stranger.status(), 400);
    let body: serde_json::Value = stranger.json().await.unwrap();
    assert_eq!(body["ok"], false);
    assert_eq!(subscribers(&server, "a@example.com").await, 0);
}

#[tokio::test]
async fn json_endpoint_answers_in_the_page_language() {
    let server = Server::start();
    let browser = client();
    let page = common::text(&browser, server.url("/?lang=en")).await;
    let csrf = csrf_of(&page);
    let post = |email: &'static str| {
        browser
            .post(server.url("/api/newsletter"))
            .header("x-csrf-token", &csrf)
            .json(&serde_json::json!({ "email": email }))
            .send()
    };

    let invalid = post("not-an-email").await.unwrap();
    assert_eq!(invalid.status(), 422);
    let body: serde_json::Value = invalid.json().await.unwrap();
    assert_eq!(
        body["errors"]["email"],
        "Please enter a valid email address."
    );

    for _ in 0..2 {
        let ok = post("island@example.com").await.unwrap();
        assert_eq!(ok.status(), 200);
        let body: serde_json::Value = ok.json().await.unwrap();
        assert_eq!(body["ok"], true);
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("Your newsletter subscription is complete")
        );
    }
    assert_eq!(subscribers(&server, "island@example.com").await, 1);

    let not_json = browser
        .post(server.url("/api/newsletter"))
        .header("x-csrf-token", &csrf)
        .header("content-type", "text/plain")
        .body("email=x")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), 415);
    let body: serde_json::Value = not_json.json().await.unwrap();
    assert_eq!(
        body["message"],
        "This address does not accept data of that type."
    );
}

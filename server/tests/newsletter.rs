//! The newsletter box: plain form and JSON endpoint, validation, CSRF and idempotency; double
//! opt-in (issue 12, item 17): a request counts once its address confirms it.

use crate::common;

use common::journeys::{
    ADMIN_PASSWORD, confirm_newsletter, create_admin, newsletter_link, post_form, sign_in,
};
use common::smtp::SmtpSink;
use common::{Server, client, csrf_of};
use tempfile::TempDir;

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
            html.contains("E-posta adresinize bir onay bağlantısı gönderdik"),
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
                .contains("We sent a confirmation link to your address")
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

async fn request_by_json(
    browser: &reqwest::Client,
    server: &Server,
    page: &str,
    email: &str,
) -> u16 {
    let html = common::text(browser, server.url(page)).await;
    browser
        .post(server.url("/api/newsletter"))
        .header("x-csrf-token", csrf_of(&html))
        .json(&serde_json::json!({ "email": email }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn exported(admin: &reqwest::Client, server: &Server) -> String {
    common::text(admin, server.url("/dashboard/newsletter.csv")).await
}

#[tokio::test]
async fn a_subscription_counts_only_once_its_address_confirms_it() {
    let sink = SmtpSink::start().await;
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    let server = Server::start_in(data, &[("ORTAK_SMTP_URL", &sink.url())]);
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    // Anyone can type anyone's address: that alone subscribes nobody.
    let visitor = client();
    assert_eq!(
        request_by_json(&visitor, &server, "/?lang=en", "kurban@example.com").await,
        200
    );
    let mail = sink
        .wait_for("kurban@example.com", "confirm your newsletter subscription")
        .await;
    assert!(
        mail.text.lines().next() == Some("Hello,"),
        "in the page's language, no name"
    );
    assert!(mail.text.contains("/newsletter/confirm?token="));
    assert!(
        !exported(&admin, &server)
            .await
            .contains("kurban@example.com")
    );
    let listed = common::text(&admin, server.url("/dashboard/newsletter")).await;
    assert!(!listed.contains("kurban@example.com"));

    // Opening the link (as a mail scanner would) confirms nothing; its button does.
    let link = newsletter_link(&server, &sink, "kurban@example.com").await;
    let page = client().get(&link).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(
        page.text()
            .await
            .unwrap()
            .contains("Aboneliğimi onaylıyorum")
    );
    assert!(
        !exported(&admin, &server)
            .await
            .contains("kurban@example.com")
    );
    let confirmed = confirm_newsletter(&server, &sink, "kurban@example.com").await;
    assert!(
        confirmed
            .text()
            .await
            .unwrap()
            .contains("Bülten aboneliğiniz onaylandı")
    );
    let csv = exported(&admin, &server).await;
    assert!(csv.contains("\"kurban@example.com\",\"en\""), "{csv}");
    assert!(csv.lines().next().unwrap().ends_with("\"confirmed_at\""));
    // A used link does nothing more.
    let token = link.split("token=").nth(1).unwrap().to_owned();
    let page = common::text(&visitor, server.url("/newsletter")).await;
    let again = post_form(
        &visitor,
        server.url("/newsletter/confirm"),
        &csrf_of(&page),
        &[("token", token)],
    )
    .await;
    assert_eq!(again.status(), 410);

    // Subscribing again changes nothing and mails nothing.
    let before = sink.count_to("kurban@example.com");
    assert_eq!(
        request_by_json(&visitor, &server, "/", "kurban@example.com").await,
        200
    );
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(sink.count_to("kurban@example.com"), before);

    // After unsubscribing, a new request needs a new confirmation.
    let id: i64 = sqlx::query_scalar(
        "SELECT id FROM newsletter_subscribers WHERE email = 'kurban@example.com'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    let listed = common::text(&admin, server.url("/dashboard/newsletter")).await;
    assert!(listed.contains("kurban@example.com"));
    let gone = post_form(
        &admin,
        server.url(&format!("/dashboard/newsletter/{id}/unsubscribe")),
        &csrf_of(&listed),
        &[],
    )
    .await;
    assert_eq!(gone.status(), 303);
    assert_eq!(
        request_by_json(&visitor, &server, "/", "kurban@example.com").await,
        200
    );
    for _ in 0..100 {
        if sink.count_to("kurban@example.com") > before {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        sink.count_to("kurban@example.com"),
        before + 1,
        "a new confirmation"
    );
    assert!(
        !exported(&admin, &server)
            .await
            .contains("kurban@example.com")
    );
    assert_eq!(
        confirm_newsletter(&server, &sink, "kurban@example.com")
            .await
            .status(),
        200
    );
    assert!(
        exported(&admin, &server)
            .await
            .contains("kurban@example.com")
    );
}

#[tokio::test]
async fn unconfirmed_requests_expire_are_purged_and_each_address_gets_few_mails() {
    let dir = TempDir::new().unwrap();
    let clock = dir.path().join("offset");
    std::fs::write(&clock, "0").unwrap();
    let sink = SmtpSink::start().await;
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[
            ("ORTAK_CLOCK_FILE", clock.to_str().unwrap()),
            ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
            ("ORTAK_SMTP_URL", &sink.url()),
        ],
    );
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(request_by_json(&client(), &server, "/", "israr@example.com").await);
    }
    assert_eq!(
        statuses,
        [200, 200, 200, 429],
        "three confirmation mails a day per address"
    );
    // Each mail's link replaces the one before it: only the newest works.
    for _ in 0..200 {
        if sink.count_to("israr@example.com") == 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(sink.count_to("israr@example.com"), 3);
    let mails = sink.all();
    let links: Vec<String> = mails
        .iter()
        .map(|m| common::smtp::link_in(&m.text, &server.url("/newsletter/confirm?token=")))
        .collect();
    assert_eq!(client().get(&links[0]).send().await.unwrap().status(), 410);
    assert_eq!(client().get(&links[1]).send().await.unwrap().status(), 410);
    let link = newsletter_link(&server, &sink, "israr@example.com").await;
    assert_eq!(link, links[2]);
    assert_eq!(client().get(&link).send().await.unwrap().status(), 200);
    // A week later the link has expired and the request is purged.
    std::fs::write(&clock, (8 * 24 * 3600).to_string()).unwrap();
    assert_eq!(client().get(&link).send().await.unwrap().status(), 410);
    let mut left = 1;
    for _ in 0..100 {
        left = subscribers(&server, "israr@example.com").await;
        if left == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(left, 0, "the unconfirmed request was purged");
}

/// Issue 12, item 1: no stored mail holds a usable confirmation link. The outbox keeps a
/// placeholder; the token exists only in the mail that went out, and reading the outbox (as
/// a superadmin's mailbox, a backup or a leaked database would) confirms nothing.
#[tokio::test]
async fn no_stored_mail_holds_a_usable_confirmation_link() {
    let sink = SmtpSink::start().await;
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_SMTP_URL", &sink.url())]);
    let visitor = client();
    assert_eq!(
        request_by_json(&visitor, &server, "/", "gizli@example.com").await,
        200
    );
    let link = newsletter_link(&server, &sink, "gizli@example.com").await;
    let token = link.split("token=").nth(1).unwrap().to_owned();
    assert!(token.len() >= 40, "{link}");

    let db = server.db().await;
    let stored: Vec<(String, String, Option<String>)> = sqlx::query_as(
        "SELECT text_body, html_body, link_kind FROM outbox WHERE to_email = 'gizli@example.com'",
    )
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(stored.len(), 1);
    let (text, html, kind) = &stored[0];
    assert_eq!(kind.as_deref(), Some("newsletter"));
    for body in [text, html] {
        assert!(!body.contains(&token), "the token is not stored");
        assert!(!body.contains("token="), "no link at all: {body}");
        assert!(body.contains("[link sent only by e-mail]"), "{body}");
    }
    let hash: Option<String> = sqlx::query_scalar(
        "SELECT token_hash FROM newsletter_subscribers WHERE email = 'gizli@example.com'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_ne!(
        hash.as_deref(),
        Some(token.as_str()),
        "only its digest is kept"
    );

    // The superadmin's mailbox shows the placeholder, never the link.
    let superadmin = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let mailbox = common::text(&superadmin, server.url("/dashboard/mailbox")).await;
    assert!(!mailbox.contains(&token));

    // Guessing from what is stored gets nowhere; the mailed link still works, once.
    for guess in ["[link sent only by e-mail]", hash.as_deref().unwrap_or("x")] {
        let url = format!("{}{}", server.url("/newsletter/confirm?token="), guess);
        assert_eq!(client().get(&url).send().await.unwrap().status(), 410);
    }
    assert_eq!(
        confirm_newsletter(&server, &sink, "gizli@example.com")
            .await
            .status(),
        200
    );
}

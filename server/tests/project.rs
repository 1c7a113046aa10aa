//! The startup application (/projectFlow/1-4): drafts, uploads checked by content and size,
//! going back, resuming, and the submission with its mails.

use crate::common;

use common::journeys::{post_form, sign_up};
use common::smtp::SmtpSink;
use common::{Server, client, csrf_of};
use reqwest::multipart::{Form, Part};
use tempfile::TempDir;

const PDF: &[u8] =
    b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n";

fn step_one(csrf: &str, description: &str, file: Option<(&str, Vec<u8>)>) -> Form {
    let mut form = Form::new()
        .text("csrf", csrf.to_owned())
        .text("fax", "")
        .text("name", "Kuzey Robotik")
        .text("sector", "mobility")
        .text("subcategory", "Otonom araçlar")
        .text("country", "Türkiye")
        .text("city", "Eskişehir")
        .text("description", description.to_owned())
        .text("website", "https://kuzey.example.com.tr")
        .text("instagram", "")
        .text("twitter", "")
        .text("youtube", "");
    if let Some((name, bytes)) = file {
        form = form.part(
            "presentation",
            Part::bytes(bytes).file_name(name.to_owned()),
        );
    }
    form
}

async fn post_step_one(
    browser: &reqwest::Client,
    server: &Server,
    csrf: &str,
    description: &str,
    file: Option<(&str, Vec<u8>)>,
) -> reqwest::Response {
    browser
        .post(server.url("/projectFlow/1"))
        .multipart(step_one(csrf, description, file))
        .send()
        .await
        .unwrap()
}

/// How many presentations are stored in the data folder.
fn stored_files(server: &Server) -> usize {
    std::fs::read_dir(server.data.path().join("applications")).map_or(0, |d| d.count())
}

async fn applications(server: &Server, status: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM startup_applications WHERE status = ?")
        .bind(status)
        .fetch_one(&server.db().await)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_visitor_applies_in_four_steps_with_a_checked_presentation() {
    let sink = SmtpSink::start().await;
    let server = Server::start_in(TempDir::new().unwrap(), &[("ORTAK_SMTP_URL", &sink.url())]);
    let browser = client();
    let page = common::text(&browser, server.url("/projectFlow/1")).await;
    assert!(
        page.contains("<header class=\"site-header\">") && !page.contains("footer-cta"),
        "the application is a flow: the site header, the slim footer"
    );
    let early = browser
        .get(server.url("/projectFlow/3"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        early.headers()["location"],
        "/projectFlow/1",
        "steps are taken in order"
    );
    let csrf = csrf_of(&page);

    for (file, message) in [
        (None, "Lütfen bir sunum dosyası yükleyin!"),
        (
            Some(("deck.pdf", b"MZ\x90\0 a renamed program".to_vec())),
            "PDF, PPTX ya da PPT olmalıdır",
        ),
        (
            Some(("deck.pdf", {
                // Just over the limit: read to its end, refused with the size message.
                let mut big = PDF.to_vec();
                big.resize(5 * 1024 * 1024 + 1024, b' ');
                big
            })),
            "en fazla 5 MB",
        ),
    ] {
        let response =
            post_step_one(&browser, &server, &csrf, "Otonom teslimat robotları.", file).await;
        assert_eq!(response.status(), 422, "{message}");
        let html = response.text().await.unwrap();
        assert!(html.contains(message), "{message}");
        assert!(
            html.contains("value=\"Kuzey Robotik\"") && html.contains("Otonom teslimat robotları."),
            "keeps what was typed"
        );
    }
    // A line break counts once, though browsers send it as CRLF: 300 × "ab\r\n" is 900 characters.
    let lines = post_step_one(
        &browser,
        &server,
        &csrf,
        &"ab\r\n".repeat(300),
        Some(("deck.pdf", b"MZ".to_vec())),
    )
    .await;
    assert!(
        !lines
            .text()
            .await
            .unwrap()
            .contains("en fazla 1000 karakter")
    );
    let long = post_step_one(
        &browser,
        &server,
        &csrf,
        &"ş".repeat(1001),
        Some(("deck.pdf", PDF.to_vec())),
    )
    .await;
    assert_eq!(long.status(), 422);
    assert!(
        long.text()
            .await
            .unwrap()
            .contains("en fazla 1000 karakter")
    );
    assert_eq!(applications(&server, "new").await, 0);
    // A refused step keeps nothing, not even its good presentation (issue 12, item 9).
    assert_eq!(applications(&server, "draft").await, 0);
    assert_eq!(stored_files(&server), 0);
    let again = post_step_one(&browser, &server, &csrf, "Otonom teslimat robotları.", None).await;
    assert_eq!(again.status(), 422);
    assert!(
        again
            .text()
            .await
            .unwrap()
            .contains("Lütfen bir sunum dosyası yükleyin!")
    );

    let ok = post_step_one(
        &browser,
        &server,
        &csrf,
        "Otonom teslimat robotları.",
        Some(("deck.pdf", PDF.to_vec())),
    )
    .await;
    assert_eq!(ok.status(), 303);
    assert_eq!(ok.headers()["location"], "/projectFlow/2");
    let cookie = ok
        .headers()
        .get_all("set-cookie")
        .iter()
        .any(|c| c.to_str().unwrap().starts_with("ortak_draft="));
    assert!(cookie, "visitors' drafts follow a cookie");

    let step2 = |team: &str| {
        vec![
            ("team_size", team.to_owned()),
            ("established", "yes".into()),
            ("established_on", "2023-04-01".into()),
            ("stage", "seed".into()),
            ("has_income", "yes".into()),
            ("monthly_income", "120.000".into()),
            ("monthly_expense", "180.000".into()),
            ("valuation_tl", "2.500.000".into()),
            ("amount_sought_tl", "400.000".into()),
        ]
    };
    let bad = post_form(&browser, server.url("/projectFlow/2"), &csrf, &step2("beş")).await;
    assert_eq!(bad.status(), 422);
    assert!(
        bad.text()
            .await
            .unwrap()
            .contains("Lütfen geçerli bir sayı girin.")
    );
    assert_eq!(
        post_form(&browser, server.url("/projectFlow/2"), &csrf, &step2("5"))
            .await
            .status(),
        303
    );

    // Going back keeps everything; the presentation is listed.
    let back = common::text(&browser, server.url("/projectFlow/1")).await;
    assert!(back.contains("value=\"Kuzey Robotik\"") && back.contains("deck.pdf"));
    assert!(
        back.contains("value=\"https://kuzey.example.com.tr\""),
        "the web site is not the honeypot"
    );
    let back2 = common::text(&browser, server.url("/projectFlow/2")).await;
    assert!(back2.contains("value=\"120.000\""));

    let step3 = vec![
        ("accelerator", "yes".to_owned()),
        ("accelerator_date", "2024-02-01".into()),
        ("accelerator_program", "İTÜ Çekirdek".into()),
        ("accelerator_country", "Türkiye".into()),
        ("prior_investment", "no".into()),
    ];
    assert_eq!(
        post_form(&browser, server.url("/projectFlow/3"), &csrf, &step3)
            .await
            .status(),
        303
    );

    let step4 = |email: &str| {
        vec![
            ("founder_1_name", "Ece Arslan".to_owned()),
            ("founder_1_position", "CEO".into()),
            ("founder_1_phone", "0532 111 22 33".into()),
            (
                "founder_1_linkedin",
                "https://www.linkedin.com/in/ecearslan".into(),
            ),
            ("contact_email", email.into()),
            ("how_heard", "Bülten".into()),
            ("note", "".into()),
        ]
    };
    let bad = post_form(
        &browser,
        server.url("/projectFlow/4"),
        &csrf,
        &step4("ece@"),
    )
    .await;
    assert_eq!(bad.status(), 422);
    assert!(
        bad.text()
            .await
            .unwrap()
            .contains("Lütfen geçerli bir e-posta girin")
    );
    let sent = post_form(
        &browser,
        server.url("/projectFlow/4"),
        &csrf,
        &step4("ece@kuzey.example.com"),
    )
    .await;
    assert_eq!(sent.headers()["location"], "/projectFlow/done");
    assert_eq!(applications(&server, "new").await, 1);
    let done = common::text(&browser, server.url("/projectFlow/done")).await;
    assert!(done.contains("Başvurunuz alındı"));
    assert_eq!(
        done.matches("class=\"brand\"").count(),
        1,
        "one logo: the header's"
    );
    // Nobody else is thanked for an application they did not send.
    let other = client()
        .get(server.url("/projectFlow/done"))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 303);
    assert_eq!(other.headers()["location"], "/projectFlow/1");
    sink.wait_for("ece@kuzey.example.com", "girişim başvurunuz alındı")
        .await;
    let staff = sink
        .wait_for("staff@ortak.local", "Girişim başvurusu")
        .await;
    assert!(staff.text.contains("Kuzey Robotik"));
    assert!(
        staff.text.contains("Aranan yatırım: 400.000 TL"),
        "in lira, formatted: {}",
        staff.text
    );

    // The draft is gone: a new application starts afresh.
    let fresh = common::text(&browser, server.url("/projectFlow/1")).await;
    assert!(!fresh.contains("value=\"Kuzey Robotik\""));
}

#[tokio::test]
async fn a_members_draft_is_kept_on_the_account() {
    let server = Server::start();
    let first = sign_up(&server, "girisimci@example.com").await;
    let page = common::text(&first, server.url("/projectFlow/1")).await;
    let ok = post_step_one(
        &first,
        &server,
        &csrf_of(&page),
        "Kısa açıklama.",
        Some(("sunum.pdf", PDF.to_vec())),
    )
    .await;
    assert_eq!(ok.status(), 303);

    // Another browser, signed in to the same account, resumes at step 2.
    let second = client();
    let signin = common::text(&second, server.url("/signin")).await;
    let r = post_form(
        &second,
        server.url("/signin"),
        &csrf_of(&signin),
        &[
            ("email", "girisimci@example.com".into()),
            ("password", "gizli-sifre-123".into()),
        ],
    )
    .await;
    assert_eq!(r.status(), 303);
    let step2 = second
        .get(server.url("/projectFlow/2"))
        .send()
        .await
        .unwrap();
    assert_eq!(step2.status(), 200);
    let step1 = common::text(&second, server.url("/projectFlow/1")).await;
    assert!(step1.contains("sunum.pdf") && step1.contains("value=\"Kuzey Robotik\""));
}

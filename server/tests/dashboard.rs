//! The staff dashboard: figures, MKK review, applications, inboxes, newsletter export, audit log.

use crate::common;

use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in, sign_up};
use common::{Server, client, csrf_of};
use tempfile::TempDir;

fn mkk() -> Vec<(&'static str, String)> {
    [
        ("investor_type", "individual"),
        ("citizen", "yes"),
        ("id_type", "tckn"),
        ("first_name", "Ayşe"),
        ("last_name", "Yılmaz"),
        ("email", "ayse@example.com"),
        ("phone", "05321234567"),
        ("annual_income", "750.000"),
        ("identity_number", "10000000146"),
        ("birth_date", "1984-02-29"),
    ]
    .iter()
    .map(|(k, v)| (*k, (*v).to_owned()))
    .collect()
}

#[tokio::test]
async fn staff_review_mkk_data_and_every_action_is_audited() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let investor = sign_up(&server, "mkk-review@example.com").await;
    common::money::verify_email(&server, "mkk-review@example.com").await;
    let token = csrf(&investor, &server, "/mkk").await;
    assert_eq!(
        post_form(&investor, server.url("/mkk"), &token, &mkk())
            .await
            .status(),
        303
    );

    assert_eq!(
        investor
            .get(server.url("/dashboard"))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let home = common::text(&admin, server.url("/dashboard")).await;
    assert!(
        home.contains("İnceleme bekleyen MKK bilgisi")
            && home.contains("class=\"chart chart--bars\"")
    );
    // The staff area's top bar names who is signed in; the site's avatar menu leads back here,
    // for staff only.
    assert!(home.contains("class=\"staff-bar\"") && home.contains("action=\"/logout\""));
    let site = common::text(&admin, server.url("/")).await;
    assert!(
        site.contains("href=\"/dashboard\""),
        "staff's avatar menu links the dashboard"
    );
    let site = common::text(&investor, server.url("/")).await;
    assert!(
        !site.contains("href=\"/dashboard\""),
        "an investor's does not"
    );
    assert!(
        !home.contains("href=\"/dashboard/investments\""),
        "superadmin sections are not offered to admins"
    );

    let users = common::text(&admin, server.url("/dashboard/users?q=MKK-REVIEW")).await;
    assert!(
        users.contains("mkk-review@example.com"),
        "search ignores case"
    );
    let id: i64 = sqlx::query_scalar("SELECT id FROM users WHERE email = 'mkk-review@example.com'")
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let rejected = post_form(
        &admin,
        server.url(&format!("/dashboard/users/{id}/mkk")),
        &csrf_of(&users),
        &[
            ("decision", "rejected".into()),
            ("note", "Kimlik numarası belgeyle uyuşmuyor".into()),
        ],
    )
    .await;
    assert_eq!(rejected.status(), 303);
    let page = common::text(&investor, server.url("/mkk")).await;
    assert!(page.contains("Reddedildi") && page.contains("Kimlik numarası belgeyle uyuşmuyor"));
    let blocked = common::text(
        &investor,
        server.url("/investmentFlow?startup=cemre-enerji"),
    )
    .await;
    assert!(blocked.contains("MKK bilgileriniz reddedildi"));

    // The same data again is not a correction: it stays rejected (see money_path.rs).
    assert_eq!(
        post_form(&investor, server.url("/mkk"), &token, &mkk())
            .await
            .status(),
        409
    );
    // Corrected data goes back to review; staff verify it.
    let mut corrected = mkk();
    corrected.retain(|(k, _)| *k != "phone");
    corrected.push(("phone", "05329876543".into()));
    assert_eq!(
        post_form(&investor, server.url("/mkk"), &token, &corrected)
            .await
            .status(),
        303
    );
    let users = common::text(&admin, server.url("/dashboard/users")).await;
    let verified = post_form(
        &admin,
        server.url(&format!("/dashboard/users/{id}/mkk")),
        &csrf_of(&users),
        &[("decision", "verified".into())],
    )
    .await;
    assert_eq!(verified.status(), 303);
    let page = common::text(&investor, server.url("/mkk")).await;
    assert!(page.contains(">Doğrulandı<") || page.contains("Doğrulandı"));

    assert_eq!(
        admin
            .get(server.url("/dashboard/audit"))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );
    let superadmin = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let audit = common::text(&superadmin, server.url("/dashboard/audit")).await;
    assert!(
        audit.contains("mkk.review")
            && audit.contains("admin@example.com")
            && audit.contains("rejected Kimlik")
    );
    let tamper = sqlx::query("UPDATE audit_log SET action = 'x'")
        .execute(&server.db().await)
        .await;
    assert!(tamper.is_err(), "the audit log cannot be changed");
}

#[tokio::test]
async fn staff_follow_applications_inboxes_and_the_newsletter() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    let sink = common::smtp::SmtpSink::start().await;
    let server = Server::start_in(
        data,
        &[("ORTAK_DEMO", "1"), ("ORTAK_SMTP_URL", &sink.url())],
    );

    // A visitor applies with a startup and subscribes to the newsletter.
    let visitor = client();
    let page = common::text(&visitor, server.url("/projectFlow/1")).await;
    let token = csrf_of(&page);
    let form = reqwest::multipart::Form::new()
        .text("csrf", token.clone())
        .text("name", "Deneme Girişimi")
        .text("sector", "fintech")
        .text("country", "Türkiye")
        .text("city", "Ankara")
        .text("description", "Açıklama")
        .part(
            "presentation",
            reqwest::multipart::Part::bytes(b"%PDF-1.4 test".to_vec()).file_name("sunum.pdf"),
        );
    assert_eq!(
        visitor
            .post(server.url("/projectFlow/1"))
            .multipart(form)
            .send()
            .await
            .unwrap()
            .status(),
        303
    );
    for (step, fields) in [
        (
            2,
            vec![
                ("team_size", "3"),
                ("established", "no"),
                ("stage", "seed"),
                ("has_income", "no"),
                ("amount_sought_tl", "100000"),
            ],
        ),
        (3, vec![("accelerator", "no"), ("prior_investment", "no")]),
        (
            4,
            vec![
                ("founder_1_name", "Ece"),
                ("founder_1_position", "CEO"),
                ("founder_1_phone", "05321112233"),
                ("contact_email", "ece@example.com"),
            ],
        ),
    ] {
        let fields: Vec<(&str, String)> =
            fields.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
        assert_eq!(
            post_form(
                &visitor,
                server.url(&format!("/projectFlow/{step}")),
                &token,
                &fields
            )
            .await
            .status(),
            303
        );
    }
    let home = common::text(&visitor, server.url("/")).await;
    visitor
        .post(server.url("/newsletter"))
        .form(&[
            ("csrf", csrf_of(&home).as_str()),
            ("return", "/"),
            ("email", "=cmd@example.com"),
        ])
        .send()
        .await
        .unwrap();
    visitor
        .post(server.url("/newsletter"))
        .form(&[
            ("csrf", csrf_of(&home).as_str()),
            ("return", "/"),
            ("email", "okur@example.com"),
        ])
        .send()
        .await
        .unwrap();

    // Subscriptions count once their addresses confirm them (double opt-in).
    for email in ["=cmd@example.com", "okur@example.com"] {
        let confirmed = common::journeys::confirm_newsletter(&server, &sink, email).await;
        assert_eq!(confirmed.status(), 200, "{email}");
    }

    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let list = common::text(&admin, server.url("/dashboard/applications")).await;
    assert!(
        list.contains("Deneme Girişimi")
            && list.contains("ece@example.com")
            && list.contains(">Yeni<")
    );
    let id: i64 = sqlx::query_scalar("SELECT id FROM startup_applications WHERE status = 'new'")
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let file = admin
        .get(server.url(&format!("/dashboard/applications/{id}/presentation")))
        .send()
        .await
        .unwrap();
    assert_eq!(file.headers()["content-type"], "application/pdf");
    assert!(
        file.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("sunum.pdf")
    );
    // The application's page shows every answer, labelled in the staff member's language.
    assert!(list.contains(&format!("href=\"/dashboard/applications/{id}\"")));
    let detail = common::text(&admin, server.url(&format!("/dashboard/applications/{id}"))).await;
    for shown in [
        "Deneme Girişimi",
        "Açıklama",
        "Ankara",
        // Figures in the locale's money format (issue 28).
        "<dd>100.000 TL</dd>",
        "Ece · CEO · +90 532 111 22 33",
        "ece@example.com",
        "sunum.pdf",
        "<dd>Hayır</dd>",
    ] {
        assert!(detail.contains(shown), "{shown} on the application's page");
    }
    // Answers by their labels, never the codes the form posts.
    assert!(!detail.contains("<dd>no</dd>") && !detail.contains("<dd>seed</dd>"));
    assert!(detail.contains(&format!("/dashboard/applications/{id}/presentation")));
    let moved = post_form(
        &admin,
        server.url(&format!("/dashboard/applications/{id}/status")),
        &csrf_of(&list),
        &[("status", "accepted".into())],
    )
    .await;
    assert_eq!(moved.status(), 303);
    let detail = common::text(&admin, server.url(&format!("/dashboard/applications/{id}"))).await;
    assert!(
        detail.contains("application.status") && detail.contains("admin@example.com"),
        "the page shows its history"
    );
    let list = common::text(&admin, server.url("/dashboard/applications")).await;
    assert!(list.contains("Kabul edildi"));
    // Declining is never one click (issue 28): not through the status moves, and on its page
    // only with a reason, which is mailed to the applicant.
    let one_click = post_form(
        &admin,
        server.url(&format!("/dashboard/applications/{id}/status")),
        &csrf_of(&list),
        &[("status", "declined".into())],
    )
    .await;
    assert_eq!(one_click.status(), 400);
    let decline = format!("/dashboard/applications/{id}/decline");
    let confirm = common::text(&admin, server.url(&decline)).await;
    assert!(confirm.contains("ece@example.com") && confirm.contains("geri alınamaz"));
    let silent = post_form(
        &admin,
        server.url(&decline),
        &csrf_of(&confirm),
        &[("reason", " ".into())],
    )
    .await;
    assert_eq!(silent.status(), 422);
    assert!(silent.text().await.unwrap().contains("Bir gerekçe yazın"));
    let reason = "Şu an sağlık teknolojisi girişimlerine odaklanıyoruz.";
    let declined = post_form(
        &admin,
        server.url(&decline),
        &csrf_of(&confirm),
        &[("reason", reason.into())],
    )
    .await;
    assert_eq!(declined.status(), 303);
    let mailed = common::scalar(
        &server,
        &format!("SELECT COUNT(*) FROM outbox WHERE to_email = 'ece@example.com' AND text_body LIKE '%{reason}%'"),
    )
    .await;
    assert_eq!(mailed, 1, "the applicant reads the reason");
    let again = post_form(
        &admin,
        server.url(&decline),
        &csrf_of(&confirm),
        &[("reason", reason.into())],
    )
    .await;
    assert_eq!(again.status(), 409);
    let detail = common::text(&admin, server.url(&format!("/dashboard/applications/{id}"))).await;
    assert!(detail.contains(reason));
    assert_eq!(
        visitor
            .get(server.url(&format!("/dashboard/applications/{id}/presentation")))
            .send()
            .await
            .unwrap()
            .status(),
        303
    );

    let csv = admin
        .get(server.url("/dashboard/newsletter.csv"))
        .send()
        .await
        .unwrap();
    assert!(
        csv.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("attachment")
    );
    let csv = csv.text().await.unwrap();
    assert!(csv.starts_with(
        "\u{feff}\"email\",\"language\",\"consent_text_version\",\"consented_at\",\"source\""
    ));
    assert!(csv.contains("\"okur@example.com\""));
    assert!(
        csv.contains("\"'=cmd@example.com\""),
        "a formula in an export is neutralised"
    );
    let page = common::text(&admin, server.url("/dashboard/newsletter")).await;
    let sub: i64 = sqlx::query_scalar(
        "SELECT id FROM newsletter_subscribers WHERE email = 'okur@example.com'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    let gone = post_form(
        &admin,
        server.url(&format!("/dashboard/newsletter/{sub}/unsubscribe")),
        &csrf_of(&page),
        &[],
    )
    .await;
    assert_eq!(gone.status(), 303);
    let csv = common::text(&admin, server.url("/dashboard/newsletter.csv")).await;
    assert!(!csv.contains("okur@example.com"));
}

#[tokio::test]
async fn staff_publish_blog_posts_and_edit_the_faq_in_both_languages() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "editor@example.com", false);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let admin = sign_in(&server, "editor@example.com", ADMIN_PASSWORD).await;
    let editor = common::text(&admin, server.url("/dashboard/blogs/new")).await;
    let token = csrf_of(&editor);
    let post = |slug: &str, intent: &str, published: bool| {
        let mut fields = vec![
            ("slug", slug.to_owned()),
            ("title_tr", "Yeni fon duyurusu".to_owned()),
            ("title_en", "A new fund announcement".to_owned()),
            ("description_tr", "Kısa özet".to_owned()),
            ("description_en", "Short summary".to_owned()),
            ("body_tr", "## Başlık\n\n**Kalın** metin".to_owned()),
            ("body_en", "## Heading\n\n**Bold** text".to_owned()),
            ("intent", intent.to_owned()),
        ];
        if published {
            fields.push(("published", "on".to_owned()));
        }
        fields
    };
    let bad = post_form(
        &admin,
        server.url("/dashboard/blogs/new"),
        &token,
        &post("Büyük Harf!", "save", true),
    )
    .await;
    assert_eq!(bad.status(), 422);
    assert!(
        bad.text()
            .await
            .unwrap()
            .contains("Yalnızca küçük harf, rakam ve tire kullanın.")
    );
    let preview = post_form(
        &admin,
        server.url("/dashboard/blogs/new"),
        &token,
        &post("yeni-fon", "preview", true),
    )
    .await;
    assert_eq!(preview.status(), 200);
    assert!(
        preview
            .text()
            .await
            .unwrap()
            .contains("<strong>Kalın</strong>"),
        "the Markdown preview"
    );
    assert_eq!(
        server.get("/blog/yeni-fon").await.0,
        404,
        "a preview saves nothing"
    );

    let saved = post_form(
        &admin,
        server.url("/dashboard/blogs/new"),
        &token,
        &post("yeni-fon", "save", true),
    )
    .await;
    assert_eq!(saved.status(), 303);
    let (_, tr) = server.get("/blog/yeni-fon").await;
    assert!(tr.contains("Yeni fon duyurusu") && tr.contains("<strong>Kalın</strong>"));
    let (_, en) = server.get("/blog/yeni-fon?lang=en").await;
    assert!(en.contains("A new fund announcement"));
    let taken = post_form(
        &admin,
        server.url("/dashboard/blogs/new"),
        &token,
        &post("yeni-fon", "save", false),
    )
    .await;
    assert!(
        taken
            .text()
            .await
            .unwrap()
            .contains("Bu adres başka bir yazıda kullanılıyor.")
    );

    // Unpublishing hides it again.
    let id: i64 = sqlx::query_scalar("SELECT id FROM blog_posts WHERE slug = 'yeni-fon'")
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let hidden = post_form(
        &admin,
        server.url(&format!("/dashboard/blogs/{id}")),
        &token,
        &post("yeni-fon", "save", false),
    )
    .await;
    assert_eq!(hidden.status(), 303);
    assert_eq!(server.get("/blog/yeni-fon").await.0, 404);

    // The FAQ.
    let faq_id: i64 = sqlx::query_scalar("SELECT id FROM faqs ORDER BY position LIMIT 1")
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let edit = common::text(&admin, server.url(&format!("/dashboard/faq/{faq_id}"))).await;
    assert!(edit.contains("name=\"title_tr\""));
    let changed = post_form(
        &admin,
        server.url(&format!("/dashboard/faq/{faq_id}")),
        &csrf_of(&edit),
        &[
            ("title_tr", "Ortak nedir, kısaca?".into()),
            ("title_en", "What is Ortak, in short?".into()),
            ("body_tr", "Bir ortak yatırım platformu.".into()),
            ("body_en", "A co-investment platform.".into()),
            ("published", "on".into()),
            ("intent", "save".into()),
        ],
    )
    .await;
    assert_eq!(changed.status(), 303);
    let (_, faq) = server.get("/faq").await;
    assert!(faq.contains("Ortak nedir, kısaca?"));
    let (_, faq_en) = server.get("/faq?lang=en").await;
    assert!(faq_en.contains("What is Ortak, in short?"));
    let audited: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'content.save'")
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    assert_eq!(audited, 3);
    let investor = sign_up(&server, "okur2@example.com").await;
    assert_eq!(
        investor
            .get(server.url("/dashboard/blogs"))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );
}

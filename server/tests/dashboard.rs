//! The staff dashboard: figures, MKK review, applications, inboxes, newsletter export, audit log.

mod common;

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
    let home = admin
        .get(server.url("/dashboard"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(home.contains("İnceleme bekleyen MKK bilgisi") && home.contains("class=\"chart\""));
    assert!(
        !home.contains("href=\"/dashboard/investments\""),
        "superadmin sections are not offered to admins"
    );

    let users = admin
        .get(server.url("/dashboard/users?q=MKK-REVIEW"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
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
    let page = investor
        .get(server.url("/mkk"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("Reddedildi") && page.contains("Kimlik numarası belgeyle uyuşmuyor"));
    let blocked = investor
        .get(server.url("/investmentFlow?startup=cemre-enerji"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(blocked.contains("MKK bilgileriniz reddedildi"));

    // Corrected data goes back to review; staff verify it.
    assert_eq!(
        post_form(&investor, server.url("/mkk"), &token, &mkk())
            .await
            .status(),
        303
    );
    let users = admin
        .get(server.url("/dashboard/users"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let verified = post_form(
        &admin,
        server.url(&format!("/dashboard/users/{id}/mkk")),
        &csrf_of(&users),
        &[("decision", "verified".into())],
    )
    .await;
    assert_eq!(verified.status(), 303);
    let page = investor
        .get(server.url("/mkk"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
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
    let audit = superadmin
        .get(server.url("/dashboard/audit"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
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
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);

    // A visitor applies with a startup and subscribes to the newsletter.
    let visitor = client();
    let page = visitor
        .get(server.url("/projectFlow/1"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
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
                ("amount_sought_usd", "100000"),
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
    let home = visitor
        .get(server.url("/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
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

    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let list = admin
        .get(server.url("/dashboard/applications"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
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
    let moved = post_form(
        &admin,
        server.url(&format!("/dashboard/applications/{id}/status")),
        &csrf_of(&list),
        &[("status", "accepted".into())],
    )
    .await;
    assert_eq!(moved.status(), 303);
    let list = admin
        .get(server.url("/dashboard/applications"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(list.contains("Kabul edildi"));
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
    assert!(csv.starts_with("email,language,consent_text_version,consented_at,source"));
    assert!(csv.contains("\"okur@example.com\""));
    let page = admin
        .get(server.url("/dashboard/newsletter"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
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
    let csv = admin
        .get(server.url("/dashboard/newsletter.csv"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!csv.contains("okur@example.com"));
}

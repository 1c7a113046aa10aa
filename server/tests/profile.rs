//! The profile tabs, the profile image, the data export and deleting the membership.

use crate::common;

use common::journeys::{csrf, join, post_form, start_with_mail};
use common::{client, csrf_of};
use reqwest::multipart::{Form, Part};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\0\0\0\0IEND\xaeB`\x82";

async fn upload(
    browser: &reqwest::Client,
    url: String,
    csrf: &str,
    name: &str,
    bytes: Vec<u8>,
) -> reqwest::Response {
    let form = Form::new().text("csrf", csrf.to_owned()).part(
        "image",
        Part::bytes(bytes)
            .file_name(name.to_owned())
            .mime_str("image/png")
            .unwrap(),
    );
    browser.post(url).multipart(form).send().await.unwrap()
}

#[tokio::test]
async fn every_profile_tab_saves_and_refuses_bad_input() {
    let (server, sink) = start_with_mail().await;
    let visitor = client().get(server.url("/profile")).send().await.unwrap();
    assert_eq!(visitor.headers()["location"], "/signin?next=/profile");

    let browser = join(&server, &sink, "profil@example.com").await;
    let token = csrf(&browser, &server, "/profile").await;
    let page = common::text(&browser, server.url("/profile")).await;
    for tab in ["info", "security", "preferences", "investor", "delete"] {
        assert!(
            page.contains(&format!("href=\"/profile?tab={tab}\"")),
            "{tab} tab"
        );
    }

    // Profile information.
    let info = |phone: &str| {
        vec![
            ("first_name", "Ayşe".to_owned()),
            ("last_name", "Demir".to_owned()),
            ("position", "Yatırım Direktörü".to_owned()),
            ("phone", phone.to_owned()),
            ("country", "Türkiye".to_owned()),
            ("city", "İzmir".to_owned()),
            ("language", "en".to_owned()),
        ]
    };
    let bad = post_form(&browser, server.url("/profile/info"), &token, &info("05")).await;
    assert_eq!(bad.status(), 422);
    assert!(
        bad.text()
            .await
            .unwrap()
            .contains("value=\"Yatırım Direktörü\"")
    );
    let ok = post_form(
        &browser,
        server.url("/profile/info"),
        &token,
        &info("0533 444 55 66"),
    )
    .await;
    assert_eq!(ok.headers()["location"], "/profile?tab=info");
    let api: serde_json::Value = browser
        .get(server.url("/api/getProfile"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(api["profileData"]["surname"], "Demir");
    assert_eq!(api["profileData"]["position"], "Yatırım Direktörü");

    // Investment preferences.
    let bad = post_form(
        &browser,
        server.url("/profile/preferences"),
        &token,
        &[
            ("purpose", "invest".into()),
            ("budget", "100000-250000".into()),
        ],
    )
    .await;
    assert_eq!(bad.status(), 422);
    let ok = post_form(
        &browser,
        server.url("/profile/preferences"),
        &token,
        &[
            ("purpose", "ecosystem".into()),
            ("budget", "100000-250000".into()),
            ("interests", "healthcare".into()),
        ],
    )
    .await;
    assert_eq!(ok.status(), 303);

    // Investor information, with the spec's separate length messages.
    let investor = |id_type: &str, number: &str| {
        vec![
            ("investor_type", "individual".to_owned()),
            ("citizen", "yes".to_owned()),
            ("id_type", id_type.to_owned()),
            ("identity_number", number.to_owned()),
            ("annual_income", "1.500.000".to_owned()),
            ("birth_date", "1985-04-23".to_owned()),
        ]
    };
    for (id_type, number, message) in [
        ("tckn", "1000000014", "Kimlik numarası 11 haneli olmalıdır."),
        ("vkn", "454053692", "Vergi numarası 10 haneli olmalıdır."),
        ("tckn", "10000000147", "Bu numara geçerli değil."),
        ("tckn", "1000000014x", "Lütfen yalnızca rakam girin."),
    ] {
        let bad = post_form(
            &browser,
            server.url("/profile/investor?lang=tr"),
            &token,
            &investor(id_type, number),
        )
        .await;
        assert_eq!(bad.status(), 422, "{number}");
        let html = bad.text().await.unwrap();
        assert!(html.contains(message), "{number}: {message}");
        assert!(
            html.contains(&format!("value=\"{number}\"")),
            "keeps what was typed"
        );
    }
    let ok = post_form(
        &browser,
        server.url("/profile/investor"),
        &token,
        &investor("tckn", "10000000146"),
    )
    .await;
    assert_eq!(ok.status(), 303);
    let (income, number): (i64, String) = sqlx::query_as(
        "SELECT annual_income_kurus, identity_number FROM users WHERE email = 'profil@example.com'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert_eq!(income, 150_000_000, "stored in kuruş");
    assert_eq!(number, "10000000146");

    // Export.
    let export = browser
        .get(server.url("/profile/export"))
        .send()
        .await
        .unwrap();
    assert!(
        export.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains("attachment")
    );
    let data: serde_json::Value = export.json().await.unwrap();
    assert_eq!(data["account"]["email"], "profil@example.com");
    assert_eq!(
        data["investor_information"]["identity_number"],
        "10000000146"
    );
    assert_eq!(data["investment_preferences"]["interests"][0], "healthcare");
}

#[tokio::test]
async fn profile_images_are_checked_by_content_and_shown_only_to_their_owner() {
    let (server, sink) = start_with_mail().await;
    let owner = join(&server, &sink, "foto@example.com").await;
    let token = csrf(&owner, &server, "/profile").await;

    let exe = upload(
        &owner,
        server.url("/profile/image"),
        &token,
        "photo.png",
        b"MZ\x90\0fake".to_vec(),
    )
    .await;
    assert_eq!(exe.status(), 422);
    assert!(exe.text().await.unwrap().contains("JPEG, PNG veya WebP"));
    let mut big = PNG.to_vec();
    big.resize(IMAGE_LIMIT + 10, 0);
    let too_big = upload(&owner, server.url("/profile/image"), &token, "big.png", big).await;
    assert_eq!(too_big.status(), 422);
    assert!(too_big.text().await.unwrap().contains("en fazla 2 MB"));
    let ok = upload(
        &owner,
        server.url("/profile/image"),
        &token,
        "me.png",
        PNG.to_vec(),
    )
    .await;
    assert_eq!(ok.status(), 303);

    let body: serde_json::Value = owner
        .get(server.url("/api/getProfileImg"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let filename = body["filename"].as_str().unwrap().to_owned();
    assert!(
        filename.ends_with(".png") && !filename.contains("me"),
        "stored under a random name"
    );
    let file = owner
        .get(server.url(&format!("/api/file/{filename}")))
        .send()
        .await
        .unwrap();
    assert_eq!(file.status(), 200);
    assert_eq!(file.headers()["content-type"], "image/png");
    assert_eq!(file.bytes().await.unwrap().as_ref(), PNG);
    let home = common::text(&owner, server.url("/")).await;
    assert!(
        home.contains(&format!("src=\"/api/file/{filename}\"")),
        "the header shows it"
    );

    let other = join(&server, &sink, "baska@example.com").await;
    assert_eq!(
        other
            .get(server.url(&format!("/api/file/{filename}")))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );
    assert_eq!(
        client()
            .get(server.url(&format!("/api/file/{filename}")))
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
    assert_eq!(
        owner
            .get(server.url("/api/file/..%2Fortak.db"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

const IMAGE_LIMIT: usize = 2 * 1024 * 1024;

#[tokio::test]
async fn changing_the_password_signs_out_other_devices_and_deleting_erases_the_account() {
    let (server, sink) = start_with_mail().await;
    let browser = join(&server, &sink, "sil@example.com").await;
    let other = {
        let other = client();
        let page = common::text(&other, server.url("/signin")).await;
        let r = post_form(
            &other,
            server.url("/signin"),
            &csrf_of(&page),
            &[
                ("email", "sil@example.com".into()),
                ("password", "gizli-sifre-123".into()),
            ],
        )
        .await;
        assert_eq!(r.status(), 303);
        other
    };
    let token = csrf(&browser, &server, "/profile?tab=security").await;
    let wrong = post_form(
        &browser,
        server.url("/profile/password"),
        &token,
        &[
            ("current_password", "yanlis-sifre".into()),
            ("password", "yeni-sifre-789".into()),
            ("password_confirm", "yeni-sifre-789".into()),
        ],
    )
    .await;
    assert_eq!(wrong.status(), 422);
    assert!(
        wrong
            .text()
            .await
            .unwrap()
            .contains("Mevcut şifreniz hatalı.")
    );
    let ok = post_form(
        &browser,
        server.url("/profile/password"),
        &token,
        &[
            ("current_password", "gizli-sifre-123".into()),
            ("password", "yeni-sifre-789".into()),
            ("password_confirm", "yeni-sifre-789".into()),
        ],
    )
    .await;
    assert_eq!(ok.status(), 303);
    let here = common::text(&browser, server.url("/profile?tab=security")).await;
    assert!(
        here.contains("Şifreniz değiştirildi"),
        "this device stays signed in"
    );
    let there = other.get(server.url("/profile")).send().await.unwrap();
    assert_eq!(there.status(), 303, "the other device was signed out");

    // Subscribe to the newsletter, then delete the membership.
    let page = common::text(&browser, server.url("/")).await;
    browser
        .post(server.url("/newsletter"))
        .form(&[
            ("csrf", csrf_of(&page).as_str()),
            ("return", "/"),
            ("email", "sil@example.com"),
        ])
        .send()
        .await
        .unwrap();
    let token = csrf_of(&page);
    let refused = post_form(
        &browser,
        server.url("/profile/delete"),
        &token,
        &[("current_password", "yeni-sifre-789".into())],
    )
    .await;
    assert_eq!(refused.status(), 422, "the confirmation box is required");
    let deleted = post_form(
        &browser,
        server.url("/profile/delete"),
        &token,
        &[
            ("current_password", "yeni-sifre-789".into()),
            ("confirm", "on".into()),
        ],
    )
    .await;
    assert_eq!(deleted.status(), 303);
    assert_eq!(deleted.headers()["location"], "/");
    let home = common::text(&browser, server.url("/")).await;
    assert!(home.contains("Üyeliğiniz silindi"));
    assert!(!home.contains("avatar-menu"));

    let db = server.db().await;
    let (email, first, hash, identity): (String, String, Option<String>, String) =
        sqlx::query_as("SELECT email, first_name, password_hash, identity_number FROM users WHERE email LIKE 'deleted-%'")
            .fetch_one(&db)
            .await
            .unwrap();
    assert!(email.ends_with("@deleted.invalid"));
    assert!(first.is_empty() && hash.is_none() && identity.is_empty());
    let subscribed: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM newsletter_subscribers WHERE email = 'sil@example.com'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(subscribed, 0);
    let page = common::text(&browser, server.url("/signin")).await;
    let again = post_form(
        &browser,
        server.url("/signin"),
        &csrf_of(&page),
        &[
            ("email", "sil@example.com".into()),
            ("password", "yeni-sifre-789".into()),
        ],
    )
    .await;
    assert_eq!(again.status(), 422, "the account can no longer sign in");
}

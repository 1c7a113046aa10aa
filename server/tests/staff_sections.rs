//! The dashboard sections that run the platform: the startup editor, users, automatic
//! e-mails, VIP groups, qualified investors, fund teams and `/vc-dashboard`, and the JSON the
//! table island reads.

use crate::common;

use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in, sign_up};
use common::{Server, csrf_of, scalar};
use tempfile::TempDir;

/// A complete editor form for a new pre-investment startup, unpublished (the committee's approval
/// publishes it); VIP groups only until `vip`.
fn startup_fields(name: &str, vip: &str) -> Vec<(&'static str, String)> {
    let today = time::OffsetDateTime::now_utc().date();
    [
        ("name", name.to_owned()),
        ("slug", String::new()),
        ("sector", "fintech".into()),
        ("subcategory", "Ödeme".into()),
        ("fund", "1".into()),
        ("country", "Türkiye".into()),
        ("city", "İzmir".into()),
        ("stage", "seed".into()),
        ("description_tr", "Esnafa anında ödeme.".into()),
        ("description_en", "Instant payments for shopkeepers.".into()),
        ("goal", "3.000.000".into()),
        ("period_kind", "pre_investment".into()),
        ("starts_on", (today - time::Duration::days(1)).to_string()),
        ("ends_on", (today + time::Duration::days(20)).to_string()),
        ("vip_until", vip.to_owned()),
        ("team_size", "7".into()),
        (
            "founders",
            "Deniz Ak | CEO | https://example.com/deniz".into(),
        ),
        ("s_executive-summary_tr", "**Güçlü** bir ekip.".into()),
        ("s_executive-summary_en", "A **strong** team.".into()),
        ("intent", "save".into()),
    ]
    .into_iter()
    .collect()
}

fn with(
    mut fields: Vec<(&'static str, String)>,
    key: &'static str,
    value: &str,
) -> Vec<(&'static str, String)> {
    fields.retain(|(k, _)| *k != key);
    fields.push((key, value.into()));
    fields
}

/// Clicks "create startup" on `application` (its CSRF token from `page`).
async fn make_startup(
    admin: &reqwest::Client,
    server: &Server,
    application: i64,
    page: &str,
) -> reqwest::Response {
    post_form(
        admin,
        server.url(&format!("/dashboard/applications/{application}/startup")),
        &csrf_of(page),
        &[("create", "1".into())],
    )
    .await
}

async fn audit_has(server: &Server, action: &str) -> bool {
    scalar(
        server,
        &format!("SELECT COUNT(*) FROM audit_log WHERE action = '{action}'"),
    )
    .await
        > 0
}

fn mkk() -> Vec<(&'static str, String)> {
    [
        ("investor_type", "individual"),
        ("citizen", "yes"),
        ("id_type", "tckn"),
        ("first_name", "Ayşe"),
        ("last_name", "Yılmaz"),
        ("email", "ayse@example.com"),
        ("phone", "05321234567"),
        ("annual_income", "1.000.000"),
        ("identity_number", "10000000146"),
        ("birth_date", "1984-02-29"),
    ]
    .iter()
    .map(|(k, v)| (*k, (*v).to_owned()))
    .collect()
}

/// Posts a pre-investment request; returns the status.
async fn request(server: &Server, browser: &reqwest::Client, slug: &str) -> (u16, String) {
    let page = common::text(
        browser,
        server.url(&format!("/investmentFlow?startup={slug}")),
    )
    .await;
    let key = page
        .split("name=\"idempotency_key\" value=\"")
        .nth(1)
        .map(|r| r.split('"').next().unwrap().to_owned())
        .unwrap_or_else(|| "k".into());
    common::money::open_information_form(server, browser, slug).await;
    let response = post_form(
        browser,
        server.url("/investmentFlow"),
        &csrf_of(&page),
        &[
            ("startup", slug.into()),
            ("amount", "100.000".into()),
            ("fee_added", "on".into()),
            ("risk", "on".into()),
            ("idempotency_key", key),
        ],
    )
    .await;
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

#[tokio::test]
async fn staff_create_a_startup_and_vip_groups_get_its_pre_investment_first() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    create_admin(&data, "super@example.com", true);
    common::campaigns::create_committee(&data);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    common::campaigns::seat_committee(&server).await;
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let vip_until = (time::OffsetDateTime::now_utc().date() + time::Duration::days(5)).to_string();
    let fields = startup_fields("Şimşek Ödeme", &vip_until);
    let startups = scalar(&server, "SELECT COUNT(*) FROM startups").await;
    // An investor interested in fintech hears of the new startup once, in their language.
    sign_up(&server, "ilgili@example.com").await;
    sqlx::query(
        "UPDATE users SET interests = 'energy,fintech', language = 'en',
             email_verified_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE email = 'ilgili@example.com'",
    )
    .execute(&server.db().await)
    .await
    .unwrap();
    let matches = || {
        scalar(
            &server,
            "SELECT COUNT(*) FROM outbox WHERE to_email = 'ilgili@example.com' AND text_body LIKE '%/startups/simsek-odeme%'",
        )
    };

    // Each bad field: its message, what was typed kept, 422, nothing stored.
    let token = csrf(&admin, &server, "/dashboard/startups/new").await;
    for (field, value, message) in [
        ("name", "", "Bu alan zorunludur"),
        ("goal", "üç milyon", "Lütfen geçerli bir sayı girin."),
        (
            "founders",
            "sadece isim",
            "Her kurucuyu şöyle yazın: Ad Soyad | Pozisyon | https://profil.",
        ),
        (
            "ends_on",
            "2020-01-01",
            "Lütfen başlangıç tarihinden önce olmayan bir bitiş tarihi girin.",
        ),
        ("website", "javascript:alert(1)", "https://"),
    ] {
        let response = post_form(
            &admin,
            server.url("/dashboard/startups/new"),
            &token,
            &with(fields.clone(), field, value),
        )
        .await;
        assert_eq!(response.status(), 422, "{field}");
        let page = response.text().await.unwrap();
        assert!(page.contains(message), "{field}: {message}");
        assert!(page.contains("Esnafa anında ödeme."), "typed values kept");
    }
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM startups").await,
        startups
    );

    // The preview renders both languages' Markdown and stores nothing.
    let preview = post_form(
        &admin,
        server.url("/dashboard/startups/new"),
        &token,
        &with(fields.clone(), "intent", "preview"),
    )
    .await;
    assert_eq!(preview.status(), 200);
    let page = preview.text().await.unwrap();
    assert!(page.contains("<strong>Güçlü</strong>") && page.contains("<strong>strong</strong>"));
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM startups").await,
        startups
    );

    let saved = post_form(
        &admin,
        server.url("/dashboard/startups/new"),
        &token,
        &fields,
    )
    .await;
    assert_eq!(saved.status(), 303);
    let id = scalar(
        &server,
        "SELECT id FROM startups WHERE slug = 'simsek-odeme'",
    )
    .await;
    assert_eq!(
        saved.headers()["location"],
        format!("/dashboard/startups/{id}").as_str()
    );
    assert!(audit_has(&server, "startup.create").await);
    assert_eq!(matches().await, 0, "not published yet");
    // Publication needs the investment committee's approval of a campaign version.
    let token = csrf(&admin, &server, &format!("/dashboard/startups/{id}")).await;
    let published = with(fields.clone(), "published", "on");
    let refused = post_form(
        &admin,
        server.url(&format!("/dashboard/startups/{id}")),
        &token,
        &published,
    )
    .await;
    assert_eq!(refused.status(), 422);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("Bir kampanya, yatırım komitesi bir sürümünü onayladığında yayımlanır.")
    );
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT published FROM startups WHERE id = {id}")
        )
        .await,
        0
    );
    // The committee approves its campaign, which publishes it: the startup-match mail goes.
    common::campaigns::record_issuer(&server, &admin, id).await;
    let members = common::campaigns::committee_browsers(&server).await;
    let today = time::OffsetDateTime::now_utc().date();
    let mut campaign = common::campaigns::campaign_fields(
        3_000_000,
        today - time::Duration::days(1),
        today + time::Duration::days(20),
    );
    campaign[2].1 = "**Güçlü** bir ekip.".into();
    campaign[3].1 = "A **strong** team.".into();
    common::campaigns::run_campaign(&server, &admin, &members, id, &campaign).await;
    assert_eq!(matches().await, 1, "the startup-match mail");
    // Unpublished and published again: no second mail.
    for published in [false, true] {
        let token = csrf(&admin, &server, &format!("/dashboard/startups/{id}")).await;
        let mut fields = with(fields.clone(), "published", "on");
        fields.retain(|(k, _)| *k != "published" || published);
        let republished = post_form(
            &admin,
            server.url(&format!("/dashboard/startups/{id}")),
            &token,
            &fields,
        )
        .await;
        assert_eq!(republished.status(), 303);
    }
    assert_eq!(matches().await, 1, "told once");
    let editor = common::text(&admin, server.url(&format!("/dashboard/startups/{id}"))).await;
    assert!(editor.contains("Deniz Ak | CEO | https://example.com/deniz"));
    // The same address twice is refused.
    let again = post_form(
        &admin,
        server.url("/dashboard/startups/new"),
        &token,
        &fields,
    )
    .await;
    assert_eq!(again.status(), 422);
    assert!(
        again
            .text()
            .await
            .unwrap()
            .contains("Bu adresi başka bir girişim kullanıyor.")
    );

    // Investors see it in both languages; during the VIP period only members pre-invest.
    let investor = sign_up(&server, "vip@example.com").await;
    common::money::verify_email(&server, "vip@example.com").await;
    let token = csrf(&investor, &server, "/mkk").await;
    post_form(&investor, server.url("/mkk"), &token, &mkk()).await;
    common::money::verify_mkk(&server, "vip@example.com").await;
    let tr = common::text(&investor, server.url("/startups/simsek-odeme")).await;
    assert!(tr.contains("<strong>Güçlü</strong> bir ekip."));
    assert!(tr.contains("Ön yatırım önce VIP grup üyelerine açıktır."));
    let en = common::text(&investor, server.url("/startups/simsek-odeme?lang=en")).await;
    assert!(en.contains("A <strong>strong</strong> team."));
    let (status, page) = request(&server, &investor, "simsek-odeme").await;
    assert_eq!(status, 409);
    assert!(page.contains("VIP"));

    let superadmin = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let token = csrf(&superadmin, &server, "/dashboard/vipgroups/new").await;
    let created = post_form(
        &superadmin,
        server.url("/dashboard/vipgroups"),
        &token,
        &[("name", "Erken Erişim".into())],
    )
    .await;
    assert_eq!(created.status(), 303);
    let group = created.headers()["location"].to_str().unwrap().to_owned();
    for (op, field, value) in [
        ("add-member", "email", "vip@example.com"),
        ("add-startup", "startup", "simsek-odeme"),
    ] {
        let response = post_form(
            &superadmin,
            server.url(&group),
            &token,
            &[("op", op.into()), (field, value.into())],
        )
        .await;
        assert_eq!(response.status(), 303, "{op}");
    }
    let unknown = post_form(
        &superadmin,
        server.url(&group),
        &token,
        &[
            ("op", "add-member".into()),
            ("email", "nobody@example.com".into()),
        ],
    )
    .await;
    assert_eq!(unknown.status(), 400);
    let (status, _) = request(&server, &investor, "simsek-odeme").await;
    assert_eq!(status, 303, "a VIP member may pre-invest");
    assert!(audit_has(&server, "vip.add-member").await);

    // Admins cannot open superadmin sections or act there.
    let token = csrf(&admin, &server, "/dashboard/startups/new").await;
    let refused = post_form(
        &admin,
        server.url(&group),
        &token,
        &[
            ("op", "add-member".into()),
            ("email", "vip@example.com".into()),
        ],
    )
    .await;
    assert_eq!(refused.status(), 403);

    // The table island's JSON: the same rows, and which columns it may filter.
    let json: serde_json::Value = admin
        .get(server.url("/dashboard/startups.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let rows = json["rows"].as_array().unwrap();
    assert!(rows.iter().any(|r| r["cells"][0] == "Şimşek Ödeme"
        && r["link"]["href"] == format!("/dashboard/startups/{id}")));
    assert!(
        json["columns"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["filter"] == true)
    );

    // One click turns a submitted application into an unpublished draft startup.
    let application: i64 = sqlx::query_scalar(
        "INSERT INTO startup_applications (draft_token, answers, next_step, status, submitted_at)
         VALUES ('t', ?, 5, 'new', strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) RETURNING id",
    )
    .bind(r#"{"name":"Çınar Robotik","sector":"mobility","city":"Bursa","stage":"seed","description":"Depo robotları."}"#)
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    let page = common::text(&admin, server.url("/dashboard/applications")).await;
    assert!(page.contains(&format!("/dashboard/applications/{application}/startup")));
    let created = make_startup(&admin, &server, application, &page).await;
    assert_eq!(created.status(), 303);
    let draft = scalar(
        &server,
        "SELECT id FROM startups WHERE slug = 'cinar-robotik' AND published = 0",
    )
    .await;
    assert_eq!(
        created.headers()["location"],
        format!("/dashboard/startups/{draft}").as_str()
    );
    let editor = common::text(&admin, server.url(&format!("/dashboard/startups/{draft}"))).await;
    assert!(editor.contains("Depo robotları.") && editor.contains("Bursa"));
    assert!(audit_has(&server, "startup.from_application").await);
    // It accepted the application, and a second click opens the same startup.
    let status: String = sqlx::query_scalar("SELECT status FROM startup_applications WHERE id = ?")
        .bind(application)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    assert_eq!(status, "accepted");
    let page = common::text(&admin, server.url("/dashboard/applications")).await;
    assert!(!page.contains(&format!("/dashboard/applications/{application}/startup")));
    let again = make_startup(&admin, &server, application, &page).await;
    assert_eq!(
        again.headers()["location"],
        format!("/dashboard/startups/{draft}").as_str()
    );
    let drafts = scalar(
        &server,
        "SELECT COUNT(*) FROM startups WHERE slug LIKE 'cinar-robotik%'",
    )
    .await;
    assert_eq!(drafts, 1, "one click, one startup");
}

#[tokio::test]
async fn a_superadmin_creates_funds_before_any_startup() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    create_admin(&data, "admin@example.com", false);
    // No demo content: an empty install has no fund.
    let server = Server::start_in(data, &[]);
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let application: i64 = sqlx::query_scalar(
        "INSERT INTO startup_applications (draft_token, answers, next_step, status, submitted_at)
         VALUES ('f', '{\"name\":\"Fonsuz\"}', 5, 'new', strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) RETURNING id",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    let page = common::text(&admin, server.url("/dashboard/applications")).await;
    let refused = make_startup(&admin, &server, application, &page).await;
    assert_eq!(refused.status(), 400);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("Önce bir fon oluşturun")
    );

    let superadmin = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let form = common::text(&superadmin, server.url("/dashboard/vcGroups/new")).await;
    let create = |name: &'static str, website: &'static str| {
        let (superadmin, server, token) = (&superadmin, &server, csrf_of(&form));
        async move {
            post_form(
                superadmin,
                server.url("/dashboard/vcGroups"),
                &token,
                &[
                    ("create", "1".into()),
                    ("name", name.into()),
                    ("website", website.into()),
                ],
            )
            .await
            .status()
            .as_u16()
        }
    };
    assert_eq!(create("", "").await, 400, "a name is needed");
    assert_eq!(
        create("Boğaziçi Fon", "ftp://x").await,
        400,
        "a web address"
    );
    assert_eq!(
        create("Boğaziçi Fon", "https://bogazici.example").await,
        303
    );
    assert_eq!(create("Boğaziçi Fon", "").await, 400, "the name is taken");
    let (slug, website): (String, String) = sqlx::query_as("SELECT slug, website FROM funds")
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    assert_eq!(
        (slug.as_str(), website.as_str()),
        ("bogazici-fon", "https://bogazici.example")
    );
    assert!(audit_has(&server, "fund.create").await);
    let list = common::text(&superadmin, server.url("/dashboard/vcGroups")).await;
    assert!(list.contains("Boğaziçi Fon") && list.contains("/dashboard/vcGroups/new"));
    // Admins cannot create funds.
    let forbidden = post_form(
        &admin,
        server.url("/dashboard/vcGroups"),
        &csrf_of(&page),
        &[("create", "1".into()), ("name", "Başka Fon".into())],
    )
    .await;
    assert_eq!(forbidden.status(), 403);
    // Now the application becomes a startup of that fund.
    let created = make_startup(&admin, &server, application, &page).await;
    assert_eq!(created.status(), 303);
}

#[tokio::test]
async fn staff_change_roles_deactivate_members_and_edit_automatic_mails() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[]);
    let member = sign_up(&server, "uye@example.com").await;
    let id = scalar(
        &server,
        "SELECT id FROM users WHERE email = 'uye@example.com'",
    )
    .await;
    let me = scalar(
        &server,
        "SELECT id FROM users WHERE email = 'admin@example.com'",
    )
    .await;
    let boss = scalar(
        &server,
        "SELECT id FROM users WHERE email = 'super@example.com'",
    )
    .await;
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let page = common::text(&admin, server.url(&format!("/dashboard/users/{id}"))).await;
    assert!(page.contains("uye@example.com") && page.contains("Yönetici yap"));
    // Role changes and deactivation are set apart, each on a confirmation page that says what
    // happens and wants the member's address typed.
    assert!(page.contains(&format!("/dashboard/users/{id}/role?to=admin")));
    let confirm = common::text(
        &admin,
        server.url(&format!("/dashboard/users/{id}/active?to=0")),
    )
    .await;
    assert!(confirm.contains("hesabı kapatılır") && confirm.contains("açık yatırım talebi yok"));
    assert!(
        !page.contains("Süper yönetici yap"),
        "admins cannot grant superadmin"
    );
    let token = csrf_of(&page);
    let post = |path: String, fields: Vec<(&'static str, String)>| {
        let admin = admin.clone();
        let token = token.clone();
        async move { post_form(&admin, path, &token, &fields).await.status() }
    };
    assert_eq!(
        post(
            server.url(&format!("/dashboard/users/{id}/role")),
            vec![
                ("role", "superadmin".into()),
                ("confirm", "uye@example.com".into())
            ]
        )
        .await,
        403
    );
    assert_eq!(
        post(
            server.url(&format!("/dashboard/users/{me}/role")),
            vec![
                ("role", "investor".into()),
                ("confirm", "admin@example.com".into())
            ]
        )
        .await,
        403,
        "nobody changes their own role"
    );
    assert_eq!(
        post(
            server.url(&format!("/dashboard/users/{boss}/active")),
            vec![
                ("active", "0".into()),
                ("confirm", "super@example.com".into())
            ]
        )
        .await,
        403,
        "admins cannot deactivate superadmins"
    );
    assert_eq!(
        post(
            server.url(&format!("/dashboard/users/{id}/role")),
            vec![
                ("role", "admin".into()),
                ("confirm", "someone@example.com".into())
            ]
        )
        .await,
        422,
        "not confirmed: nothing changes"
    );
    assert_eq!(
        post(
            server.url(&format!("/dashboard/users/{id}/role")),
            vec![
                ("role", "admin".into()),
                ("confirm", "uye@example.com".into())
            ]
        )
        .await,
        303
    );
    // The new role applies at once: a staff session needs a second factor, so the promoted
    // member's session ends and they sign in again, enrolling an authenticator.
    assert_eq!(
        member
            .get(server.url("/dashboard"))
            .send()
            .await
            .unwrap()
            .status(),
        303,
        "a staff session without a second factor is no session"
    );
    let member = sign_in(&server, "uye@example.com", "gizli-sifre-123").await;
    assert_eq!(
        member
            .get(server.url("/dashboard"))
            .send()
            .await
            .unwrap()
            .status(),
        200,
        "the new role applies at once"
    );
    assert_eq!(
        post(
            server.url(&format!("/dashboard/users/{id}/active")),
            vec![
                ("active", "0".into()),
                ("confirm", "uye@example.com".into())
            ]
        )
        .await,
        303
    );
    let after = member.get(server.url("/profile")).send().await.unwrap();
    assert_eq!(after.status(), 303, "a deactivated member is signed out");
    assert!(audit_has(&server, "user.role").await && audit_has(&server, "user.active").await);

    // Automatic mails: edit, preview, switch off; essential ones stay on.
    let editor = common::text(&admin, server.url("/dashboard/autoMail/welcome")).await;
    assert!(
        editor.contains("Ortak&#x27;a hoş geldiniz") || editor.contains("Ortak'a hoş geldiniz")
    );
    let token = csrf_of(&editor);
    let fields = |enabled: bool, intent: &str| {
        let mut f: Vec<(&'static str, String)> = vec![
            ("subject_tr", "Aramıza hoş geldiniz".into()),
            ("subject_en", "Welcome aboard".into()),
            ("body_tr", "Üyeliğiniz hazır.\n\nİyi yatırımlar.".into()),
            ("body_en", "Your membership is ready.".into()),
            ("intent", intent.into()),
        ];
        if enabled {
            f.push(("enabled", "on".into()));
        }
        f
    };
    let preview = post_form(
        &admin,
        server.url("/dashboard/autoMail/welcome"),
        &token,
        &fields(true, "preview"),
    )
    .await;
    assert_eq!(preview.status(), 200);
    let text = preview.text().await.unwrap();
    assert!(text.contains("Aramıza hoş geldiniz") && text.contains("Merhaba Ayşe"));
    let empty = post_form(
        &admin,
        server.url("/dashboard/autoMail/welcome"),
        &token,
        &with(fields(true, "save"), "subject_en", ""),
    )
    .await;
    assert_eq!(empty.status(), 422);
    assert!(empty.text().await.unwrap().contains("Aramıza hoş geldiniz"));
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM mail_templates").await,
        0
    );
    assert_eq!(
        post_form(
            &admin,
            server.url("/dashboard/autoMail/welcome"),
            &token,
            &fields(false, "save")
        )
        .await
        .status(),
        303
    );
    assert_eq!(
        post_form(
            &admin,
            server.url("/dashboard/autoMail/verify"),
            &token,
            &fields(false, "save")
        )
        .await
        .status(),
        303
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT enabled FROM mail_templates WHERE kind = 'verify'"
        )
        .await,
        1
    );
    // The verification mail now carries the edited text; the welcome mail is off.
    let before = scalar(&server, "SELECT COUNT(*) FROM outbox").await;
    sign_up(&server, "yeni@example.com").await;
    let subject: String = sqlx::query_scalar("SELECT subject FROM outbox ORDER BY id DESC LIMIT 1")
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    assert_eq!(subject, "Aramıza hoş geldiniz");
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM outbox").await,
        before + 1
    );
    assert!(audit_has(&server, "mail.save").await);

    // Academy events staff add are offered on /academy.
    let page = common::text(&admin, server.url("/dashboard/academy/events")).await;
    let day = (time::OffsetDateTime::now_utc().date() + time::Duration::days(40)).to_string();
    let added = post_form(
        &admin,
        server.url("/dashboard/academy/events"),
        &csrf_of(&page),
        &[
            ("title_tr", "Değerleme atölyesi".into()),
            ("title_en", "Valuation workshop".into()),
            ("date", day),
        ],
    )
    .await;
    assert_eq!(added.status(), 303);
    let academy = common::text(&admin, server.url("/academy?lang=en")).await;
    assert!(academy.contains("Valuation workshop"));
    // Every inbox exports as CSV, with the page's columns.
    let csv = admin
        .get(server.url("/dashboard/contacts.csv"))
        .send()
        .await
        .unwrap();
    assert_eq!(csv.status(), 200);
    assert!(
        csv.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let body = csv.text().await.unwrap();
    assert!(
        body.starts_with("\u{feff}\"Name\",\"E-mail\""),
        "in the locale chosen above: {body}"
    );
}

#[tokio::test]
async fn qualified_declarations_fund_teams_and_the_vc_dashboard() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let investor = sign_up(&server, "nitelikli@example.com").await;
    // Only a verified address may declare (issue 12, item 9).
    sqlx::query("UPDATE users SET email_verified_at = '2026-11-01T00:00:00Z' WHERE email = ?")
        .bind("nitelikli@example.com")
        .execute(&server.db().await)
        .await
        .unwrap();

    // The declaration: each missing part has its message; a good one waits for review.
    let page = common::text(&investor, server.url("/qualifiedInvestor")).await;
    let token = csrf_of(&page);
    let form = |basis: &str, file: Option<&'static [u8]>, declare: bool| {
        let mut f = reqwest::multipart::Form::new()
            .text("csrf", token.clone())
            .text("basis", basis.to_owned());
        if declare {
            f = f.text("declare", "on");
        }
        if let Some(bytes) = file {
            f = f.part(
                "evidence",
                reqwest::multipart::Part::bytes(bytes).file_name("belge.pdf"),
            );
        }
        f
    };
    for (f, message) in [
        (
            form("", Some(b"%PDF-1.7 x"), true),
            "Lütfen en az birini seçin.",
        ),
        (
            form("income", None, true),
            "Lütfen bunu gösteren bir belge yükleyin.",
        ),
        (
            form("income", Some(b"MZ not a pdf"), true),
            "Belge PDF, PNG veya JPEG dosyası olmalıdır.",
        ),
        (
            form("income", Some(b"%PDF-1.7 x"), false),
            "Beyanı onaylamanız gerekir.",
        ),
    ] {
        let response = investor
            .post(server.url("/qualifiedInvestor"))
            .multipart(f)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 422, "{message}");
        assert!(
            response.text().await.unwrap().contains(message),
            "{message}"
        );
    }
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM qualified_declarations WHERE user_id NOT IN (SELECT id FROM users WHERE email LIKE '%@demo.ortak.local')").await,
        0
    );
    let sent = investor
        .post(server.url("/qualifiedInvestor"))
        .multipart(form("income", Some(b"%PDF-1.7 evidence"), true))
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), 303);
    let superadmin = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let list = common::text(&superadmin, server.url("/dashboard/qualifiedUsers")).await;
    assert!(list.contains("nitelikli@example.com"));
    let id = scalar(&server, "SELECT id FROM qualified_declarations WHERE user_id NOT IN (SELECT id FROM users WHERE email LIKE '%@demo.ortak.local')").await;
    let evidence = superadmin
        .get(server.url(&format!("/dashboard/qualifiedUsers/{id}/evidence")))
        .send()
        .await
        .unwrap();
    assert_eq!(evidence.status(), 200);
    assert_eq!(
        evidence.bytes().await.unwrap().as_ref(),
        b"%PDF-1.7 evidence"
    );
    let verified = post_form(
        &superadmin,
        server.url(&format!("/dashboard/qualifiedUsers/{id}")),
        &csrf_of(&list),
        &[("decision", "verified".into())],
    )
    .await;
    assert_eq!(verified.status(), 303);
    let page = common::text(&investor, server.url("/qualifiedInvestor")).await;
    assert!(page.contains("Doğrulanmış nitelikli yatırımcısınız."));

    // A fund team member sees only their fund, posts an update and a report.
    let member = sign_up(&server, "fon@example.com").await;
    let groups = common::text(&superadmin, server.url("/dashboard/vcGroups")).await;
    assert_eq!(
        post_form(
            &superadmin,
            server.url("/dashboard/vcGroups/2/members"),
            &csrf_of(&groups),
            &[("op", "add".into()), ("email", "fon@example.com".into())],
        )
        .await
        .status(),
        303
    );
    assert!(audit_has(&server, "fund.members").await);
    let home = common::text(&member, server.url("/vc-dashboard")).await;
    let own: Vec<String> = sqlx::query_scalar("SELECT name FROM startups WHERE fund_id = 2")
        .fetch_all(&server.db().await)
        .await
        .unwrap();
    let other: Vec<String> = sqlx::query_scalar("SELECT name FROM startups WHERE fund_id != 2")
        .fetch_all(&server.db().await)
        .await
        .unwrap();
    assert!(own.iter().all(|n| home.contains(n.as_str())));
    assert!(other.iter().all(|n| !home.contains(n.as_str())));
    let startup = scalar(
        &server,
        "SELECT id FROM startups WHERE fund_id = 2 ORDER BY id LIMIT 1",
    )
    .await;
    let slug: String = sqlx::query_scalar("SELECT slug FROM startups WHERE id = ?")
        .bind(startup)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let page = common::text(
        &member,
        server.url(&format!("/vc-dashboard/startups/{startup}")),
    )
    .await;
    let token = csrf_of(&page);
    let empty = post_form(
        &member,
        server.url(&format!("/vc-dashboard/startups/{startup}/updates")),
        &token,
        &[("body_tr", "".into()), ("body_en", "Hired a CTO.".into())],
    )
    .await;
    assert_eq!(empty.status(), 422);
    assert!(empty.text().await.unwrap().contains("Hired a CTO."));
    let posted = post_form(
        &member,
        server.url(&format!("/vc-dashboard/startups/{startup}/updates")),
        &token,
        &[
            ("body_tr", "CTO işe alındı.".into()),
            ("body_en", "Hired a CTO.".into()),
        ],
    )
    .await;
    assert_eq!(posted.status(), 303);
    let detail = common::text(&investor, server.url(&format!("/startups/{slug}"))).await;
    assert!(detail.contains("CTO işe alındı."));
    let reports = scalar(&server, "SELECT COUNT(*) FROM reports").await;
    let report = |file: &'static [u8]| {
        reqwest::multipart::Form::new()
            .text("csrf", token.clone())
            .text("quarter", "2026 Ç3")
            .text("report_title_tr", "Üçüncü çeyrek")
            .text("report_title_en", "Third quarter")
            .text("report_summary_tr", "Gelir arttı.")
            .text("report_summary_en", "Revenue grew.")
            .part(
                "file",
                reqwest::multipart::Part::bytes(file).file_name("r.pdf"),
            )
    };
    let bad = member
        .post(server.url(&format!("/vc-dashboard/startups/{startup}/reports")))
        .multipart(report(b"not a pdf"))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 422);
    assert!(
        bad.text()
            .await
            .unwrap()
            .contains("Rapor PDF dosyası olmalıdır.")
    );
    let good = member
        .post(server.url(&format!("/vc-dashboard/startups/{startup}/reports")))
        .multipart(report(b"%PDF-1.7 report"))
        .send()
        .await
        .unwrap();
    assert_eq!(good.status(), 303);
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM reports").await,
        reports + 1
    );
    let page = common::text(
        &member,
        server.url(&format!("/vc-dashboard/startups/{startup}")),
    )
    .await;
    assert!(
        page.contains("<strong>2026 Ç3</strong> · Üçüncü çeyrek"),
        "the posted report is listed"
    );
    let other_startup = scalar(
        &server,
        "SELECT id FROM startups WHERE fund_id != 2 LIMIT 1",
    )
    .await;
    let refused = post_form(
        &member,
        server.url(&format!("/vc-dashboard/startups/{other_startup}/updates")),
        &token,
        &[("body_tr", "x".into()), ("body_en", "x".into())],
    )
    .await;
    assert_eq!(
        refused.status(),
        404,
        "another fund's startup does not exist for them"
    );
}

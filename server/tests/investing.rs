//! MKK membership, investment requests, the investor's lists, and staff moves.

use crate::common;

use axum::Router;
use axum::routing::post;
use common::journeys::{create_admin, csrf, post_form, sign_in, sign_up};
use common::money::{make_qualified, verify_email, verify_mkk};
use common::smtp::SmtpSink;
use common::{Server, client, csrf_of};
use tempfile::TempDir;

fn mkk_fields(identity: &str) -> Vec<(&'static str, String)> {
    vec![
        ("investor_type", "individual".into()),
        ("citizen", "yes".into()),
        ("id_type", "tckn".into()),
        ("first_name", "Ayşe".into()),
        ("last_name", "Yılmaz".into()),
        ("email", "ayse@example.com".into()),
        ("phone", "0532 123 45 67".into()),
        ("annual_income", "1.500.000".into()),
        ("identity_number", identity.into()),
        ("organisation", "".into()),
        ("birth_date", "1984-02-29".into()),
    ]
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

async fn requests(server: &Server) -> i64 {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM investment_requests WHERE idempotency_key NOT LIKE 'demo-%'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap()
}

fn amount_fields(amount: &str, key: &str) -> Vec<(&'static str, String)> {
    vec![
        ("startup", "cemre-enerji".into()),
        ("amount", amount.into()),
        ("fee_added", "on".into()),
        ("risk", "on".into()),
        ("idempotency_key", key.into()),
    ]
}

#[tokio::test]
async fn mkk_data_is_checked_and_required_before_investing() {
    let server = Server::start();
    let browser = sign_up(&server, "mkk@example.com").await;

    // An unverified e-mail address may not send MKK data or requests: both pages say so.
    for path in ["/mkk", "/investmentFlow?startup=cemre-enerji"] {
        let page = common::text(&browser, server.url(path)).await;
        assert!(
            page.contains("e-posta adresinizi doğrulamanız gerekir")
                && page.contains("href=\"/verification\""),
            "{path}"
        );
    }
    verify_email(&server, "mkk@example.com").await;
    let blocked = common::text(&browser, server.url("/investmentFlow?startup=cemre-enerji")).await;
    assert!(blocked.contains("MKK üyelik bilgilerinizi tamamlamanız gerekir"));
    // The way to the form carries the investment, so saving it continues there.
    let to_mkk = "/mkk?next=/investmentFlow%3Fstartup%3Dcemre-enerji";
    assert!(blocked.contains(&format!("href=\"{to_mkk}\"")), "{blocked}");
    let from_investment = common::text(&browser, server.url(to_mkk)).await;
    assert!(
        from_investment.contains("name=\"next\" value=\"/investmentFlow?startup=cemre-enerji\"")
    );
    assert!(
        from_investment.contains("href=\"/investmentFlow?startup=cemre-enerji\">← Yatırıma dön"),
        "a way back to the investment"
    );

    let page = common::text(&browser, server.url("/mkk")).await;
    assert!(
        page.contains("e-Devlet üzerinden kimlik doğrulaması yakında"),
        "says the e-government check is not on"
    );
    assert!(
        page.contains("value=\"mkk@example.com\""),
        "prefilled from the account"
    );
    let token = csrf_of(&page);
    let cases: Vec<(Vec<(&'static str, String)>, &str)> = vec![
        (
            mkk_fields("1000000014"),
            "Kimlik numarası 11 haneli olmalıdır.",
        ),
        (mkk_fields("10000000147"), "Bu numara geçerli değil."),
        (mkk_fields("1000000014x"), "Lütfen yalnızca rakam girin."),
        (
            with(
                with(
                    with(mkk_fields("454053692"), "id_type", "vkn"),
                    "investor_type",
                    "corporate",
                ),
                "organisation",
                "A.Ş.",
            ),
            "Vergi numarası 10 haneli olmalıdır.",
        ),
        (
            with(mkk_fields("10000000146"), "citizen", "no"),
            "kimlik türü uygun değil",
        ),
        (
            with(mkk_fields("10000000146"), "annual_income", "çok"),
            "Lütfen geçerli bir sayı girin.",
        ),
        (
            with(mkk_fields("10000000146"), "phone", ""),
            "Bu alan zorunludur",
        ),
        (
            with(
                with(
                    with(mkk_fields("4540536920"), "id_type", "vkn"),
                    "investor_type",
                    "corporate",
                ),
                "organisation",
                "",
            ),
            "Bu alan zorunludur",
        ),
    ];
    for (fields, message) in cases {
        let response = post_form(&browser, server.url("/mkk"), &token, &fields).await;
        assert_eq!(response.status(), 422, "{message}");
        let html = response.text().await.unwrap();
        assert!(html.contains(message), "{message}");
        assert!(html.contains("value=\"Yılmaz\""), "keeps what was typed");
    }
    let stored: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM mkk_profiles WHERE email NOT LIKE '%@demo.ortak.local'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert_eq!(stored, 0);

    let english = post_form(
        &browser,
        server.url("/mkk?lang=en"),
        &token,
        &mkk_fields("1000000014"),
    )
    .await;
    assert!(
        english
            .text()
            .await
            .unwrap()
            .contains("The identity number must have 11 digits.")
    );

    // Saved with a target off the site: back to the form, never elsewhere.
    let off_site = post_form(
        &browser,
        server.url("/mkk"),
        &token,
        &with(mkk_fields("10000000146"), "next", "//evil.example/x"),
    )
    .await;
    assert_eq!(off_site.status(), 303);
    assert_eq!(off_site.headers()["location"], "/mkk");
    let ok = post_form(
        &browser,
        server.url("/mkk"),
        &token,
        &with(
            mkk_fields("10000000146"),
            "next",
            "/investmentFlow?startup=cemre-enerji",
        ),
    )
    .await;
    assert_eq!(ok.status(), 303);
    assert_eq!(
        ok.headers()["location"],
        "/investmentFlow?startup=cemre-enerji",
        "saving continues the investment"
    );
    let page = common::text(&browser, server.url("/mkk?lang=tr")).await;
    assert!(page.contains("Gönderildi, ekibimiz inceliyor"));
    // Sent is not verified: nothing can be invested until staff (or e-government) verify it.
    let form = common::text(&browser, server.url("/investmentFlow?startup=cemre-enerji")).await;
    assert!(!form.contains("data-island=\"investment\""));
    assert!(form.contains("MKK bilgileriniz ekibimiz tarafından doğrulanıyor"));
    verify_mkk(&server, "mkk@example.com").await;
    let form = common::text(&browser, server.url("/investmentFlow?startup=cemre-enerji")).await;
    assert!(
        form.contains("data-island=\"investment\""),
        "the amount page opens once MKK data is verified"
    );
}

#[tokio::test]
async fn an_investor_requests_an_investment_once_and_staff_review_it() {
    let sink = SmtpSink::start().await;
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(
        data,
        &[("ORTAK_DEMO", "1"), ("ORTAK_SMTP_URL", &sink.url())],
    );
    let browser = sign_up(&server, "invest@example.com").await;
    verify_email(&server, "invest@example.com").await;
    make_qualified(&server, "invest@example.com").await;
    let token = csrf(&browser, &server, "/mkk").await;
    assert_eq!(
        post_form(
            &browser,
            server.url("/mkk"),
            &token,
            &mkk_fields("10000000146")
        )
        .await
        .status(),
        303
    );
    verify_mkk(&server, "invest@example.com").await;

    let page = common::text(&browser, server.url("/investmentFlow?startup=cemre-enerji")).await;
    let key = page
        .split("name=\"idempotency_key\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    common::money::open_information_form(&server, &browser, "cemre-enerji").await;
    for (amount, message) in [
        ("99.999", "En düşük yatırım tutarı 100.000 TL'dir."),
        ("yüz bin", "Lütfen geçerli bir sayı girin."),
        ("", "Bu alan zorunludur"),
    ] {
        let response = post_form(
            &browser,
            server.url("/investmentFlow"),
            &token,
            &amount_fields(amount, &key),
        )
        .await;
        assert_eq!(response.status(), 422, "{amount}");
        let html = response.text().await.unwrap();
        assert!(html.contains(message), "{amount}: {message}");
        assert!(
            html.contains(&format!("value=\"{amount}\"")),
            "keeps what was typed"
        );
    }
    let no_risk = post_form(
        &browser,
        server.url("/investmentFlow"),
        &token,
        &with(amount_fields("250.000", &key), "risk", ""),
    )
    .await;
    assert_eq!(no_risk.status(), 422);
    assert!(
        no_risk
            .text()
            .await
            .unwrap()
            .contains("risk bildirimini kabul etmelisiniz")
    );
    let english = post_form(
        &browser,
        server.url("/investmentFlow?lang=en"),
        &token,
        &amount_fields("5.000", &key),
    )
    .await;
    assert!(
        english
            .text()
            .await
            .unwrap()
            .contains("The minimum investment is 100,000 TL.")
    );
    assert_eq!(requests(&server).await, 0);

    // A double submit makes one request.
    for _ in 0..2 {
        let created = post_form(
            &browser,
            server.url("/investmentFlow?lang=tr"),
            &token,
            &amount_fields("250.000", &key),
        )
        .await;
        assert_eq!(created.status(), 303);
        assert_eq!(created.headers()["location"], "/investmentFlow/created");
    }
    assert_eq!(requests(&server).await, 1);
    let (amount, fee, total): (i64, i64, i64) =
        sqlx::query_as("SELECT amount_kurus, fee_kurus, total_kurus FROM investment_requests WHERE idempotency_key NOT LIKE 'demo-%'")
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    assert_eq!(
        (amount, fee, total),
        (25_000_000, 625_000, 25_625_000),
        "2.5% fee added, in kuruş"
    );
    let done = common::text(&browser, server.url("/investmentFlow/created")).await;
    assert!(
        done.contains("Yatırım talebiniz oluşturuldu ve incelenecek")
            && done.contains("href=\"/pendingInvestments\"")
    );
    sink.wait_for("invest@example.com", "yatırım talebiniz alındı")
        .await;

    let pending = common::text(&browser, server.url("/pendingInvestments")).await;
    assert!(
        pending.contains("Cemre Enerji")
            && pending.contains("250.000 TL")
            && pending.contains(">Gönderildi<")
    );
    let mine = common::text(&browser, server.url("/userInvestments")).await;
    assert!(mine.contains("Henüz yatırımınız yok."));

    // Staff move it through the dashboard, the same service the dashboard's buttons call.
    let id: i64 = sqlx::query_scalar(
        "SELECT id FROM investment_requests WHERE idempotency_key NOT LIKE 'demo-%'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert_eq!(
        browser
            .get(server.url("/dashboard/investments"))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );
    let staff = sign_in(&server, "super@example.com", "parola-1234").await;
    let board = common::text(&staff, server.url("/dashboard/investments")).await;
    assert!(board.contains("invest@example.com"));
    let staff_token = csrf_of(&board);
    let move_to = |to: &'static str| {
        let (staff, server, token) = (&staff, &server, &staff_token);
        async move {
            post_form(
                staff,
                server.url(&format!("/dashboard/investments/{id}/status")),
                token,
                &[("to", to.into()), ("note", "".into())],
            )
            .await
            .status()
            .as_u16()
        }
    };
    assert_eq!(move_to("allocated").await, 400, "no skipping steps");
    assert_eq!(move_to("approved").await, 303);
    let pending = common::text(&browser, server.url("/pendingInvestments")).await;
    assert!(
        pending.contains("Onaylandı, hizmet bedeli bekleniyor")
            && pending.contains(&format!("href=\"/invFlow?request={id}\""))
    );
    let approved = sink
        .wait_for("invest@example.com", "yatırım talebiniz onaylandı")
        .await;
    assert!(
        approved.text.contains(&format!("/invFlow?request={id}")),
        "the mail leads to the payment"
    );
    assert!(
        approved.text.contains("Talebiniz adım adım")
            && approved.text.contains("Sıradaki adım: Hizmet bedelini"),
        "and shows the timeline with the fee deadline: {}",
        approved.text
    );
    let fee: i64 = sqlx::query_scalar("SELECT fee_kurus FROM investment_requests WHERE id = ?")
        .bind(id)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    let fee = ortak_app::domain::money::Money::from_kurus(fee).format(ortak_app::i18n::Locale::Tr);
    assert!(
        approved
            .text
            .contains(&format!("Kartla ödenecek hizmet bedeli: {fee}.")),
        "and states the fee: {}",
        approved.text
    );
    // Staff cannot say it was paid: only the money moves it on (see money_path.rs).
    for to in ["paid", "funded", "completed", "allocated"] {
        assert_eq!(move_to(to).await, 400, "{to}");
    }
    let mine = common::text(&browser, server.url("/userInvestments")).await;
    assert!(mine.contains("Henüz yatırımınız yok."));
    let events: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM request_events WHERE request_id = ?")
            .bind(id)
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    assert_eq!(events, 2, "submitted and approved are kept in the history");
}

#[tokio::test]
async fn pre_investments_closed_rounds_cancelling_and_the_island_endpoint() {
    let server = Server::start();
    let browser = sign_up(&server, "pre@example.com").await;
    verify_email(&server, "pre@example.com").await;
    make_qualified(&server, "pre@example.com").await;
    let token = csrf(&browser, &server, "/mkk").await;
    assert_eq!(
        post_form(
            &browser,
            server.url("/mkk"),
            &token,
            &mkk_fields("10000000146")
        )
        .await
        .status(),
        303
    );
    verify_mkk(&server, "pre@example.com").await;

    let closed = browser
        .get(server.url("/investmentFlow?startup=zeytin-finans"))
        .send()
        .await
        .unwrap();
    assert_eq!(closed.status(), 409);
    let pre = common::text(
        &browser,
        server.url("/investmentFlow?startup=rota-mobilite"),
    )
    .await;
    assert!(pre.contains("Ön yatırım talebi"));
    common::money::open_information_form(&server, &browser, "rota-mobilite").await;

    let api = |body: serde_json::Value| {
        let (browser, server, token) = (&browser, &server, &token);
        async move {
            browser
                .post(server.url("/api/investmentRequests"))
                .header("x-csrf-token", token)
                .json(&body)
                .send()
                .await
                .unwrap()
        }
    };
    let bad = api(serde_json::json!({ "startup": "rota-mobilite", "amount": "50.000", "feeAdded": false, "risk": false, "idempotencyKey": "k1" })).await;
    assert_eq!(bad.status(), 422);
    let body: serde_json::Value = bad.json().await.unwrap();
    assert_eq!(
        body["errors"]["amount"],
        "En düşük yatırım tutarı 100.000 TL'dir."
    );
    assert!(
        body["errors"]["risk"]
            .as_str()
            .unwrap()
            .contains("risk bildirimini")
    );
    let ok = api(serde_json::json!({ "startup": "rota-mobilite", "amount": "200.000", "feeAdded": false, "risk": true, "idempotencyKey": "k1" })).await;
    assert_eq!(ok.status(), 201);
    let body: serde_json::Value = ok.json().await.unwrap();
    assert!(body["message"].as_str().unwrap().contains("incelenecek"));
    let (kind, investment): (String, i64) =
        sqlx::query_as("SELECT kind, investment_kurus FROM investment_requests WHERE idempotency_key NOT LIKE 'demo-%'")
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    assert_eq!(kind, "pre_investment");
    assert_eq!(
        investment, 19_500_000,
        "without the fee added, it comes out of the amount"
    );
    let forged = client()
        .post(server.url("/api/investmentRequests"))
        .header("x-csrf-token", &token)
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 401, "visitors cannot send requests");

    let id: i64 = sqlx::query_scalar(
        "SELECT id FROM investment_requests WHERE idempotency_key NOT LIKE 'demo-%'",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    let stranger = sign_up(&server, "baskasi@example.com").await;
    let stranger_token = csrf(&stranger, &server, "/").await;
    let theirs = post_form(
        &stranger,
        server.url(&format!("/pendingInvestments/{id}/cancel")),
        &stranger_token,
        &[],
    )
    .await;
    assert_eq!(
        theirs.status(),
        404,
        "another investor's request is invisible"
    );
    let cancelled = post_form(
        &browser,
        server.url(&format!("/pendingInvestments/{id}/cancel")),
        &token,
        &[],
    )
    .await;
    assert_eq!(cancelled.status(), 303);
    let pending = common::text(&browser, server.url("/pendingInvestments")).await;
    assert!(pending.contains("Talebiniz iptal edildi.") && pending.contains(">İptal edildi<"));
    let again = post_form(
        &browser,
        server.url(&format!("/pendingInvestments/{id}/cancel")),
        &token,
        &[],
    )
    .await;
    assert_eq!(again.status(), 409, "an ended request cannot be withdrawn");
}

async fn registry(body: String) -> &'static str {
    // The stand-in registry knows one person.
    let known = body.contains("<TCKimlikNo>10000000146</TCKimlikNo>")
        && body.contains("<Ad>AYŞE</Ad>")
        && body.contains("<Soyad>YILMAZ</Soyad>")
        && body.contains("<DogumYili>1984</DogumYili>");
    if known { ANSWER_TRUE } else { ANSWER_FALSE }
}

const ANSWER_TRUE: &str = r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><TCKimlikNoDogrulaResponse xmlns="http://tckimlik.nvi.gov.tr/WS"><TCKimlikNoDogrulaResult>true</TCKimlikNoDogrulaResult></TCKimlikNoDogrulaResponse></soap:Body></soap:Envelope>"#;
const ANSWER_FALSE: &str = r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><TCKimlikNoDogrulaResponse xmlns="http://tckimlik.nvi.gov.tr/WS"><TCKimlikNoDogrulaResult>false</TCKimlikNoDogrulaResult></TCKimlikNoDogrulaResponse></soap:Body></soap:Envelope>"#;

#[tokio::test]
async fn the_e_government_check_verifies_or_refuses_identities() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!(
        "http://{}/Service/KPSPublic.asmx",
        listener.local_addr().unwrap()
    );
    tokio::spawn(async move {
        axum::serve(
            listener,
            Router::new().route("/Service/KPSPublic.asmx", post(registry)),
        )
        .await
        .unwrap();
    });
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[("ORTAK_DEMO", "1"), ("ORTAK_NVI_URL", &url)],
    );
    let browser = sign_up(&server, "edevlet@example.com").await;
    verify_email(&server, "edevlet@example.com").await;
    let token = csrf(&browser, &server, "/mkk").await;
    let page = common::text(&browser, server.url("/mkk")).await;
    assert!(!page.contains("yakında"));

    let wrong = post_form(
        &browser,
        server.url("/mkk"),
        &token,
        &with(mkk_fields("10000000146"), "last_name", "Kaya"),
    )
    .await;
    assert_eq!(wrong.status(), 422);
    assert!(
        wrong
            .text()
            .await
            .unwrap()
            .contains("e-Devlet doğrulaması başarısız oldu, lütfen bizimle iletişime geçin.")
    );
    let ok = post_form(
        &browser,
        server.url("/mkk"),
        &token,
        &mkk_fields("10000000146"),
    )
    .await;
    assert_eq!(ok.status(), 303);
    let page = common::text(&browser, server.url("/mkk")).await;
    assert!(
        page.contains("Kimlik bilgileriniz e-Devlet üzerinden doğrulandı.")
            && page.contains("Doğrulandı")
    );
}

#[tokio::test]
async fn the_overview_reports_and_presentation_follow_what_the_investor_saved_and_owns() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let clock = TempDir::new().unwrap();
    let offset = clock.path().join("offset");
    common::money::set_clock(&offset, 0);
    // A tenth of the goal is enough for the round to succeed when the superadmin closes it.
    let server = Server::start_in(
        data,
        &[
            ("ORTAK_DEMO", "1"),
            ("ORTAK_ROUND_SUCCESS_BP", "1000"),
            ("ORTAK_CLOCK_FILE", offset.to_str().unwrap()),
            ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
        ],
    );
    let browser = sign_up(&server, "rapor@example.com").await;
    let home = common::text(&browser, server.url("/")).await;
    assert!(
        home.contains("Hoş geldiniz, Ayşe"),
        "signed-in members get their overview at /"
    );
    assert!(
        home.contains("href=\"/gsyf\""),
        "with the fund-application card"
    );
    // First the address (the MKK form waits for it), then the MKK data.
    assert!(home.contains("E-posta adresiniz henüz doğrulanmadı."));
    assert!(!home.contains("MKK üyelik bilgilerinizi tamamlamanız gerekir"));
    assert!(home.contains("Henüz bir girişimi takip etmiyorsunuz"));
    verify_email(&server, "rapor@example.com").await;
    // A write from outside the server (here, the test's own) ends what was kept: the next
    // overview shows it.
    let home = common::text(&browser, server.url("/")).await;
    assert!(home.contains("MKK üyelik bilgilerinizi tamamlamanız gerekir"));
    let reports = common::text(&browser, server.url("/reports")).await;
    assert!(reports.contains("Henüz raporunuz yok."));

    // Saving a startup as a favourite lists its reports, each marked open to investors, with no
    // link to the PDF (issue 12, item 14; issue 27's regression).
    let token = csrf(&browser, &server, "/startups").await;
    post_form(
        &browser,
        server.url("/favorites/cicek-tarim"),
        &token,
        &[("favorite", "1".into()), ("return", "/".into())],
    )
    .await;
    // The overview shows the startups followed, as it promises.
    let overview = common::text(&browser, server.url("/overview")).await;
    let followed = &overview[overview.find("Takip ettiğiniz girişimler").unwrap()..];
    assert!(followed.contains("href=\"/startups/cicek-tarim\""));
    assert!(!followed.contains("Henüz bir girişimi takip etmiyorsunuz"));
    let reports = common::text(&browser, server.url("/reports")).await;
    assert!(!reports.contains("Henüz raporunuz yok."), "{reports}");
    assert!(reports.contains("Girişimin yatırımcılarına açıktır: okumak için yatırım yapın."));
    assert!(
        !reports.contains("/file\""),
        "no PDF link for a saved startup"
    );
    // An investment that reached money (its fee paid) shows its reports, newest first; the PDF
    // is served to its investors only (the request is moved directly, through the states the
    // database allows and with the fee in the ledger: the money path has its own tests).
    let db = server.db().await;
    for sql in [
        // Approval needs an investor whose MKK data is verified.
        "INSERT INTO mkk_profiles (user_id, investor_type, turkish_citizen, id_type, first_name,
             last_name, email, phone, annual_income_kurus, identity_number, birth_date, status)
         SELECT id, 'individual', 1, 'tckn', 'Ayşe', 'Yılmaz', email, '+905321234567', 150000000,
             '10000000146', '1984-02-29', 'verified' FROM users WHERE email = 'rapor@example.com'",
        "INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus,
             fee_added, investment_kurus, total_kurus, status, risk_accepted_at, idempotency_key,
             cancel_until, information_form_id)
         SELECT u.id, s.id, 'investment', 10000000, 250000, 1, 10000000, 10250000, 'submitted',
             '2026-11-01T00:00:00Z', 'rapor-yatirim', '2026-11-03T00:00:00Z',
             (SELECT MAX(d.id) FROM round_documents d WHERE d.startup_id = s.id AND d.kind = 'information-form')
         FROM users u, startups s WHERE u.email = 'rapor@example.com' AND s.slug = 'cicek-tarim'",
        "UPDATE investment_requests SET status = 'approved' WHERE idempotency_key = 'rapor-yatirim'",
        "INSERT INTO money_events (request_id, kind, amount_kurus, note)
         SELECT id, 'fee_paid', fee_kurus, 'test' FROM investment_requests
         WHERE idempotency_key = 'rapor-yatirim'",
        "UPDATE investment_requests SET status = 'fee_paid', fee_paid_at = '2026-11-02T00:00:00Z'
         WHERE idempotency_key = 'rapor-yatirim'",
    ] {
        sqlx::query(sql).execute(&db).await.unwrap();
    }
    let reports = common::text(&browser, server.url("/reports")).await;
    let q3 = reports
        .find("Çiçek Tarım 2026-Q3 çeyrek raporu")
        .expect("Q3 listed");
    let q2 = reports
        .find("Çiçek Tarım 2026-Q2 çeyrek raporu")
        .expect("Q2 listed");
    assert!(q3 < q2, "newest first");
    let id = reports
        .split("href=\"/reports/")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let pdf = browser
        .get(server.url(&format!("/reports/{id}/file")))
        .send()
        .await
        .unwrap();
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF-"));
    let other = sign_up(&server, "baskasi@example.com").await;
    assert_eq!(
        other
            .get(server.url(&format!("/reports/{id}/file")))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    assert_eq!(
        client()
            .get(server.url(&format!("/reports/{id}/file")))
            .send()
            .await
            .unwrap()
            .status(),
        303
    );

    // Presentation pages and the startup's history, for members.
    let detail = common::text(&browser, server.url("/startups/cemre-enerji")).await;
    assert!(
        detail.contains("src=\"/startups/cemre-enerji/pages/1\"")
            && detail.contains("Hızlandırıcı programları")
    );
    let slide = browser
        .get(server.url("/startups/cemre-enerji/pages/1"))
        .send()
        .await
        .unwrap();
    assert_eq!(slide.headers()["content-type"], "image/svg+xml");
    assert!(
        slide.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("sandbox")
    );
    assert_eq!(
        client()
            .get(server.url("/startups/cemre-enerji/pages/1"))
            .send()
            .await
            .unwrap()
            .status(),
        303
    );
    assert_eq!(
        browser
            .get(server.url("/startups/cemre-enerji/pages/99"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );

    // (The request written above has done its part: its investor withdraws it.)
    sqlx::query("UPDATE investment_requests SET status = 'cancelled' WHERE idempotency_key = 'rapor-yatirim'")
        .execute(&db)
        .await
        .unwrap();

    // An allocated investment fills the portfolio card, the holdings and the sector chart.
    verify_email(&server, "rapor@example.com").await;
    make_qualified(&server, "rapor@example.com").await;
    let mkk_token = csrf(&browser, &server, "/mkk").await;
    assert_eq!(
        post_form(
            &browser,
            server.url("/mkk"),
            &mkk_token,
            &mkk_fields("10000000146")
        )
        .await
        .status(),
        303
    );
    verify_mkk(&server, "rapor@example.com").await;
    common::money::open_information_form(&server, &browser, "cemre-enerji").await;
    assert_eq!(
        post_form(
            &browser,
            server.url("/investmentFlow"),
            &mkk_token,
            &amount_fields("300.000", "ov-1")
        )
        .await
        .status(),
        303
    );
    let request = common::money::request_of(&server, "rapor@example.com").await;
    let staff = sign_in(&server, "super@example.com", "parola-1234").await;
    common::money::fund(&server, &browser, &staff, request, "300.000").await;
    let startup: i64 = sqlx::query_scalar("SELECT id FROM startups WHERE slug = 'cemre-enerji'")
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    // Escrow holds the (lowered) threshold: the early close is scheduled for when every open
    // window and deadline has passed, which ten days on they have.
    let closed = common::money::end_round_early(&server, &staff, startup, "schedule").await;
    assert_eq!(closed.status(), 303);
    common::money::set_clock(&clock.path().join("offset"), 10 * 86_400);
    let allocated = common::money::wait_for_count(
        &server,
        &format!(
            "SELECT COUNT(*) FROM investment_requests WHERE id = {request} AND status = 'allocated'"
        ),
        1,
    )
    .await;
    assert_eq!(allocated, 1);
    let overview = common::text(&browser, server.url("/overview")).await;
    assert!(overview.contains("300.000 TL") && overview.contains("1 yatırım"));
    let chart = &overview[overview.find("class=\"chart chart--bars\"").unwrap()..];
    assert!(
        chart.contains("<span class=\"chart__label\">Enerji ve yenilenebilir enerji</span>")
            && chart.contains("<span class=\"chart__value\">300.000 TL</span>")
    );
}

#[tokio::test]
async fn a_rejection_needs_a_reason_and_the_investor_reads_it() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let browser = sign_up(&server, "red@example.com").await;
    verify_email(&server, "red@example.com").await;
    make_qualified(&server, "red@example.com").await;
    let token = csrf(&browser, &server, "/mkk").await;
    let mkk = post_form(
        &browser,
        server.url("/mkk"),
        &token,
        &mkk_fields("10000000146"),
    )
    .await;
    assert_eq!(mkk.status(), 303);
    verify_mkk(&server, "red@example.com").await;
    common::money::open_information_form(&server, &browser, "rota-mobilite").await;
    let sent = browser
        .post(server.url("/api/investmentRequests"))
        .header("x-csrf-token", &token)
        .json(&serde_json::json!({ "startup": "rota-mobilite", "amount": "200.000", "feeAdded": false, "risk": true, "idempotencyKey": "red-1" }))
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), 201);
    let db = server.db().await;
    let id: i64 = sqlx::query_scalar(
        "SELECT id FROM investment_requests WHERE idempotency_key NOT LIKE 'demo-%'",
    )
    .fetch_one(&db)
    .await
    .unwrap();

    // A pre-investment is listed under pre-investments, not under investments.
    let staff = sign_in(
        &server,
        "super@example.com",
        common::journeys::ADMIN_PASSWORD,
    )
    .await;
    let pre = common::text(&staff, server.url("/dashboard/pre-investments")).await;
    assert!(pre.contains("red@example.com"));
    let investments = common::text(&staff, server.url("/dashboard/investments")).await;
    assert!(!investments.contains("red@example.com"));

    let reject = |note: &'static str| {
        let (staff, server, token) = (&staff, &server, csrf_of(&pre));
        async move {
            post_form(
                staff,
                server.url(&format!("/dashboard/investments/{id}/status")),
                &token,
                &[("to", "rejected".into()), ("note", note.into())],
            )
            .await
        }
    };
    let refused = reject("  ").await;
    assert_eq!(refused.status(), 400);
    assert!(refused.text().await.unwrap().contains("gerekçesini"));
    let status: String = sqlx::query_scalar(
        "SELECT status FROM investment_requests WHERE idempotency_key NOT LIKE 'demo-%'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(status, "submitted", "nothing changed");

    assert_eq!(reject("Belgeler eksik").await.status(), 303);
    let (status, reason): (String, Option<String>) =
        sqlx::query_as("SELECT status, rejection_reason FROM investment_requests WHERE idempotency_key NOT LIKE 'demo-%'")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(
        (status.as_str(), reason.as_deref()),
        ("rejected", Some("Belgeler eksik"))
    );
    let mail: String = sqlx::query_scalar(
        "SELECT text_body FROM outbox WHERE to_email = 'red@example.com' ORDER BY id DESC LIMIT 1",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(mail.contains("Gerekçe: Belgeler eksik"), "{mail}");
}

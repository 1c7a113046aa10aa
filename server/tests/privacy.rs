//! The attacks of issue 12 on personal data and roles, performed against the real server:
//! what a deleted membership leaves behind and what the KVKK export leaves out (item 10),
//! visitor-written text in Ortak's mails (item 11), the admin/superadmin boundary around
//! investments (item 13) and who reads quarterly reports (item 14).

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::journeys::{
    ADMIN_PASSWORD, confirm_newsletter, create_admin, csrf, post_form, sign_in, sign_up,
};
use common::smtp::SmtpSink;
use common::{Server, client, exec, scalar};
use reqwest::multipart::{Form, Part};
use sha2::Digest;
use tempfile::TempDir;

const PDF: &[u8] = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n";
const TCKN: &str = "10000000146";
const PASSWORD: &str = "gizli-sifre-123";

fn files_in(server: &Server, folder: &str) -> usize {
    // The demo's own files (its investors' evidence) are not the member's.
    std::fs::read_dir(server.data.path().join(folder)).map_or(0, |d| {
        d.filter(|f| {
            !f.as_ref()
                .is_ok_and(|f| f.file_name().to_string_lossy().starts_with("demo-"))
        })
        .count()
    })
}

/// A member whose address is verified, signed in.
async fn verified_member(server: &Server, email: &str) -> reqwest::Client {
    let browser = sign_up(server, email).await;
    exec(
        server,
        &format!(
            "UPDATE users SET email_verified_at = '2026-11-01T00:00:00Z' WHERE email = '{email}'"
        ),
    )
    .await;
    browser
}

fn mkk_fields(email: &str) -> Vec<(&'static str, String)> {
    [
        ("investor_type", "individual"),
        ("citizen", "yes"),
        ("id_type", "tckn"),
        ("first_name", "Ayşe"),
        ("last_name", "Yılmaz"),
        ("email", email),
        ("phone", "0532 123 45 67"),
        ("annual_income", "750.000"),
        ("identity_number", TCKN),
        ("birth_date", "1984-02-29"),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.to_owned()))
    .collect()
}

/// Writes a request of `email` for `slug` and moves it to `status` (the money path has its own
/// tests; here only its traces matter) through the moves the database allows, with the ledger
/// rows each one needs. `fee_paid`: the fee was paid on the way. Returns its id.
async fn request(server: &Server, email: &str, slug: &str, status: &str, fee_paid: bool) -> i64 {
    // Requests move on only for an investor whose MKK data is verified.
    let user = scalar(
        server,
        &format!("SELECT id FROM users WHERE email = '{email}'"),
    )
    .await;
    exec(
        server,
        &format!(
            "INSERT INTO mkk_profiles (user_id, investor_type, turkish_citizen, id_type, first_name,
                 last_name, email, phone, annual_income_kurus, identity_number, birth_date, status)
             SELECT {user}, 'individual', 1, 'tckn', 'Ayşe', 'Yılmaz', '{email}', '+905321234567',
                 75000000, '{}', '1984-02-29', 'submitted'
             WHERE NOT EXISTS (SELECT 1 FROM mkk_profiles WHERE user_id = {user});
             UPDATE mkk_profiles SET status = 'verified' WHERE user_id = {user};",
            common::money::tckn(900 + user as u32)
        ),
    )
    .await;
    let id = scalar(
        server,
        &format!(
            "INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus,
                 fee_added, investment_kurus, total_kurus, status, risk_accepted_at,
                 idempotency_key, cancel_until, information_form_id)
             SELECT u.id, s.id, 'investment', 25000000, 625000, 1, 25000000, 25625000,
                 'submitted', '2026-11-01T00:00:00Z', '{email}-{slug}-{status}',
                 '2026-11-03T00:00:00Z',
             (SELECT MAX(d.id) FROM round_documents d WHERE d.startup_id = s.id AND d.kind = 'information-form')
             FROM users u, startups s WHERE u.email = '{email}' AND s.slug = '{slug}'
             RETURNING id"
        ),
    )
    .await;
    if fee_paid {
        advance(server, id, "fee_paid").await;
    }
    advance(server, id, status).await;
    id
}

/// Moves request `id` forward to `to` one allowed step at a time: along `approved → fee_paid
/// → funded → allocated`, or straight to an end (`cancelled`, `rejected`, `lapsed`).
async fn advance(server: &Server, id: i64, to: &str) {
    const PATH: [&str; 5] = ["submitted", "approved", "fee_paid", "funded", "allocated"];
    loop {
        let current: String = sqlx::query_scalar(&format!(
            "SELECT status FROM investment_requests WHERE id = {id}"
        ))
        .fetch_one(&server.db().await)
        .await
        .unwrap();
        if current == to {
            return;
        }
        let next = if PATH.contains(&to) {
            PATH[PATH.iter().position(|s| *s == current).unwrap() + 1]
        } else {
            to
        };
        let ledger = match next {
            "fee_paid" => "INSERT INTO money_events (request_id, kind, amount_kurus, note)
                 VALUES ({id}, 'fee_paid', 625000, 'test');
                 UPDATE investment_requests SET fee_paid_at = '2026-11-02T00:00:00Z' WHERE id = {id};",
            "funded" => "INSERT INTO money_events (request_id, kind, amount_kurus, note)
                 VALUES ({id}, 'transfer_received', 25000000, 'test');",
            "allocated" => "INSERT INTO money_events (request_id, kind, amount_kurus, note)
                 VALUES ({id}, 'allocated', 25000000, 'test');",
            _ => "",
        };
        exec(
            server,
            &format!(
                "{} UPDATE investment_requests SET status = '{next}' WHERE id = {id};",
                ledger.replace("{id}", &id.to_string())
            ),
        )
        .await;
    }
}

/// A card payment and an escrow transfer for request `id` (the money that moved).
async fn paid(server: &Server, id: i64) {
    exec(server, &format!(
        "INSERT INTO request_events (request_id, status) VALUES ({id}, 'submitted'), ({id}, 'approved');
         INSERT INTO payments (public_id, request_id, provider, amount_kurus, status, card_brand, card_last4)
             VALUES ('pay-{id}', {id}, 'sandbox', 625000, 'succeeded', 'visa', '4242');
         INSERT INTO bank_transfers (request_id, reference, payer_name, address, country, city,
             post_code, phone, amount_kurus)
             VALUES ({id}, 'ORT-{id}', 'Ayşe Yılmaz', 'Bağdat Cd. 1', 'Türkiye', 'İstanbul',
                 '34000', '+905321234567', 25000000);"
    ))
    .await;
}

/// Everything a member leaves on Ortak: MKK data, a qualified declaration with its file, a
/// contact message, fund and academy applications, a startup-application draft with its file,
/// a favourite and a confirmed newsletter subscription.
async fn leave_traces(server: &Server, sink: &SmtpSink, browser: &reqwest::Client, email: &str) {
    let token = csrf(browser, server, "/mkk").await;
    let mkk = post_form(browser, server.url("/mkk"), &token, &mkk_fields(email)).await;
    assert_eq!(mkk.status(), 303);
    let form = Form::new()
        .text("csrf", token.clone())
        .text("basis", "income")
        .text("declare", "on")
        .part("evidence", Part::bytes(PDF.to_vec()).file_name("kanit.pdf"));
    let declared = browser
        .post(server.url("/qualifiedInvestor"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(declared.status(), 303);
    let contact = [
        ("name", "Ayşe Yılmaz".to_owned()),
        ("email", email.to_owned()),
        ("phone", "0532 123 45 67".into()),
        ("subject", "Soru".into()),
        ("message", "MKK hesabım hakkında.".into()),
    ];
    let sent = post_form(browser, server.url("/contactUs"), &token, &contact).await;
    assert_eq!(sent.status(), 303);
    let gsyf = [
        ("first_name", "Ayşe".to_owned()),
        ("last_name", "Yılmaz".into()),
        ("email", email.into()),
        ("phone", "0532 123 45 67".into()),
        ("fund_type", "any".into()),
        ("range", "50-100k".into()),
        ("newsletter", "on".into()),
    ];
    let sent = post_form(browser, server.url("/gsyf"), &token, &gsyf).await;
    assert_eq!(sent.status(), 303);
    assert_eq!(confirm_newsletter(server, sink, email).await.status(), 200);
    let page = common::text(browser, server.url("/academy")).await;
    let event = page.split("name=\"event\" value=\"").nth(1).unwrap();
    let academy = [
        ("event", event.split('"').next().unwrap().to_owned()),
        ("email", email.into()),
        ("name", "Ayşe Yılmaz".into()),
        ("phone", "0532 123 45 67".into()),
        ("invested_before", "no".into()),
    ];
    let sent = post_form(browser, server.url("/academy"), &token, &academy).await;
    assert_eq!(sent.status(), 303);
    let form = Form::new()
        .text("csrf", token.clone())
        .text("name", "Silinecek Girişim")
        .text("sector", "fintech")
        .text("country", "Türkiye")
        .text("city", "Ankara")
        .text("description", "Açıklama")
        .part(
            "presentation",
            Part::bytes(PDF.to_vec()).file_name("sunum.pdf"),
        );
    let applied = browser
        .post(server.url("/projectFlow/1"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(applied.status(), 303);
    let saved = post_form(
        browser,
        server.url("/favorites/cicek-tarim"),
        &token,
        &[("favorite", "1".into()), ("return", "/".into())],
    )
    .await;
    assert_eq!(saved.status(), 303);
}

fn start_with_clock(data: TempDir, env: &[(&str, &str)]) -> (Server, PathBuf, TempDir) {
    let dir = TempDir::new().unwrap();
    let clock = dir.path().join("offset");
    std::fs::write(&clock, "0").unwrap();
    let mut all = vec![
        ("ORTAK_CLOCK_FILE", clock.to_str().unwrap()),
        ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
        ("ORTAK_DEMO", "1"),
    ];
    all.extend_from_slice(env);
    (Server::start_in(data, &all), clock, dir)
}

fn move_clock(clock: &Path, seconds: i64) {
    std::fs::write(clock, seconds.to_string()).unwrap();
}

async fn delete_membership(server: &Server, browser: &reqwest::Client) -> reqwest::Response {
    let token = csrf(browser, server, "/profile?tab=delete").await;
    post_form(
        browser,
        server.url("/profile/delete"),
        &token,
        &[
            ("current_password", PASSWORD.into()),
            ("confirm", "on".into()),
        ],
    )
    .await
}

// ---- item 10: KVKK deletion and export ------------------------------------------------------

#[tokio::test]
async fn deleting_a_membership_keeps_only_what_the_law_requires() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    create_admin(&data, "super@example.com", true);
    let sink = SmtpSink::start().await;
    let (server, clock, _dir) = start_with_clock(data, &[("ORTAK_SMTP_URL", &sink.url())]);
    let email = "silinecek@example.com";
    let member = verified_member(&server, email).await;
    leave_traces(&server, &sink, &member, email).await;
    let invested = request(&server, email, "cemre-enerji", "allocated", true).await;
    paid(&server, invested).await;
    let abandoned = request(&server, email, "cicek-tarim", "cancelled", false).await;
    exec(&server, &format!(
        "INSERT INTO request_events (request_id, status) VALUES ({abandoned}, 'cancelled');
         INSERT INTO payments (public_id, request_id, provider, amount_kurus, status, card_brand, card_last4)
             VALUES ('failed-{abandoned}', {abandoned}, 'sandbox', 625000, 'failed', 'visa', '0002');"
    ))
    .await;
    let id = scalar(
        &server,
        &format!("SELECT id FROM users WHERE email = '{email}'"),
    )
    .await;
    assert_eq!(files_in(&server, "qualified"), 1);
    assert_eq!(files_in(&server, "applications"), 1);

    let deleted = delete_membership(&server, &member).await;
    assert_eq!(deleted.status(), 303);
    // A mail confirms it, saying what the law keeps; once sent, the outbox forgets it.
    let confirmed = sink.wait_for(email, "üyeliğiniz silindi").await;
    assert!(confirmed.text.contains("on yıl saklamamız gerekir"));
    for _ in 0..50 {
        let left = format!("SELECT COUNT(*) FROM outbox WHERE to_email = '{email}'");
        if scalar(&server, &left).await == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }

    // Erased: everything the law does not require, files included.
    for (what, sql) in [
        (
            "MKK data",
            format!("SELECT COUNT(*) FROM mkk_profiles WHERE user_id = {id}"),
        ),
        (
            "declarations",
            format!("SELECT COUNT(*) FROM qualified_declarations WHERE user_id = {id}"),
        ),
        (
            "contact messages",
            format!("SELECT COUNT(*) FROM contact_messages WHERE email = '{email}'"),
        ),
        (
            "fund applications",
            format!("SELECT COUNT(*) FROM gsyf_applications WHERE email = '{email}'"),
        ),
        (
            "academy applications",
            format!("SELECT COUNT(*) FROM academy_applications WHERE email = '{email}'"),
        ),
        (
            "application drafts",
            format!("SELECT COUNT(*) FROM startup_applications WHERE user_id = {id}"),
        ),
        (
            "favourites",
            format!("SELECT COUNT(*) FROM favorites WHERE user_id = {id}"),
        ),
        (
            "newsletter",
            format!("SELECT COUNT(*) FROM newsletter_subscribers WHERE email = '{email}'"),
        ),
        (
            "mails",
            format!("SELECT COUNT(*) FROM outbox WHERE to_email = '{email}'"),
        ),
        (
            "the request without money",
            format!("SELECT COUNT(*) FROM investment_requests WHERE id = {abandoned}"),
        ),
        (
            "its payment",
            format!("SELECT COUNT(*) FROM payments WHERE request_id = {abandoned}"),
        ),
        (
            "its history",
            format!("SELECT COUNT(*) FROM request_events WHERE request_id = {abandoned}"),
        ),
        (
            "the TCKN anywhere but the archive",
            format!(
                "SELECT COUNT(*) FROM users WHERE identity_number = '{TCKN}' OR email = '{email}'"
            ),
        ),
    ] {
        assert_eq!(scalar(&server, &sql).await, 0, "{what} erased");
    }
    assert_eq!(files_in(&server, "qualified"), 0, "the evidence file");
    assert_eq!(
        files_in(&server, "applications"),
        0,
        "the draft's presentation"
    );

    // Kept: the investment through which money moved, and the identity it was made under, in
    // the restricted archive for ten years.
    for sql in [
        format!("SELECT COUNT(*) FROM investment_requests WHERE id = {invested}"),
        format!(
            "SELECT COUNT(*) FROM payments WHERE request_id = {invested} AND card_last4 = '4242'"
        ),
        format!(
            "SELECT COUNT(*) FROM bank_transfers WHERE request_id = {invested} AND payer_name = 'Ayşe Yılmaz'"
        ),
        format!(
            "SELECT COUNT(*) FROM kvkk_archive WHERE user_id = {id} AND identity LIKE '%{TCKN}%'
                 AND retain_until > '2035-01-01'"
        ),
    ] {
        assert_eq!(scalar(&server, &sql).await, 1, "{sql}");
    }
    // Staff no longer see the identity number; superadmins see the archive, marked as such.
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let page = common::text(&admin, server.url(&format!("/dashboard/users/{id}"))).await;
    assert!(!page.contains(TCKN), "an admin sees no TCKN");
    let superadmin = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let page = common::text(&superadmin, server.url(&format!("/dashboard/users/{id}"))).await;
    assert!(page.contains(TCKN) && page.contains("KVKK arşivi"));

    // Ten years on, the archive and the payer's and card's details are erased by the job.
    move_clock(&clock, 3654 * 24 * 3600);
    for _ in 0..100 {
        if scalar(&server, "SELECT COUNT(*) FROM kvkk_archive").await == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM kvkk_archive").await,
        0
    );
    let left = scalar(
        &server,
        &format!(
            "SELECT COUNT(*) FROM bank_transfers b JOIN payments p ON p.request_id = b.request_id
             WHERE b.request_id = {invested} AND b.payer_name = '' AND b.phone = '' AND p.card_last4 = ''"
        ),
    )
    .await;
    assert_eq!(left, 1, "amounts stay, the person's details go");
}

#[tokio::test]
async fn a_member_whose_money_is_under_way_cannot_delete_yet() {
    let server = Server::start_in(TempDir::new().unwrap(), &[("ORTAK_DEMO", "1")]);
    let email = "yolda@example.com";
    let member = verified_member(&server, email).await;
    let id = request(&server, email, "cemre-enerji", "fee_paid", true).await;
    paid(&server, id).await;
    let refused = delete_membership(&server, &member).await;
    assert_eq!(refused.status(), 422);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("henüz sonuçlanmamış bir yatırım talebiniz var")
    );
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT COUNT(*) FROM users WHERE email = '{email}'")
        )
        .await,
        1
    );
    // Once it is finished, the membership can go.
    advance(&server, id, "allocated").await;
    assert_eq!(delete_membership(&server, &member).await.status(), 303);
}

#[tokio::test]
async fn the_kvkk_export_holds_everything_held_about_the_member() {
    let sink = SmtpSink::start().await;
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[("ORTAK_DEMO", "1"), ("ORTAK_SMTP_URL", &sink.url())],
    );
    let email = "disa@example.com";
    let member = verified_member(&server, email).await;
    leave_traces(&server, &sink, &member, email).await;
    let id = request(&server, email, "cemre-enerji", "allocated", true).await;
    paid(&server, id).await;
    let export: serde_json::Value = member
        .get(server.url("/profile/export"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(export["mkk_registration"]["identity_number"], TCKN);
    assert_eq!(export["mkk_registration"]["birth_date"], "1984-02-29");
    assert_eq!(
        export["qualified_investor_declarations"][0]["basis"],
        "income"
    );
    assert_eq!(export["investment_requests"][0]["status"], "allocated");
    assert_eq!(export["investment_requests"][0]["amount_kurus"], 25000000);
    assert_eq!(
        export["investment_request_history"][1]["status"],
        "approved"
    );
    assert_eq!(export["card_payments"][0]["card_last4"], "4242");
    assert_eq!(export["escrow_transfers"][0]["payer_name"], "Ayşe Yılmaz");
    assert_eq!(export["escrow_transfers"][0]["address"], "Bağdat Cd. 1");
    assert_eq!(export["favourites"][0]["name"], "Çiçek Tarım");
    assert!(
        export["startup_applications"][0]["answers"]
            .as_str()
            .unwrap()
            .contains("Silinecek Girişim")
    );
    assert_eq!(export["contact_messages"][0]["subject"], "Soru");
    assert_eq!(
        export["fund_applications"][0]["investment_range"],
        "50-100k"
    );
    assert_eq!(export["academy_applications"][0]["phone"], "+905321234567");
    assert!(export["newsletter"]["confirmed_at"].is_string());
    assert!(export["account"]["last_sign_in_at"].is_string());
}

// ---- item 11: no visitor-written text in Ortak's mails ---------------------------------------

#[tokio::test]
async fn mails_to_typed_addresses_carry_only_ortaks_text() {
    let sink = SmtpSink::start().await;
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[("ORTAK_DEMO", "1"), ("ORTAK_SMTP_URL", &sink.url())],
    );
    let visitor = client();
    let token = csrf(&visitor, &server, "/gsyf").await;
    let gsyf = |first_name: &str, email: &str| {
        vec![
            ("first_name", first_name.to_owned()),
            ("last_name", "Yılmaz".into()),
            ("email", email.into()),
            ("phone", "0532 123 45 67".into()),
            ("fund_type", "any".into()),
            ("range", "50-100k".into()),
        ]
    };
    // A name is one line: paragraphs in it are refused, in the page's language.
    let phishing = "Ayşe,\r\n\r\nHesabınız donduruldu. Hemen doğrulayın: https://ortak-destek.example/giris\r\n\r\n";
    let refused = post_form(
        &visitor,
        server.url("/gsyf"),
        &token,
        &gsyf(phishing, "kurban@example.com"),
    )
    .await;
    assert_eq!(refused.status(), 422);
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("Bu alan tek satır olmalıdır")
    );
    let refused = post_form(
        &visitor,
        server.url("/gsyf?lang=en"),
        &token,
        &gsyf("Ayşe\tX", "kurban@example.com"),
    )
    .await;
    assert!(
        refused
            .text()
            .await
            .unwrap()
            .contains("This field must be a single line")
    );
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM gsyf_applications").await,
        0
    );

    // A one-line name still never reaches the typed address: the mail is Ortak's text alone.
    let bait = "Hesabınız donduruldu https://ortak-destek.example";
    let sent = post_form(
        &visitor,
        server.url("/gsyf?lang=tr"),
        &token,
        &gsyf(bait, "kurban@example.com"),
    )
    .await;
    assert_eq!(sent.status(), 303);
    let mail = sink
        .wait_for("kurban@example.com", "GSYF başvurunuz alındı")
        .await;
    assert_eq!(mail.text.lines().next(), Some("Merhaba,"));
    assert!(!mail.text.contains("ortak-destek") && !mail.text.contains("donduruldu"));
    let staff = sink.wait_for("staff@ortak.local", "GSYF başvurusu").await;
    assert!(staff.text.contains(bait), "staff read what was sent");

    let page = common::text(&visitor, server.url("/academy")).await;
    let event = page
        .split("name=\"event\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let academy = [
        ("event", event.to_owned()),
        ("email", "kurban2@example.com".to_owned()),
        ("name", bait.into()),
        ("phone", "0532 123 45 67".into()),
        ("invested_before", "no".into()),
        (
            "note",
            "Şifrenizi şuraya yazın: https://ortak-destek.example".into(),
        ),
    ];
    assert_eq!(
        post_form(&visitor, server.url("/academy"), &token, &academy)
            .await
            .status(),
        303
    );
    let mail = sink
        .wait_for("kurban2@example.com", "Akademisi başvurunuz alındı")
        .await;
    assert!(!mail.text.contains("ortak-destek"), "{}", mail.text);

    let member = sign_up(&server, "uye@example.com").await;
    let token = csrf(&member, &server, "/contactUs").await;
    let contact = [
        ("name", bait.to_owned()),
        ("email", "kurban3@example.com".into()),
        ("phone", "0532 123 45 67".into()),
        ("subject", "Hesabınız donduruldu".into()),
        (
            "message",
            "https://ortak-destek.example/giris adresinden doğrulayın.".into(),
        ),
    ];
    assert_eq!(
        post_form(&member, server.url("/contactUs"), &token, &contact)
            .await
            .status(),
        303
    );
    let mail = sink
        .wait_for("kurban3@example.com", "mesajınız alındı")
        .await;
    assert!(!mail.text.contains("ortak-destek") && !mail.text.contains("donduruldu"));
}

// ---- item 13: the admin/superadmin boundary ---------------------------------------------------

fn sha256(text: &str) -> String {
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[tokio::test]
async fn admins_see_no_investments_and_cannot_rewrite_money_mails() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let investor = sign_up(&server, "yatirimci@example.com").await;
    drop(investor);
    request(
        &server,
        "yatirimci@example.com",
        "cemre-enerji",
        "approved",
        false,
    )
    .await;
    let id = scalar(
        &server,
        "SELECT id FROM users WHERE email = 'yatirimci@example.com'",
    )
    .await;
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let superadmin = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;

    // The member page: no amounts or states for admins.
    let page = common::text(&admin, server.url(&format!("/dashboard/users/{id}"))).await;
    assert!(page.contains("yatirimci@example.com"));
    assert!(
        !page.contains("250.000") && !page.contains("Cemre"),
        "admin sees no request"
    );
    let page = common::text(&superadmin, server.url(&format!("/dashboard/users/{id}"))).await;
    assert!(page.contains("250.000 TL") && page.contains("Cemre"));

    // Investment mails are superadmins' to rewrite; the others stay with admins.
    let list = common::text(&admin, server.url("/dashboard/autoMail")).await;
    assert!(!list.contains("/dashboard/autoMail/request-approved\""));
    assert!(list.contains("/dashboard/autoMail/contact\""));
    let edit = admin
        .get(server.url("/dashboard/autoMail/request-approved"))
        .send()
        .await
        .unwrap();
    assert_eq!(edit.status(), 403);
    let token = csrf(&admin, &server, "/dashboard/autoMail/contact").await;
    let template = |body_tr: &str, body_en: &str| {
        vec![
            ("subject_tr", "Talebiniz onaylandı".to_owned()),
            ("subject_en", "Your request was approved".into()),
            ("body_tr", body_tr.into()),
            ("body_en", body_en.into()),
            ("enabled", "on".into()),
            ("intent", "save".into()),
        ]
    };
    let bank = template(
        "Parayı TR00 0000 hesabına gönderin.",
        "Send the money to TR00 0000.",
    );
    let refused = post_form(
        &admin,
        server.url("/dashboard/autoMail/request-approved"),
        &token,
        &bank,
    )
    .await;
    assert_eq!(refused.status(), 403);
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM mail_templates").await,
        0
    );
    let allowed = post_form(
        &admin,
        server.url("/dashboard/autoMail/contact"),
        &token,
        &template("Mesajınız alındı.", "Received."),
    )
    .await;
    assert_eq!(allowed.status(), 303);

    // A superadmin's body-only change shows in the audit log as a change of the body's hash.
    let token = csrf(&superadmin, &server, "/dashboard/autoMail/request-approved").await;
    let first = template("Talebiniz onaylandı.", "Your request was approved.");
    let second = template("Talebiniz onaylandı.", "Your request has been approved.");
    for body in [&first, &second] {
        let saved = post_form(
            &superadmin,
            server.url("/dashboard/autoMail/request-approved"),
            &token,
            body,
        )
        .await;
        assert_eq!(saved.status(), 303);
    }
    let (before, after): (String, String) = sqlx::query_as(
        "SELECT before, after FROM audit_log WHERE action = 'mail.save' AND subject = 'mail:request-approved'
         ORDER BY id DESC LIMIT 1",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert!(
        before.contains(&sha256("Your request was approved.")),
        "{before}"
    );
    assert!(
        after.contains(&sha256("Your request has been approved.")),
        "{after}"
    );
    assert!(
        after.contains(&sha256("Talebiniz onaylandı.")),
        "both bodies: {after}"
    );
    assert_ne!(before, after);

    // Staff may look at an unpublished startup, but nobody files a request for it.
    exec(
        &server,
        "UPDATE startups SET published = 0 WHERE slug = 'cemre-enerji'",
    )
    .await;
    exec(
        &server,
        "INSERT INTO mkk_profiles (user_id, investor_type, turkish_citizen, id_type, first_name,
             last_name, email, phone, annual_income_kurus, identity_number, birth_date, status)
         SELECT id, 'individual', 1, 'tckn', 'Admin', 'Kişi', email, '+905321234567', 100000000,
             '10000000146', '1980-01-01', 'verified' FROM users WHERE email = 'admin@example.com'",
    )
    .await;
    let view = admin
        .get(server.url("/startups/cemre-enerji"))
        .send()
        .await
        .unwrap();
    assert_eq!(view.status(), 200, "staff check drafts");
    let form = admin
        .get(server.url("/investmentFlow?startup=cemre-enerji"))
        .send()
        .await
        .unwrap();
    assert_eq!(form.status(), 404);
    let token = csrf(&admin, &server, "/startups").await;
    let fields = [
        ("startup", "cemre-enerji".to_owned()),
        ("amount", "100.000".into()),
        ("fee_added", "on".into()),
        ("risk", "on".into()),
        ("idempotency_key", "taslak-1".into()),
    ];
    let filed = post_form(&admin, server.url("/investmentFlow"), &token, &fields).await;
    assert_eq!(filed.status(), 404);
    let api = admin
        .post(server.url("/api/investmentRequests"))
        .header("x-csrf-token", &token)
        .json(&serde_json::json!({
            "startup": "cemre-enerji", "amount": "100.000", "feeAdded": true, "risk": true,
            "idempotencyKey": "taslak-2",
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(api.status(), 404);
    let filed = scalar(
        &server,
        "SELECT COUNT(*) FROM investment_requests r JOIN users u ON u.id = r.user_id
         WHERE u.email = 'admin@example.com'",
    )
    .await;
    assert_eq!(filed, 0);
}

// ---- item 14: quarterly reports ---------------------------------------------------------------

#[tokio::test]
async fn reports_are_for_the_startups_investors_its_fund_and_staff() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let (report, slug, fund): (i64, String, i64) = sqlx::query_as(
        "SELECT r.id, s.slug, s.fund_id FROM reports r JOIN startups s ON s.id = r.startup_id LIMIT 1",
    )
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    let file = format!("/reports/{report}/file");
    let status = |browser: reqwest::Client| {
        let url = server.url(&file);
        async move { browser.get(url).send().await.unwrap().status().as_u16() }
    };

    // Saving the startup as a favourite grants nothing.
    let fan = sign_up(&server, "hayran@example.com").await;
    let token = csrf(&fan, &server, &format!("/startups/{slug}")).await;
    let saved = post_form(
        &fan,
        server.url(&format!("/favorites/{slug}")),
        &token,
        &[("favorite", "1".into()), ("return", "/".into())],
    )
    .await;
    assert_eq!(saved.status(), 303);
    assert_eq!(status(fan.clone()).await, 404);
    let listed = common::text(&fan, server.url("/reports")).await;
    assert!(
        listed.contains("Girişimin yatırımcılarına açıktır: okumak için yatırım yapın.")
            && !listed.contains(&format!("/reports/{report}/file")),
        "a saved startup's reports are listed, open to investors only: {listed}"
    );

    // A request counts once money arrived: the fee paid, or further.
    let cases = [
        ("onaylandi@example.com", "approved", false, 404),
        ("ucret@example.com", "fee_paid", true, 200),
        ("odendi@example.com", "funded", true, 200),
        ("tamam@example.com", "allocated", true, 200),
        ("iptal@example.com", "cancelled", true, 404),
        ("red@example.com", "rejected", true, 404),
    ];
    for (email, state, fee, expected) in cases {
        let investor = sign_up(&server, email).await;
        request(&server, email, &slug, state, fee).await;
        assert_eq!(
            status(investor.clone()).await,
            expected,
            "{state}, fee paid: {fee}"
        );
        let listed = common::text(&investor, server.url("/reports")).await;
        assert_eq!(listed.contains(&file), expected == 200, "{state}");
    }

    // Staff, and the startup's own fund team (not another fund's).
    assert_eq!(
        status(sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await).await,
        200
    );
    let superadmin = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let other_fund: i64 = scalar(
        &server,
        &format!("SELECT id FROM funds WHERE id != {fund} LIMIT 1"),
    )
    .await;
    let token = csrf(&superadmin, &server, "/dashboard/vcGroups").await;
    for (email, fund) in [
        ("ekip@example.com", fund),
        ("baska@example.com", other_fund),
    ] {
        sign_up(&server, email).await;
        let added = post_form(
            &superadmin,
            server.url(&format!("/dashboard/vcGroups/{fund}/members")),
            &token,
            &[("op", "add".into()), ("email", email.into())],
        )
        .await;
        assert_eq!(added.status(), 303);
    }
    assert_eq!(
        status(sign_in(&server, "ekip@example.com", PASSWORD).await).await,
        200
    );
    assert_eq!(
        status(sign_in(&server, "baska@example.com", PASSWORD).await).await,
        404
    );
}

// ---- issue 26, item 11: the export and deletion hold at every request status ----------------

#[tokio::test]
async fn the_export_and_deletion_work_at_every_request_status() {
    let sink = SmtpSink::start().await;
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[("ORTAK_DEMO", "1"), ("ORTAK_SMTP_URL", &sink.url())],
    );
    let email = "her-durum@example.com";
    let member = verified_member(&server, email).await;
    leave_traces(&server, &sink, &member, email).await;
    let slugs = [
        "cemre-enerji",
        "cicek-tarim",
        "kalkan-siber",
        "rota-mobilite",
        "uydu-bag",
    ];
    let statuses = [
        "submitted",
        "under_review",
        "approved",
        "fee_paid",
        "funded",
        "allocated",
        "rejected",
        "cancelled",
        "lapsed",
    ];
    let mut ids = Vec::new();
    for (n, status) in statuses.iter().enumerate() {
        let id = request(&server, email, slugs[n % slugs.len()], status, false).await;
        ids.push((id, *status));
    }
    // Money that reached escrow: a card payment and a transfer the bank reported, by date.
    for (id, status) in &ids {
        if matches!(*status, "funded" | "allocated") {
            paid(&server, *id).await;
            exec(
                &server,
                &format!(
                    "UPDATE bank_transfers SET received_at = '2026-11-20',
                         received_amount_kurus = 25000000 WHERE request_id = {id}"
                ),
            )
            .await;
        }
    }
    let waitlisted = scalar(
        &server,
        &format!(
            "INSERT INTO investment_requests (user_id, startup_id, kind, amount_kurus, fee_kurus,
                 fee_added, investment_kurus, total_kurus, status, risk_accepted_at,
                 idempotency_key, cancel_until, information_form_id)
             SELECT u.id, s.id, 'investment', 25000000, 625000, 1, 25000000, 25625000,
                 'waitlisted', '2026-11-01T00:00:00Z', 'bekleyen', '2026-11-03T00:00:00Z',
             (SELECT MAX(d.id) FROM round_documents d WHERE d.startup_id = s.id AND d.kind = 'information-form')
             FROM users u, startups s WHERE u.email = '{email}' AND s.slug = 'uydu-bag'
             RETURNING id"
        ),
    )
    .await;

    // Before the fix: 500 for every member whose transfer was recorded.
    let export = member
        .get(server.url("/profile/export"))
        .send()
        .await
        .unwrap();
    assert_eq!(export.status(), 200);
    let export: serde_json::Value = export.json().await.unwrap();
    assert_eq!(export["investment_requests"].as_array().unwrap().len(), 10);
    let received: Vec<&str> = export["escrow_transfers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["received_on"].as_str())
        .collect();
    assert_eq!(received, ["2026-11-20", "2026-11-20"]);
    assert_eq!(export["identities_held"][0]["identity_number"], TCKN);

    // Deletion waits while money is under way; once every request ended, it goes through.
    assert_eq!(delete_membership(&server, &member).await.status(), 422);
    exec(
        &server,
        &format!("UPDATE investment_requests SET status = 'cancelled' WHERE id = {waitlisted}"),
    )
    .await;
    for (id, status) in &ids {
        match *status {
            "submitted" | "under_review" | "approved" => advance(&server, *id, "cancelled").await,
            "fee_paid" => advance(&server, *id, "refunded").await,
            "funded" => advance(&server, *id, "allocated").await,
            _ => {}
        }
    }
    let user = scalar(
        &server,
        &format!("SELECT id FROM users WHERE email = '{email}'"),
    )
    .await;
    assert_eq!(delete_membership(&server, &member).await.status(), 303);
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT COUNT(*) FROM identity_history WHERE user_id = {user}")
        )
        .await,
        0,
        "the identities held are erased with the MKK data"
    );
    assert_eq!(
        scalar(
            &server,
            &format!("SELECT COUNT(*) FROM investment_requests WHERE user_id = {user}")
        )
        .await,
        3,
        "the requests that moved money are kept (two allocated, one fee refunded)"
    );
}

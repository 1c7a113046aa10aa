//! Optional mails (issue 17): members choose them in the profile, each carries a one-click
//! unsubscribe (RFC 8058) signed for its member and kind, and the scheduled ones (a saved
//! startup closing soon, the weekly digest) go out once each, moved by the injectable clock.

use crate::common;

use common::journeys::{csrf, post_form, sign_up};
use common::money::{qualified_investor, send_request, set_clock, verify_email};
use common::smtp::{SmtpSink, link_in};
use common::{Server, client, csrf_of, exec, scalar};
use tempfile::TempDir;
use time::{Duration, OffsetDateTime, Time, Weekday};

/// Seconds from now to the next Wednesday 12:00 UTC (15:00 in Istanbul), so the weekday and
/// hour the tests see do not depend on when they run.
fn to_next_wednesday_noon() -> i64 {
    let now = OffsetDateTime::now_utc();
    let mut day = now.date() + Duration::days(1);
    while day.weekday() != Weekday::Wednesday {
        day += Duration::days(1);
    }
    (day.with_time(Time::from_hms(12, 0, 0).unwrap())
        .assume_utc()
        - now)
        .whole_seconds()
}

async fn start(clock: &TempDir, offset: i64) -> (Server, SmtpSink) {
    let sink = SmtpSink::start().await;
    let file = clock.path().join("offset");
    set_clock(&file, offset);
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[
            ("ORTAK_DEMO", "1"),
            ("ORTAK_SMTP_URL", &sink.url()),
            ("ORTAK_CLOCK_FILE", file.to_str().unwrap()),
            ("ORTAK_JOBS_INTERVAL_SECONDS", "1"),
        ],
    );
    (server, sink)
}

/// Whether the notifications tab in `html` has the box of `kind` ticked.
fn ticked(html: &str, kind: &str) -> bool {
    let input = html.split(&format!("id=\"mails-{kind}\"")).nth(1).unwrap();
    input.split('>').next().unwrap().contains("checked")
}

/// A verified member signed in (no mail needed).
async fn member(server: &Server, email: &str) -> reqwest::Client {
    let browser = sign_up(server, email).await;
    verify_email(server, email).await;
    browser
}

/// A member of fund 2's team (the fund of the startups these tests use), signed in.
async fn fund_team(server: &Server) -> reqwest::Client {
    let browser = member(server, "fon@example.com").await;
    exec(
        server,
        "INSERT INTO fund_members (fund_id, user_id) SELECT 2, id FROM users WHERE email = 'fon@example.com'",
    )
    .await;
    browser
}

async fn save_startup(server: &Server, browser: &reqwest::Client, slug: &str) {
    let token = csrf(browser, server, &format!("/startups/{slug}")).await;
    let saved = post_form(
        browser,
        server.url(&format!("/favorites/{slug}")),
        &token,
        &[("favorite", "1".into()), ("return_to", "/".into())],
    )
    .await;
    assert_eq!(saved.status(), 303);
}

async fn choose(
    server: &Server,
    browser: &reqwest::Client,
    lang: &str,
    mails: &[&str],
) -> reqwest::Response {
    let token = csrf(browser, server, "/profile?tab=notifications").await;
    let fields: Vec<(&str, String)> = mails.iter().map(|m| ("mails", (*m).to_owned())).collect();
    post_form(
        browser,
        server.url(&format!("/profile/notifications?lang={lang}")),
        &token,
        &fields,
    )
    .await
}

async fn post_update(server: &Server, fund: &reqwest::Client, startup: i64, tr: &str, en: &str) {
    let page = common::text(
        fund,
        server.url(&format!("/vc-dashboard/startups/{startup}")),
    )
    .await;
    let posted = post_form(
        fund,
        server.url(&format!("/vc-dashboard/startups/{startup}/updates")),
        &csrf_of(&page),
        &[("body_tr", tr.into()), ("body_en", en.into())],
    )
    .await;
    assert_eq!(posted.status(), 303);
}

async fn outbox_count(server: &Server, to: &str, subject_like: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE to_email = ? AND subject LIKE ?")
        .bind(to)
        .bind(subject_like)
        .fetch_one(&server.db().await)
        .await
        .unwrap()
}

#[tokio::test]
async fn members_choose_their_mails_and_unsubscribe_in_one_click() {
    let clock = TempDir::new().unwrap();
    let (server, sink) = start(&clock, 0).await;
    let ayse = member(&server, "ayse@example.com").await;
    let bora = member(&server, "bora@example.com").await;
    let startup = scalar(
        &server,
        "SELECT id FROM startups WHERE fund_id = 2 AND published = 1 ORDER BY id LIMIT 1",
    )
    .await;
    let slug: String = sqlx::query_scalar("SELECT slug FROM startups WHERE id = ?")
        .bind(startup)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    save_startup(&server, &ayse, &slug).await;
    save_startup(&server, &bora, &slug).await;

    // The tab shows the defaults: everything but the digest, which waits for consent.
    let tab = common::text(&bora, server.url("/profile?tab=notifications")).await;
    for (kind, on) in [
        ("new-startups", true),
        ("closing-soon", true),
        ("updates", true),
        ("digest", false),
    ] {
        assert_eq!(ticked(&tab, kind), on, "{kind}");
    }
    assert!(tab.contains(
        "Hizmet e-postaları (giriş, ödemeler, yatırım taleplerinizin durumu) her zaman gönderilir."
    ));

    // A kind that does not exist: the exact message in each language, what was ticked kept,
    // nothing stored.
    for (lang, message) in [
        ("tr", "Lütfen yalnızca listelenen e-postalardan seçin."),
        ("en", "Please choose only from the e-mails listed."),
    ] {
        let refused = choose(&server, &bora, lang, &["digest", "request-approved"]).await;
        assert_eq!(refused.status(), 422);
        let html = refused.text().await.unwrap();
        assert!(html.contains(message), "{lang}");
        assert!(ticked(&html, "digest"), "keeps what was ticked");
    }
    assert_eq!(
        scalar(&server, "SELECT COUNT(*) FROM mail_preferences").await,
        0
    );

    // Bora keeps only new startups and closing soon.
    let saved = choose(&server, &bora, "tr", &["new-startups", "closing-soon"]).await;
    assert_eq!(saved.status(), 303);
    let tab = common::text(&bora, server.url("/profile?tab=notifications")).await;
    assert!(tab.contains("Bildirim tercihleriniz kaydedildi."));
    assert!(!ticked(&tab, "updates"));

    // The fund's team posts an update: Ayşe is told, with its text and the one-click headers;
    // Bora, who switched updates off, is not.
    let fund = fund_team(&server).await;
    post_update(&server, &fund, startup, "CTO işe alındı.", "Hired a CTO.").await;
    let mail = sink
        .wait_for("ayse@example.com", "güncelleme paylaştı")
        .await;
    assert!(mail.text.contains("CTO işe alındı."), "{}", mail.text);
    assert_eq!(
        mail.header("List-Unsubscribe-Post"),
        Some("List-Unsubscribe=One-Click")
    );
    let header = mail.header("List-Unsubscribe").unwrap().to_owned();
    let prefix = server.url("/unsubscribe?token=");
    assert!(
        header.starts_with(&format!("<{prefix}")) && header.ends_with('>'),
        "{header}"
    );
    let link = header.trim_matches(['<', '>']).to_owned();
    assert_eq!(
        link_in(&mail.text, &prefix),
        link,
        "the body carries the same link"
    );
    assert_eq!(
        outbox_count(&server, "bora@example.com", "%güncelleme%").await,
        0
    );
    // The stored mail holds no unsubscribe link: it is signed when the mail is sent.
    let stored: String = sqlx::query_scalar("SELECT text_body || html_body FROM outbox WHERE to_email = 'ayse@example.com' AND subject LIKE '%güncelleme%'")
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    assert!(!stored.contains("/unsubscribe"));

    // Opening the link only asks; a link changed to another member or kind does nothing.
    let page = client().get(&link).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("Kaydettiğim veya yatırım yaptığım girişimlerden güncellemeler"));
    assert_eq!(scalar(&server, "SELECT COUNT(*) FROM mail_preferences WHERE user_id = (SELECT id FROM users WHERE email = 'ayse@example.com')").await, 0);
    let token = link.split("token=").nth(1).unwrap().to_owned();
    let (user, rest) = token.split_once('.').unwrap();
    let signature = rest.split_once('.').unwrap().1;
    let bora_id = scalar(
        &server,
        "SELECT id FROM users WHERE email = 'bora@example.com'",
    )
    .await;
    for forged in [
        format!("{bora_id}.{rest}"),
        format!("{user}.digest.{signature}"),
        format!("{user}.updates.{}", &signature[1..]),
    ] {
        let answer = client()
            .post(server.url(&format!("/unsubscribe?token={forged}")))
            .form(&[("List-Unsubscribe", "One-Click")])
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 400, "{forged}");
    }
    assert_eq!(scalar(&server, "SELECT COUNT(*) FROM mail_preferences WHERE enabled = 0 AND changed_via = 'unsubscribe'").await, 0);

    // A mail client's one-click POST: no cookie, no CSRF token. Twice changes nothing more.
    for _ in 0..2 {
        let done = client()
            .post(&link)
            .form(&[("List-Unsubscribe", "One-Click")])
            .send()
            .await
            .unwrap();
        assert_eq!(done.status(), 200);
    }
    let rows: Vec<(String, bool, String)> =
        sqlx::query_as("SELECT kind, enabled, changed_via FROM mail_preferences WHERE user_id = ?")
            .bind(user.parse::<i64>().unwrap())
            .fetch_all(&server.db().await)
            .await
            .unwrap();
    assert_eq!(
        rows,
        [("updates".to_owned(), false, "unsubscribe".to_owned())]
    );

    // The next update reaches neither; the profile shows the choice.
    post_update(&server, &fund, startup, "Yeni müşteri.", "New customer.").await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        outbox_count(&server, "ayse@example.com", "%güncelleme%").await,
        1
    );
    let tab = common::text(&ayse, server.url("/profile?tab=notifications")).await;
    assert!(!ticked(&tab, "updates"));
}

#[tokio::test]
async fn closing_soon_and_the_weekly_digest_go_out_once_each() {
    let clock = TempDir::new().unwrap();
    let file = clock.path().join("offset");
    let offset = to_next_wednesday_noon();
    let (server, sink) = start(&clock, offset).await;
    let today = (OffsetDateTime::now_utc() + Duration::seconds(offset)).date();

    // A saved startup whose investment period ends the day after tomorrow.
    let startup = scalar(&server, "SELECT id FROM startups WHERE fund_id = 2 AND published = 1 AND round_status = 'open' AND period_kind = 'investment' ORDER BY id LIMIT 1").await;
    let slug: String = sqlx::query_scalar("SELECT slug FROM startups WHERE id = ?")
        .bind(startup)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    // (Its first day stays: the database fixes it once requests exist.)
    sqlx::query("UPDATE startups SET period_ends_on = ? WHERE id = ?")
        .bind((today + Duration::days(2)).to_string())
        .bind(startup)
        .execute(&server.db().await)
        .await
        .unwrap();
    let ayse = member(&server, "ayse@example.com").await;
    let bora = member(&server, "bora@example.com").await;
    save_startup(&server, &ayse, &slug).await;
    save_startup(&server, &bora, &slug).await;
    // Cem saved it too but already sent a request: no reminder for him.
    let (cem, token) = qualified_investor(&server, "cem@example.com", 61).await;
    save_startup(&server, &cem, &slug).await;
    assert_eq!(
        send_request(&server, &cem, &token, &slug, "300.000", "k-1")
            .await
            .status(),
        303
    );
    // Bora switched closing-soon off and consented to the digest.
    assert_eq!(
        choose(&server, &bora, "tr", &["updates", "digest"])
            .await
            .status(),
        303
    );

    let mail = sink
        .wait_for("ayse@example.com", "yatırım süresi bitiyor")
        .await;
    assert!(
        mail.text
            .contains(&server.url(&format!("/startups/{slug}")))
    );
    assert!(mail.header("List-Unsubscribe").is_some());
    // A few ticks later and a day later: still one, and none for Bora or Cem.
    set_clock(&file, offset + 86_400);
    server.run_jobs().await;
    server.run_jobs().await;
    assert_eq!(
        outbox_count(&server, "ayse@example.com", "%süresi bitiyor%").await,
        1
    );
    assert_eq!(
        outbox_count(&server, "bora@example.com", "%süresi bitiyor%").await,
        0
    );
    assert_eq!(
        outbox_count(&server, "cem@example.com", "%süresi bitiyor%").await,
        0
    );

    // The digest: only Bora consented. An update posted this week is in it.
    let fund = fund_team(&server).await;
    post_update(
        &server,
        &fund,
        startup,
        "İlk ihracat yapıldı.",
        "First export shipped.",
    )
    .await;
    // This week's digest was recorded for Bora before the update, with nothing to send; next
    // Monday 09:00 Istanbul starts a new week.
    set_clock(&file, offset + 5 * 86_400 - 2 * 3_600); // Monday 10:00 UTC = 13:00 Istanbul
    let digest = sink.wait_for("bora@example.com", "haftalık özetiniz").await;
    assert!(
        digest.text.contains("İlk ihracat yapıldı."),
        "{}",
        digest.text
    );
    assert_eq!(
        digest.header("List-Unsubscribe-Post"),
        Some("List-Unsubscribe=One-Click")
    );
    server.run_jobs().await;
    server.run_jobs().await;
    let digests = |to: &'static str| outbox_count(&server, to, "%haftalık özet%");
    assert_eq!(digests("bora@example.com").await, 1, "one per week");
    assert_eq!(
        digests("ayse@example.com").await,
        0,
        "no consent, no digest"
    );
    assert_eq!(
        scalar(
            &server,
            "SELECT COUNT(*) FROM scheduled_mails WHERE kind = 'digest'"
        )
        .await,
        2,
        "this week's (with the earlier one) recorded for Bora only"
    );
}

//! Quarterly reports are due (issue 17): a funded startup owes one for every full quarter after
//! its round closed, by the end of the following month. An overdue one is flagged to staff, to
//! the startup's team and to its investors, and the flag goes once the report is posted.

use crate::common;

use common::journeys::{ADMIN_PASSWORD, create_admin, sign_in, sign_up};
use common::money::set_clock;
use common::{Server, csrf_of, exec};
use tempfile::TempDir;
use time::OffsetDateTime;
use time::macros::datetime;

/// The server's clock: today is 27 November 2026 (Istanbul), whenever the test runs.
struct Clock {
    _dir: TempDir,
    file: std::path::PathBuf,
    offset: i64,
}

impl Clock {
    fn days_later(&self, days: i64) {
        set_clock(&self.file, self.offset + days * 86_400);
    }
}

/// The demo, with a superadmin, on 27 November 2026 (`env` added).
fn on_27_november(env: &[(&'static str, &str)]) -> (Clock, Server) {
    let dir = TempDir::new().unwrap();
    let file = dir.path().join("offset");
    let offset = (datetime!(2026-11-27 12:00 UTC) - OffsetDateTime::now_utc()).whole_seconds();
    set_clock(&file, offset);
    let data = TempDir::new().unwrap();
    create_admin(&data, "super@example.com", true);
    let clock_file = file.to_str().unwrap().to_owned();
    let mut all = vec![
        ("ORTAK_DEMO", "1"),
        ("ORTAK_CLOCK_FILE", clock_file.as_str()),
    ];
    all.extend_from_slice(env);
    let server = Server::start_in(data, &all);
    let clock = Clock {
        _dir: dir,
        file,
        offset,
    };
    (clock, server)
}

#[tokio::test]
async fn overdue_reports_are_flagged_to_staff_the_team_and_investors() {
    let (clock, server) = on_27_november(&[]);
    // Zeytin Finans closed on 10 February 2026 and reported nothing: Q2 (due 31 July) and Q3
    // (due 31 October) are late, Q4 is not due yet. The other funded startups closed lately.
    exec(&server, "DELETE FROM reports").await;
    exec(
        &server,
        "UPDATE startups SET closed_at = '2026-11-20T09:00:00Z' WHERE round_status = 'funded'",
    )
    .await;
    exec(
        &server,
        "UPDATE startups SET closed_at = '2026-02-10T09:00:00Z' WHERE slug = 'zeytin-finans'",
    )
    .await;
    let (id, name, fund): (i64, String, i64) =
        sqlx::query_as("SELECT id, name, fund_id FROM startups WHERE slug = 'zeytin-finans'")
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    let q2 = format!("{name}: 2026 Ç2 raporunun son günü 31.07.2026 idi.");
    let q3 = format!("{name}: 2026 Ç3 raporunun son günü 31.10.2026 idi.");

    let staff = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let home = common::text(&staff, server.url("/dashboard")).await;
    assert!(home.contains("Süresi geçmiş çeyrek raporları"));
    assert!(home.contains(&q2) && home.contains(&q3), "{home}");
    assert_eq!(
        home.matches("raporunun son günü").count(),
        2,
        "only Zeytin Finans is late"
    );

    // An investor of the startup sees it on /reports (a demo investor given a password here);
    // a member with nothing invested does not.
    exec(&server, "UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE email = 'super@example.com') WHERE id = (SELECT user_id FROM investment_requests WHERE startup_id = (SELECT id FROM startups WHERE slug = 'zeytin-finans') AND status = 'allocated' ORDER BY id LIMIT 1)").await;
    let investor_email: String = sqlx::query_scalar("SELECT u.email FROM users u JOIN investment_requests r ON r.user_id = u.id WHERE r.startup_id = ? AND r.status = 'allocated' ORDER BY r.id LIMIT 1")
        .bind(id)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    exec(&server, &format!("INSERT INTO acceptances (user_id, document, version, accepted_at) SELECT id, d, '2026-11-21', '2026-11-21T00:00:00Z' FROM users, (SELECT 'membership-agreement' AS d UNION ALL SELECT 'kvkk-notice') WHERE email = '{investor_email}'")).await;
    let investor = sign_in(&server, &investor_email, ADMIN_PASSWORD).await;
    let reports = common::text(&investor, server.url("/reports")).await;
    assert!(reports.contains(&q2) && reports.contains(&q3));
    let stranger = sign_up(&server, "yabanci@example.com").await;
    assert!(
        !common::text(&stranger, server.url("/reports"))
            .await
            .contains("raporunun son günü")
    );

    // The fund's team sees it on /vc-dashboard and posts Q2; a quarter nobody can read is refused.
    let team = sign_up(&server, "fon@example.com").await;
    exec(&server, &format!("INSERT INTO fund_members (fund_id, user_id) SELECT {fund}, id FROM users WHERE email = 'fon@example.com'")).await;
    let dashboard = common::text(&team, server.url("/vc-dashboard")).await;
    assert!(dashboard.contains(&q2) && dashboard.contains(&q3));
    let page = format!("/vc-dashboard/startups/{id}");
    let token = csrf_of(&common::text(&team, server.url(&page)).await);
    let report = |quarter: &'static str| {
        reqwest::multipart::Form::new()
            .text("csrf", token.clone())
            .text("quarter", quarter)
            .text("report_title_tr", "İkinci çeyrek")
            .text("report_title_en", "Second quarter")
            .text("report_summary_tr", "Gelir arttı.")
            .text("report_summary_en", "Revenue grew.")
            .part(
                "file",
                reqwest::multipart::Part::bytes(&b"%PDF-1.7 r"[..]).file_name("r.pdf"),
            )
    };
    let url = server.url(&format!("{page}/reports"));
    let refused = team
        .post(&url)
        .multipart(report("bahar"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 422);
    let html = refused.text().await.unwrap();
    assert!(
        html.contains("Lütfen çeyreği 2026 Ç3 biçiminde girin.")
            && html.contains("value=\"bahar\"")
    );
    let posted = team
        .post(&url)
        .multipart(report("2026 ç2"))
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 303);
    let stored: String = sqlx::query_scalar("SELECT quarter FROM reports WHERE startup_id = ?")
        .bind(id)
        .fetch_one(&server.db().await)
        .await
        .unwrap();
    assert_eq!(stored, "2026-Q2", "stored in one form whatever was typed");
    // Its investors are told, with the report's title, in their language.
    let told: String = sqlx::query_scalar(
        "SELECT text_body FROM outbox WHERE to_email = ? AND subject LIKE '%çeyrek raporunu%'",
    )
    .bind(&investor_email)
    .fetch_one(&server.db().await)
    .await
    .unwrap();
    assert!(told.contains("İkinci çeyrek (2026 Ç2)"), "{told}");
    let home = common::text(&staff, server.url("/dashboard")).await;
    assert!(!home.contains(&q2) && home.contains(&q3));

    // Three months on, Q4 (due 31 January 2027) is late too.
    clock.days_later(70);
    // (Sessions ended meanwhile: the investor signs in again.)
    let investor = sign_in(&server, &investor_email, ADMIN_PASSWORD).await;
    let later = common::text(&investor, server.url("/reports")).await;
    assert!(
        later.contains(&q3)
            && later.contains(&format!(
                "{name}: 2026 Ç4 raporunun son günü 31.01.2027 idi."
            ))
    );
}

#[tokio::test]
async fn an_overdue_report_is_mailed_once_to_the_team_the_investors_and_staff() {
    let (_clock, server) = on_27_november(&[("ORTAK_JOBS_INTERVAL_SECONDS", "1")]);
    let team = sign_up(&server, "ekip@example.com").await;
    drop(team);
    // In one transaction (the job runs every second): only Zeytin Finans is late, with Q2 and
    // Q3 unreported; nothing was told yet; ekip@ joins its fund's team.
    let db = server.db().await;
    let mut tx = db.begin().await.unwrap();
    for sql in [
        "DELETE FROM reports",
        "DELETE FROM report_reminders",
        "DELETE FROM outbox",
        "UPDATE startups SET closed_at = '2026-11-20T09:00:00Z' WHERE round_status = 'funded'",
        "UPDATE startups SET closed_at = '2026-02-10T09:00:00Z' WHERE slug = 'zeytin-finans'",
        "INSERT INTO fund_members (fund_id, user_id)
         SELECT (SELECT fund_id FROM startups WHERE slug = 'zeytin-finans'), id
         FROM users WHERE email = 'ekip@example.com'",
    ] {
        sqlx::query(sql).execute(&mut *tx).await.unwrap();
    }
    tx.commit().await.unwrap();
    let told =
        common::money::wait_for_count(&server, "SELECT COUNT(*) FROM report_reminders", 1).await;
    assert_eq!(told, 1, "one startup, its newest late quarter");
    let quarter: String = sqlx::query_scalar("SELECT quarter FROM report_reminders")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(quarter, "2026-Q3");
    let body_to = |email: &'static str| {
        let db = db.clone();
        async move {
            sqlx::query_scalar::<_, String>(
                "SELECT text_body FROM outbox WHERE to_email = ? AND subject LIKE '%çeyrek raporu gecikti%'",
            )
            .bind(email)
            .fetch_all(&db)
            .await
            .unwrap()
        }
    };
    let team_mail = body_to("ekip@example.com").await;
    assert_eq!(team_mail.len(), 1, "the team is told");
    assert!(
        team_mail[0].contains("Zeytin Finans: 2026 Ç3 raporunun son günü 31.10.2026 idi.")
            && team_mail[0].contains("/vc-dashboard/startups/"),
        "{}",
        team_mail[0]
    );
    let investors: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM outbox WHERE subject = 'Ortak: bir çeyrek raporu gecikti'
           AND unsubscribe_kind = 'updates'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let invested: i64 = sqlx::query_scalar(
        "SELECT COUNT(DISTINCT r.user_id) FROM investment_requests r
         JOIN startups s ON s.id = r.startup_id
         WHERE s.slug = 'zeytin-finans' AND r.status = 'allocated'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(invested > 0);
    assert_eq!(
        investors, invested,
        "each investor, with one-click unsubscribe"
    );
    let staff: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM outbox WHERE subject = 'Rapor gecikti: Zeytin Finans (2026 Ç3)'",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(staff, 1);
    // Later rounds tell nobody again.
    server.run_jobs().await;
    server.run_jobs().await;
    assert_eq!(body_to("ekip@example.com").await.len(), 1);
}

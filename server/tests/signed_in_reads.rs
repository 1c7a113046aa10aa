//! Issue 16: a signed-in page view writes nothing to SQLite. Sessions are held in memory in
//! front of their table (`db::sessions`); what changes a session still reaches the table, so
//! a sign-in survives a restart and a sign-out ends the session at once. Staff lists' JSON is
//! kept briefly per role (`web::list_cache`), and a startup's profile for every member
//! (`db::snapshot`); neither outlives a write.

use crate::common;

use common::Server;
use common::journeys::{ADMIN_PASSWORD, create_admin, csrf, post_form, sign_in, sign_up};
use sqlx::pool::PoolConnection;
use sqlx::{Sqlite, SqlitePool};
use tempfile::TempDir;

/// SQLite's count of commits by other connections, as this connection sees it.
async fn data_version(conn: &mut PoolConnection<Sqlite>) -> i64 {
    sqlx::query_scalar("PRAGMA data_version")
        .fetch_one(&mut **conn)
        .await
        .unwrap()
}

async fn session_rows(db: &SqlitePool) -> Vec<(String, Vec<u8>, String)> {
    sqlx::query_as("SELECT id, data, CAST(expiry_date AS TEXT) FROM sessions ORDER BY id")
        .fetch_all(db)
        .await
        .unwrap()
}

#[tokio::test]
async fn signed_in_page_views_write_nothing_and_sessions_survive_a_restart() {
    let server = Server::start_jobs_on_request();
    let member = sign_up(&server, "okuyan@example.com").await;
    let slug: String =
        sqlx::query_scalar("SELECT slug FROM startups WHERE published = 1 ORDER BY id LIMIT 1")
            .fetch_one(&server.db().await)
            .await
            .unwrap();
    let pages = [
        "/startups".to_owned(),
        "/startups?sector=fintech&sort=newest".to_owned(),
        format!("/startups/{slug}"),
        "/favorites".to_owned(),
        "/overview".to_owned(),
        "/profile".to_owned(),
    ];
    // Let start-up's own writes (jobs, demo content) finish first.
    for page in &pages {
        member.get(server.url(page)).send().await.unwrap();
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;

    let db = server.db().await;
    let before = session_rows(&db).await;
    let mut conn = db.acquire().await.unwrap();
    let version = data_version(&mut conn).await;
    for _ in 0..5 {
        for page in &pages {
            let response = member.get(server.url(page)).send().await.unwrap();
            assert_eq!(response.status(), 200, "{page}");
            assert!(
                response
                    .text()
                    .await
                    .unwrap()
                    .contains("okuyan@example.com")
                    || !page.starts_with("/profile"),
                "signed in on {page}"
            );
        }
    }
    assert_eq!(
        data_version(&mut conn).await,
        version,
        "thirty signed-in page views committed nothing"
    );
    drop(conn);
    assert_eq!(session_rows(&db).await, before);

    // A session is stored when it is made: it survives a restart.
    let data = server.stop();
    let server = Server::start_in(data, &[("ORTAK_DEMO", "1")]);
    let profile = member.get(server.url("/profile")).send().await.unwrap();
    assert_eq!(profile.status(), 200, "still signed in after a restart");

    // Signing out ends the session at once, in memory and in the table.
    let token = csrf(&member, &server, "/profile").await;
    let out = post_form(&member, server.url("/logout"), &token, &[]).await;
    assert!(out.status().is_redirection(), "{}", out.status());
    let profile = member.get(server.url("/profile")).send().await.unwrap();
    assert_eq!(profile.status(), 303, "signed out");
}

async fn subscribe(db: &SqlitePool, email: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO newsletter_subscribers (email, language, consent_text_version, source, confirmed_at)
         VALUES (?, 'tr', 'test', 'test', '2026-11-01T00:00:00Z') RETURNING id",
    )
    .bind(email)
    .fetch_one(db)
    .await
    .unwrap()
}

/// Staff lists' JSON is kept two seconds per role and language (`web::list_cache`): only the
/// same role gets a kept answer, and no kept answer outlives a write.
#[tokio::test]
async fn staff_lists_are_shared_within_a_role_and_never_outlive_a_write() {
    let data = TempDir::new().unwrap();
    create_admin(&data, "admin@example.com", false);
    create_admin(&data, "super@example.com", true);
    let server = Server::start_in(data, &[("ORTAK_JOBS_INTERVAL_SECONDS", "3600")]);
    let admin = sign_in(&server, "admin@example.com", ADMIN_PASSWORD).await;
    let superadmin = sign_in(&server, "super@example.com", ADMIN_PASSWORD).await;
    let db = server.db().await;

    // The audit log is for superadmins: what one read is never given to an admin or a visitor.
    let audit = superadmin
        .get(server.url("/dashboard/audit.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(audit.status(), 200);
    for (who, browser) in [("admin", &admin), ("visitor", &common::client())] {
        let refused = browser
            .get(server.url("/dashboard/audit.json"))
            .send()
            .await
            .unwrap();
        assert_ne!(refused.status(), 200, "{who}");
        assert!(!refused.text().await.unwrap().contains("\"rows\""), "{who}");
    }

    let listed = |browser: reqwest::Client| {
        let url = server.url("/dashboard/newsletter.json");
        async move { browser.get(url).send().await.unwrap().text().await.unwrap() }
    };
    let first = subscribe(&db, "bir@example.com").await;
    assert!(listed(admin.clone()).await.contains("bir@example.com"));
    // A row added from outside the server (it changes the write-ahead log) is in the next list.
    subscribe(&db, "iki@example.com").await;
    assert!(listed(admin.clone()).await.contains("iki@example.com"));
    // So is what a write through the site changed.
    let page = common::text(&admin, server.url("/dashboard/newsletter")).await;
    let gone = post_form(
        &admin,
        server.url(&format!("/dashboard/newsletter/{first}/unsubscribe")),
        &common::csrf_of(&page),
        &[],
    )
    .await;
    assert_eq!(gone.status(), 303);
    let after = listed(admin.clone()).await;
    assert!(!after.contains("bir@example.com"), "{after}");
    assert!(after.contains("iki@example.com"), "{after}");
}

/// A startup's page keeps what every member sees the same way in memory (`db::snapshot`),
/// never across a write, whether made through the site or from outside it.
#[tokio::test]
async fn a_startups_page_never_shows_its_profile_from_before_a_write() {
    let server = Server::start_jobs_on_request();
    let member = sign_up(&server, "izleyen@example.com").await;
    let db = server.db().await;
    let slug: String =
        sqlx::query_scalar("SELECT slug FROM startups WHERE published = 1 ORDER BY id LIMIT 1")
            .fetch_one(&db)
            .await
            .unwrap();
    let describe = |text: &'static str| {
        let (db, slug) = (db.clone(), slug.clone());
        async move {
            sqlx::query("UPDATE startups SET description_tr = ? WHERE slug = ?")
                .bind(text)
                .bind(slug)
                .execute(&db)
                .await
                .unwrap();
        }
    };
    let page = |browser: reqwest::Client| {
        let url = server.url(&format!("/startups/{slug}"));
        async move { browser.get(url).send().await.unwrap().text().await.unwrap() }
    };
    describe("Birinci tanım.").await;
    assert!(page(member.clone()).await.contains("Birinci tanım."));
    // Changed from outside the server: the next page shows it.
    describe("İkinci tanım.").await;
    assert!(page(member.clone()).await.contains("İkinci tanım."));
    // So does a write through the site.
    let token = csrf(&member, &server, &format!("/startups/{slug}")).await;
    let saved = post_form(
        &member,
        server.url(&format!("/favorites/{slug}")),
        &token,
        &[("favorite", "1".into())],
    )
    .await;
    assert!(saved.status().is_redirection(), "{}", saved.status());
    assert!(shows_saved(&page(member.clone()).await));
}

fn shows_saved(html: &str) -> bool {
    html.contains("aria-pressed=\"true\"")
}

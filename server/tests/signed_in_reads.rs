//! Issue 16: a signed-in page view writes nothing to SQLite. Sessions are held in memory in
//! front of their table (`db::sessions`); what changes a session still reaches the table, so
//! a sign-in survives a restart and a sign-out ends the session at once.

mod common;

use common::Server;
use common::journeys::{csrf, post_form, sign_up};
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
    let server = Server::start_in(
        TempDir::new().unwrap(),
        &[("ORTAK_DEMO", "1"), ("ORTAK_JOBS_INTERVAL_SECONDS", "3600")],
    );
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

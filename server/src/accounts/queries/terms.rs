//! The SQL of the membership agreement and KVKK notice acceptances (`acceptances`).

use ortak_app::domain::terms::VERSION;
use serde::Serialize;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// Records that `user` accepted the current version of both texts (again: no change then).
pub async fn accept(
    conn: &mut SqliteConnection,
    user: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT OR IGNORE INTO acceptances (user_id, document, version, accepted_at)
         VALUES (?1, 'membership-agreement', ?2, ?3), (?1, 'kvkk-notice', ?2, ?3)",
        user,
        VERSION,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether sign-in may skip the terms box: `user` accepted the current version, or is staff
/// (staff accounts are created by the operator and are not members bound by the agreement).
pub async fn current(db: &SqlitePool, user: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT u.role <> 'investor' OR EXISTS (
               SELECT 1 FROM acceptances a
               WHERE a.user_id = u.id AND a.document = 'membership-agreement' AND a.version = ?
           ) AS "current!: bool"
         FROM users u WHERE u.id = ?"#,
        VERSION,
        user
    )
    .fetch_one(db)
    .await
}

/// One accepted text, for the member's own records (data export).
#[derive(Serialize)]
pub struct Acceptance {
    pub document: String,
    pub version: String,
    #[serde(with = "time::serde::rfc3339")]
    pub accepted_at: OffsetDateTime,
}

/// Every text `user` accepted, oldest first.
pub async fn of_user(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<Acceptance>> {
    sqlx::query_as!(
        Acceptance,
        r#"SELECT document, version, accepted_at AS "accepted_at: OffsetDateTime"
         FROM acceptances WHERE user_id = ? ORDER BY accepted_at, version, document"#,
        user
    )
    .fetch_all(db)
    .await
}

//! The SQL of the academy events staff list and add.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

pub struct AcademyEvent {
    pub title_tr: String,
    pub title_en: String,
    pub starts_at: OffsetDateTime,
    pub published: bool,
}

/// Every event, latest first.
pub async fn list(db: &SqlitePool) -> sqlx::Result<Vec<AcademyEvent>> {
    sqlx::query_as!(
        AcademyEvent,
        r#"SELECT title_tr, title_en, starts_at AS "starts_at: OffsetDateTime",
               published AS "published: bool"
           FROM academy_events ORDER BY starts_at DESC"#
    )
    .fetch_all(db)
    .await
}

/// Adds a published event; its id.
pub async fn add(
    conn: &mut SqliteConnection,
    title_tr: &str,
    title_en: &str,
    starts_at: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        "INSERT INTO academy_events (title_tr, title_en, starts_at) VALUES (?, ?, ?) RETURNING id",
        title_tr,
        title_en,
        starts_at
    )
    .fetch_one(conn)
    .await
}

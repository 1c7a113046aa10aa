//! The SQL of the newsletter's subscribers as staff see them: the list, the consent export
//! and unsubscribing on someone's behalf. Only confirmed, current subscriptions are listed:
//! an unconfirmed request is nobody's consent (double opt-in, see `newsletter`).

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// A subscriber and their consent record.
pub struct Subscriber {
    pub id: i64,
    pub email: String,
    pub language: String,
    pub consent_text_version: String,
    pub source: String,
    pub consented_at: OffsetDateTime,
    pub confirmed_at: OffsetDateTime,
}

/// The latest 2,000 current subscribers, newest first.
pub async fn latest(db: &SqlitePool) -> sqlx::Result<Vec<Subscriber>> {
    sqlx::query_as!(
        Subscriber,
        r#"SELECT id AS "id!", email, language, consent_text_version, source,
               consented_at AS "consented_at: OffsetDateTime",
               confirmed_at AS "confirmed_at!: OffsetDateTime"
           FROM newsletter_subscribers
           WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL
           ORDER BY confirmed_at DESC LIMIT 2000"#
    )
    .fetch_all(db)
    .await
}

/// Every current subscriber, oldest first (the export).
pub async fn all(db: &SqlitePool) -> sqlx::Result<Vec<Subscriber>> {
    sqlx::query_as!(
        Subscriber,
        r#"SELECT id AS "id!", email, language, consent_text_version, source,
               consented_at AS "consented_at: OffsetDateTime",
               confirmed_at AS "confirmed_at!: OffsetDateTime"
           FROM newsletter_subscribers
           WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL ORDER BY confirmed_at"#
    )
    .fetch_all(db)
    .await
}

/// Unsubscribes a current subscriber; their address, if there was one.
pub async fn unsubscribe(
    conn: &mut SqliteConnection,
    id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "UPDATE newsletter_subscribers SET unsubscribed_at = ?, token_hash = NULL
         WHERE id = ? AND confirmed_at IS NOT NULL AND unsubscribed_at IS NULL RETURNING email",
        now,
        id
    )
    .fetch_optional(conn)
    .await
}

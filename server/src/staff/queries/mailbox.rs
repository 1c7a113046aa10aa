//! The SQL of the staff mailbox: the latest mails in the outbox.

use sqlx::SqlitePool;

use crate::mail::OutboxStatus;
use time::OffsetDateTime;

pub struct OutboxRow {
    pub to_email: String,
    pub subject: String,
    pub text_body: String,
    pub status: OutboxStatus,
    pub created_at: OffsetDateTime,
}

/// The latest 100 mails, newest first.
pub async fn latest(db: &SqlitePool) -> sqlx::Result<Vec<OutboxRow>> {
    sqlx::query_as!(
        OutboxRow,
        r#"SELECT to_email, subject, text_body, status AS "status: OutboxStatus",
               created_at AS "created_at: OffsetDateTime"
           FROM outbox ORDER BY id DESC LIMIT 100"#
    )
    .fetch_all(db)
    .await
}

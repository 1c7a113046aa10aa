//! The SQL of mail: the outbox and staff's rewritten templates.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

use super::{Mail, OutboxStatus};

/// Staff's version of an automatic mail (`/dashboard/autoMail`).
pub struct Template {
    pub enabled: bool,
    pub subject_tr: String,
    pub subject_en: String,
    pub body_tr: String,
    pub body_en: String,
}

pub async fn template(conn: &mut SqliteConnection, kind: &str) -> sqlx::Result<Option<Template>> {
    sqlx::query_as!(
        Template,
        r#"SELECT enabled AS "enabled: bool", subject_tr, subject_en, body_tr, body_en
         FROM mail_templates WHERE kind = ?"#,
        kind
    )
    .fetch_optional(conn)
    .await
}

/// Puts a mail in the outbox, due at once.
pub async fn insert(conn: &mut SqliteConnection, mail: &Mail) -> sqlx::Result<()> {
    let language = mail.locale.code();
    sqlx::query!(
        "INSERT INTO outbox (to_email, subject, text_body, html_body, language) VALUES (?, ?, ?, ?, ?)",
        mail.to,
        mail.subject,
        mail.text,
        mail.html,
        language
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A mail the worker is to send.
pub struct Due {
    pub id: i64,
    pub to_email: String,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub attempts: i64,
}

/// The oldest pending mails whose time has come, at most `limit`.
pub async fn due(db: &SqlitePool, now: OffsetDateTime, limit: i64) -> sqlx::Result<Vec<Due>> {
    let pending = OutboxStatus::Pending;
    sqlx::query_as!(
        Due,
        r#"SELECT id AS "id!", to_email, subject, text_body, html_body, attempts FROM outbox
         WHERE status = ? AND next_attempt_at <= ?
         ORDER BY id LIMIT ?"#,
        pending,
        now,
        limit
    )
    .fetch_all(db)
    .await
}

pub async fn mark_sent(db: &SqlitePool, id: i64, now: OffsetDateTime) -> sqlx::Result<()> {
    let sent = OutboxStatus::Sent;
    sqlx::query!(
        "UPDATE outbox SET status = ?, attempts = attempts + 1, last_error = NULL, sent_at = ?
         WHERE id = ?",
        sent,
        now,
        id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Records a failed attempt: the mail waits until `next_attempt_at`, or is `Failed` for good.
pub async fn mark_attempt_failed(
    db: &SqlitePool,
    id: i64,
    status: OutboxStatus,
    attempts: i64,
    error: &str,
    next_attempt_at: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE outbox SET status = ?, attempts = ?, last_error = ?, next_attempt_at = ? WHERE id = ?",
        status,
        attempts,
        error,
        next_attempt_at,
        id
    )
    .execute(db)
    .await?;
    Ok(())
}

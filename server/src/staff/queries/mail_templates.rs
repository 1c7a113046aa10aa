//! The SQL of the automatic mails' staff edits (`mail_templates`; a missing row means the
//! built-in Fluent texts).

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// A staff edit of one automatic mail.
pub struct StoredTemplate {
    pub kind: String,
    pub enabled: bool,
    pub subject_tr: String,
    pub subject_en: String,
    pub body_tr: String,
    pub body_en: String,
}

/// Every edited mail.
pub async fn all(db: &SqlitePool) -> sqlx::Result<Vec<StoredTemplate>> {
    sqlx::query_as!(
        StoredTemplate,
        r#"SELECT kind AS "kind!", enabled AS "enabled: bool", subject_tr, subject_en, body_tr, body_en
           FROM mail_templates"#
    )
    .fetch_all(db)
    .await
}

/// The edit of `kind`, if staff made one.
pub async fn stored(db: &SqlitePool, kind: &str) -> sqlx::Result<Option<StoredTemplate>> {
    sqlx::query_as!(
        StoredTemplate,
        r#"SELECT kind AS "kind!", enabled AS "enabled: bool", subject_tr, subject_en, body_tr, body_en
           FROM mail_templates WHERE kind = ?"#,
        kind
    )
    .fetch_optional(db)
    .await
}

/// Drops the edit of `kind`: the built-in texts apply again.
pub async fn reset(conn: &mut SqliteConnection, kind: &str) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM mail_templates WHERE kind = ?", kind)
        .execute(conn)
        .await?;
    Ok(())
}

/// Stores (or replaces) the edit of `t.kind`.
pub async fn save(
    conn: &mut SqliteConnection,
    t: &StoredTemplate,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO mail_templates (kind, enabled, subject_tr, subject_en, body_tr, body_en, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (kind) DO UPDATE SET enabled = excluded.enabled, subject_tr = excluded.subject_tr,
             subject_en = excluded.subject_en, body_tr = excluded.body_tr, body_en = excluded.body_en,
             updated_at = excluded.updated_at",
        t.kind,
        t.enabled,
        t.subject_tr,
        t.subject_en,
        t.body_tr,
        t.body_en,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

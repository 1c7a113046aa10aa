//! The SQL that reads the audit log (the writer is `db::audit`).

use sqlx::SqlitePool;
use time::OffsetDateTime;

/// One staff action: who, what, on what, before and after, when.
pub struct AuditRow {
    pub id: i64,
    /// The actor's e-mail address (none for the system, or a deleted account).
    pub actor: Option<String>,
    pub action: String,
    pub subject: String,
    pub before: Option<String>,
    pub after: Option<String>,
    pub created_at: OffsetDateTime,
}

/// The latest 500 actions, newest first.
pub async fn latest(db: &SqlitePool) -> sqlx::Result<Vec<AuditRow>> {
    sqlx::query_as!(
        AuditRow,
        r#"SELECT a.id, u.email AS "actor?: String", a.action, a.subject, a.before, a.after,
               a.created_at AS "created_at: OffsetDateTime"
           FROM audit_log a LEFT JOIN users u ON u.id = a.actor_user_id ORDER BY a.id DESC LIMIT 500"#
    )
    .fetch_all(db)
    .await
}

/// Every action on `subject` (or that moved something from it), oldest first.
pub async fn about(db: &SqlitePool, subject: &str) -> sqlx::Result<Vec<AuditRow>> {
    sqlx::query_as!(
        AuditRow,
        r#"SELECT a.id, u.email AS "actor?: String", a.action, a.subject, a.before, a.after,
               a.created_at AS "created_at: OffsetDateTime"
           FROM audit_log a LEFT JOIN users u ON u.id = a.actor_user_id
           WHERE a.subject = ?1 OR a.before = ?1 ORDER BY a.id"#,
        subject
    )
    .fetch_all(db)
    .await
}

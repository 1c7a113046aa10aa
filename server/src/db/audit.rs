//! The audit log writer. Every staff action is recorded in `audit_log` in the same transaction
//! as the change it describes; SQLite triggers refuse updates and deletes of the table.

use sqlx::SqliteConnection;

/// Records that `actor` did `action` to `subject`, with the state before and after.
pub async fn record(
    conn: &mut SqliteConnection,
    actor: i64,
    action: &str,
    subject: &str,
    before: Option<&str>,
    after: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO audit_log (actor_user_id, action, subject, before, after) VALUES (?, ?, ?, ?, ?)")
        .bind(actor)
        .bind(action)
        .bind(subject)
        .bind(before)
        .bind(after)
        .execute(conn)
        .await?;
    Ok(())
}

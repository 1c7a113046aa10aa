//! The SQL of the qualified-investor review (`staff/qualified.rs`).

use ortak_app::domain::mkk::MkkStatus;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// A row of `/dashboard/qualifiedUsers`.
pub struct ListedDeclaration {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub basis: String,
    pub status: MkkStatus,
    pub submitted_at: OffsetDateTime,
}

/// The latest 5,000 declarations, newest first.
pub async fn declarations(db: &SqlitePool) -> sqlx::Result<Vec<ListedDeclaration>> {
    sqlx::query_as!(
        ListedDeclaration,
        r#"SELECT q.id AS "id!", u.email, u.first_name || ' ' || u.last_name AS "name!: String",
                q.basis, q.status AS "status: MkkStatus",
                q.submitted_at AS "submitted_at: OffsetDateTime"
         FROM qualified_declarations q JOIN users u ON u.id = q.user_id
         ORDER BY q.id DESC LIMIT 5000"#
    )
    .fetch_all(db)
    .await
}

/// Verifies or rejects a submitted declaration (`reason` is kept for a rejection); `false`
/// when there is no such declaration awaiting review.
pub async fn decide(
    conn: &mut SqliteConnection,
    id: i64,
    decision: MkkStatus,
    reason: Option<&str>,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE qualified_declarations SET status = ?, rejection_reason = ?, reviewed_at = ?
         WHERE id = ? AND status = 'submitted'",
        decision,
        reason,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// A declaration's evidence: its stored file and its type (`pdf`, `png`, `jpg`).
pub struct Evidence {
    pub file: String,
    pub kind: String,
}

pub async fn evidence(db: &SqlitePool, id: i64) -> sqlx::Result<Option<Evidence>> {
    sqlx::query_as!(
        Evidence,
        "SELECT evidence_file AS file, evidence_type AS kind FROM qualified_declarations
         WHERE id = ?",
        id
    )
    .fetch_optional(db)
    .await
}

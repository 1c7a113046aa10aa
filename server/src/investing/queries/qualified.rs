//! The SQL of qualified-investor declarations as members send them (the latest one is read
//! with the MKK profile in `profiles`; staff's review is in `staff::queries::qualified`).

use sqlx::SqlitePool;
use time::OffsetDateTime;

/// Stores a new declaration waiting for review in place of the member's pending one (one per
/// member, a unique index holds it); returns the evidence file of the declaration replaced.
pub async fn replace_pending(
    db: &SqlitePool,
    user: i64,
    basis: &str,
    evidence_file: &str,
    evidence_type: &str,
    now: OffsetDateTime,
) -> sqlx::Result<Option<String>> {
    let mut tx = crate::db::write(db).await?;
    let replaced = sqlx::query_scalar!(
        "DELETE FROM qualified_declarations WHERE user_id = ? AND status = 'submitted'
         RETURNING evidence_file",
        user
    )
    .fetch_optional(&mut *tx)
    .await?;
    sqlx::query!(
        "INSERT INTO qualified_declarations (user_id, basis, evidence_file, evidence_type, submitted_at)
         VALUES (?, ?, ?, ?, ?)",
        user,
        basis,
        evidence_file,
        evidence_type,
        now
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(replaced)
}

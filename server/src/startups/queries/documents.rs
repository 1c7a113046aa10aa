//! The SQL of round documents (the information form, shareholder agreement, side letters) and
//! of who opened them.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// A round document, newest first within its kind.
pub struct Document {
    pub id: i64,
    pub kind: String,
    pub file_name: String,
    pub uploaded_at: OffsetDateTime,
}

/// The documents of `startup` members read: the current information form and shareholder
/// agreement (the newest of each) and every side letter. The committee's minutes and the
/// issuer's evidence are staff's (`vault`).
pub async fn current(
    db: impl sqlx::SqliteExecutor<'_>,
    startup: i64,
) -> sqlx::Result<Vec<Document>> {
    sqlx::query_as!(
        Document,
        r#"SELECT id AS "id!", kind, file_name, uploaded_at AS "uploaded_at: OffsetDateTime"
         FROM round_documents d WHERE startup_id = ?1
           AND kind IN ('information-form', 'shareholder-agreement', 'side-letter')
           AND (kind = 'side-letter' OR id = (SELECT MAX(id) FROM round_documents
                                              WHERE startup_id = ?1 AND kind = d.kind))
         ORDER BY CASE kind WHEN 'information-form' THEN 0 WHEN 'shareholder-agreement' THEN 1 ELSE 2 END,
                  id DESC"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// Every document of `startup`'s vault, newest first: what staff see.
pub async fn vault(db: &SqlitePool, startup: i64) -> sqlx::Result<Vec<Document>> {
    sqlx::query_as!(
        Document,
        r#"SELECT id AS "id!", kind, file_name, uploaded_at AS "uploaded_at: OffsetDateTime"
         FROM round_documents WHERE startup_id = ? ORDER BY id DESC"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// Document `id` of `startup`, any version; the staff-only kinds (minutes, evidence) for
/// `staff` only.
pub async fn one(
    db: &SqlitePool,
    startup: i64,
    id: i64,
    staff: bool,
) -> sqlx::Result<Option<Document>> {
    sqlx::query_as!(
        Document,
        r#"SELECT id AS "id!", kind, file_name, uploaded_at AS "uploaded_at: OffsetDateTime"
         FROM round_documents WHERE startup_id = ? AND id = ?
           AND (? OR kind IN ('information-form', 'shareholder-agreement', 'side-letter'))"#,
        startup,
        id,
        staff
    )
    .fetch_optional(db)
    .await
}

pub async fn insert(
    conn: &mut SqliteConnection,
    startup: i64,
    kind: &str,
    file_name: &str,
    by: i64,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO round_documents (startup_id, kind, file_name, uploaded_by, uploaded_at,
               version_id)
           VALUES (?1, ?2, ?3, ?4, ?5, CASE WHEN ?2 = 'information-form'
               THEN (SELECT approved_version_id FROM startups WHERE id = ?1) END)
           RETURNING id AS "id!""#,
        startup,
        kind,
        file_name,
        by,
        now
    )
    .fetch_one(conn)
    .await
}

/// Records that `user` opened document `id` (the first time counts).
pub async fn opened(db: &SqlitePool, user: i64, id: i64, now: OffsetDateTime) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT OR IGNORE INTO document_views (user_id, document_id, opened_at) VALUES (?, ?, ?)",
        user,
        id,
        now
    )
    .execute(db)
    .await?;
    Ok(())
}

/// The startup's current information form, and whether `user` opened that version.
pub struct FormCheck {
    pub form: Option<i64>,
    pub opened: bool,
}

pub async fn information_form(
    conn: &mut SqliteConnection,
    startup: i64,
    user: i64,
) -> sqlx::Result<FormCheck> {
    sqlx::query_as!(
        FormCheck,
        r#"SELECT f.id AS "form?: i64",
               EXISTS (SELECT 1 FROM document_views v WHERE v.user_id = ?2 AND v.document_id = f.id)
                 AS "opened!: bool"
         FROM (SELECT MAX(id) AS id FROM round_documents
               WHERE startup_id = ?1 AND kind = 'information-form') f"#,
        startup,
        user
    )
    .fetch_one(conn)
    .await
}

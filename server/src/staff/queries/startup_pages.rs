//! The SQL of a startup's presentation pages (`staff/startups/attachments.rs`): images shown
//! in order on the startup's page, stored under `DATA/presentations`.

use sqlx::SqliteConnection;

/// Whether startup `id` exists (pages are only added to one that does).
pub async fn startup_exists(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM startups WHERE id = ?) AS "exists!: bool""#,
        id
    )
    .fetch_one(conn)
    .await
}

/// Appends a presentation page; returns its position.
pub async fn add_page(
    conn: &mut SqliteConnection,
    id: i64,
    file_name: &str,
    content_type: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO startup_pages (startup_id, position, file_name, content_type)
         VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM startup_pages WHERE startup_id = ?),
                 ?, ?)
         RETURNING position AS "position!""#,
        id,
        id,
        file_name,
        content_type
    )
    .fetch_one(conn)
    .await
}

/// Removes a presentation page; returns its file's name, `None` when there was no such page.
pub async fn remove_page(
    conn: &mut SqliteConnection,
    id: i64,
    position: i64,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "DELETE FROM startup_pages WHERE startup_id = ? AND position = ? RETURNING file_name",
        id,
        position
    )
    .fetch_optional(conn)
    .await
}

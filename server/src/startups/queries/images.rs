//! A startup's pictures: its logo's and cover's names (the files are `startups::images`) and
//! its presentation pages.

use sqlx::{SqliteConnection, SqlitePool};

/// A startup's stored logo and cover names (`None` each when not uploaded, or no startup).
pub async fn images(db: &SqlitePool, id: i64) -> sqlx::Result<(Option<String>, Option<String>)> {
    let row = sqlx::query!("SELECT logo, cover FROM startups WHERE id = ?", id)
        .fetch_optional(db)
        .await?;
    Ok(row.map_or((None, None), |r| (r.logo, r.cover)))
}

/// Sets a startup's logo (or its cover, with `cover`) to the stored `name`: the name
/// it had before, `Ok(None)` when there was none, `Err(RowNotFound)` when there is no such
/// startup.
pub async fn set_image(
    conn: &mut SqliteConnection,
    id: i64,
    cover: bool,
    name: &str,
) -> sqlx::Result<Option<String>> {
    let before = sqlx::query!(r#"SELECT logo, cover FROM startups WHERE id = ?"#, id)
        .fetch_one(&mut *conn)
        .await?;
    if cover {
        sqlx::query!("UPDATE startups SET cover = ? WHERE id = ?", name, id)
            .execute(&mut *conn)
            .await?;
        Ok(before.cover)
    } else {
        sqlx::query!("UPDATE startups SET logo = ? WHERE id = ?", name, id)
            .execute(&mut *conn)
            .await?;
        Ok(before.logo)
    }
}

/// A stored presentation page.
pub struct PageFile {
    pub file_name: String,
    pub content_type: String,
}

pub async fn presentation_page(
    db: &SqlitePool,
    startup: i64,
    position: i64,
) -> sqlx::Result<Option<PageFile>> {
    sqlx::query_as!(
        PageFile,
        "SELECT file_name, content_type FROM startup_pages WHERE startup_id = ? AND position = ?",
        startup,
        position
    )
    .fetch_optional(db)
    .await
}

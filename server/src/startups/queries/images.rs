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

/// Sets the photo of `startup`'s founder `name` to the stored `photo`: `None` when the startup
/// has no such founder, else the photo's name before (`Some(None)` when there was none).
pub async fn set_founder_photo(
    conn: &mut SqliteConnection,
    startup: i64,
    name: &str,
    photo: &str,
) -> sqlx::Result<Option<Option<String>>> {
    let founder = sqlx::query_scalar!(
        r#"SELECT (SELECT photo FROM founder_photos p WHERE p.startup_id = f.startup_id AND p.name = f.name)
               AS "photo?: String"
           FROM founders f WHERE f.startup_id = ? AND f.name = ? LIMIT 1"#,
        startup,
        name
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(before) = founder else {
        return Ok(None);
    };
    sqlx::query!(
        "INSERT INTO founder_photos (startup_id, name, photo) VALUES (?, ?, ?)
         ON CONFLICT (startup_id, name) DO UPDATE SET photo = excluded.photo",
        startup,
        name,
        photo
    )
    .execute(&mut *conn)
    .await?;
    Ok(Some(before))
}

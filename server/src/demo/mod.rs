//! Demo content (`ORTAK_DEMO=1`): blog posts, funds and startups with their files, and a
//! superadmin whose generated password is printed once.

pub mod files;
pub mod startups;

use base64::Engine;
use rand::RngCore;
use sqlx::SqlitePool;

use crate::accounts::admins::create_admin;
use crate::content::seed::bilingual;

/// The demo admin's e-mail address.
pub const DEMO_ADMIN_EMAIL: &str = "admin@ortak.local";

/// Demo content; returns the admin's generated password when the admin was created now.
pub async fn seed_demo(
    db: &SqlitePool,
    data_dir: &std::path::Path,
) -> anyhow::Result<Option<String>> {
    for (slug, tr, en) in bilingual("blog/")? {
        let date = tr.get("date")?;
        // Noon in Istanbul.
        let published_at = format!("{date}T09:00:00Z");
        sqlx::query(
            "INSERT OR IGNORE INTO blog_posts
             (slug, title_tr, title_en, description_tr, description_en, body_tr, body_en, published_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(&slug)
        .bind(tr.get("title")?)
        .bind(en.get("title")?)
        .bind(tr.get("description")?)
        .bind(en.get("description")?)
        .bind(tr.body)
        .bind(en.body)
        .bind(published_at)
        .execute(db)
        .await?;
    }

    crate::demo::startups::seed(db, data_dir).await?;

    let (admins,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM users WHERE role IN ('admin', 'superadmin')")
            .fetch_one(db)
            .await?;
    if admins > 0 {
        return Ok(None);
    }
    let mut bytes = [0u8; 12];
    rand::rng().fill_bytes(&mut bytes);
    let password = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    create_admin(db, DEMO_ADMIN_EMAIL, &password, true).await?;
    Ok(Some(password))
}

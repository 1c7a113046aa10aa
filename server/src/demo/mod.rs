//! Demo content (`ORTAK_DEMO=1`): blog posts, funds and startups with their files, academy
//! events, and a superadmin whose generated password is printed once. Each part is only added
//! when missing, so restarting the demo changes nothing; `queries` holds its SQL.

mod campaigns;
pub mod files;
mod pictures;
mod queries;
mod rounds;
pub mod startups;

use anyhow::Context;
use base64::Engine;
use rand::RngCore;
use sqlx::SqlitePool;
use time::macros::{format_description, time};

use crate::accounts::admins::create_admin;
use crate::content::seed::{Texts, bilingual};

/// The demo admin's e-mail address.
pub const DEMO_ADMIN_EMAIL: &str = "admin@ortak.local";

/// Demo content; returns the admin's generated password when the admin was created now.
pub async fn seed_demo(
    db: &SqlitePool,
    platform: &crate::campaigns::Platform<'_>,
) -> anyhow::Result<Option<String>> {
    seed_blog(db).await?;
    startups::seed(db, platform).await?;
    if queries::has_staff(db).await? {
        return Ok(None);
    }
    let mut bytes = [0u8; 12];
    rand::rng().fill_bytes(&mut bytes);
    let password = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    create_admin(db, DEMO_ADMIN_EMAIL, &password, true).await?;
    Ok(Some(password))
}

/// The blog posts under `content/blog`, each published at noon in Istanbul on its `date`.
async fn seed_blog(db: &SqlitePool) -> anyhow::Result<()> {
    for (slug, tr, en) in bilingual("blog/")? {
        let date = time::Date::parse(tr.get("date")?, format_description!("[year]-[month]-[day]"))
            .with_context(|| format!("blog/{slug}: date"))?;
        let post = queries::NewPost {
            slug: &slug,
            texts: Texts::of(&tr, &en)?,
            published_at: date.with_time(time!(9:00)).assume_utc(),
        };
        queries::insert_post_if_missing(db, &post).await?;
    }
    Ok(())
}

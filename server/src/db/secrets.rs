//! Secrets generated once per install and kept in the database (`app_secrets`).

use base64::Engine;
use rand::RngCore;
use sqlx::SqlitePool;

/// The secret called `name`, created with 32 random bytes on first use.
pub async fn load_or_create(db: &SqlitePool, name: &str) -> anyhow::Result<Vec<u8>> {
    let mut fresh = [0u8; 32];
    rand::rng().fill_bytes(&mut fresh);
    let fresh = base64::engine::general_purpose::STANDARD.encode(fresh);
    sqlx::query("INSERT OR IGNORE INTO app_secrets (name, value) VALUES (?, ?)")
        .bind(name)
        .bind(fresh)
        .execute(db)
        .await?;
    let value: String = sqlx::query_scalar("SELECT value FROM app_secrets WHERE name = ?")
        .bind(name)
        .fetch_one(db)
        .await?;
    Ok(base64::engine::general_purpose::STANDARD.decode(value)?)
}

//! The rules the database enforces itself (its triggers read `platform_rules`), copied from the
//! settings at every start, so a trigger and the handlers apply the same figure.

use sqlx::SqlitePool;

/// Writes the settings' figures into `platform_rules`.
pub async fn sync(db: &SqlitePool, campaign_max_days: i64) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO platform_rules (name, value) VALUES ('campaign_max_days', ?)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value",
        campaign_max_days
    )
    .execute(db)
    .await?;
    Ok(())
}

//! The SQL of a member's saved startups (the cards they show are read with the others').

use sqlx::SqlitePool;

/// Saves (`save`) or removes a favourite; saving twice keeps one.
pub async fn set_favorite(
    db: &SqlitePool,
    user: i64,
    startup: i64,
    save: bool,
) -> sqlx::Result<()> {
    let mut tx = crate::db::write(db).await?;
    let done = if save {
        sqlx::query!(
            "INSERT OR IGNORE INTO favorites (user_id, startup_id) VALUES (?, ?)",
            user,
            startup
        )
        .execute(&mut *tx)
        .await?
    } else {
        sqlx::query!(
            "DELETE FROM favorites WHERE user_id = ? AND startup_id = ?",
            user,
            startup
        )
        .execute(&mut *tx)
        .await?
    };
    // Nothing changed (saved twice, removed twice): nothing to commit, nothing kept to end.
    if done.rows_affected() == 0 {
        return tx.rollback().await;
    }
    tx.commit().await?;
    crate::db::writes::member_wrote(user);
    Ok(())
}

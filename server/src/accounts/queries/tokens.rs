//! The SQL of e-mailed tokens (`auth_tokens`).

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

use crate::accounts::tokens::TokenKind;

/// The user of an unused, unexpired token.
pub async fn live_user(
    db: &SqlitePool,
    kind: TokenKind,
    token_hash: &str,
    now: OffsetDateTime,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        "SELECT user_id FROM auth_tokens
         WHERE kind = ? AND token_hash = ? AND used_at IS NULL AND expires_at > ?",
        kind,
        token_hash,
        now
    )
    .fetch_optional(db)
    .await
}

/// Marks an unused, unexpired token used and returns its user: one statement, so a token
/// works exactly once however many requests race for it.
pub async fn use_up(
    conn: &mut SqliteConnection,
    kind: TokenKind,
    token_hash: &str,
    now: OffsetDateTime,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        "UPDATE auth_tokens SET used_at = ?1
         WHERE kind = ?2 AND token_hash = ?3 AND used_at IS NULL AND expires_at > ?1
         RETURNING user_id",
        now,
        kind,
        token_hash
    )
    .fetch_optional(conn)
    .await
}

/// Uses up every open token of the user, whatever its kind.
pub async fn revoke_all(
    conn: &mut SqliteConnection,
    user_id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE auth_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL",
        now,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Deletes every token of the user.
pub async fn delete_all(conn: &mut SqliteConnection, user_id: i64) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM auth_tokens WHERE user_id = ?", user_id)
        .execute(conn)
        .await?;
    Ok(())
}

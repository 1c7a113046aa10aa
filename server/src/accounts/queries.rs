//! The SQL of accounts: users, tokens, onboarding and profiles.

use sqlx::SqlitePool;

/// The stored name of the user's profile photo, if any.
pub async fn profile_image(db: &SqlitePool, user_id: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("SELECT profile_image FROM users WHERE id = ?", user_id)
        .fetch_one(db)
        .await
}

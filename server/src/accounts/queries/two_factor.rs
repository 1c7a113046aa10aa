//! The SQL of two-factor sign-in: authenticators (`totp_factors`) and recovery codes.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// A member's authenticator.
pub struct Factor {
    pub secret: String,
    pub last_step: i64,
}

pub async fn factor(db: &SqlitePool, user_id: i64) -> sqlx::Result<Option<Factor>> {
    sqlx::query_as!(
        Factor,
        "SELECT secret, last_step FROM totp_factors WHERE user_id = ?",
        user_id
    )
    .fetch_optional(db)
    .await
}

/// Records that the code of `step` was used: only if no later (or equal) step was accepted
/// before, so two requests racing with one code cannot both win. Whether it was recorded.
pub async fn accept_step(db: &SqlitePool, user_id: i64, step: i64) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE totp_factors SET last_step = ?1 WHERE user_id = ?2 AND last_step < ?1",
        step,
        user_id
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Enrols the authenticator (replacing any earlier one) with the step of its confirming code.
pub async fn enable(
    conn: &mut SqliteConnection,
    user_id: i64,
    secret: &str,
    step: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO totp_factors (user_id, secret, last_step, enabled_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret,
             last_step = excluded.last_step, enabled_at = excluded.enabled_at",
        user_id,
        secret,
        step,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Replaces the user's recovery codes with `hashes`.
pub async fn replace_recovery_codes(
    conn: &mut SqliteConnection,
    user_id: i64,
    hashes: &[String],
) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM recovery_codes WHERE user_id = ?", user_id)
        .execute(&mut *conn)
        .await?;
    for hash in hashes {
        sqlx::query!(
            "INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, ?)",
            user_id,
            hash
        )
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// Uses up an unused recovery code of the user; whether there was one.
pub async fn use_recovery_code(
    db: &SqlitePool,
    user_id: i64,
    code_hash: &str,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL",
        now,
        user_id,
        code_hash
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// How many unused recovery codes the user has left.
pub async fn recovery_codes_left(db: &SqlitePool, user_id: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT COUNT(*) AS "n!: i64" FROM recovery_codes WHERE user_id = ? AND used_at IS NULL"#,
        user_id
    )
    .fetch_one(db)
    .await
}

/// Removes the user's authenticator and recovery codes; whether there was an authenticator.
pub async fn remove(conn: &mut SqliteConnection, user_id: i64) -> sqlx::Result<bool> {
    sqlx::query!("DELETE FROM recovery_codes WHERE user_id = ?", user_id)
        .execute(&mut *conn)
        .await?;
    let done = sqlx::query!("DELETE FROM totp_factors WHERE user_id = ?", user_id)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Ends every session of the user (a new session epoch).
pub async fn end_sessions(
    conn: &mut SqliteConnection,
    user_id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET session_epoch = session_epoch + 1, updated_at = ? WHERE id = ?",
        now,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Forgets the wrong codes counted for `key` (a right code was given).
pub async fn forget_failures(db: &SqlitePool, key: &str) -> sqlx::Result<()> {
    sqlx::query!("DELETE FROM rate_limits WHERE key = ?", key)
        .execute(db)
        .await?;
    Ok(())
}

/// The user's address (the authenticator app shows it as the account's name).
pub async fn email(db: &SqlitePool, user_id: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("SELECT email FROM users WHERE id = ?", user_id)
        .fetch_optional(db)
        .await
}

//! The SQL of founders' accounts on the staff's startup page: who was invited, and the
//! invitation itself.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// A founder invited to a startup: the address, and whether an account with it is verified
/// (then it works for the startup).
pub struct Invited {
    pub email: String,
    pub joined: bool,
}

/// The founders invited to `startup`, by address.
pub async fn invited(db: &SqlitePool, startup: i64) -> sqlx::Result<Vec<Invited>> {
    sqlx::query_as!(
        Invited,
        r#"SELECT fa.email,
               EXISTS (SELECT 1 FROM users u WHERE u.email = fa.email
                       AND u.email_verified_at IS NOT NULL AND u.deactivated_at IS NULL)
                 AS "joined!: bool"
           FROM founder_accounts fa WHERE fa.startup_id = ? ORDER BY fa.email"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// Records that staff invited `email` as a founder of `startup`; `false` if already invited.
pub async fn invite(
    conn: &mut SqliteConnection,
    startup: i64,
    email: &str,
    by: i64,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "INSERT OR IGNORE INTO founder_accounts (startup_id, email, invited_by, invited_at)
         VALUES (?, ?, ?, ?)",
        startup,
        email,
        by,
        now
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The language of the account using `email`, if there is one.
pub async fn language_of(conn: &mut SqliteConnection, email: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("SELECT language FROM users WHERE email = ?", email)
        .fetch_optional(conn)
        .await
}

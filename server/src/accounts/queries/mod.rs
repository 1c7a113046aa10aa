//! The SQL of accounts. This file holds the `users` statements of joining, signing in,
//! verification, recovery and `create-admin`; tokens, onboarding and the profile have their
//! own files. Times are bound from the injectable clock (`state.now()`), never SQLite's `now`.

pub mod kvkk;
pub mod kvkk_export;
pub mod kvkk_forms;
pub mod onboarding;
pub mod profile;
pub mod terms;
pub mod tokens;
pub mod two_factor;

use ortak_app::domain::accounts::{InvestorType, NewAccount};
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

use ortak_app::i18n::Locale;

use crate::web::session::Role;

/// Who a mail about an account goes to.
pub struct Addressee {
    pub id: i64,
    pub first_name: String,
    pub language: Locale,
}

/// What a password sign-in checks.
pub struct Credentials {
    pub id: i64,
    pub password_hash: Option<String>,
}

/// Inserts a new member, who accepted the current terms; `None` when the address is taken
/// (nothing is changed then).
pub async fn insert_member(
    conn: &mut SqliteConnection,
    account: &NewAccount,
    password_hash: &str,
    now: OffsetDateTime,
) -> sqlx::Result<Option<i64>> {
    let language = account.language.code();
    let investor_type = account.investor_type.map(InvestorType::code);
    let id = sqlx::query_scalar!(
        "INSERT INTO users (email, password_hash, first_name, last_name, phone, country, city, language,
                            investor_type, terms_accepted_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (email) DO NOTHING RETURNING id",
        account.email,
        password_hash,
        account.first_name,
        account.last_name,
        account.phone,
        account.country,
        account.city,
        language,
        investor_type,
        now
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(id) = id {
        terms::accept(conn, id, now).await?;
    }
    Ok(id)
}

/// The account using `email`, deactivated or not.
pub async fn any_account(conn: &mut SqliteConnection, email: &str) -> sqlx::Result<Addressee> {
    sqlx::query_as!(
        Addressee,
        r#"SELECT id AS "id!", first_name, language AS "language: Locale" FROM users WHERE email = ?"#,
        email
    )
    .fetch_one(conn)
    .await
}

/// The active (not deactivated) account using `email`, if any.
pub async fn active_account(
    conn: &mut SqliteConnection,
    email: &str,
) -> sqlx::Result<Option<Addressee>> {
    sqlx::query_as!(
        Addressee,
        r#"SELECT id AS "id!", first_name, language AS "language: Locale"
         FROM users WHERE email = ? AND deactivated_at IS NULL"#,
        email
    )
    .fetch_optional(conn)
    .await
}

/// The active account using `email` whose address is not verified yet, if any.
pub async fn unverified_account(
    conn: &mut SqliteConnection,
    email: &str,
) -> sqlx::Result<Option<Addressee>> {
    sqlx::query_as!(
        Addressee,
        r#"SELECT id AS "id!", first_name, language AS "language: Locale"
         FROM users WHERE email = ? AND deactivated_at IS NULL AND email_verified_at IS NULL"#,
        email
    )
    .fetch_optional(conn)
    .await
}

/// The id of the active account using `email`, if any.
pub async fn active_account_id(db: &SqlitePool, email: &str) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM users WHERE email = ? AND deactivated_at IS NULL"#,
        email
    )
    .fetch_optional(db)
    .await
}

/// The address of an account.
pub async fn email_of(db: &SqlitePool, user_id: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("SELECT email FROM users WHERE id = ?", user_id)
        .fetch_optional(db)
        .await
}

/// The password hash of the active account using `email` (`None` inside: no password set).
pub async fn credentials(db: &SqlitePool, email: &str) -> sqlx::Result<Option<Credentials>> {
    sqlx::query_as!(
        Credentials,
        r#"SELECT id AS "id!", password_hash FROM users WHERE email = ? AND deactivated_at IS NULL"#,
        email
    )
    .fetch_optional(db)
    .await
}

/// Records that the user proved their mailbox (the first proof's time is kept).
pub async fn mark_verified(
    conn: &mut SqliteConnection,
    user_id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET email_verified_at = COALESCE(email_verified_at, ?) WHERE id = ?",
        now,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Sets a new password from a reset link: a new session epoch ends every session of the user,
/// and the link proved the mailbox.
pub async fn reset_password(
    conn: &mut SqliteConnection,
    user_id: i64,
    password_hash: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET password_hash = ?1, session_epoch = session_epoch + 1,
             email_verified_at = COALESCE(email_verified_at, ?2), updated_at = ?2
         WHERE id = ?3",
        password_hash,
        now,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether the user never proved their mailbox.
pub async fn unverified(conn: &mut SqliteConnection, user_id: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT email_verified_at IS NULL AS "unverified!: bool" FROM users WHERE id = ?"#,
        user_id
    )
    .fetch_one(conn)
    .await
}

/// An identity provider vouched for the address of an account that never proved it: whoever
/// created the account may not own the address, so its password and sessions end.
pub async fn claim_for_verified_owner(
    conn: &mut SqliteConnection,
    user_id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET password_hash = NULL, session_epoch = session_epoch + 1,
             email_verified_at = ? WHERE id = ?",
        now,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A member who joined through the identity provider: verified, terms accepted, no password.
/// `None` when the address is taken (nothing is changed then).
pub async fn insert_verified_member(
    conn: &mut SqliteConnection,
    email: &str,
    first_name: &str,
    last_name: &str,
    language: &str,
    now: OffsetDateTime,
) -> sqlx::Result<Option<i64>> {
    let id = sqlx::query_scalar!(
        "INSERT INTO users (email, first_name, last_name, language, email_verified_at, terms_accepted_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5)
         ON CONFLICT (email) DO NOTHING
         RETURNING id",
        email,
        first_name,
        last_name,
        language,
        now
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(id) = id {
        terms::accept(conn, id, now).await?;
    }
    Ok(id)
}

/// Creates a verified staff account, or gives an existing account the role and password (and
/// ends its sessions); returns its id.
pub async fn upsert_staff(
    conn: &mut SqliteConnection,
    email: &str,
    password_hash: &str,
    role: Role,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO users (email, password_hash, role, email_verified_at, first_name, last_name)
         VALUES (?1, ?2, ?3, ?4, 'Ortak', 'Admin')
         ON CONFLICT (email) DO UPDATE SET password_hash = ?2, role = ?3, updated_at = ?4,
             session_epoch = session_epoch + 1
         RETURNING id AS "id!""#,
        email,
        password_hash,
        role,
        now
    )
    .fetch_one(conn)
    .await
}

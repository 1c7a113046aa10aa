//! `ortak create-admin`.

use sqlx::SqlitePool;

use super::passwords;

/// Creates the user as admin (or superadmin), or promotes and re-passwords an existing one.
pub async fn create_admin(
    pool: &SqlitePool,
    email: &str,
    password: &str,
    superadmin: bool,
) -> anyhow::Result<&'static str> {
    let email = ortak_app::domain::email::normalize_email(email)
        .map_err(|_| anyhow::anyhow!("'{email}' is not a valid e-mail address"))?;
    anyhow::ensure!(
        password.chars().count() >= 8,
        "the password must be at least 8 characters"
    );
    let role = if superadmin { "superadmin" } else { "admin" };
    let hash = passwords::hash(password.to_owned()).await?;
    sqlx::query(
        "INSERT INTO users (email, password_hash, role, email_verified_at, first_name, last_name)
         VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 'Ortak', 'Admin')
         ON CONFLICT (email) DO UPDATE SET password_hash = ?2, role = ?3,
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
    )
    .bind(&email)
    .bind(hash)
    .bind(role)
    .execute(pool)
    .await?;
    Ok(role)
}

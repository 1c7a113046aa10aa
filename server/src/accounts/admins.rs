//! `ortak create-admin`: the way the first staff account comes to exist (and the demo's).

use sqlx::SqlitePool;

use super::{passwords, queries};
use crate::db::clock::Clock;
use crate::web::session::Role;

/// Creates the user as admin (or superadmin), or promotes and re-passwords an existing one.
/// Returns the role's name.
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
    let (role, name) = if superadmin {
        (Role::SuperAdmin, "superadmin")
    } else {
        (Role::Admin, "admin")
    };
    let hash = passwords::hash(password.to_owned()).await?;
    // An operations command, outside any request: the system clock.
    queries::upsert_staff(pool, &email, &hash, role, Clock::system().now()).await?;
    Ok(name)
}

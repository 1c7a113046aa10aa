//! `ortak create-admin`: the way the first staff account comes to exist (and the demo's). Run
//! on an existing account it is also the operator's way back in: the role and password are set
//! again, every session and mailed link ends, and the two-factor sign-in is removed, so the
//! next password sign-in enrols a new authenticator.

use sqlx::SqlitePool;

use super::{passwords, queries, tokens};
use crate::db::clock::Clock;
use crate::web::session::Role;

/// What `create-admin` did.
pub struct Created {
    /// The role's name.
    pub role: &'static str,
    /// An authenticator was enrolled and has been removed.
    pub two_factor_removed: bool,
}

/// Creates the user as admin (or superadmin), or promotes and re-passwords an existing one.
pub async fn create_admin(
    pool: &SqlitePool,
    email: &str,
    password: &str,
    superadmin: bool,
) -> anyhow::Result<Created> {
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
    let hash = passwords::hash(password.to_owned())
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    // An operations command, outside any request: the system clock.
    let now = Clock::system().now();
    let mut tx = crate::db::write(pool).await?;
    let id = queries::upsert_staff(&mut tx, &email, &hash, role, now).await?;
    let two_factor_removed = queries::two_factor::remove(&mut tx, id).await?;
    tokens::revoke_all(&mut tx, id, now).await?;
    tx.commit().await?;
    Ok(Created {
        role: name,
        two_factor_removed,
    })
}

/// What `create-admin` prints after creating `email`: how the first sign-in goes.
pub fn instructions(email: &str, created: &Created) -> String {
    let mut out = format!(
        "{email} is now {}
",
        created.role
    );
    if created.two_factor_removed {
        out.push_str(
            "Its two-factor sign-in was removed.
",
        );
    }
    out.push_str(
        "Staff sign in with two factors. At the first sign-in (PUBLIC_URL/signin, with this \
         e-mail address and password) Ortak shows a QR code: scan it with an authenticator app \
         (Google Authenticator, Microsoft Authenticator, FreeOTP, 1Password, ...), type the \
         six-digit code it shows, and keep the ten recovery codes printed next somewhere safe.\n",
    );
    out
}

//! Who is signed in. The session (tower-sessions, SQLite store) holds the user id and the
//! user's session epoch at sign-in; bumping the epoch in `users` ends all their sessions.

use serde::{Deserialize, Serialize};
use sqlx::{FromRow, SqlitePool};
use tower_sessions::Session;

use crate::error::AppError;

pub const USER_KEY: &str = "user";

#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct SessionUser {
    pub id: i64,
    pub epoch: i64,
    /// Unix time of the sign-in in milliseconds, for the absolute session timeout (whole
    /// seconds would let a session outlive its limit by up to a second).
    #[serde(default)]
    pub signed_in_ms: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Investor,
    Admin,
    SuperAdmin,
}

impl Role {
    fn from_code(code: &str) -> Role {
        match code {
            "superadmin" => Role::SuperAdmin,
            "admin" => Role::Admin,
            _ => Role::Investor,
        }
    }
}

/// The signed-in user as requests see them.
#[derive(Clone, Debug)]
pub struct CurrentUser {
    pub id: i64,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub position: String,
    pub role: Role,
    pub verified: bool,
    pub language: String,
    /// The first onboarding step not yet saved; past the last once onboarding is done.
    pub onboarding_step: i64,
    pub profile_image: Option<String>,
}

#[derive(FromRow)]
struct UserRow {
    id: i64,
    email: String,
    first_name: String,
    last_name: String,
    position: String,
    role: String,
    email_verified_at: Option<String>,
    language: String,
    session_epoch: i64,
    deactivated_at: Option<String>,
    onboarding_step: i64,
    profile_image: Option<String>,
}

/// Loads the user a session (or bearer token's session) belongs to, if still valid.
pub async fn load(
    db: &SqlitePool,
    session_user: SessionUser,
    max_age: time::Duration,
) -> Result<Option<CurrentUser>, sqlx::Error> {
    if unix_ms() - session_user.signed_in_ms >= max_age.whole_milliseconds() as i64 {
        return Ok(None);
    }
    let row: Option<UserRow> = sqlx::query_as(
        "SELECT id, email, first_name, last_name, position, role, email_verified_at, language,
                session_epoch, deactivated_at, onboarding_step, profile_image
         FROM users WHERE id = ?",
    )
    .bind(session_user.id)
    .fetch_optional(db)
    .await?;
    Ok(row
        .filter(|r| r.session_epoch == session_user.epoch && r.deactivated_at.is_none())
        .map(|r| CurrentUser {
            id: r.id,
            email: r.email,
            first_name: r.first_name,
            last_name: r.last_name,
            position: r.position,
            role: Role::from_code(&r.role),
            verified: r.email_verified_at.is_some(),
            language: r.language,
            onboarding_step: r.onboarding_step,
            profile_image: r.profile_image,
        }))
}

fn unix_ms() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

pub async fn session_user(session: &Session) -> Option<SessionUser> {
    session.get::<SessionUser>(USER_KEY).await.ok().flatten()
}

/// How a sign-in happened, for the sign-in log.
#[derive(Clone, Copy, Debug)]
pub enum Method {
    Password,
    EmailedLink,
    VerificationLink,
    ProfessionalNetwork,
    /// A new member is signed in as they join.
    SignUp,
    /// The session is renewed after a password change.
    PasswordChange,
}

impl Method {
    fn code(self) -> &'static str {
        match self {
            Method::Password => "password",
            Method::EmailedLink => "emailed-link",
            Method::VerificationLink => "verification-link",
            Method::ProfessionalNetwork => "oidc",
            Method::SignUp => "sign-up",
            Method::PasswordChange => "password-change",
        }
    }
}

/// Every sign-in attempt leaves one log line: how, from which address, whose account (its id,
/// when there is one; never the password or token) and how it ended.
pub fn log_attempt(method: Method, ip: &str, user_id: Option<i64>, outcome: &str) {
    tracing::info!(
        method = method.code(),
        ip,
        user_id,
        outcome,
        "sign-in attempt"
    );
}

/// Signs `user_id` in on this browser with a fresh session id (no session fixation), and logs
/// the successful attempt.
pub async fn sign_in(
    db: &SqlitePool,
    session: &Session,
    user_id: i64,
    method: Method,
    ip: &str,
) -> Result<(), AppError> {
    let epoch: i64 = sqlx::query_scalar(
        "UPDATE users SET last_sign_in_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?
         RETURNING session_epoch",
    )
    .bind(user_id)
    .fetch_one(db)
    .await?;
    session
        .cycle_id()
        .await
        .map_err(|e| anyhow::anyhow!("session: {e}"))?;
    session
        .insert(
            USER_KEY,
            SessionUser {
                id: user_id,
                epoch,
                signed_in_ms: unix_ms(),
            },
        )
        .await
        .map_err(|e| anyhow::anyhow!("session: {e}"))?;
    log_attempt(method, ip, Some(user_id), "success");
    Ok(())
}

/// Ends this browser's session on the server.
pub async fn sign_out(session: &Session) -> Result<(), AppError> {
    session
        .flush()
        .await
        .map_err(|e| anyhow::anyhow!("session: {e}"))?;
    Ok(())
}

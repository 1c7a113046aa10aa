//! Who is signed in. The session (tower-sessions, SQLite store) holds the user id and the
//! user's session epoch at sign-in; bumping the epoch in `users` ends all their sessions.
//! Also the column types that describe a user everywhere: [`Role`] (languages are app's `Locale`).
//!
//! Session lifetimes are measured on the system clock, not the injectable one (`state.now()`):
//! tower-sessions expires idle sessions on the system clock too, and tests that move the
//! injectable clock forward by days must not sign their browsers out.

use ortak_app::i18n::Locale;
use serde::{Deserialize, Serialize};
use sqlx::SqlitePool;
use tower_sessions::Session;

use super::queries;
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

/// A user's role, as `users.role` stores it. Fund-team membership is separate (a member of a
/// fund's team may have any role).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, sqlx::Type, Serialize)]
#[sqlx(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Investor,
    Admin,
    SuperAdmin,
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
    /// The language mails to the user are written in.
    pub locale: Locale,
    /// The first onboarding step not yet saved; past the last once onboarding is done.
    pub onboarding_step: i64,
    pub profile_image: Option<String>,
    /// Whether the user is on a fund's team (`/vc-dashboard`).
    pub fund_member: bool,
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
    let user = queries::signed_in_user(db, session_user.id).await?;
    Ok(user
        .filter(|r| r.session_epoch == session_user.epoch && !r.deactivated)
        .map(|r| CurrentUser {
            id: r.id,
            email: r.email,
            first_name: r.first_name,
            last_name: r.last_name,
            position: r.position,
            role: r.role,
            verified: r.verified,
            locale: r.language,
            onboarding_step: r.onboarding_step,
            profile_image: r.profile_image,
            fund_member: r.fund_member,
        }))
}

/// The system clock in milliseconds (see the module comment for why not `state.now()`).
fn unix_ms() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

pub async fn session_user(session: &Session) -> Option<SessionUser> {
    session.get::<SessionUser>(USER_KEY).await.ok().flatten()
}

/// The session user of the session whose id is the request's `Authorization: Bearer` token.
pub async fn bearer_user(
    store: &tower_sessions_sqlx_store::SqliteStore,
    headers: &axum::http::HeaderMap,
) -> Option<SessionUser> {
    use tower_sessions::SessionStore;
    let id = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .and_then(|t| t.trim().parse::<tower_sessions::session::Id>().ok())?;
    let record = store.load(&id).await.ok()??;
    record
        .data
        .get(USER_KEY)
        .cloned()
        .and_then(|v| serde_json::from_value(v).ok())
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
    if outcome != "success" {
        metrics::counter!("ortak_signin_failures_total", "method" => method.code(), "outcome" => outcome.to_owned())
            .increment(1);
    }
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
    now: time::OffsetDateTime,
) -> Result<(), AppError> {
    let epoch = queries::record_sign_in(db, user_id, now).await?;
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

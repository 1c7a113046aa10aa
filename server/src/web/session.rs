//! Who is signed in. The session (tower-sessions, SQLite store) holds the user id and the
//! user's session epoch at sign-in; bumping the epoch in `users` ends all their sessions.
//! Also the column types that describe a user everywhere: [`Role`] (languages are app's `Locale`).
//!
//! Two-factor sign-in: after the first factor (password, e-mailed link, verification link,
//! professional network) a member who must give a second one (staff always, others who enrolled)
//! gets a [`PendingSignIn`] in the session instead of a user; only `/signin/2fa` and its
//! enrolment page read it. A session whose user needs a second factor but did not give one is
//! no session at all ([`load`]), whatever else happened (a member promoted to staff).
//!
//! Session lifetimes are measured on the system clock, not the injectable one (`state.now()`):
//! tower-sessions expires idle sessions on the system clock too, and tests that move the
//! injectable clock forward by days must not sign their browsers out.

use serde::{Deserialize, Serialize};
use sqlx::SqlitePool;
use tower_sessions::Session;

pub use super::current_user::{CurrentUser, load};
use super::queries;
use crate::error::AppError;

pub const USER_KEY: &str = "user";
/// A sign-in waiting for its second factor.
pub const PENDING_KEY: &str = "pending_sign_in";
/// How long a first factor waits for the second.
const PENDING_MS: i64 = 10 * 60 * 1000;

#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct SessionUser {
    pub id: i64,
    pub epoch: i64,
    /// Unix time of the sign-in in milliseconds, for the absolute session timeout (whole
    /// seconds would let a session outlive its limit by up to a second).
    #[serde(default)]
    pub signed_in_ms: i64,
    /// Whether a second factor was given at this sign-in.
    #[serde(default)]
    pub two_factor: bool,
}

/// A first factor given, the second still to come.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PendingSignIn {
    pub id: i64,
    pub epoch: i64,
    pub method: Method,
    /// Where to go once signed in.
    pub next: String,
    pub started_ms: i64,
}

impl PendingSignIn {
    /// Staff without an authenticator enrol only after their password: a mailbox or a
    /// professional-network account alone must never be enough to choose their second factor.
    pub fn may_enrol(&self) -> bool {
        matches!(self.method, Method::Password)
    }
}

/// A user's role, as `users.role` stores it. Fund-team membership is separate (a member of a
/// fund's team may have any role).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, sqlx::Type, Serialize)]
#[sqlx(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Investor,
    Admin,
    SuperAdmin,
}

/// The system clock in milliseconds (see the module comment for why not `state.now()`).
pub(super) fn unix_ms() -> i64 {
    (time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64
}

pub async fn session_user(session: &Session) -> Option<SessionUser> {
    session.get::<SessionUser>(USER_KEY).await.ok().flatten()
}

/// The session user of the session whose id is the request's `Authorization: Bearer` token.
pub async fn bearer_user(
    store: &crate::db::sessions::CachedStore,
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

/// Whether signing in takes a second factor: staff always, others once they enrolled.
pub fn needs_second_factor(role: Role, has_totp: bool) -> bool {
    role >= Role::Admin || has_totp
}

/// How a sign-in happened, for the sign-in log.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    Password,
    EmailedLink,
    VerificationLink,
    ProfessionalNetwork,
    /// A new member is signed in as they join.
    SignUp,
    /// The session is renewed after a password change.
    PasswordChange,
    /// The second factor completed a sign-in.
    SecondFactor,
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
            Method::SecondFactor => "second-factor",
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

/// Where a first factor leads.
pub enum Outcome {
    /// Signed in: go on to this path.
    SignedIn(String),
    /// The second factor (or enrolment) comes first: `/signin/2fa`.
    SecondFactor,
}

/// The path to go to after a sign-in with `outcome`.
pub fn after_sign_in(outcome: Outcome) -> String {
    match outcome {
        Outcome::SignedIn(to) => to,
        Outcome::SecondFactor => "/signin/2fa".to_owned(),
    }
}

/// Where a sign-in lands: the page the member was going to, else their home: staff the
/// dashboard, members their overview.
pub fn landing(role: Option<Role>, next: &str) -> String {
    match (next, role) {
        ("" | "/", Some(Role::Admin | Role::SuperAdmin)) => "/dashboard".to_owned(),
        ("" | "/", _) => "/overview".to_owned(),
        (next, _) => next.to_owned(),
    }
}

/// The session's user, signed in for good (both factors where two are needed). A fresh
/// session id every time (no session fixation).
async fn establish(
    db: &SqlitePool,
    session: &Session,
    user_id: i64,
    two_factor: bool,
    now: time::OffsetDateTime,
) -> Result<(), AppError> {
    let epoch = queries::record_sign_in(db, user_id, now).await?;
    session.cycle_id().await.map_err(session_error)?;
    session
        .remove::<PendingSignIn>(PENDING_KEY)
        .await
        .map_err(session_error)?;
    session
        .insert(
            USER_KEY,
            SessionUser {
                id: user_id,
                epoch,
                signed_in_ms: unix_ms(),
                two_factor,
            },
        )
        .await
        .map_err(session_error)?;
    Ok(())
}

fn session_error(e: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("session: {e}"))
}

/// A first factor was given for `user_id` on this browser: signs in, or, when the user needs a
/// second factor, keeps a [`PendingSignIn`] (and no user) until `/signin/2fa` completes it.
/// `second_factor_given` is for a session renewed after the member proved both (a password
/// change in a session that had them).
pub async fn sign_in(
    db: &SqlitePool,
    session: &Session,
    first: FirstFactor<'_>,
    now: time::OffsetDateTime,
) -> Result<Outcome, AppError> {
    let needs = queries::second_factor_need(db, first.user_id).await?;
    let next = landing(needs.as_ref().map(|n| n.role), first.next);
    let needed = needs.is_some_and(|n| needs_second_factor(n.role, n.has_totp));
    if !needed || first.second_factor_given {
        establish(db, session, first.user_id, first.second_factor_given, now).await?;
        log_attempt(first.method, first.ip, Some(first.user_id), "success");
        return Ok(Outcome::SignedIn(next));
    }
    let epoch = needs.map_or(0, |n| n.session_epoch);
    session.cycle_id().await.map_err(session_error)?;
    session
        .remove::<SessionUser>(USER_KEY)
        .await
        .map_err(session_error)?;
    let pending = PendingSignIn {
        id: first.user_id,
        epoch,
        method: first.method,
        next,
        started_ms: unix_ms(),
    };
    session
        .insert(PENDING_KEY, pending)
        .await
        .map_err(session_error)?;
    log_attempt(
        first.method,
        first.ip,
        Some(first.user_id),
        "second-factor-required",
    );
    Ok(Outcome::SecondFactor)
}

/// A first factor: whose, how, from where, and where the member was going.
pub struct FirstFactor<'a> {
    pub user_id: i64,
    pub method: Method,
    pub ip: &'a str,
    pub next: &'a str,
    /// The session being renewed had both factors already.
    pub second_factor_given: bool,
}

/// This browser's sign-in waiting for its second factor, if it is still fresh and its user's
/// sessions were not ended meanwhile.
pub async fn pending(
    db: &SqlitePool,
    session: &Session,
) -> Result<Option<PendingSignIn>, AppError> {
    let Some(pending) = session
        .get::<PendingSignIn>(PENDING_KEY)
        .await
        .map_err(session_error)?
    else {
        return Ok(None);
    };
    let fresh = unix_ms() - pending.started_ms < PENDING_MS;
    let needs = queries::second_factor_need(db, pending.id).await?;
    if fresh && needs.is_some_and(|n| n.session_epoch == pending.epoch && !n.deactivated) {
        Ok(Some(pending))
    } else {
        forget_pending(session).await?;
        Ok(None)
    }
}

/// Drops this browser's pending sign-in.
pub async fn forget_pending(session: &Session) -> Result<(), AppError> {
    session
        .remove::<PendingSignIn>(PENDING_KEY)
        .await
        .map_err(session_error)?;
    Ok(())
}

/// The second factor was given: the pending sign-in becomes the session's user.
pub async fn complete(
    db: &SqlitePool,
    session: &Session,
    pending: &PendingSignIn,
    ip: &str,
    now: time::OffsetDateTime,
) -> Result<(), AppError> {
    establish(db, session, pending.id, true, now).await?;
    log_attempt(Method::SecondFactor, ip, Some(pending.id), "success");
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

impl super::Ctx {
    /// A first factor for `user_id` on this browser (see [`sign_in`]); returns where to go:
    /// `next`, or `/signin/2fa` when the second factor comes first.
    pub async fn sign_in(
        &self,
        user_id: i64,
        method: Method,
        next: &str,
    ) -> Result<String, AppError> {
        let session = self.session()?;
        // A session renewed after a password change keeps what it had proved.
        let second_factor_given = method == Method::PasswordChange
            && session_user(session).await.is_some_and(|u| u.two_factor);
        let first = FirstFactor {
            user_id,
            method,
            ip: &self.ip,
            next,
            second_factor_given,
        };
        let outcome = sign_in(self.state().db(), session, first, self.state().now()).await;
        // A sign-in writes (and may come by a GET, from a mailed link or a provider's answer).
        self.state().wrote();
        Ok(after_sign_in(outcome?))
    }
}

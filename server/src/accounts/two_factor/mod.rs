//! Two-factor sign-in with an authenticator app (TOTP, RFC 6238; [`totp`]). Required for admins
//! and superadmins, offered to every other member in the profile's security tab. It applies to
//! every way in (password, e-mailed link, verification link, professional network): the first
//! factor leaves a pending sign-in (`web::session`), and [`signin`] asks for the code. Staff who
//! have not enrolled yet do so right after their password ([`signin`]); members enrol from
//! their profile ([`profile`]). Ten single-use recovery codes, stored as SHA-256 hashes, stand
//! in for a lost phone. Wrong codes are limited to five per quarter hour per account; every
//! enrolment, removal, use of a recovery code and reset by a superadmin is audited.

pub mod profile;
pub mod signin;
pub mod totp;

use serde::{Deserialize, Serialize};
use sqlx::SqliteConnection;
use time::OffsetDateTime;

use super::queries::two_factor as queries;
use super::tokens;
use crate::db::audit;
use crate::db::rate_limits::{self as rate_limit, Limit};
use crate::error::AppError;
use crate::mail::links::digest;
use crate::web::Ctx;

/// Wrong codes an account may give per quarter hour (a right one forgets them).
const WRONG_CODES: Limit = Limit {
    max: 5,
    window: 15 * 60,
};

/// An enrolment under way: the secret shown, not yet confirmed by a code.
const ENROLMENT_KEY: &str = "totp_enrolment";

#[derive(Serialize, Deserialize, Clone)]
struct Enrolment {
    user_id: i64,
    secret: String,
}

/// What a code given for an account turned out to be.
pub enum Check {
    /// A right authenticator code (or an unused recovery code, when `recovery`).
    Right {
        recovery: bool,
    },
    Wrong,
    /// Too many wrong codes: wait this many minutes.
    Limited(i64),
}

fn limit_key(user_id: i64) -> String {
    format!("2fa:account:{user_id}")
}

/// Counts an attempt for the account; `Some(minutes)` when it is over the limit.
async fn over_limit(ctx: &Ctx, user_id: i64) -> Result<Option<i64>, AppError> {
    let key = limit_key(user_id);
    match rate_limit::hit(ctx.state().db(), ctx.state().now(), &key, WRONG_CODES).await? {
        Ok(()) => Ok(None),
        Err(minutes) => {
            tracing::warn!(user_id, "too many second-factor codes");
            Ok(Some(minutes))
        }
    }
}

/// Checks `code` (an authenticator code, or a recovery code when `recovery_allowed`) for the
/// enrolled `user_id`, using it up when right.
pub async fn check(
    ctx: &Ctx,
    user_id: i64,
    code: &str,
    recovery_allowed: bool,
) -> Result<Check, AppError> {
    if let Some(minutes) = over_limit(ctx, user_id).await? {
        return Ok(Check::Limited(minutes));
    }
    let db = ctx.state().db();
    let Some(factor) = queries::factor(db, user_id).await? else {
        return Ok(Check::Wrong);
    };
    let step = totp::matching_step(&factor.secret, code, totp::now_unix(), factor.last_step);
    let right = match step {
        Some(step) => queries::accept_step(db, user_id, step)
            .await?
            .then_some(Check::Right { recovery: false }),
        None if recovery_allowed => {
            let hash = digest(&totp::normalize_recovery_code(code));
            let used = queries::use_recovery_code(db, user_id, &hash, ctx.state().now()).await?;
            if used {
                let mut conn = db.acquire().await?;
                let action = "user.2fa_recovery_code_used";
                audit::record(&mut conn, user_id, action, &subject(user_id), None, None).await?;
            }
            used.then_some(Check::Right { recovery: true })
        }
        None => None,
    };
    match right {
        Some(right) => {
            queries::forget_failures(db, &limit_key(user_id)).await?;
            Ok(right)
        }
        None => Ok(Check::Wrong),
    }
}

fn subject(user_id: i64) -> String {
    format!("user:{user_id}")
}

/// The secret being enrolled for `user_id` on this browser (a new one the first time), and the
/// QR code and URL to show.
pub async fn enrolment_secret(ctx: &Ctx, user_id: i64) -> Result<String, AppError> {
    let session = ctx.session()?;
    let current: Option<Enrolment> = session
        .get(ENROLMENT_KEY)
        .await
        .map_err(|e| anyhow::anyhow!("session: {e}"))?;
    if let Some(e) = current.filter(|e| e.user_id == user_id) {
        return Ok(e.secret);
    }
    let secret = totp::new_secret();
    let enrolment = Enrolment {
        user_id,
        secret: secret.clone(),
    };
    session
        .insert(ENROLMENT_KEY, enrolment)
        .await
        .map_err(|e| anyhow::anyhow!("session: {e}"))?;
    Ok(secret)
}

/// What the enrolment page shows: the QR code (SVG) and the secret to type in by hand.
pub async fn enrolment_view(ctx: &Ctx, user_id: i64) -> Result<(String, String), AppError> {
    let secret = enrolment_secret(ctx, user_id).await?;
    let email = queries::email(ctx.state().db(), user_id)
        .await?
        .unwrap_or_default();
    let qr = totp::qr_svg(&totp::otpauth_url(&secret, &email));
    Ok((qr, secret))
}

/// Confirms the enrolment under way with `code`: the authenticator is stored with new recovery
/// codes (returned, to show once), every other session of the member ends and every mailed link
/// dies. `Err(check)` when the code is wrong or over the limit.
pub async fn confirm_enrolment(
    ctx: &Ctx,
    user_id: i64,
    code: &str,
) -> Result<Result<Vec<String>, Check>, AppError> {
    if let Some(minutes) = over_limit(ctx, user_id).await? {
        return Ok(Err(Check::Limited(minutes)));
    }
    let secret = enrolment_secret(ctx, user_id).await?;
    let Some(step) = totp::matching_step(&secret, code, totp::now_unix(), 0) else {
        return Ok(Err(Check::Wrong));
    };
    let codes = totp::new_recovery_codes();
    let hashes: Vec<String> = codes
        .iter()
        .map(|c| digest(&totp::normalize_recovery_code(c)))
        .collect();
    let now = ctx.state().now();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    queries::enable(&mut tx, user_id, &secret, step, now).await?;
    queries::replace_recovery_codes(&mut tx, user_id, &hashes).await?;
    credentials_changed(&mut tx, user_id, now).await?;
    audit::record(
        &mut tx,
        user_id,
        "user.2fa_enrolled",
        &subject(user_id),
        None,
        None,
    )
    .await?;
    tx.commit().await?;
    queries::forget_failures(ctx.state().db(), &limit_key(user_id)).await?;
    ctx.session()?
        .remove::<Enrolment>(ENROLMENT_KEY)
        .await
        .map_err(|e| anyhow::anyhow!("session: {e}"))?;
    tracing::info!(user_id, "two-factor sign-in enrolled");
    Ok(Ok(codes))
}

/// New recovery codes for an enrolled member (the old ones stop working); returned to show once.
pub async fn new_recovery_codes(ctx: &Ctx, user_id: i64) -> Result<Vec<String>, AppError> {
    let codes = totp::new_recovery_codes();
    let hashes: Vec<String> = codes
        .iter()
        .map(|c| digest(&totp::normalize_recovery_code(c)))
        .collect();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    queries::replace_recovery_codes(&mut tx, user_id, &hashes).await?;
    let action = "user.2fa_recovery_codes_renewed";
    audit::record(&mut tx, user_id, action, &subject(user_id), None, None).await?;
    tx.commit().await?;
    Ok(codes)
}

/// Removes `user_id`'s authenticator and recovery codes (the member turning it off, or a
/// superadmin `actor` resetting it): every session ends and every mailed link dies. Whether
/// there was one.
pub async fn remove(
    conn: &mut SqliteConnection,
    actor: i64,
    user_id: i64,
    now: OffsetDateTime,
) -> Result<bool, AppError> {
    let removed = queries::remove(&mut *conn, user_id).await?;
    credentials_changed(&mut *conn, user_id, now).await?;
    let action = if actor == user_id {
        "user.2fa_disabled"
    } else {
        "user.2fa_reset"
    };
    audit::record(conn, actor, action, &subject(user_id), None, None).await?;
    Ok(removed)
}

/// A second factor changed: other sessions end and mailed links die.
async fn credentials_changed(
    conn: &mut SqliteConnection,
    user_id: i64,
    now: OffsetDateTime,
) -> Result<(), AppError> {
    queries::end_sessions(&mut *conn, user_id, now).await?;
    tokens::revoke_all(conn, user_id, now).await?;
    Ok(())
}

/// Whether `user_id` has an authenticator, and how many recovery codes are left.
pub async fn status(ctx: &Ctx, user_id: i64) -> Result<Option<i64>, AppError> {
    let db = ctx.state().db();
    Ok(match queries::factor(db, user_id).await? {
        Some(_) => Some(queries::recovery_codes_left(db, user_id).await?),
        None => None,
    })
}

//! Single-use secrets sent by e-mail, as the account pages use them. The mail worker issues
//! them when it sends the mail (`mail::links`); only their SHA-256 is stored, so neither the
//! outbox nor a database leak holds a usable link. Consuming one is a single atomic UPDATE, so
//! it works exactly once; every credential change uses up all of a user's open tokens
//! ([`revoke_all`]). Expiry times come from the injectable clock, so tests can move past a
//! deadline.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

use super::queries::tokens as queries;
pub use crate::mail::links::{TokenKind, digest};

/// The user of a live token, without using it up (to show a form before the real POST).
pub async fn peek(
    db: &SqlitePool,
    kind: TokenKind,
    token: &str,
    now: OffsetDateTime,
) -> Result<Option<i64>, sqlx::Error> {
    queries::live_user(db, kind, &digest(token), now).await
}

/// Uses the token up and returns its user, or `None` when unknown, used or expired.
pub async fn consume(
    conn: &mut SqliteConnection,
    kind: TokenKind,
    token: &str,
    now: OffsetDateTime,
) -> Result<Option<i64>, sqlx::Error> {
    queries::use_up(conn, kind, &digest(token), now).await
}

/// Uses up every open token of the user, of every kind: a credential changed (password reset
/// or change, deactivation, role change, second factor, an identity provider's claim), so no
/// link mailed before it may still sign in, reset or verify.
pub async fn revoke_all(
    conn: &mut SqliteConnection,
    user_id: i64,
    now: OffsetDateTime,
) -> Result<(), sqlx::Error> {
    queries::revoke_all(conn, user_id, now).await
}

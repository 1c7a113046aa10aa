//! Single-use secrets sent by e-mail. Only their SHA-256 is stored, so a database leak does
//! not leak usable links; consuming one is a single atomic UPDATE, so it works exactly once.
//! Issue and expiry times come from the injectable clock, so tests can move past a deadline.

use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::{SqliteConnection, SqlitePool};
use time::{Duration, OffsetDateTime};

use super::queries::tokens as queries;

/// What a token is for, as `auth_tokens.kind` stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "lowercase")]
pub enum TokenKind {
    Verify,
    SignIn,
    Reset,
}

impl TokenKind {
    /// Spec: sign-in links 24 hours, reset links 30 minutes; verification a week.
    fn lifetime(self) -> Duration {
        match self {
            TokenKind::Verify => Duration::days(7),
            TokenKind::SignIn => Duration::hours(24),
            TokenKind::Reset => Duration::minutes(30),
        }
    }
}

fn digest(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Creates a token for `user_id` in the caller's transaction and returns the secret to mail.
pub async fn issue(
    conn: &mut SqliteConnection,
    user_id: i64,
    kind: TokenKind,
    now: OffsetDateTime,
) -> Result<String, sqlx::Error> {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    queries::insert(conn, user_id, kind, &digest(&token), now + kind.lifetime()).await?;
    Ok(token)
}

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

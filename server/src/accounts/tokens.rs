//! Single-use secrets sent by e-mail. Only their SHA-256 is stored, so a database leak does
//! not leak usable links; consuming one is a single atomic UPDATE, so it works exactly once.

use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::{SqliteConnection, SqlitePool};

#[derive(Clone, Copy, Debug)]
pub enum TokenKind {
    Verify,
    SignIn,
    Reset,
}

impl TokenKind {
    fn code(self) -> &'static str {
        match self {
            TokenKind::Verify => "verify",
            TokenKind::SignIn => "signin",
            TokenKind::Reset => "reset",
        }
    }

    /// Spec: sign-in links 24 hours, reset links 30 minutes; verification a week.
    fn lifetime_seconds(self) -> i64 {
        match self {
            TokenKind::Verify => 7 * 24 * 3600,
            TokenKind::SignIn => 24 * 3600,
            TokenKind::Reset => 30 * 60,
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
) -> Result<String, sqlx::Error> {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    sqlx::query(
        "INSERT INTO auth_tokens (user_id, kind, token_hash, expires_at)
         VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ? || ' seconds'))",
    )
    .bind(user_id)
    .bind(kind.code())
    .bind(digest(&token))
    .bind(kind.lifetime_seconds())
    .execute(conn)
    .await?;
    Ok(token)
}

const LIVE: &str = "kind = ? AND token_hash = ? AND used_at IS NULL
     AND expires_at > strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

/// The user of a live token, without using it up (to show a form before the real POST).
pub async fn peek(
    db: &SqlitePool,
    kind: TokenKind,
    token: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(&format!("SELECT user_id FROM auth_tokens WHERE {LIVE}"))
        .bind(kind.code())
        .bind(digest(token))
        .fetch_optional(db)
        .await
}

/// Uses the token up and returns its user, or `None` when unknown, used or expired.
pub async fn consume(
    conn: &mut SqliteConnection,
    kind: TokenKind,
    token: &str,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(&format!(
        "UPDATE auth_tokens SET used_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE {LIVE} RETURNING user_id"
    ))
    .bind(kind.code())
    .bind(digest(token))
    .fetch_optional(conn)
    .await
}

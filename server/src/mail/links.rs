//! Links that sign in, reset a password or verify an address. No stored mail holds one: the
//! outbox keeps what the link is for ([`MailLink`]) and a placeholder in its bodies, and the
//! worker issues the token when it sends the mail, writing it only into the copy it sends.
//! Without SMTP no token is ever issued. Only a token's SHA-256 is stored; consuming one is a
//! single atomic UPDATE (`accounts::tokens`), so it works exactly once.

use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::SqliteConnection;
use time::{Duration, OffsetDateTime};

use super::queries;

/// What stands in the stored bodies where the link goes (the staff mailbox shows it).
pub const PLACEHOLDER: &str = "[link sent only by e-mail]";

/// What a token is for, as `auth_tokens.kind` and `outbox.link_kind` store it.
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

    /// The page the link opens.
    fn path(self) -> &'static str {
        match self {
            TokenKind::Verify => "/verificationtoken",
            TokenKind::SignIn => "/signin/link",
            TokenKind::Reset => "/resetpassword",
        }
    }
}

/// The link a queued mail will carry: its kind, whose account, and (sign-in links) where to go.
#[derive(Clone, Debug)]
pub struct MailLink {
    pub kind: TokenKind,
    pub user_id: i64,
    /// A local path (already checked) to go to after signing in; `None` for home.
    pub next: Option<String>,
}

/// The stored form of a token.
pub fn digest(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Issues the token of the mail `outbox_id` in the caller's transaction and returns its URL, or
/// `None` when the account is gone or deactivated (then nothing is issued). A token issued
/// earlier for the same mail (a failed attempt) is used up, and so is any older verification
/// link of the user: only the newest one works.
pub async fn issue_for_mail(
    conn: &mut SqliteConnection,
    outbox_id: i64,
    link: &MailLink,
    public_url: &str,
    now: OffsetDateTime,
) -> Result<Option<String>, sqlx::Error> {
    queries::use_up_tokens_of_mail(&mut *conn, outbox_id, now).await?;
    if !queries::account_active(&mut *conn, link.user_id).await? {
        return Ok(None);
    }
    if link.kind == TokenKind::Verify {
        queries::use_up_open_tokens(&mut *conn, link.user_id, TokenKind::Verify, now).await?;
    }
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let expires_at = now + link.kind.lifetime();
    queries::insert_token(conn, link, &digest(&token), expires_at, outbox_id).await?;
    let mut url = format!("{public_url}{}?token={token}", link.kind.path());
    if let Some(next) = link.next.as_deref().filter(|n| *n != "/") {
        url.push_str("&next=");
        url.push_str(&ortak_app::domain::paths::encode_query(next));
    }
    Ok(Some(url))
}

/// Shows stored text safely: the value of any `token=` parameter is hidden (mails stored before
/// links were issued at send time may still hold one).
pub fn redact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("token=") {
        let (head, tail) = rest.split_at(at + "token=".len());
        out.push_str(head);
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(tail.len());
        if end > 0 {
            out.push_str("[hidden]");
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_hides_every_token_value() {
        assert_eq!(
            redact("Open http://x/signin/link?token=abc-DEF_12&next=%2F now, token=zz."),
            "Open http://x/signin/link?token=[hidden]&next=%2F now, token=[hidden]."
        );
        assert_eq!(redact("no link here"), "no link here");
        assert_eq!(redact("token="), "token=");
    }
}

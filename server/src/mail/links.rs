//! Links that sign in, reset a password, verify an address or confirm a newsletter
//! subscription. No stored mail holds one: the outbox keeps what the link is for ([`Link`]) and
//! a placeholder in its bodies, and the worker issues the token when it sends the mail, writing
//! it only into the copy it sends. Without SMTP no token is ever issued. Only a token's SHA-256
//! is stored; consuming one is a single atomic UPDATE (`accounts::tokens`, `newsletter`), so it
//! works exactly once.

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
    /// Only in the outbox: the token is kept on the recipient's pending subscription
    /// (`newsletter_subscribers.token_hash`), not in `auth_tokens`.
    Newsletter,
}

impl TokenKind {
    /// Spec: sign-in links 24 hours, reset links 30 minutes; verification and newsletter
    /// confirmation a week.
    pub const fn lifetime(self) -> Duration {
        match self {
            TokenKind::Verify => Duration::days(7),
            TokenKind::SignIn => Duration::hours(24),
            TokenKind::Reset => Duration::minutes(30),
            TokenKind::Newsletter => Duration::days(7),
        }
    }

    /// The page the link opens.
    fn path(self) -> &'static str {
        match self {
            TokenKind::Verify => "/verificationtoken",
            TokenKind::SignIn => "/signin/link",
            TokenKind::Reset => "/resetpassword",
            TokenKind::Newsletter => "/newsletter/confirm",
        }
    }
}

/// The link a queued mail carries.
#[derive(Clone, Debug)]
pub enum Link {
    Account(MailLink),
    /// The confirmation link of the recipient's pending newsletter subscription.
    Newsletter,
}

impl Link {
    pub fn kind(&self) -> TokenKind {
        match self {
            Link::Account(link) => link.kind,
            Link::Newsletter => TokenKind::Newsletter,
        }
    }
}

/// An account link a queued mail will carry: its kind, whose account, and (sign-in links) where
/// to go.
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

fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Issues the token of the mail `outbox_id` to `to_email` in the caller's transaction and
/// returns its URL, or `None` when there is nothing left to link to (the account is gone or
/// deactivated, the subscription was confirmed or purged); then nothing is issued.
pub async fn issue_for_mail(
    conn: &mut SqliteConnection,
    outbox_id: i64,
    to_email: &str,
    link: &Link,
    public_url: &str,
    now: OffsetDateTime,
) -> Result<Option<String>, sqlx::Error> {
    let token = new_token();
    let issued = match link {
        Link::Account(account) => issue_account(conn, outbox_id, account, &token, now).await?,
        // The newest confirmation mail's link replaces any earlier one of the address.
        Link::Newsletter => queries::set_newsletter_token(conn, to_email, &digest(&token)).await?,
    };
    if !issued {
        return Ok(None);
    }
    let mut url = format!("{public_url}{}?token={token}", link.kind().path());
    if let Link::Account(MailLink {
        next: Some(next), ..
    }) = link
        && next != "/"
    {
        url.push_str("&next=");
        url.push_str(&ortak_app::domain::paths::encode_query(next));
    }
    Ok(Some(url))
}

/// Stores an account token. A token issued earlier for the same mail (a failed attempt) is used
/// up, and so is any older verification link of the user: only the newest one works.
async fn issue_account(
    conn: &mut SqliteConnection,
    outbox_id: i64,
    link: &MailLink,
    token: &str,
    now: OffsetDateTime,
) -> Result<bool, sqlx::Error> {
    queries::use_up_tokens_of_mail(&mut *conn, outbox_id, now).await?;
    if !queries::account_active(&mut *conn, link.user_id).await? {
        return Ok(false);
    }
    if link.kind == TokenKind::Verify {
        queries::use_up_open_tokens(&mut *conn, link.user_id, TokenKind::Verify, now).await?;
    }
    let expires_at = now + link.kind.lifetime();
    queries::insert_token(conn, link, &digest(token), expires_at, outbox_id).await?;
    Ok(true)
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

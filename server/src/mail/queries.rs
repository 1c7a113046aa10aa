//! The SQL of mail: the outbox and staff's rewritten templates.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

use ortak_app::domain::notifications::MailKind;
use ortak_app::i18n::Locale;

use super::links::{Link, MailLink, TokenKind};
use super::{Mail, OutboxStatus};

/// Staff's version of an automatic mail (`/dashboard/autoMail`).
pub struct Template {
    pub enabled: bool,
    pub subject_tr: String,
    pub subject_en: String,
    pub body_tr: String,
    pub body_en: String,
}

pub async fn template(conn: &mut SqliteConnection, kind: &str) -> sqlx::Result<Option<Template>> {
    sqlx::query_as!(
        Template,
        r#"SELECT enabled AS "enabled: bool", subject_tr, subject_en, body_tr, body_en
         FROM mail_templates WHERE kind = ?"#,
        kind
    )
    .fetch_optional(conn)
    .await
}

/// Puts a mail in the outbox, due at once, with what its link is for (never the link).
pub async fn insert(conn: &mut SqliteConnection, mail: &Mail) -> sqlx::Result<()> {
    let language = mail.locale.code();
    let link_kind = mail.link.as_ref().map(Link::kind);
    let account = match &mail.link {
        Some(Link::Account(account)) => Some(account),
        _ => None,
    };
    let link_user_id = account.map(|l| l.user_id);
    let link_next = account.and_then(|l| l.next.clone());
    let unsubscribe = mail.unsubscribe.map(MailKind::code);
    sqlx::query!(
        "INSERT INTO outbox (to_email, subject, text_body, html_body, language, link_kind,
                             link_user_id, link_next, unsubscribe_kind, erase_when_sent)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        mail.to,
        mail.subject,
        mail.text,
        mail.html,
        language,
        link_kind,
        link_user_id,
        link_next,
        unsubscribe,
        mail.erase_when_sent
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A mail the worker is to send.
pub struct Due {
    pub id: i64,
    pub to_email: String,
    pub subject: String,
    pub text_body: String,
    pub html_body: String,
    pub attempts: i64,
    pub link_kind: Option<TokenKind>,
    pub link_user_id: Option<i64>,
    pub link_next: Option<String>,
    pub language: Locale,
    pub unsubscribe_kind: Option<String>,
}

impl Due {
    /// The kind of optional mail this is, if it is one.
    pub fn unsubscribe(&self) -> Option<MailKind> {
        MailKind::from_code(self.unsubscribe_kind.as_deref()?)
    }

    /// The link the mail carries, if any.
    pub fn link(&self) -> Option<Link> {
        match self.link_kind? {
            TokenKind::Newsletter => Some(Link::Newsletter),
            kind => Some(Link::Account(MailLink {
                kind,
                user_id: self.link_user_id?,
                next: self.link_next.clone(),
            })),
        }
    }
}

/// The oldest pending mails whose time has come, at most `limit`.
pub async fn due(db: &SqlitePool, now: OffsetDateTime, limit: i64) -> sqlx::Result<Vec<Due>> {
    let pending = OutboxStatus::Pending;
    sqlx::query_as!(
        Due,
        r#"SELECT id AS "id!", to_email, subject, text_body, html_body, attempts,
               link_kind AS "link_kind: TokenKind", link_user_id, link_next,
               language AS "language: Locale", unsubscribe_kind FROM outbox
         WHERE status = ? AND next_attempt_at <= ?
         ORDER BY id LIMIT ?"#,
        pending,
        now,
        limit
    )
    .fetch_all(db)
    .await
}

/// Records that mail `id` was sent; one marked `erase_when_sent` is deleted instead.
pub async fn mark_sent(db: &SqlitePool, id: i64, now: OffsetDateTime) -> sqlx::Result<()> {
    let sent = OutboxStatus::Sent;
    let erased = sqlx::query!(
        "DELETE FROM outbox WHERE id = ? AND erase_when_sent = 1",
        id
    )
    .execute(db)
    .await?;
    if erased.rows_affected() == 1 {
        return Ok(());
    }
    sqlx::query!(
        "UPDATE outbox SET status = ?, attempts = attempts + 1, last_error = NULL, sent_at = ?
         WHERE id = ?",
        sent,
        now,
        id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Records a failed attempt: the mail waits until `next_attempt_at`, or is `Failed` for good
/// (one marked `erase_when_sent` is then deleted: given up, it keeps no address either).
pub async fn mark_attempt_failed(
    db: &SqlitePool,
    id: i64,
    status: OutboxStatus,
    attempts: i64,
    error: &str,
    next_attempt_at: OffsetDateTime,
) -> sqlx::Result<()> {
    if status == OutboxStatus::Failed {
        let erased = sqlx::query!(
            "DELETE FROM outbox WHERE id = ? AND erase_when_sent = 1",
            id
        )
        .execute(db)
        .await?;
        if erased.rows_affected() == 1 {
            return Ok(());
        }
    }
    sqlx::query!(
        "UPDATE outbox SET status = ?, attempts = ?, last_error = ?, next_attempt_at = ? WHERE id = ?",
        status,
        attempts,
        error,
        next_attempt_at,
        id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Uses up the tokens issued for earlier attempts at the mail `outbox_id`.
pub async fn use_up_tokens_of_mail(
    conn: &mut SqliteConnection,
    outbox_id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE auth_tokens SET used_at = ? WHERE outbox_id = ? AND used_at IS NULL",
        now,
        outbox_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Uses up the user's open tokens of `kind`.
pub async fn use_up_open_tokens(
    conn: &mut SqliteConnection,
    user_id: i64,
    kind: TokenKind,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE auth_tokens SET used_at = ? WHERE user_id = ? AND kind = ? AND used_at IS NULL",
        now,
        user_id,
        kind
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether the account exists and is not deactivated.
pub async fn account_active(conn: &mut SqliteConnection, user_id: i64) -> sqlx::Result<bool> {
    Ok(sqlx::query_scalar!(
        r#"SELECT 1 AS "one!: i64" FROM users WHERE id = ? AND deactivated_at IS NULL"#,
        user_id
    )
    .fetch_optional(conn)
    .await?
    .is_some())
}

/// Stores a new token's hash for the mail `outbox_id`.
pub async fn insert_token(
    conn: &mut SqliteConnection,
    link: &MailLink,
    token_hash: &str,
    expires_at: OffsetDateTime,
    outbox_id: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO auth_tokens (user_id, kind, token_hash, expires_at, outbox_id)
         VALUES (?, ?, ?, ?, ?)",
        link.user_id,
        link.kind,
        token_hash,
        expires_at,
        outbox_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Puts a new confirmation token on `email`'s pending newsletter subscription (asked for and
/// not confirmed, or asked for again after unsubscribing); `false` when there is none.
pub async fn set_newsletter_token(
    conn: &mut SqliteConnection,
    email: &str,
    token_hash: &str,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE newsletter_subscribers SET token_hash = ?
         WHERE email = ? AND (confirmed_at IS NULL OR unsubscribed_at IS NOT NULL)",
        token_hash,
        email
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Empties the bodies of mails sent before `before`; returns how many.
pub async fn purge_sent_bodies(db: &SqlitePool, before: OffsetDateTime) -> sqlx::Result<u64> {
    let sent = OutboxStatus::Sent;
    let done = sqlx::query!(
        "UPDATE outbox SET text_body = '', html_body = ''
         WHERE status = ? AND sent_at < ? AND (text_body != '' OR html_body != '')",
        sent,
        before
    )
    .execute(db)
    .await?;
    Ok(done.rows_affected())
}

/// The member using `email`, active, if any (the recipient of an optional mail).
pub async fn member_id(db: &SqlitePool, email: &str) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM users WHERE email = ? AND deactivated_at IS NULL"#,
        email
    )
    .fetch_optional(db)
    .await
}

//! The SQL of newsletter subscriptions: requests, confirmations and the purge (staff's list
//! and export live in `staff::newsletter`). A subscription counts once confirmed and while not
//! withdrawn: `confirmed_at IS NOT NULL AND unsubscribed_at IS NULL`.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// A request to subscribe, with the consent given on the form.
pub struct Request<'a> {
    pub email: &'a str,
    pub language: &'a str,
    pub consent_text_version: &'a str,
    pub source: &'a str,
}

/// Records a request to subscribe at `now`; `true` when a confirmation should be mailed. Any
/// earlier confirmation link stops working (the mail worker issues the new one). A current
/// subscriber's row is left as it is (`false`): they are subscribed already. A former
/// subscriber, or one who never confirmed, must confirm again.
pub async fn request(
    conn: &mut SqliteConnection,
    r: &Request<'_>,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let row = sqlx::query_scalar!(
        r#"INSERT INTO newsletter_subscribers
               (email, language, consent_text_version, source, consented_at, requested_at, token_hash)
           VALUES (?1, ?2, ?3, ?4, ?5, ?5, NULL)
           ON CONFLICT (email) DO UPDATE SET language = excluded.language,
               consent_text_version = excluded.consent_text_version, source = excluded.source,
               consented_at = excluded.consented_at, requested_at = excluded.requested_at,
               token_hash = excluded.token_hash
           WHERE confirmed_at IS NULL OR unsubscribed_at IS NOT NULL
           RETURNING id AS "id!: i64""#,
        r.email,
        r.language,
        r.consent_text_version,
        r.source,
        now
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.is_some())
}

/// Whether `token_hash` belongs to a request made after `since`.
pub async fn open_request(
    db: &SqlitePool,
    token_hash: &str,
    since: OffsetDateTime,
) -> sqlx::Result<bool> {
    let found = sqlx::query_scalar!(
        r#"SELECT 1 AS "one!: i64" FROM newsletter_subscribers
           WHERE token_hash = ? AND requested_at > ?"#,
        token_hash,
        since
    )
    .fetch_optional(db)
    .await?;
    Ok(found.is_some())
}

/// Confirms the request `token_hash` names if it was made after `since`; uses the token up.
/// Returns the confirmed address.
pub async fn confirm(
    db: &SqlitePool,
    token_hash: &str,
    since: OffsetDateTime,
    now: OffsetDateTime,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "UPDATE newsletter_subscribers
         SET confirmed_at = ?3, unsubscribed_at = NULL, token_hash = NULL
         WHERE token_hash = ?1 AND requested_at > ?2 RETURNING email",
        token_hash,
        since,
        now
    )
    .fetch_optional(db)
    .await
}

/// What the purge removed.
pub struct Purged {
    pub unconfirmed: u64,
    pub withdrawn: u64,
}

/// Deletes requests never confirmed since `unconfirmed_before` and records of consents
/// withdrawn before `withdrawn_before`; expires the open links of former subscribers whose new
/// request was not confirmed in time.
pub async fn purge(
    db: &SqlitePool,
    unconfirmed_before: OffsetDateTime,
    withdrawn_before: OffsetDateTime,
) -> sqlx::Result<Purged> {
    let mut tx = crate::db::write(db).await?;
    let unconfirmed = sqlx::query!(
        "DELETE FROM newsletter_subscribers WHERE confirmed_at IS NULL AND requested_at < ?",
        unconfirmed_before
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    sqlx::query!(
        "UPDATE newsletter_subscribers SET token_hash = NULL
         WHERE token_hash IS NOT NULL AND requested_at < ?",
        unconfirmed_before
    )
    .execute(&mut *tx)
    .await?;
    let withdrawn = sqlx::query!(
        "DELETE FROM newsletter_subscribers WHERE unsubscribed_at < ?",
        withdrawn_before
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(Purged {
        unconfirmed,
        withdrawn,
    })
}

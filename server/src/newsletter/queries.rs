//! The SQL of newsletter subscriptions (staff's list and export live in `staff::newsletter`).

use sqlx::SqliteConnection;
use time::OffsetDateTime;

/// Records the subscription once, consented at `now`; subscribing again changes nothing,
/// except that a former subscriber's new consent is recorded.
pub async fn subscribe(
    conn: &mut SqliteConnection,
    email: &str,
    language: &str,
    consent_text_version: &str,
    source: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO newsletter_subscribers (email, language, consent_text_version, source, consented_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (email) DO UPDATE SET unsubscribed_at = NULL,
             consented_at = excluded.consented_at,
             consent_text_version = excluded.consent_text_version, source = excluded.source
         WHERE unsubscribed_at IS NOT NULL",
        email,
        language,
        consent_text_version,
        source,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

//! The SQL of the inboxes of the visitors' forms: contact messages, GSYF applications and
//! academy applications, each read into the same row shape and marked handled.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// The three inboxes of the visitors' forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inbox {
    Contact,
    Gsyf,
    Academy,
}

impl Inbox {
    /// Its table, which also names its rows in the audit log (`contact_messages:7`).
    pub fn table(self) -> &'static str {
        match self {
            Inbox::Contact => "contact_messages",
            Inbox::Gsyf => "gsyf_applications",
            Inbox::Academy => "academy_applications",
        }
    }
}

/// One message or application: name, e-mail, subject, and everything else the sender wrote.
pub struct InboxRow {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub details: String,
    pub handled: bool,
    pub created_at: OffsetDateTime,
}

/// The latest 500 of an inbox, newest first; `language` picks the academy events' titles.
pub async fn list(db: &SqlitePool, inbox: Inbox, language: &str) -> sqlx::Result<Vec<InboxRow>> {
    match inbox {
        Inbox::Contact => {
            sqlx::query_as!(
                InboxRow,
                r#"SELECT id, name, email, subject, phone || ' · ' || message AS "details!: String",
                       handled_at IS NOT NULL AS "handled!: bool",
                       created_at AS "created_at: OffsetDateTime"
                   FROM contact_messages ORDER BY created_at DESC LIMIT 500"#
            )
            .fetch_all(db)
            .await
        }
        Inbox::Gsyf => {
            sqlx::query_as!(
                InboxRow,
                r#"SELECT id, first_name || ' ' || last_name AS "name!: String", email,
                       fund_type || ' · ' || investment_range AS "subject!: String",
                       phone AS details, handled_at IS NOT NULL AS "handled!: bool",
                       created_at AS "created_at: OffsetDateTime"
                   FROM gsyf_applications ORDER BY created_at DESC LIMIT 500"#
            )
            .fetch_all(db)
            .await
        }
        Inbox::Academy => {
            sqlx::query_as!(
                InboxRow,
                r#"SELECT id, name, email,
                       (SELECT COALESCE(NULLIF(CASE WHEN ?1 = 'en' THEN e.title_en ELSE e.title_tr END, ''),
                           e.title_tr) FROM academy_events e WHERE e.id = event_id) AS "subject!: String",
                       institution || ' · ' || phone || ' · ' || city || ' · ' || budget || ' · '
                           || CASE invested_before WHEN 1 THEN '+' ELSE '-' END || ' · ' || heard_from
                           || ' · ' || linkedin || ' · ' || note AS "details!: String",
                       handled_at IS NOT NULL AS "handled!: bool",
                       created_at AS "created_at: OffsetDateTime"
                   FROM academy_applications ORDER BY created_at DESC LIMIT 500"#,
                language
            )
            .fetch_all(db)
            .await
        }
    }
}

/// Marks an open message or application handled; whether there was one.
pub async fn mark_handled(
    conn: &mut SqliteConnection,
    inbox: Inbox,
    id: i64,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = match inbox {
        Inbox::Contact => {
            sqlx::query!(
                "UPDATE contact_messages SET handled_at = ? WHERE id = ? AND handled_at IS NULL",
                now,
                id
            )
            .execute(conn)
            .await?
        }
        Inbox::Gsyf => {
            sqlx::query!(
                "UPDATE gsyf_applications SET handled_at = ? WHERE id = ? AND handled_at IS NULL",
                now,
                id
            )
            .execute(conn)
            .await?
        }
        Inbox::Academy => sqlx::query!(
            "UPDATE academy_applications SET handled_at = ? WHERE id = ? AND handled_at IS NULL",
            now,
            id
        )
        .execute(conn)
        .await?,
    };
    Ok(done.rows_affected() > 0)
}

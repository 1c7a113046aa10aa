//! The SQL of the startup applications staff follow: the list, one application, its status
//! moves and its presentation file. Drafts are the applicants' own and never shown.

use std::collections::BTreeMap;

use ortak_app::domain::project::ApplicationStatus;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// An application's answers, by question (the applicant's JSON object of texts).
pub type Answers = BTreeMap<String, String>;

/// The stored answers; they are always written from [`Answers`], so anything else is an error.
fn answers(json: &str) -> sqlx::Result<Answers> {
    serde_json::from_str(json).map_err(|e| sqlx::Error::Decode(e.into()))
}

pub struct ListedApplication {
    pub id: i64,
    pub answers: Answers,
    pub status: ApplicationStatus,
    pub submitted_at: Option<OffsetDateTime>,
    /// The startup made from it, if any.
    pub startup_id: Option<i64>,
}

struct ListedRow {
    id: i64,
    answers: String,
    status: ApplicationStatus,
    submitted_at: Option<OffsetDateTime>,
    startup_id: Option<i64>,
}

/// The latest 500 submitted applications, newest first.
pub async fn list(db: &SqlitePool) -> sqlx::Result<Vec<ListedApplication>> {
    let rows = sqlx::query_as!(
        ListedRow,
        r#"SELECT id, answers, status AS "status: ApplicationStatus",
               submitted_at AS "submitted_at: OffsetDateTime", startup_id
           FROM startup_applications WHERE status != 'draft' ORDER BY submitted_at DESC LIMIT 500"#
    )
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|r| {
            Ok(ListedApplication {
                id: r.id,
                answers: answers(&r.answers)?,
                status: r.status,
                submitted_at: r.submitted_at,
                startup_id: r.startup_id,
            })
        })
        .collect()
}

pub struct Application {
    pub answers: Answers,
    pub status: ApplicationStatus,
    pub submitted_at: Option<OffsetDateTime>,
    pub presentation_name: Option<String>,
    pub startup_id: Option<i64>,
    pub startup_name: Option<String>,
    /// The language the applicant wrote in (their mails' language).
    pub language: ortak_app::i18n::Locale,
    /// Why staff declined it, as the applicant was told.
    pub decline_reason: Option<String>,
}

struct ApplicationRow {
    answers: String,
    status: ApplicationStatus,
    submitted_at: Option<OffsetDateTime>,
    presentation_name: Option<String>,
    startup_id: Option<i64>,
    startup_name: Option<String>,
    language: ortak_app::i18n::Locale,
    decline_reason: Option<String>,
}

/// A submitted application with the startup made from it.
pub async fn application(db: &SqlitePool, id: i64) -> sqlx::Result<Option<Application>> {
    let row = sqlx::query_as!(
        ApplicationRow,
        r#"SELECT a.answers, a.status AS "status: ApplicationStatus",
               a.submitted_at AS "submitted_at: OffsetDateTime", a.presentation_name,
               a.startup_id, s.name AS "startup_name?: String",
               a.language AS "language: ortak_app::i18n::Locale", a.decline_reason
           FROM startup_applications a LEFT JOIN startups s ON s.id = a.startup_id
           WHERE a.id = ? AND a.status != 'draft'"#,
        id
    )
    .fetch_optional(db)
    .await?;
    let Some(r) = row else { return Ok(None) };
    Ok(Some(Application {
        answers: answers(&r.answers)?,
        status: r.status,
        submitted_at: r.submitted_at,
        presentation_name: r.presentation_name,
        startup_id: r.startup_id,
        startup_name: r.startup_name,
        language: r.language,
        decline_reason: r.decline_reason,
    }))
}

/// A submitted application's status.
pub async fn status(
    conn: &mut SqliteConnection,
    id: i64,
) -> sqlx::Result<Option<ApplicationStatus>> {
    sqlx::query_scalar!(
        r#"SELECT status AS "status: ApplicationStatus" FROM startup_applications
           WHERE id = ? AND status != 'draft'"#,
        id
    )
    .fetch_optional(conn)
    .await
}

pub async fn set_status(
    conn: &mut SqliteConnection,
    id: i64,
    status: ApplicationStatus,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE startup_applications SET status = ?, updated_at = ? WHERE id = ?",
        status,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A submitted application's presentation: the stored file and the name it was sent with.
pub struct Presentation {
    pub file: Option<String>,
    pub name: Option<String>,
}

pub async fn presentation(db: &SqlitePool, id: i64) -> sqlx::Result<Option<Presentation>> {
    sqlx::query_as!(
        Presentation,
        r#"SELECT presentation_file AS file, presentation_name AS name FROM startup_applications
           WHERE id = ? AND status != 'draft'"#,
        id
    )
    .fetch_optional(db)
    .await
}

/// Declines a submitted application with `reason`; `false` when it was declined already.
pub async fn decline(
    conn: &mut SqliteConnection,
    id: i64,
    reason: &str,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE startup_applications SET status = 'declined', decline_reason = ?, updated_at = ?
         WHERE id = ? AND status NOT IN ('draft', 'declined')",
        reason,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

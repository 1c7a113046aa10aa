//! The SQL of the forms visitors and members send: the sender's profile for prefilling, the
//! stored contact messages and fund and academy applications, the academy events open for
//! applications, and the startup application's drafts. The current time is bound from the
//! injectable clock (`state.now()`), never SQLite's `now`; `created_at` keeps its column default.

use std::collections::BTreeMap;

use ortak_app::domain::applications::{AcademyForm, ContactForm, GsyfForm};
use ortak_app::domain::project::ApplicationStatus;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// What the forms prefill for a signed-in member.
pub struct Profile {
    pub first_name: String,
    pub last_name: String,
    pub phone: String,
}

pub async fn profile(db: &SqlitePool, user_id: i64) -> sqlx::Result<Profile> {
    sqlx::query_as!(
        Profile,
        "SELECT first_name, last_name, phone FROM users WHERE id = ?",
        user_id
    )
    .fetch_one(db)
    .await
}

/// Stores a checked contact message; `language` is the page's.
pub async fn insert_contact(
    conn: &mut SqliteConnection,
    user_id: Option<i64>,
    f: &ContactForm,
    language: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO contact_messages (user_id, name, email, phone, subject, message, language)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
        user_id,
        f.name,
        f.email,
        f.phone,
        f.subject,
        f.message,
        language
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Stores a checked fund (GSYF) application, with the member who sent it if signed in.
pub async fn insert_gsyf(
    conn: &mut SqliteConnection,
    user_id: Option<i64>,
    f: &GsyfForm,
    language: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO gsyf_applications (user_id, email, first_name, last_name, phone, fund_type,
             investment_range, language)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        user_id,
        f.email,
        f.first_name,
        f.last_name,
        f.phone,
        f.fund_type,
        f.range,
        language
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// An academy event open for applications.
pub struct AcademyEvent {
    pub id: i64,
    pub title_tr: String,
    pub title_en: String,
    pub starts_at: OffsetDateTime,
}

/// Published events starting after `now`, soonest first.
pub async fn open_events(db: &SqlitePool, now: OffsetDateTime) -> sqlx::Result<Vec<AcademyEvent>> {
    sqlx::query_as!(
        AcademyEvent,
        r#"SELECT id AS "id!", title_tr, title_en, starts_at AS "starts_at: OffsetDateTime"
           FROM academy_events WHERE published = 1 AND starts_at > ? ORDER BY starts_at"#,
        now
    )
    .fetch_all(db)
    .await
}

/// Stores a checked academy application for `event_id`.
pub async fn insert_academy(
    conn: &mut SqliteConnection,
    event_id: i64,
    f: &AcademyForm,
    language: &str,
) -> sqlx::Result<()> {
    let invested_before = f.invested_before == "yes";
    sqlx::query!(
        "INSERT INTO academy_applications (event_id, email, name, institution, phone, city, linkedin,
             invested_before, budget, heard_from, note, language)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        event_id,
        f.email,
        f.name,
        f.institution,
        f.phone,
        f.city,
        f.linkedin,
        invested_before,
        f.budget,
        f.heard_from,
        f.note,
        language
    )
    .execute(conn)
    .await?;
    Ok(())
}

// ---- startup application drafts ------------------------------------------------------------

/// A draft's answers, by field name (stored as a JSON object of texts).
pub type Answers = BTreeMap<String, String>;

/// An open draft as stored.
pub struct StoredDraft {
    pub id: i64,
    pub draft_token: String,
    answers: String,
    /// The first step not yet saved (1-4); 5 once all are.
    pub next_step: i64,
    presentation_name: Option<String>,
    presentation_size: Option<i64>,
}

impl StoredDraft {
    /// The answers; they are only ever written from [`Answers`], so anything else is an error.
    pub fn answers(&self) -> sqlx::Result<Answers> {
        serde_json::from_str(&self.answers).map_err(|e| sqlx::Error::Decode(e.into()))
    }

    /// The kept presentation's file name and size in bytes (the two are written together).
    pub fn presentation(&self) -> Option<(String, i64)> {
        self.presentation_name.clone().zip(self.presentation_size)
    }
}

/// The member's newest open draft.
pub async fn member_draft(db: &SqlitePool, user_id: i64) -> sqlx::Result<Option<StoredDraft>> {
    sqlx::query_as!(
        StoredDraft,
        r#"SELECT id AS "id!", draft_token, answers, next_step, presentation_name, presentation_size
           FROM startup_applications WHERE user_id = ? AND status = ?
           ORDER BY id DESC LIMIT 1"#,
        user_id,
        ApplicationStatus::Draft
    )
    .fetch_optional(db)
    .await
}

/// A visitor's open draft, by the token their cookie holds.
pub async fn visitor_draft(db: &SqlitePool, token: &str) -> sqlx::Result<Option<StoredDraft>> {
    sqlx::query_as!(
        StoredDraft,
        r#"SELECT id AS "id!", draft_token, answers, next_step, presentation_name, presentation_size
           FROM startup_applications WHERE draft_token = ? AND user_id IS NULL AND status = ?"#,
        token,
        ApplicationStatus::Draft
    )
    .fetch_optional(db)
    .await
}

/// Starts an empty draft at `now` and returns its id.
pub async fn start_draft(
    conn: &mut SqliteConnection,
    token: &str,
    user_id: Option<i64>,
    language: &str,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        "INSERT INTO startup_applications (draft_token, user_id, language, created_at, updated_at)
         VALUES (?, ?, ?, ?5, ?5) RETURNING id",
        token,
        user_id,
        language,
        now,
        now
    )
    .fetch_one(conn)
    .await
}

/// Keeps a new presentation on the draft; returns the stored file it replaces, if any.
pub async fn replace_presentation(
    conn: &mut SqliteConnection,
    id: i64,
    file: &str,
    name: &str,
    size: i64,
    now: OffsetDateTime,
) -> sqlx::Result<Option<String>> {
    let old = sqlx::query_scalar!(
        "SELECT presentation_file FROM startup_applications WHERE id = ?",
        id
    )
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query!(
        "UPDATE startup_applications
         SET presentation_file = ?, presentation_name = ?, presentation_size = ?, updated_at = ?
         WHERE id = ?",
        file,
        name,
        size,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(old)
}

/// Deletes the drafts last saved before `cutoff`; returns their presentation files.
pub async fn delete_stale_drafts(
    db: &SqlitePool,
    cutoff: OffsetDateTime,
) -> sqlx::Result<Vec<Option<String>>> {
    sqlx::query_scalar!(
        "DELETE FROM startup_applications WHERE status = ? AND updated_at < ?
         RETURNING presentation_file",
        ApplicationStatus::Draft,
        cutoff
    )
    .fetch_all(db)
    .await
}

/// Saves the answers after `step` was accepted: the next step opens.
pub async fn save_answers(
    conn: &mut SqliteConnection,
    id: i64,
    answers: &Answers,
    step: u8,
    language: &str,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    let json = serde_json::to_string(answers).map_err(|e| sqlx::Error::Encode(e.into()))?;
    let next = i64::from(step) + 1;
    sqlx::query!(
        "UPDATE startup_applications SET answers = ?, next_step = MAX(next_step, ?), language = ?,
             updated_at = ? WHERE id = ?",
        json,
        next,
        language,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Sends the draft to staff.
pub async fn submit(conn: &mut SqliteConnection, id: i64, now: OffsetDateTime) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE startup_applications SET status = ?, submitted_at = ? WHERE id = ?",
        ApplicationStatus::New,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

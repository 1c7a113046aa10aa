//! The SQL of the KVKK export's forms: startup applications, contact messages, fund and
//! academy applications (by the member's account or by their address) and the newsletter
//! consent.

use serde::Serialize;
use sqlx::SqlitePool;
use time::OffsetDateTime;
use time::serde::rfc3339;

#[derive(Serialize)]
pub struct Application {
    pub status: String,
    /// The answers, as a JSON object of texts.
    pub answers: String,
    pub presentation_name: Option<String>,
    #[serde(with = "rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "rfc3339::option")]
    pub submitted_at: Option<OffsetDateTime>,
}

pub async fn applications(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<Application>> {
    sqlx::query_as!(
        Application,
        r#"SELECT status, answers, presentation_name, created_at AS "created_at: OffsetDateTime",
               submitted_at AS "submitted_at: OffsetDateTime"
           FROM startup_applications WHERE user_id = ? ORDER BY id"#,
        user
    )
    .fetch_all(db)
    .await
}

#[derive(Serialize)]
pub struct Message {
    pub name: String,
    pub email: String,
    pub phone: String,
    pub subject: String,
    pub message: String,
    #[serde(with = "rfc3339")]
    pub created_at: OffsetDateTime,
}

pub async fn messages(db: &SqlitePool, user: i64, email: &str) -> sqlx::Result<Vec<Message>> {
    sqlx::query_as!(
        Message,
        r#"SELECT name, email, phone, subject, message, created_at AS "created_at: OffsetDateTime"
           FROM contact_messages WHERE user_id = ? OR email = ? ORDER BY id"#,
        user,
        email
    )
    .fetch_all(db)
    .await
}

#[derive(Serialize)]
pub struct Gsyf {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub phone: String,
    pub fund_type: String,
    pub investment_range: String,
    #[serde(with = "rfc3339")]
    pub created_at: OffsetDateTime,
}

pub async fn gsyf(db: &SqlitePool, user: i64, email: &str) -> sqlx::Result<Vec<Gsyf>> {
    sqlx::query_as!(
        Gsyf,
        r#"SELECT email, first_name, last_name, phone, fund_type, investment_range,
               created_at AS "created_at: OffsetDateTime"
           FROM gsyf_applications WHERE user_id = ? OR email = ? ORDER BY id"#,
        user,
        email
    )
    .fetch_all(db)
    .await
}

#[derive(Serialize)]
pub struct Academy {
    pub event: String,
    pub email: String,
    pub name: String,
    pub institution: String,
    pub phone: String,
    pub city: String,
    pub linkedin: String,
    pub budget: String,
    pub heard_from: String,
    pub note: String,
    #[serde(with = "rfc3339")]
    pub created_at: OffsetDateTime,
}

pub async fn academy(db: &SqlitePool, email: &str) -> sqlx::Result<Vec<Academy>> {
    sqlx::query_as!(
        Academy,
        r#"SELECT e.title_tr AS event, a.email, a.name, a.institution, a.phone, a.city, a.linkedin,
               a.budget, a.heard_from, a.note, a.created_at AS "created_at: OffsetDateTime"
           FROM academy_applications a JOIN academy_events e ON e.id = a.event_id
           WHERE a.email = ? ORDER BY a.id"#,
        email
    )
    .fetch_all(db)
    .await
}

/// The newsletter consent recorded for the member's address, whatever its state.
#[derive(Serialize)]
pub struct Newsletter {
    pub language: String,
    pub consent_text_version: String,
    pub source: String,
    #[serde(with = "rfc3339")]
    pub consented_at: OffsetDateTime,
    #[serde(with = "rfc3339::option")]
    pub confirmed_at: Option<OffsetDateTime>,
    #[serde(with = "rfc3339::option")]
    pub unsubscribed_at: Option<OffsetDateTime>,
}

pub async fn newsletter(db: &SqlitePool, email: &str) -> sqlx::Result<Option<Newsletter>> {
    sqlx::query_as!(
        Newsletter,
        r#"SELECT language, consent_text_version, source,
               consented_at AS "consented_at: OffsetDateTime",
               confirmed_at AS "confirmed_at: OffsetDateTime",
               unsubscribed_at AS "unsubscribed_at: OffsetDateTime"
           FROM newsletter_subscribers WHERE email = ?"#,
        email
    )
    .fetch_optional(db)
    .await
}

/// The last sign-in (each attempt is logged in the server log, not kept in the database).
pub async fn last_sign_in(db: &SqlitePool, user: i64) -> sqlx::Result<Option<OffsetDateTime>> {
    sqlx::query_scalar!(
        r#"SELECT last_sign_in_at AS "at: OffsetDateTime" FROM users WHERE id = ?"#,
        user
    )
    .fetch_one(db)
    .await
}

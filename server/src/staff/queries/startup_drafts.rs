//! The SQL of turning a startup application into an unpublished startup draft
//! (`staff/startups/from_application.rs`).

use ortak_app::domain::project::ApplicationStatus;
use sqlx::{SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

/// A submitted application: its answers (JSON), status, and the startup made of it, if any.
pub struct SubmittedApplication {
    pub answers: String,
    pub status: ApplicationStatus,
    pub startup_id: Option<i64>,
}

/// The application `id` unless it is still a draft.
pub async fn submitted_application(
    db: &SqlitePool,
    id: i64,
) -> sqlx::Result<Option<SubmittedApplication>> {
    sqlx::query_as!(
        SubmittedApplication,
        r#"SELECT a.answers, a.status AS "status: ApplicationStatus", s.id AS "startup_id?"
         FROM startup_applications a LEFT JOIN startups s ON s.id = a.startup_id
         WHERE a.id = ? AND a.status != 'draft'"#,
        id
    )
    .fetch_optional(db)
    .await
}

/// The oldest fund, which a draft belongs to until staff choose.
pub async fn first_fund(conn: &mut SqliteConnection) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!("SELECT id FROM funds ORDER BY id LIMIT 1")
        .fetch_optional(conn)
        .await
}

/// What a draft is made of.
pub struct Draft<'a> {
    pub slug: String,
    pub name: String,
    pub sort_key_tr: String,
    pub sort_key_en: String,
    pub sector: &'a str,
    pub subcategory: &'a str,
    pub fund_id: i64,
    pub country: &'a str,
    pub city: &'a str,
    pub description: &'a str,
    pub website: &'a str,
    pub stage: &'a str,
    pub goal_kurus: i64,
    pub starts_on: Date,
    pub ends_on: Date,
}

/// Inserts an unpublished investment-round startup with the description in both languages;
/// a taken slug fails with a unique violation of `startups.slug`.
pub async fn insert_draft(conn: &mut SqliteConnection, d: &Draft<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO startups (slug, name, sort_key_tr, sort_key_en, sector, subcategory, fund_id,
             country, city, description_tr, description_en, website, stage, funding_goal_kurus,
             period_kind, period_starts_on, period_ends_on, published)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'investment', ?, ?, 0)
         RETURNING id AS "id!""#,
        d.slug,
        d.name,
        d.sort_key_tr,
        d.sort_key_en,
        d.sector,
        d.subcategory,
        d.fund_id,
        d.country,
        d.city,
        d.description,
        d.description,
        d.website,
        d.stage,
        d.goal_kurus,
        d.starts_on,
        d.ends_on
    )
    .fetch_one(conn)
    .await
}

/// Links the application to its startup and accepts it.
pub async fn accept_application(
    conn: &mut SqliteConnection,
    id: i64,
    startup: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE startup_applications SET startup_id = ?, status = 'accepted', updated_at = ?
         WHERE id = ?",
        startup,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

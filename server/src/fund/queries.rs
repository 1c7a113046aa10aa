//! The SQL of `/vc-dashboard`: a fund team's startups with their favourites, requests and
//! reports, and the updates the team posts. Every query is scoped by the team member.

use ortak_app::domain::investing::RequestStatus;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

pub struct FundStartup {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub fund: String,
    pub favorites: i64,
}

/// The startups `user` works for (all of them, or the one `only`), by name: their fund's
/// startups for a fund team member, their own for a founder.
pub async fn fund_startups(
    db: &SqlitePool,
    user: i64,
    only: Option<i64>,
) -> sqlx::Result<Vec<FundStartup>> {
    sqlx::query_as!(
        FundStartup,
        r#"SELECT s.id AS "id!", s.slug, s.name, f.name AS fund,
               (SELECT COUNT(*) FROM favorites v WHERE v.startup_id = s.id) AS "favorites!: i64"
           FROM startups s JOIN funds f ON f.id = s.fund_id
           WHERE s.id IN (SELECT t.startup_id FROM startup_teams t WHERE t.user_id = ?1)
             AND (?2 IS NULL OR s.id = ?2)
           ORDER BY s.name"#,
        user,
        only
    )
    .fetch_all(db)
    .await
}

/// Whether `user` is on a fund's team (`/dashboard/vcGroups`); a founder who is not works
/// for their own startup only.
pub async fn on_a_fund_team(db: &SqlitePool, user: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM fund_members WHERE user_id = ?) AS "member!: bool""#,
        user
    )
    .fetch_one(db)
    .await
}

/// How many requests a startup has in one status, and for how much.
pub struct StatusCount {
    pub status: RequestStatus,
    pub count: i64,
    pub total_kurus: i64,
}

pub async fn requests_by_status(db: &SqlitePool, startup: i64) -> sqlx::Result<Vec<StatusCount>> {
    sqlx::query_as!(
        StatusCount,
        r#"SELECT status AS "status: RequestStatus", COUNT(*) AS "count!: i64",
               SUM(amount_kurus) AS "total_kurus!: i64"
           FROM investment_requests WHERE startup_id = ? GROUP BY status ORDER BY status"#,
        startup
    )
    .fetch_all(db)
    .await
}

pub struct ReportTitle {
    pub quarter: String,
    pub title_tr: String,
    pub title_en: String,
}

/// The startup's reports, newest first.
pub async fn reports(db: &SqlitePool, startup: i64) -> sqlx::Result<Vec<ReportTitle>> {
    sqlx::query_as!(
        ReportTitle,
        "SELECT quarter, title_tr, title_en FROM reports WHERE startup_id = ?
         ORDER BY published_at DESC",
        startup
    )
    .fetch_all(db)
    .await
}

pub struct Update {
    pub created_at: OffsetDateTime,
    pub body_tr: String,
    pub body_en: String,
}

/// Every update posted about the startup, newest first.
pub async fn updates(db: &SqlitePool, startup: i64) -> sqlx::Result<Vec<Update>> {
    sqlx::query_as!(
        Update,
        r#"SELECT created_at AS "created_at: OffsetDateTime", body_tr, body_en FROM startup_updates
           WHERE startup_id = ? ORDER BY id DESC"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// An update as stored: its id and its startup's address.
pub struct Posted {
    pub id: i64,
    pub slug: String,
}

/// Stores an update by `author`, posted `now`.
pub async fn insert_update(
    conn: &mut SqliteConnection,
    startup: i64,
    author: i64,
    (body_tr, body_en): (&str, &str),
    now: OffsetDateTime,
) -> sqlx::Result<Posted> {
    sqlx::query_as!(
        Posted,
        r#"INSERT INTO startup_updates (startup_id, author_user_id, body_tr, body_en, created_at)
           VALUES (?1, ?2, ?3, ?4, ?5)
           RETURNING id AS "id!", (SELECT slug FROM startups WHERE id = ?1) AS "slug!: String""#,
        startup,
        author,
        body_tr,
        body_en,
        now
    )
    .fetch_one(conn)
    .await
}

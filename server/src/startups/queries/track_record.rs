//! The SQL of the track record: closed rounds as their closes recorded them, the reports funded
//! startups posted, the investors whose money went through a close, and the partner funds.

use sqlx::SqlitePool;
use time::OffsetDateTime;

pub struct ClosedRow {
    pub id: i64,
    pub name: String,
    pub slug: String,
    pub fund: String,
    pub funded: bool,
    pub closed_at: OffsetDateTime,
    pub goal_kurus: i64,
    pub total_kurus: i64,
    pub investors: i64,
}

/// Every published round that closed, newest first.
pub async fn closed(db: &SqlitePool) -> sqlx::Result<Vec<ClosedRow>> {
    sqlx::query_as!(
        ClosedRow,
        r#"SELECT s.id AS "id!", s.name, s.slug, f.name AS fund,
               s.round_status = 'funded' AS "funded!: bool",
               s.closed_at AS "closed_at!: OffsetDateTime", s.funding_goal_kurus AS goal_kurus,
               COALESCE(s.closing_total_kurus, s.raised_kurus) AS "total_kurus!: i64",
               COALESCE(s.closing_investors, s.investor_count) AS "investors!: i64"
           FROM startups s JOIN funds f ON f.id = s.fund_id
           WHERE s.published = 1 AND s.round_status IN ('funded', 'failed') AND s.closed_at IS NOT NULL
           ORDER BY s.closed_at DESC"#
    )
    .fetch_all(db)
    .await
}

/// A quarterly report of a startup: its quarter as stored and when it was published.
pub struct Posted {
    pub startup_id: i64,
    pub quarter: String,
    pub published_at: OffsetDateTime,
}

pub async fn reports(db: &SqlitePool) -> sqlx::Result<Vec<Posted>> {
    sqlx::query_as!(
        Posted,
        r#"SELECT startup_id, quarter, published_at AS "published_at: OffsetDateTime" FROM reports"#
    )
    .fetch_all(db)
    .await
}

/// The people whose money a close allocated.
pub async fn allocated_investors(db: &SqlitePool) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT COUNT(DISTINCT user_id) AS "n!: i64" FROM investment_requests
           WHERE status = 'allocated'"#
    )
    .fetch_one(db)
    .await
}

/// A partner fund with what went through the platform.
pub struct Partner {
    pub slug: String,
    pub name: String,
    pub description_tr: String,
    pub description_en: String,
    pub website: String,
    pub startups: i64,
    pub funded: i64,
}

pub async fn partners(db: &SqlitePool) -> sqlx::Result<Vec<Partner>> {
    sqlx::query_as!(
        Partner,
        r#"SELECT f.slug, f.name, f.description_tr, f.description_en, f.website,
               (SELECT COUNT(*) FROM startups s WHERE s.fund_id = f.id AND s.published = 1)
                   AS "startups!: i64",
               (SELECT COUNT(*) FROM startups s WHERE s.fund_id = f.id AND s.round_status = 'funded')
                   AS "funded!: i64"
           FROM funds f ORDER BY f.name"#
    )
    .fetch_all(db)
    .await
}

//! The SQL of the demo content: blog posts, funds, startups with their sections, history,
//! slides, reports and founders, academy events, and the check for an existing admin.

use sqlx::{SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

/// A blog post as the content files hold it.
pub struct NewPost<'a> {
    pub slug: &'a str,
    pub title_tr: &'a str,
    pub title_en: &'a str,
    pub description_tr: &'a str,
    pub description_en: &'a str,
    pub body_tr: &'a str,
    pub body_en: &'a str,
    pub published_at: OffsetDateTime,
}

/// Inserts the post unless one with its slug exists (staff edits are never overwritten).
pub async fn insert_post_if_missing(db: &SqlitePool, p: &NewPost<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT OR IGNORE INTO blog_posts
         (slug, title_tr, title_en, description_tr, description_en, body_tr, body_en, published_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        p.slug,
        p.title_tr,
        p.title_en,
        p.description_tr,
        p.description_en,
        p.body_tr,
        p.body_en,
        p.published_at
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Whether any admin or superadmin exists.
pub async fn has_staff(db: &SqlitePool) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM users WHERE role IN ('admin', 'superadmin')) AS "any!: bool""#
    )
    .fetch_one(db)
    .await
}

/// Whether any startup exists (the demo's startups are only added to an empty catalogue).
pub async fn has_startups(db: &SqlitePool) -> sqlx::Result<bool> {
    sqlx::query_scalar!(r#"SELECT EXISTS (SELECT 1 FROM startups) AS "any!: bool""#)
        .fetch_one(db)
        .await
}

pub async fn insert_fund(
    conn: &mut SqliteConnection,
    slug: &str,
    name: &str,
    description_tr: &str,
    description_en: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        "INSERT INTO funds (slug, name, description_tr, description_en) VALUES (?, ?, ?, ?)
         RETURNING id",
        slug,
        name,
        description_tr,
        description_en
    )
    .fetch_one(conn)
    .await
}

/// A demo startup's catalogue row.
pub struct NewStartup<'a> {
    pub slug: &'a str,
    pub name: &'a str,
    pub sort_key_tr: String,
    pub sort_key_en: String,
    pub sector: &'a str,
    pub fund_id: i64,
    pub city: &'a str,
    pub description_tr: &'a str,
    pub description_en: &'a str,
    pub website: String,
    pub instagram: String,
    pub team_size: i64,
    pub established_on: Date,
    pub stage: &'a str,
    pub funding_goal_kurus: i64,
    pub raised_kurus: i64,
    pub investor_count: i64,
    pub completion_pct: i64,
    pub funded: bool,
    pub period_kind: &'a str,
    pub period_starts_on: Date,
    pub period_ends_on: Date,
    pub valuation_usd: i64,
    pub amount_sought_usd: i64,
    pub created_at: OffsetDateTime,
}

pub async fn insert_startup(conn: &mut SqliteConnection, s: &NewStartup<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO startups (slug, name, sort_key_tr, sort_key_en, sector, fund_id, city,
             description_tr, description_en, website, instagram, team_size, established_on, stage,
             funding_goal_kurus, raised_kurus, investor_count, completion_pct, funded, period_kind,
             period_starts_on, period_ends_on, valuation_usd, amount_sought_usd, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         RETURNING id AS "id!""#,
        s.slug,
        s.name,
        s.sort_key_tr,
        s.sort_key_en,
        s.sector,
        s.fund_id,
        s.city,
        s.description_tr,
        s.description_en,
        s.website,
        s.instagram,
        s.team_size,
        s.established_on,
        s.stage,
        s.funding_goal_kurus,
        s.raised_kurus,
        s.investor_count,
        s.completion_pct,
        s.funded,
        s.period_kind,
        s.period_starts_on,
        s.period_ends_on,
        s.valuation_usd,
        s.amount_sought_usd,
        s.created_at
    )
    .fetch_one(conn)
    .await
}

pub async fn insert_section(
    conn: &mut SqliteConnection,
    startup_id: i64,
    section: &str,
    body_tr: &str,
    body_en: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO startup_sections (startup_id, section, body_tr, body_en) VALUES (?, ?, ?, ?)",
        startup_id,
        section,
        body_tr,
        body_en
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_accelerator(
    conn: &mut SqliteConnection,
    startup_id: i64,
    attended_on: Date,
    program: &str,
    country: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO startup_accelerators (startup_id, attended_on, program, country)
         VALUES (?, ?, ?, ?)",
        startup_id,
        attended_on,
        program,
        country
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_prior_round(
    conn: &mut SqliteConnection,
    startup_id: i64,
    raised_on: Date,
    investors: &str,
    amount_usd: i64,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO startup_prior_rounds (startup_id, raised_on, investors, amount_usd)
         VALUES (?, ?, ?, ?)",
        startup_id,
        raised_on,
        investors,
        amount_usd
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A presentation page: an SVG slide stored as `file`.
pub async fn insert_slide(
    conn: &mut SqliteConnection,
    startup_id: i64,
    position: i64,
    file: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO startup_pages (startup_id, position, file_name, content_type)
         VALUES (?, ?, ?, 'image/svg+xml')",
        startup_id,
        position,
        file
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A quarterly report whose PDF is stored as `file_name`.
pub struct NewReport<'a> {
    pub startup_id: i64,
    pub quarter: &'a str,
    pub title_tr: String,
    pub title_en: String,
    pub summary_tr: String,
    pub summary_en: String,
    pub file_name: String,
    pub published_at: OffsetDateTime,
}

pub async fn insert_report(conn: &mut SqliteConnection, r: &NewReport<'_>) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO reports (startup_id, quarter, title_tr, title_en, summary_tr, summary_en,
             file_name, published_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        r.startup_id,
        r.quarter,
        r.title_tr,
        r.title_en,
        r.summary_tr,
        r.summary_en,
        r.file_name,
        r.published_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_founder(
    conn: &mut SqliteConnection,
    startup_id: i64,
    position: i64,
    name: &str,
    title: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO founders (startup_id, position_order, name, title) VALUES (?, ?, ?, ?)",
        startup_id,
        position,
        name,
        title
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_academy_event(
    conn: &mut SqliteConnection,
    title_tr: &str,
    title_en: &str,
    starts_at: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO academy_events (title_tr, title_en, starts_at) VALUES (?, ?, ?)",
        title_tr,
        title_en,
        starts_at
    )
    .execute(conn)
    .await?;
    Ok(())
}

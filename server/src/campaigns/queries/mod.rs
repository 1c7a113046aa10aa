//! The SQL of campaigns: the live campaign (the startup's row and sections), drafts, submitted
//! versions and staff's comments, and who works for a startup; the committee's in `committee`,
//! what an approval writes (the issuer's checks, the live campaign, documents) in `approval`.

mod approval;
mod committee;
pub mod disclosures;

pub use approval::*;
pub use committee::*;

use ortak_app::domain::campaign::{Campaign, Financials, FundUse, Terms};
use sqlx::SqliteConnection;
use time::{Date, OffsetDateTime};

/// The startup a campaign is of, as its pages name it.
pub struct Startup {
    pub name: String,
    pub city: String,
    pub website: String,
    pub established_on: Option<Date>,
    pub approved_version_id: Option<i64>,
    pub fund: String,
    pub lead_commitment_kurus: i64,
}

pub async fn startup(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<Option<Startup>> {
    sqlx::query_as!(
        Startup,
        r#"SELECT s.name, s.city, s.website, s.established_on AS "established_on: Date",
               s.approved_version_id, f.name AS fund, s.lead_commitment_kurus
           FROM startups s JOIN funds f ON f.id = s.fund_id WHERE s.id = ?"#,
        id
    )
    .fetch_optional(conn)
    .await
}

/// The campaign the startup's page shows now: what the last approved version set (or staff
/// typed before there were versions).
pub async fn live(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<Option<Campaign>> {
    let Some(row) = sqlx::query!(
        r#"SELECT description_tr, description_en, funding_goal_kurus,
               period_starts_on AS "starts_on: Date", period_ends_on AS "ends_on: Date",
               pre_money_valuation_kurus, share_price_kurus, shares_offered, minimum_raise_kurus,
               maximum_raise_kurus, use_of_funds, financials_period, revenue_kurus,
               net_income_kurus, pitch_video
           FROM startups WHERE id = ?"#,
        id
    )
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let sections = sqlx::query!(
        "SELECT section, body_tr, body_en FROM startup_sections WHERE startup_id = ?",
        id
    )
    .fetch_all(conn)
    .await?
    .into_iter()
    .map(|s| (s.section, (s.body_tr, s.body_en)))
    .collect();
    let use_of_funds: Vec<FundUse> = serde_json::from_str(&row.use_of_funds).unwrap_or_default();
    Ok(Some(Campaign {
        description_tr: row.description_tr,
        description_en: row.description_en,
        sections,
        goal_kurus: row.funding_goal_kurus,
        starts_on: row.starts_on,
        ends_on: row.ends_on,
        terms: Terms {
            pre_money_valuation_kurus: row.pre_money_valuation_kurus.unwrap_or(0),
            share_price_kurus: row.share_price_kurus.unwrap_or(0),
            shares_offered: row.shares_offered.unwrap_or(0),
            minimum_raise_kurus: row.minimum_raise_kurus.unwrap_or(0),
            maximum_raise_kurus: row.maximum_raise_kurus.unwrap_or(0),
            use_of_funds,
        },
        financials: Financials {
            period: row.financials_period,
            revenue_kurus: row.revenue_kurus,
            net_income_kurus: row.net_income_kurus,
        },
        pitch_video: row.pitch_video,
    }))
}

/// The draft being written (JSON), if one was saved.
pub async fn draft(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "SELECT content FROM campaign_drafts WHERE startup_id = ?",
        startup
    )
    .fetch_optional(conn)
    .await
}

pub async fn save_draft(
    conn: &mut SqliteConnection,
    startup: i64,
    content: &str,
    by: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO campaign_drafts (startup_id, content, updated_by, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (startup_id) DO UPDATE SET content = excluded.content,
             updated_by = excluded.updated_by, updated_at = excluded.updated_at",
        startup,
        content,
        by,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A submitted version.
pub struct Version {
    pub id: i64,
    pub startup_id: i64,
    pub number: i64,
    pub content: String,
    pub status: String,
    pub submitted_at: OffsetDateTime,
    pub submitted_by: Option<String>,
}

/// The startup's newest version.
pub async fn latest_version(
    conn: &mut SqliteConnection,
    startup: i64,
) -> sqlx::Result<Option<Version>> {
    sqlx::query_as!(
        Version,
        r#"SELECT v.id AS "id!", v.startup_id, v.number, v.content, v.status,
               v.submitted_at AS "submitted_at: OffsetDateTime", u.email AS "submitted_by?"
           FROM campaign_versions v LEFT JOIN users u ON u.id = v.submitted_by
           WHERE v.startup_id = ? ORDER BY v.number DESC LIMIT 1"#,
        startup
    )
    .fetch_optional(conn)
    .await
}

pub async fn version(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<Option<Version>> {
    sqlx::query_as!(
        Version,
        r#"SELECT v.id AS "id!", v.startup_id, v.number, v.content, v.status,
               v.submitted_at AS "submitted_at: OffsetDateTime", u.email AS "submitted_by?"
           FROM campaign_versions v LEFT JOIN users u ON u.id = v.submitted_by WHERE v.id = ?"#,
        id
    )
    .fetch_optional(conn)
    .await
}

/// Submits `content` as the startup's next version (a version still under review is
/// superseded); its id.
pub async fn submit(
    conn: &mut SqliteConnection,
    startup: i64,
    content: &str,
    by: i64,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query!(
        "UPDATE campaign_versions SET status = 'superseded'
         WHERE startup_id = ? AND status IN ('submitted', 'returned')",
        startup
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query_scalar!(
        r#"INSERT INTO campaign_versions (startup_id, number, content, submitted_by, submitted_at)
           VALUES (?1, (SELECT COALESCE(MAX(number), 0) + 1 FROM campaign_versions WHERE startup_id = ?1),
                   ?2, ?3, ?4)
           RETURNING id AS "id!""#,
        startup,
        content,
        by,
        now
    )
    .fetch_one(conn)
    .await
}

/// Moves version `id` from `from` to `to` as `by`; `false` when it was no longer at `from`.
pub async fn move_version(
    conn: &mut SqliteConnection,
    id: i64,
    (from, to): (&str, &str),
    by: Option<i64>,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let decided = matches!(to, "approved" | "rejected").then_some(now);
    let done = sqlx::query!(
        "UPDATE campaign_versions SET status = ?, reviewed_by = COALESCE(?, reviewed_by),
             reviewed_at = CASE WHEN ? IS NOT NULL THEN ? ELSE reviewed_at END,
             decided_at = COALESCE(?, decided_at)
         WHERE id = ? AND status = ?",
        to,
        by,
        by,
        now,
        decided,
        id,
        from
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Staff's comments on version `id`: `(section, comment)`.
pub async fn comments(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<Vec<(String, String)>> {
    Ok(sqlx::query!(
        "SELECT section, body FROM campaign_comments WHERE version_id = ? ORDER BY section",
        id
    )
    .fetch_all(conn)
    .await?
    .into_iter()
    .map(|c| (c.section, c.body))
    .collect())
}

pub async fn comment(
    conn: &mut SqliteConnection,
    id: i64,
    (section, body): (&str, &str),
    by: i64,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO campaign_comments (version_id, section, body, by_user, written_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (version_id, section) DO UPDATE SET body = excluded.body,
             by_user = excluded.by_user, written_at = excluded.written_at",
        id,
        section,
        body,
        by,
        now
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether `user` works for `startup` (its fund's team or its founders).
pub async fn works_for(conn: &mut SqliteConnection, user: i64, startup: i64) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM startup_teams WHERE user_id = ? AND startup_id = ?)
               AS "works!: bool""#,
        user,
        startup
    )
    .fetch_one(conn)
    .await
}

/// Someone who works for a startup, to write to.
pub struct TeamMember {
    pub email: String,
    pub first_name: String,
    pub language: ortak_app::i18n::Locale,
}

/// The startup's founders and fund team with a verified address.
pub async fn team(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Vec<TeamMember>> {
    sqlx::query_as!(
        TeamMember,
        r#"SELECT DISTINCT u.email, u.first_name, u.language AS "language: ortak_app::i18n::Locale"
           FROM startup_teams t JOIN users u ON u.id = t.user_id
           WHERE t.startup_id = ? AND u.email_verified_at IS NOT NULL AND u.deactivated_at IS NULL
           ORDER BY u.email"#,
        startup
    )
    .fetch_all(conn)
    .await
}

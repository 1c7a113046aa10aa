//! The investor's overview figures and the quarterly reports they may read.

use ortak_app::domain::investing::RequestStatus;
use sqlx::SqlitePool;
use time::{Date, OffsetDateTime};

/// The overview's figures for one investor, in one statement (one trip to SQLite's thread).
pub struct Figures {
    /// Requests still under way: how many, and how much.
    pub pending: i64,
    pub pending_kurus: i64,
    /// Published startups whose period is open today and not yet funded.
    pub open_startups: i64,
    /// Reports the investor may read (see below).
    pub reports: i64,
    /// Whether the investor filed MKK data.
    pub has_mkk: bool,
    /// Money in escrow (requests funded, their rounds not yet closed): how much.
    pub escrow_kurus: i64,
}

// Reports the user may read: those of startups they invested in (a request in
// `RequestStatus::INVESTED`, bound as JSON) and those of their
// fund team's startups. Favourites grant nothing. Each query below spells that condition out,
// as the macros need whole literals.

pub async fn figures(db: &SqlitePool, user: i64, today: Date) -> sqlx::Result<Figures> {
    let invested = RequestStatus::invested_json();
    sqlx::query_as!(
        Figures,
        r#"SELECT
             (SELECT COUNT(*) FROM investment_requests WHERE user_id = ?1 AND status IN
                ('waitlisted', 'submitted', 'under_review', 'approved', 'fee_paid', 'funded'))
                AS "pending!: i64",
             (SELECT COALESCE(SUM(amount_kurus), 0) FROM investment_requests WHERE user_id = ?1
                AND status IN ('waitlisted', 'submitted', 'under_review', 'approved', 'fee_paid', 'funded'))
                AS "pending_kurus!: i64",
             (SELECT COUNT(*) FROM startups
              WHERE published = 1 AND funded = 0 AND round_status = 'open' AND period_starts_on <= ?2
                AND period_ends_on >= ?2) AS "open_startups!: i64",
             (SELECT COUNT(*) FROM reports r WHERE r.startup_id IN (
                SELECT startup_id FROM investment_requests
                WHERE user_id = ?1 AND (status IN (SELECT value FROM json_each(?3)))
                UNION SELECT t.startup_id FROM startup_teams t
                WHERE t.user_id = ?1)) AS "reports!: i64",
             EXISTS (SELECT 1 FROM mkk_profiles WHERE user_id = ?1) AS "has_mkk!: bool",
             (SELECT COALESCE(SUM(investment_kurus), 0) FROM investment_requests
              WHERE user_id = ?1 AND status = 'funded') AS "escrow_kurus!: i64""#,
        user,
        today,
        invested
    )
    .fetch_one(db)
    .await
}

pub struct VisibleReport {
    pub id: i64,
    pub name: String,
    pub slug: String,
    pub quarter: String,
    pub title_tr: String,
    pub title_en: String,
    pub summary_tr: String,
    pub summary_en: String,
    pub published_at: OffsetDateTime,
    /// The user invested in the startup or works for it: the summary and the PDF are theirs.
    pub readable: bool,
}

/// The 200 latest reports of the startups the user invested in, works for or saved (a saved
/// startup's reports are listed by title only: they are its investors').
pub async fn visible_reports(db: &SqlitePool, user: i64) -> sqlx::Result<Vec<VisibleReport>> {
    let invested = RequestStatus::invested_json();
    sqlx::query_as!(
        VisibleReport,
        r#"SELECT r.id AS "id!", s.name, s.slug, r.quarter, r.title_tr, r.title_en, r.summary_tr, r.summary_en,
               r.published_at AS "published_at: OffsetDateTime",
               r.startup_id IN (
                   SELECT startup_id FROM investment_requests
                   WHERE user_id = ?1 AND (status IN (SELECT value FROM json_each(?2)))
                   UNION SELECT t.startup_id FROM startup_teams t WHERE t.user_id = ?1) AS "readable!: bool"
           FROM reports r JOIN startups s ON s.id = r.startup_id
           WHERE r.startup_id IN (
               SELECT startup_id FROM investment_requests
               WHERE user_id = ?1 AND (status IN (SELECT value FROM json_each(?2)))
               UNION SELECT t.startup_id FROM startup_teams t WHERE t.user_id = ?1
               UNION SELECT f.startup_id FROM favorites f WHERE f.user_id = ?1)
           ORDER BY r.published_at DESC, r.id DESC LIMIT 200"#,
        user,
        invested
    )
    .fetch_all(db)
    .await
}

/// The stored PDF of report `id`, if the user may read it (`staff`: every report).
pub async fn visible_report_file(
    db: &SqlitePool,
    user: i64,
    staff: bool,
    id: i64,
) -> sqlx::Result<Option<String>> {
    let invested = RequestStatus::invested_json();
    sqlx::query_scalar!(
        "SELECT r.file_name FROM reports r WHERE r.id = ?2 AND (?3 OR r.startup_id IN (
             SELECT startup_id FROM investment_requests
             WHERE user_id = ?1 AND (status IN (SELECT value FROM json_each(?4)))
             UNION SELECT t.startup_id FROM startup_teams t
             WHERE t.user_id = ?1))",
        user,
        id,
        staff,
        invested
    )
    .fetch_optional(db)
    .await
}

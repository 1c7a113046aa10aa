//! The SQL of disclosures after funding: the founders' posts, staff's review of them, and the
//! fund-use reports the overdue job chases.

use ortak_app::domain::disclosures::Disclosure;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// A disclosure with its startup's name.
pub struct DisclosureRow {
    pub id: i64,
    pub startup_id: i64,
    pub startup: String,
    pub kind: String,
    pub title_tr: String,
    pub title_en: String,
    pub body_tr: String,
    pub body_en: String,
    /// JSON `[Spending]`.
    pub spending: String,
    pub posted_by: Option<i64>,
    pub posted_at: OffsetDateTime,
    pub status: String,
    pub review_note: String,
}

/// Stores a founder's disclosure, waiting for staff.
pub async fn insert(
    conn: &mut SqliteConnection,
    startup: i64,
    by: i64,
    d: &Disclosure,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    let kind = d.kind.code();
    let spending = serde_json::to_string(&d.spending).expect("spending serializes");
    sqlx::query_scalar!(
        r#"INSERT INTO disclosures (startup_id, kind, title_tr, title_en, body_tr, body_en,
               spending, posted_by, posted_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id AS "id!""#,
        startup,
        kind,
        d.title_tr,
        d.title_en,
        d.body_tr,
        d.body_en,
        spending,
        by,
        now
    )
    .fetch_one(conn)
    .await
}

/// The startup's disclosures, newest first.
pub async fn of_startup(db: &SqlitePool, startup: i64) -> sqlx::Result<Vec<DisclosureRow>> {
    sqlx::query_as!(
        DisclosureRow,
        r#"SELECT d.id AS "id!", d.startup_id, s.name AS startup, d.kind, d.title_tr, d.title_en,
               d.body_tr, d.body_en, d.spending, d.posted_by,
               d.posted_at AS "posted_at: OffsetDateTime", d.status, d.review_note
           FROM disclosures d JOIN startups s ON s.id = d.startup_id
           WHERE d.startup_id = ? ORDER BY d.id DESC LIMIT 100"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// Disclosures in `status` across startups: the submitted ones oldest first (the queue), the
/// reviewed ones newest first, at most `limit`.
pub async fn by_status(
    db: &SqlitePool,
    status: &str,
    limit: i64,
) -> sqlx::Result<Vec<DisclosureRow>> {
    sqlx::query_as!(
        DisclosureRow,
        r#"SELECT d.id AS "id!", d.startup_id, s.name AS startup, d.kind, d.title_tr, d.title_en,
               d.body_tr, d.body_en, d.spending, d.posted_by,
               d.posted_at AS "posted_at: OffsetDateTime", d.status, d.review_note
           FROM disclosures d JOIN startups s ON s.id = d.startup_id
           WHERE (?1 = 'submitted' AND d.status = 'submitted')
              OR (?1 <> 'submitted' AND d.status <> 'submitted')
           ORDER BY CASE WHEN ?1 = 'submitted' THEN d.id ELSE -d.id END LIMIT ?2"#,
        status,
        limit
    )
    .fetch_all(db)
    .await
}

pub async fn one(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<Option<DisclosureRow>> {
    sqlx::query_as!(
        DisclosureRow,
        r#"SELECT d.id AS "id!", d.startup_id, s.name AS startup, d.kind, d.title_tr, d.title_en,
               d.body_tr, d.body_en, d.spending, d.posted_by,
               d.posted_at AS "posted_at: OffsetDateTime", d.status, d.review_note
           FROM disclosures d JOIN startups s ON s.id = d.startup_id WHERE d.id = ?"#,
        id
    )
    .fetch_optional(conn)
    .await
}

/// Records staff's decision on a submitted disclosure (`approved` with the update it was
/// published as, or `returned`); `false` when it was decided already.
pub async fn decide(
    conn: &mut SqliteConnection,
    id: i64,
    status: &str,
    by: i64,
    note: &str,
    update: Option<i64>,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE disclosures SET status = ?, reviewed_by = ?, reviewed_at = ?, review_note = ?,
             update_id = ?
         WHERE id = ? AND status = 'submitted'",
        status,
        by,
        now,
        note,
        update,
        id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Where the startup's round stands for disclosures: funded (and when it closed), and the plan
/// for the money in its approved campaign (JSON `[FundUse]`).
pub struct Funding {
    pub name: String,
    pub closed_at: Option<OffsetDateTime>,
    pub use_of_funds: String,
}

pub async fn funding(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Option<Funding>> {
    sqlx::query_as!(
        Funding,
        r#"SELECT name,
               CASE WHEN round_status = 'funded' THEN closed_at END
                 AS "closed_at?: OffsetDateTime",
               use_of_funds
           FROM startups WHERE id = ?"#,
        startup
    )
    .fetch_optional(conn)
    .await
}

/// A funded startup and its latest approved fund-use report's spending.
pub struct FundUseReports {
    pub id: i64,
    pub name: String,
    pub closed_at: OffsetDateTime,
    pub latest_spending: Option<String>,
}

/// Funded startups (all, or `only`) with their fund-use reports.
pub async fn fund_use_reports(
    db: &SqlitePool,
    only: Option<i64>,
) -> sqlx::Result<Vec<FundUseReports>> {
    sqlx::query_as!(
        FundUseReports,
        r#"SELECT s.id AS "id!", s.name, s.closed_at AS "closed_at!: OffsetDateTime",
               (SELECT d.spending FROM disclosures d WHERE d.startup_id = s.id
                AND d.kind = 'fund-use' AND d.status = 'approved' ORDER BY d.id DESC LIMIT 1)
                 AS "latest_spending?: String"
           FROM startups s
           WHERE s.round_status = 'funded' AND s.closed_at IS NOT NULL
             AND (?1 IS NULL OR s.id = ?1)
           ORDER BY s.id"#,
        only
    )
    .fetch_all(db)
    .await
}

/// When the startup's fund-use reports were posted (returned ones excluded).
pub async fn fund_use_posted(db: &SqlitePool, startup: i64) -> sqlx::Result<Vec<OffsetDateTime>> {
    sqlx::query_scalar!(
        r#"SELECT posted_at AS "posted_at: OffsetDateTime" FROM disclosures
           WHERE startup_id = ? AND kind = 'fund-use' AND status <> 'returned'"#,
        startup
    )
    .fetch_all(db)
    .await
}

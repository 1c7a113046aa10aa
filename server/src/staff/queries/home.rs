//! The SQL of the dashboard's home: today's figures, the request funnel and daily counts (for the
//! weekly charts).

use sqlx::SqlitePool;
use time::{Date, OffsetDateTime};

/// Every count the home page shows, read at once.
pub struct HomeCounts {
    /// Members who joined since the cut-off.
    pub new_users: i64,
    pub mkk_waiting: i64,
    pub open_requests: i64,
    pub fee_paid: i64,
    pub new_applications: i64,
    pub open_messages: i64,
    /// The request funnel: every request, then approved ones (and further), those whose money
    /// is in escrow, and those allocated.
    pub requests: i64,
    pub approved: i64,
    pub paid: i64,
    pub completed: i64,
}

pub async fn counts(db: &SqlitePool, joined_since: OffsetDateTime) -> sqlx::Result<HomeCounts> {
    sqlx::query_as!(
        HomeCounts,
        r#"SELECT
             (SELECT COUNT(*) FROM users WHERE created_at >= ?) AS "new_users!: i64",
             (SELECT COUNT(*) FROM mkk_profiles WHERE status = 'submitted') AS "mkk_waiting!: i64",
             (SELECT COUNT(*) FROM investment_requests WHERE status IN ('submitted', 'under_review'))
                 AS "open_requests!: i64",
             (SELECT COUNT(*) FROM investment_requests WHERE fee_paid_at IS NOT NULL) AS "fee_paid!: i64",
             (SELECT COUNT(*) FROM startup_applications WHERE status = 'new') AS "new_applications!: i64",
             (SELECT COUNT(*) FROM contact_messages WHERE handled_at IS NULL) AS "open_messages!: i64",
             (SELECT COUNT(*) FROM investment_requests) AS "requests!: i64",
             (SELECT COUNT(*) FROM investment_requests
              WHERE status IN ('approved', 'fee_paid', 'funded', 'allocated')) AS "approved!: i64",
             (SELECT COUNT(*) FROM investment_requests WHERE status IN ('funded', 'allocated')) AS "paid!: i64",
             (SELECT COUNT(*) FROM investment_requests WHERE status = 'allocated') AS "completed!: i64""#,
        joined_since
    )
    .fetch_one(db)
    .await
}

/// Rows created on one day (Istanbul's calendar) and how many; the page groups days into ISO
/// weeks (SQLite's own week numbers are not ISO's).
pub struct DayCount {
    pub day: Date,
    pub count: i64,
}

/// Sign-ups per day since `since` (days without any are absent).
pub async fn daily_signups(db: &SqlitePool, since: OffsetDateTime) -> sqlx::Result<Vec<DayCount>> {
    sqlx::query_as!(
        DayCount,
        r#"SELECT date(created_at, '+3 hours') AS "day!: Date", COUNT(*) AS "count!: i64"
           FROM users WHERE created_at >= ? GROUP BY 1"#,
        since
    )
    .fetch_all(db)
    .await
}

/// Investment requests per day since `since` (days without any are absent).
pub async fn daily_requests(db: &SqlitePool, since: OffsetDateTime) -> sqlx::Result<Vec<DayCount>> {
    sqlx::query_as!(
        DayCount,
        r#"SELECT date(created_at, '+3 hours') AS "day!: Date", COUNT(*) AS "count!: i64"
           FROM investment_requests WHERE created_at >= ? GROUP BY 1"#,
        since
    )
    .fetch_all(db)
    .await
}

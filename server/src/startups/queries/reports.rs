//! The SQL behind overdue quarterly reports.

use ortak_app::domain::investing::RequestStatus;
use sqlx::SqlitePool;
use time::OffsetDateTime;

/// A funded startup with the quarters it has reported on (as typed or stored).
pub struct Reporting {
    pub id: i64,
    pub name: String,
    pub closed_at: OffsetDateTime,
    /// A JSON array of `reports.quarter`.
    pub quarters: String,
}

/// Funded startups: all of them (`viewer` `None`, for staff), or those `viewer` works for or
/// invested in.
pub async fn funded(db: &SqlitePool, viewer: Option<i64>) -> sqlx::Result<Vec<Reporting>> {
    let invested = RequestStatus::invested_json();
    sqlx::query_as!(
        Reporting,
        r#"SELECT s.id AS "id!", s.name, s.closed_at AS "closed_at!: OffsetDateTime",
               (SELECT json_group_array(r.quarter) FROM reports r WHERE r.startup_id = s.id)
                 AS "quarters!: String"
         FROM startups s
         WHERE s.round_status = 'funded' AND s.closed_at IS NOT NULL
           AND (?1 IS NULL
             OR s.id IN (SELECT startup_id FROM startup_teams WHERE user_id = ?1)
             OR s.id IN (SELECT startup_id FROM investment_requests
                         WHERE user_id = ?1 AND status IN (SELECT value FROM json_each(?2))))
         ORDER BY s.name"#,
        viewer,
        invested
    )
    .fetch_all(db)
    .await
}

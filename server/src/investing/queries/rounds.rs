//! The SQL of the round jobs: rounds due to close, starting and finishing a close, the
//! requests a close still has to settle, payment deadlines that passed, and the reminders
//! due before them (each sent once, keyed by request and kind).

use sqlx::{SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

/// Open rounds due to close: a period (investment or pre-investment) that ended before `today`
/// (Istanbul), or an early close a superadmin scheduled for `now` or before. A pre-investment
/// period that ends without staff having opened the investment period closes the same way, so
/// money paid in it never waits without an end (issue 30). A round waits while investors
/// reconfirm, and while any request is inside its own cancellation window or payment deadline:
/// a close never takes a right an investor still holds (issue 27).
pub async fn rounds_due(
    db: &SqlitePool,
    today: Date,
    now: OffsetDateTime,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM startups
           WHERE round_status = 'open'
             AND (period_ends_on < ?1 OR close_scheduled_at <= ?2)
             AND NOT EXISTS (SELECT 1 FROM reconfirmations c
                 JOIN investment_requests r ON r.id = c.request_id
                 WHERE r.startup_id = startups.id AND c.answer = 'pending')
             AND NOT EXISTS (SELECT 1 FROM investment_requests r WHERE r.startup_id = startups.id
                 AND ((r.status IN ('waitlisted', 'submitted', 'under_review', 'approved', 'fee_paid',
                                    'funded') AND r.cancel_until > ?2)
                      OR (r.status = 'approved' AND r.fee_due_at > ?2)
                      OR (r.status = 'fee_paid' AND r.transfer_due_at > ?2)))
           ORDER BY id"#,
        today,
        now
    )
    .fetch_all(db)
    .await
}

/// When the last right an investor holds in the round ends: the latest open cancellation
/// window or payment deadline (`None` when none is open).
pub async fn rights_end(
    conn: &mut SqliteConnection,
    startup: i64,
    now: OffsetDateTime,
) -> sqlx::Result<Option<OffsetDateTime>> {
    sqlx::query_scalar!(
        r#"SELECT MAX(at) AS "at?: OffsetDateTime" FROM (
               SELECT cancel_until AS at FROM investment_requests WHERE startup_id = ?1
                   AND status IN ('waitlisted', 'submitted', 'under_review', 'approved', 'fee_paid', 'funded')
               UNION ALL SELECT fee_due_at FROM investment_requests WHERE startup_id = ?1 AND status = 'approved'
               UNION ALL SELECT transfer_due_at FROM investment_requests WHERE startup_id = ?1 AND status = 'fee_paid')
           WHERE at > ?2"#,
        startup,
        now
    )
    .fetch_one(conn)
    .await
}

/// Schedules the open round's early close at `at`; `false` when it was not open or had one.
pub async fn schedule_close(
    conn: &mut SqliteConnection,
    startup: i64,
    at: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE startups SET close_scheduled_at = ?
         WHERE id = ? AND round_status = 'open' AND close_scheduled_at IS NULL",
        at,
        startup
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records why the round is terminated.
pub async fn set_termination(
    conn: &mut SqliteConnection,
    startup: i64,
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE startups SET termination_reason = ? WHERE id = ?",
        reason,
        startup
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// What an early close would touch: requests still open, and the money they hold.
pub struct ClosePreview {
    pub open_requests: i64,
    pub investors: i64,
    pub escrow_requests: i64,
    pub escrow_kurus: i64,
    pub fees_paid: i64,
    pub fees_kurus: i64,
}

pub async fn close_preview(
    conn: &mut SqliteConnection,
    startup: i64,
) -> sqlx::Result<ClosePreview> {
    sqlx::query_as!(
        ClosePreview,
        r#"SELECT COUNT(*) AS "open_requests!: i64", COUNT(DISTINCT r.user_id) AS "investors!: i64",
               COUNT(CASE WHEN r.status = 'funded' THEN 1 END) AS "escrow_requests!: i64",
               COALESCE(SUM(CASE WHEN r.status = 'funded' THEN r.investment_kurus END), 0) AS "escrow_kurus!: i64",
               COUNT(CASE WHEN r.fee_paid_at IS NOT NULL THEN 1 END) AS "fees_paid!: i64",
               COALESCE(SUM(CASE WHEN r.fee_paid_at IS NOT NULL THEN r.fee_kurus END), 0) AS "fees_kurus!: i64"
           FROM investment_requests r WHERE r.startup_id = ?
             AND r.status IN ('waitlisted', 'submitted', 'under_review', 'approved', 'fee_paid', 'funded')"#,
        startup
    )
    .fetch_one(conn)
    .await
}

/// The requests still open in the round: whom an early close or a termination is mailed to.
pub async fn open_requests(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM investment_requests WHERE startup_id = ?
           AND status IN ('waitlisted', 'submitted', 'under_review', 'approved', 'fee_paid', 'funded')
           ORDER BY id"#,
        startup
    )
    .fetch_all(conn)
    .await
}

/// What a close decides from.
pub struct Standing {
    pub goal_kurus: i64,
    /// Received in escrow by requests in the round (the ledger keeps it).
    pub raised_kurus: i64,
}

pub async fn standing(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Standing> {
    sqlx::query_as!(
        Standing,
        "SELECT funding_goal_kurus AS goal_kurus, raised_kurus FROM startups WHERE id = ?",
        startup
    )
    .fetch_one(conn)
    .await
}

/// Starts the close of an open round with its decided outcome and the total the shares are
/// of; `false` when it was no longer open.
pub async fn start_close(
    conn: &mut SqliteConnection,
    startup: i64,
    outcome: &str,
    total_kurus: i64,
    by: Option<i64>,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE startups SET round_status = 'closing', close_outcome = ?1, closing_total_kurus = ?2,
             closed_by = ?3, closing_started_at = ?4,
             closing_investors = (SELECT COUNT(DISTINCT user_id) FROM investment_requests
                                  WHERE startup_id = ?5 AND status = 'funded')
         WHERE id = ?5 AND round_status = 'open'",
        outcome,
        total_kurus,
        by,
        now,
        startup
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A round being closed.
pub struct Closing {
    pub id: i64,
    pub name: String,
    pub succeeded: bool,
    pub total_kurus: i64,
    /// Why a superadmin terminated the round, if it is a termination.
    pub termination_reason: Option<String>,
}

pub async fn closing(db: &SqlitePool) -> sqlx::Result<Vec<Closing>> {
    sqlx::query_as!(
        Closing,
        r#"SELECT id AS "id!", name, close_outcome = 'funded' AS "succeeded!: bool",
               COALESCE(closing_total_kurus, 0) AS "total_kurus!: i64", termination_reason
           FROM startups WHERE round_status = 'closing' ORDER BY id"#
    )
    .fetch_all(db)
    .await
}

/// The startup's requests the close has not settled yet, in order.
pub async fn unsettled(db: &SqlitePool, startup: i64) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(
        r#"SELECT id AS "id!" FROM investment_requests
           WHERE startup_id = ? AND status IN ('waitlisted', 'submitted', 'under_review', 'approved',
                                               'fee_paid', 'funded')
           ORDER BY id"#,
        startup
    )
    .fetch_all(db)
    .await
}

/// Marks the close done once every request is settled; `false` if one is not (or it was
/// finished already).
pub async fn finish_close(
    conn: &mut SqliteConnection,
    startup: i64,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE startups SET round_status = close_outcome, funded = (close_outcome = 'funded'), closed_at = ?
         WHERE id = ? AND round_status = 'closing' AND NOT EXISTS (
             SELECT 1 FROM investment_requests WHERE startup_id = ?
             AND status IN ('waitlisted', 'submitted', 'under_review', 'approved', 'fee_paid', 'funded'))",
        now,
        startup,
        startup
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Requests of open rounds whose payment deadline passed.
pub async fn deadlines_passed(db: &SqlitePool, now: OffsetDateTime) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(
        r#"SELECT r.id AS "id!" FROM investment_requests r JOIN startups s ON s.id = r.startup_id
           WHERE s.round_status = 'open' AND (
               (r.status = 'approved' AND r.fee_due_at <= ?1)
               OR (r.status = 'fee_paid' AND r.transfer_due_at <= ?1))
           ORDER BY r.id"#,
        now
    )
    .fetch_all(db)
    .await
}

/// Requests whose payment deadline is within `lead` of `now` and not yet reminded.
pub async fn reminders_due(
    db: &SqlitePool,
    now: OffsetDateTime,
    soon: OffsetDateTime,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar!(
        r#"SELECT r.id AS "id!" FROM investment_requests r JOIN startups s ON s.id = r.startup_id
           WHERE s.round_status = 'open' AND (
               (r.status = 'approved' AND r.fee_due_at > ?1 AND r.fee_due_at <= ?2
                AND NOT EXISTS (SELECT 1 FROM request_notices n WHERE n.request_id = r.id AND n.kind = 'fee-reminder'))
               OR (r.status = 'fee_paid' AND r.transfer_due_at > ?1 AND r.transfer_due_at <= ?2
                AND NOT EXISTS (SELECT 1 FROM request_notices n WHERE n.request_id = r.id AND n.kind = 'transfer-reminder')))
           ORDER BY r.id"#,
        now,
        soon
    )
    .fetch_all(db)
    .await
}

/// Notes that mail `kind` went to the request; `false` when it had already.
pub async fn insert_notice(
    conn: &mut SqliteConnection,
    request: i64,
    kind: &str,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "INSERT OR IGNORE INTO request_notices (request_id, kind, created_at) VALUES (?, ?, ?)",
        request,
        kind,
        now
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The request's deadlines, to tell which one a reminder is for.
pub struct Deadlines {
    pub fee_due_at: Option<OffsetDateTime>,
    pub transfer_due_at: Option<OffsetDateTime>,
}

pub async fn deadlines(conn: &mut SqliteConnection, request: i64) -> sqlx::Result<Deadlines> {
    sqlx::query_as!(
        Deadlines,
        r#"SELECT fee_due_at AS "fee_due_at: OffsetDateTime",
               transfer_due_at AS "transfer_due_at: OffsetDateTime"
           FROM investment_requests WHERE id = ?"#,
        request
    )
    .fetch_one(conn)
    .await
}

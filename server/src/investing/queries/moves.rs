//! The SQL that moves requests: reading a request with its round before a move, the moves
//! themselves (each guarded by the status it starts from, so a repeated move changes
//! nothing), what a round has committed, and its waitlist.

use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::rounds::RoundStatus;
use sqlx::SqliteConnection;
use time::{Date, OffsetDateTime};

/// A request as a move needs it, with its round.
pub struct Target {
    pub id: i64,
    pub user_id: i64,
    pub startup_id: i64,
    pub status: RequestStatus,
    pub investment_kurus: i64,
    pub cancel_until: OffsetDateTime,
    pub round: RoundStatus,
    /// The transfer's reference, once the payer gave their details.
    pub reference: Option<String>,
}

pub async fn target(conn: &mut SqliteConnection, id: i64) -> sqlx::Result<Option<Target>> {
    sqlx::query_as!(
        Target,
        r#"SELECT r.id AS "id!", r.user_id, r.startup_id, r.status AS "status: RequestStatus",
               r.investment_kurus, r.cancel_until AS "cancel_until: OffsetDateTime",
               s.round_status AS "round: RoundStatus", b.reference AS "reference?"
           FROM investment_requests r JOIN startups s ON s.id = r.startup_id
           LEFT JOIN bank_transfers b ON b.request_id = r.id
           WHERE r.id = ?"#,
        id
    )
    .fetch_optional(conn)
    .await
}

/// Moves request `id` from `from` to `to`; `false` when it was no longer at `from`.
pub async fn set_status(
    conn: &mut SqliteConnection,
    id: i64,
    from: RequestStatus,
    to: RequestStatus,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE investment_requests SET status = ?, updated_at = ? WHERE id = ? AND status = ?",
        to,
        now,
        id,
        from
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Staff rejected request `id` (from `from`), with their reason.
pub async fn reject(
    conn: &mut SqliteConnection,
    id: i64,
    from: RequestStatus,
    reason: &str,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE investment_requests SET status = 'rejected', rejection_reason = ?, updated_at = ?
         WHERE id = ? AND status = ?",
        reason,
        now,
        id,
        from
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Staff approved request `id`: the fee is due by `fee_due_at`.
pub async fn approve(
    conn: &mut SqliteConnection,
    id: i64,
    from: RequestStatus,
    fee_due_at: OffsetDateTime,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE investment_requests SET status = 'approved', fee_due_at = ?, updated_at = ?
         WHERE id = ? AND status = ?",
        fee_due_at,
        now,
        id,
        from
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The fee arrived (its ledger row is written first): the transfer is due by
/// `transfer_due_at`.
pub async fn fee_paid(
    conn: &mut SqliteConnection,
    id: i64,
    transfer_due_at: OffsetDateTime,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE investment_requests SET status = 'fee_paid', fee_paid_at = ?, transfer_due_at = ?,
             updated_at = ?
         WHERE id = ? AND status = 'approved' AND fee_paid_at IS NULL",
        now,
        transfer_due_at,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The round succeeded: request `id` is allocated its share (the ledger row comes first).
pub async fn allocate(
    conn: &mut SqliteConnection,
    id: i64,
    share_ppm: i64,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE investment_requests SET status = 'allocated', share_ppm = ?, updated_at = ?
         WHERE id = ? AND status = 'funded'",
        share_ppm,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A waitlisted request gets its place: it is sent now, with a new cancellation window.
pub async fn promote(
    conn: &mut SqliteConnection,
    id: i64,
    cancel_until: OffsetDateTime,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE investment_requests SET status = 'submitted', cancel_until = ?, updated_at = ?
         WHERE id = ? AND status = 'waitlisted'",
        cancel_until,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// What requests holding a place in the startup's round add up to (what goes to escrow).
pub async fn committed(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT COALESCE(SUM(investment_kurus), 0) AS "committed!: i64" FROM investment_requests
           WHERE startup_id = ? AND status IN ('submitted', 'under_review', 'approved', 'fee_paid',
                                               'funded', 'allocated')"#,
        startup
    )
    .fetch_one(conn)
    .await
}

/// What the startup's round holds for good: money in escrow (or allocated) whose cancellation
/// window has passed. A request larger than the round's capacity beside this can never get in.
pub async fn settled(
    conn: &mut SqliteConnection,
    startup: i64,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT COALESCE(SUM(investment_kurus), 0) AS "settled!: i64" FROM investment_requests
           WHERE startup_id = ? AND status IN ('funded', 'allocated') AND cancel_until <= ?"#,
        startup,
        now
    )
    .fetch_one(conn)
    .await
}

/// A request in line, and what it would commit.
pub struct Waiting {
    pub id: i64,
    pub investment_kurus: i64,
}

/// The startup's waitlist, in order.
pub async fn waiting(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Vec<Waiting>> {
    sqlx::query_as!(
        Waiting,
        r#"SELECT id AS "id!", investment_kurus FROM investment_requests
           WHERE startup_id = ? AND status = 'waitlisted' ORDER BY id"#,
        startup
    )
    .fetch_all(conn)
    .await
}

/// The startup's round: its status and goal, and whether an early close is scheduled.
pub struct Round {
    pub status: RoundStatus,
    pub goal_kurus: i64,
    pub close_scheduled: bool,
}

pub async fn round(conn: &mut SqliteConnection, startup: i64) -> sqlx::Result<Round> {
    sqlx::query_as!(
        Round,
        r#"SELECT round_status AS "status: RoundStatus", funding_goal_kurus AS goal_kurus,
               close_scheduled_at IS NOT NULL AS "close_scheduled!: bool"
           FROM startups WHERE id = ?"#,
        startup
    )
    .fetch_one(conn)
    .await
}

/// The reference of the transfer expected for a request, once the payer gave their details.
pub async fn transfer_reference(
    conn: &mut SqliteConnection,
    request: i64,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!(
        "SELECT reference FROM bank_transfers WHERE request_id = ?",
        request
    )
    .fetch_optional(conn)
    .await
}

/// Shows on the transfer what the clearing bank reported in total, and the latest day.
pub async fn note_receipt(
    conn: &mut SqliteConnection,
    request: i64,
    total_kurus: i64,
    on: Date,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE bank_transfers SET received_amount_kurus = ?, received_at = ? WHERE request_id = ?",
        total_kurus,
        on,
        request
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Everything the clearing bank reported received under the request's reference.
pub async fn received_total(conn: &mut SqliteConnection, request: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT COALESCE(SUM(amount_kurus), 0) AS "total!: i64" FROM money_events
           WHERE request_id = ? AND kind = 'transfer_received'"#,
        request
    )
    .fetch_one(conn)
    .await
}

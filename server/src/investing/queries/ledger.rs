//! The SQL of the ledger (`money_events`): writing a money move, and what a request holds.
//! The table refuses updates and deletes (triggers); moves that happen once per request are
//! unique, so a retry finds its row and writes nothing.

use ortak_app::domain::investing::MoneyKind;
use sqlx::SqliteConnection;
use time::OffsetDateTime;

/// A money move to record.
pub struct Move<'a> {
    pub request: i64,
    pub kind: MoneyKind,
    pub amount_kurus: i64,
    pub reference: &'a str,
    pub actor: Option<i64>,
    pub note: &'a str,
}

/// Records `m` at `at`; `false` when a move of this kind that happens once was already there.
pub async fn insert_at(
    conn: &mut SqliteConnection,
    m: &Move<'_>,
    at: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "INSERT OR IGNORE INTO money_events (request_id, kind, amount_kurus, reference, actor_user_id, note, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)",
        m.request,
        m.kind,
        m.amount_kurus,
        m.reference,
        m.actor,
        m.note,
        at
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records the fee paid by card, only while the request is approved with its fee unpaid;
/// `false` (nothing written) otherwise.
pub async fn insert_fee_paid(
    conn: &mut SqliteConnection,
    request: i64,
    amount_kurus: i64,
    payment: &str,
    at: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "INSERT OR IGNORE INTO money_events (request_id, kind, amount_kurus, reference, note, created_at)
         SELECT id, 'fee_paid', ?, ?, 'service fee paid by card', ? FROM investment_requests
         WHERE id = ? AND status = 'approved' AND fee_paid_at IS NULL",
        amount_kurus,
        payment,
        at,
        request
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Money in escrow for the request: received less what was sent back.
pub async fn escrow_balance(conn: &mut SqliteConnection, request: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"SELECT COALESCE(SUM(CASE kind WHEN 'transfer_received' THEN amount_kurus
                                         WHEN 'escrow_refunded' THEN -amount_kurus ELSE 0 END), 0)
               AS "balance!: i64"
           FROM money_events WHERE request_id = ?"#,
        request
    )
    .fetch_one(conn)
    .await
}

/// Whether the request's service fee was paid and not yet refunded.
pub async fn fee_held(conn: &mut SqliteConnection, request: i64) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        r#"SELECT p.amount_kurus AS "amount!: i64" FROM money_events p
           WHERE p.request_id = ? AND p.kind = 'fee_paid' AND NOT EXISTS (
               SELECT 1 FROM money_events r WHERE r.request_id = p.request_id AND r.kind = 'fee_refunded')"#,
        request
    )
    .fetch_optional(conn)
    .await
}

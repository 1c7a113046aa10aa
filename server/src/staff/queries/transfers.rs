//! The SQL of the escrow transfers staff reconcile: what is expected by reference, and what
//! the clearing bank reported as received.

use ortak_app::domain::investing::RequestStatus;
use sqlx::{SqliteConnection, SqlitePool};
use time::Date;

pub struct Transfer {
    pub request_id: i64,
    pub reference: String,
    pub investor: String,
    pub startup: String,
    pub amount_kurus: i64,
    pub received_amount_kurus: Option<i64>,
    pub received_on: Option<Date>,
}

/// The latest 500 transfers, newest first.
pub async fn list(db: &SqlitePool) -> sqlx::Result<Vec<Transfer>> {
    sqlx::query_as!(
        Transfer,
        r#"SELECT b.request_id, b.reference, u.email AS investor, s.name AS startup, b.amount_kurus,
               b.received_amount_kurus, b.received_at AS "received_on: Date"
           FROM bank_transfers b JOIN investment_requests r ON r.id = b.request_id
           JOIN users u ON u.id = r.user_id JOIN startups s ON s.id = r.startup_id
           ORDER BY b.created_at DESC LIMIT 500"#
    )
    .fetch_all(db)
    .await
}

/// What a request's transfer should bring, and what was recorded as received so far.
pub struct Expected {
    pub amount_kurus: i64,
    pub received_amount_kurus: Option<i64>,
}

pub async fn expected(
    conn: &mut SqliteConnection,
    request_id: i64,
) -> sqlx::Result<Option<Expected>> {
    sqlx::query_as!(
        Expected,
        "SELECT amount_kurus, received_amount_kurus FROM bank_transfers WHERE request_id = ?",
        request_id
    )
    .fetch_optional(conn)
    .await
}

/// Records the amount and day the bank reported.
pub async fn record_received(
    conn: &mut SqliteConnection,
    request_id: i64,
    amount_kurus: i64,
    on: Date,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE bank_transfers SET received_amount_kurus = ?, received_at = ? WHERE request_id = ?",
        amount_kurus,
        on,
        request_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The request's current status.
pub async fn request_status(
    conn: &mut SqliteConnection,
    request_id: i64,
) -> sqlx::Result<RequestStatus> {
    sqlx::query_scalar!(
        r#"SELECT status AS "status: RequestStatus" FROM investment_requests WHERE id = ?"#,
        request_id
    )
    .fetch_one(conn)
    .await
}

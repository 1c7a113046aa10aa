//! The SQL of the escrow transfers staff reconcile: what is expected by reference, what the
//! clearing bank reported as received (from the ledger) and where the request stands.
//! Recording a receipt is `investing::transfer_received`.

use ortak_app::domain::investing::RequestStatus;
use sqlx::SqlitePool;
use time::Date;

pub struct Transfer {
    pub request_id: i64,
    pub reference: String,
    pub investor: String,
    pub startup: String,
    pub amount_kurus: i64,
    pub received_amount_kurus: Option<i64>,
    pub received_on: Option<Date>,
    pub status: RequestStatus,
    /// Sent back to the payer (the clearing bank's refund list).
    pub returned_kurus: i64,
}

/// The latest 500 transfers, newest first; `startup` keeps one round's.
pub async fn list(db: &SqlitePool, startup: Option<i64>) -> sqlx::Result<Vec<Transfer>> {
    sqlx::query_as!(
        Transfer,
        r#"SELECT b.request_id AS "request_id!", b.reference, u.email AS investor, s.name AS startup, b.amount_kurus,
               b.received_amount_kurus, b.received_at AS "received_on: Date",
               r.status AS "status: RequestStatus",
               (SELECT COALESCE(SUM(m.amount_kurus), 0) FROM money_events m
                WHERE m.request_id = b.request_id AND m.kind = 'escrow_refunded') AS "returned_kurus!: i64"
           FROM bank_transfers b JOIN investment_requests r ON r.id = b.request_id
           JOIN users u ON u.id = r.user_id JOIN startups s ON s.id = r.startup_id
           WHERE ?1 IS NULL OR r.startup_id = ?1
           ORDER BY b.created_at DESC, b.request_id DESC LIMIT 500"#,
        startup
    )
    .fetch_all(db)
    .await
}

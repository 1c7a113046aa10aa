//! The money ledger (`money_events`): every move of a request's money (the service fee paid
//! and refunded, the transfer instructed, received in escrow, allocated, refunded by the
//! clearing bank) with who, when and why, written in the same transaction as the state it
//! changes. The table is append-only (triggers refuse updates and deletes), and the request
//! states follow it: a trigger refuses a status the ledger does not back. It is the audit
//! trail of money; staff actions that cause a move are also in `audit_log`.

use ortak_app::domain::investing::MoneyKind;
use sqlx::SqliteConnection;
use time::OffsetDateTime;

use super::queries::ledger::{self as queries, Move};

/// Records a money move at `at` (the injectable clock's now).
#[allow(clippy::too_many_arguments)]
pub async fn record_at(
    conn: &mut SqliteConnection,
    request_id: i64,
    kind: MoneyKind,
    amount_kurus: i64,
    reference: &str,
    actor: Option<i64>,
    note: &str,
    at: OffsetDateTime,
) -> Result<bool, sqlx::Error> {
    let m = Move {
        request: request_id,
        kind,
        amount_kurus,
        reference,
        actor,
        note,
    };
    queries::insert_at(conn, &m, at).await
}

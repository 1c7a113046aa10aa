//! The SQL of the clearing bank's statements as superadmins see them: the imported lines with
//! their outcomes, a person's resolution of a flagged line, and typed receipts waiting for a
//! second superadmin. Importing is `investing::statements`.

use sqlx::{SqliteConnection, SqlitePool};
use time::{Date, OffsetDateTime};

/// A statement line as the list shows it.
pub struct ListedLine {
    pub id: i64,
    pub booked_on: Date,
    pub amount_kurus: i64,
    pub payer_name: String,
    pub payer_iban: String,
    pub remittance: String,
    pub outcome: String,
    pub request_id: Option<i64>,
    pub resolution: Option<String>,
}

/// The latest 1,000 lines, flagged and unresolved first.
pub async fn lines(db: &SqlitePool) -> sqlx::Result<Vec<ListedLine>> {
    sqlx::query_as!(
        ListedLine,
        r#"SELECT id AS "id!", booked_on AS "booked_on: Date", amount_kurus, payer_name, payer_iban,
               remittance, outcome, request_id, resolution
           FROM statement_lines
           ORDER BY (outcome IN ('unknown_reference', 'amount_mismatch', 'payer_mismatch')
                     AND resolved_at IS NULL) DESC, id DESC
           LIMIT 1000"#
    )
    .fetch_all(db)
    .await
}

/// A person says what became of a flagged line (returned by the bank, say); `false` when the
/// line is not flagged or was resolved already.
pub async fn resolve(
    conn: &mut SqliteConnection,
    line: i64,
    by: i64,
    note: &str,
    now: OffsetDateTime,
) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "UPDATE statement_lines SET resolved_by = ?, resolved_at = ?, resolution = ?
         WHERE id = ? AND resolved_at IS NULL
           AND outcome IN ('unknown_reference', 'amount_mismatch', 'payer_mismatch')",
        by,
        now,
        note,
        line
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A typed receipt, proposed by one superadmin; `None` when the request has no transfer.
pub async fn propose(
    conn: &mut SqliteConnection,
    request: i64,
    (amount_kurus, received_on): (i64, Date),
    note: &str,
    by: i64,
    now: OffsetDateTime,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        r#"INSERT INTO typed_receipts (request_id, amount_kurus, received_on, note, proposed_by, proposed_at)
           SELECT request_id, ?, ?, ?, ?, ? FROM bank_transfers WHERE request_id = ?
           RETURNING id AS "id!""#,
        amount_kurus,
        received_on,
        note,
        by,
        now,
        request
    )
    .fetch_optional(conn)
    .await
}

/// A typed receipt waiting for a second superadmin.
pub struct PendingReceipt {
    pub id: i64,
    pub request_id: i64,
    pub reference: String,
    pub amount_kurus: i64,
    pub received_on: Date,
    pub note: String,
    pub proposed_by: String,
    pub proposed_at: OffsetDateTime,
}

pub async fn pending(db: &SqlitePool) -> sqlx::Result<Vec<PendingReceipt>> {
    sqlx::query_as!(
        PendingReceipt,
        r#"SELECT t.id AS "id!", t.request_id, b.reference, t.amount_kurus,
               t.received_on AS "received_on: Date", t.note, u.email AS proposed_by,
               t.proposed_at AS "proposed_at: OffsetDateTime"
           FROM typed_receipts t JOIN bank_transfers b ON b.request_id = t.request_id
           JOIN users u ON u.id = t.proposed_by
           WHERE t.confirmed_by IS NULL ORDER BY t.id"#
    )
    .fetch_all(db)
    .await
}

/// What a confirmation records.
pub struct Confirmed {
    pub request_id: i64,
    pub amount_kurus: i64,
    pub received_on: Date,
}

/// Superadmin `by` confirms typed receipt `id`: `None` when it was confirmed already, or `by`
/// proposed it (the database refuses that too).
pub async fn confirm(
    conn: &mut SqliteConnection,
    id: i64,
    by: i64,
    now: OffsetDateTime,
) -> sqlx::Result<Option<Confirmed>> {
    sqlx::query_as!(
        Confirmed,
        r#"UPDATE typed_receipts SET confirmed_by = ?, confirmed_at = ?
           WHERE id = ? AND confirmed_by IS NULL AND proposed_by <> ?
           RETURNING request_id, amount_kurus, received_on AS "received_on: Date""#,
        by,
        now,
        id,
        by
    )
    .fetch_optional(conn)
    .await
}

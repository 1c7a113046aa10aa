//! The SQL of importing the clearing bank's statements: the transfer a reference names, whether
//! a file or a bank entry was imported before, and the statements and lines themselves.

use sqlx::SqliteConnection;
use time::OffsetDateTime;

use crate::investing::statements::Outcome;
use crate::investing::statements::parse::{Line, Statement};

/// The transfer a reference names, and who may pay it.
pub struct Expected {
    pub request_id: i64,
    /// What must reach escrow.
    pub amount_kurus: i64,
    /// The IBAN the investor declared their own.
    pub payer_iban: String,
    /// The investor's name as verified in their MKK data.
    pub verified_name: Option<String>,
}

pub async fn expected(
    conn: &mut SqliteConnection,
    reference: &str,
) -> sqlx::Result<Option<Expected>> {
    sqlx::query_as!(
        Expected,
        r#"SELECT b.request_id AS "request_id!", b.amount_kurus, b.payer_iban,
               m.verified_name AS "verified_name?"
           FROM bank_transfers b JOIN investment_requests r ON r.id = b.request_id
           LEFT JOIN mkk_profiles m ON m.user_id = r.user_id
           WHERE b.reference = ?"#,
        reference
    )
    .fetch_optional(conn)
    .await
}

/// Whether the file with this SHA-256 was imported before.
pub async fn file_known(conn: &mut SqliteConnection, sha: &str) -> sqlx::Result<bool> {
    let first = format!("{sha}:0");
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM bank_statements WHERE sha256 = ?) AS "known!: bool""#,
        first
    )
    .fetch_one(conn)
    .await
}

/// Whether the bank's entry `reference` was recorded before.
pub async fn entry_seen(conn: &mut SqliteConnection, reference: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM statement_lines
               WHERE bank_reference = ? AND outcome <> 'duplicate') AS "seen!: bool""#,
        reference
    )
    .fetch_one(conn)
    .await
}

/// Stores a statement (`file`: the file's SHA-256 and the statement's place in it).
pub async fn insert_statement(
    conn: &mut SqliteConnection,
    s: &Statement,
    file: &str,
    actor: i64,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    let format = s.format.code();
    sqlx::query_scalar!(
        r#"INSERT INTO bank_statements (format, statement_ref, account, sha256, imported_by, imported_at)
           VALUES (?, ?, ?, ?, ?, ?) RETURNING id AS "id!""#,
        format,
        s.reference,
        s.account,
        file,
        actor,
        now
    )
    .fetch_one(conn)
    .await
}

pub async fn insert_line(
    conn: &mut SqliteConnection,
    statement: i64,
    l: &Line,
    request: Option<i64>,
    outcome: Outcome,
) -> sqlx::Result<i64> {
    let outcome = outcome.code();
    sqlx::query_scalar!(
        r#"INSERT INTO statement_lines (statement_id, booked_on, amount_kurus, remittance, payer_name,
               payer_iban, bank_reference, request_id, outcome)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id AS "id!""#,
        statement,
        l.booked_on,
        l.amount_kurus,
        l.remittance,
        l.payer_name,
        l.payer_iban,
        l.bank_reference,
        request,
        outcome
    )
    .fetch_one(conn)
    .await
}

pub async fn set_outcome(
    conn: &mut SqliteConnection,
    line: i64,
    outcome: Outcome,
) -> sqlx::Result<()> {
    let outcome = outcome.code();
    sqlx::query!(
        "UPDATE statement_lines SET outcome = ? WHERE id = ?",
        outcome,
        line
    )
    .execute(conn)
    .await?;
    Ok(())
}

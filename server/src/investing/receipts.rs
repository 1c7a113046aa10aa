//! Money the clearing bank reports received in escrow under a request's reference: recorded as
//! it arrived, always; the request becomes funded when the expected amount is in escrow, and
//! money the round cannot take (or beyond the investment) goes back. Only two paths call it,
//! both superadmins' (issue 26, item 5): a line of an imported bank statement that matched its
//! request by reference, exact amount and payer (`statements`), and a typed receipt a second
//! superadmin confirmed (`staff::statements`).

use axum::http::StatusCode;
use ortak_app::domain::investing::{MoneyKind, RequestStatus};
use ortak_app::domain::money::Money;
use ortak_app::domain::rounds::RoundStatus;
use sqlx::SqliteConnection;
use time::Date;

use super::ledger::record_at;
use super::notify::mail_status;
use super::queries::ledger as ledger_queries;
use super::queries::moves;
use super::transitions::{record_event, target};
use crate::error::AppError;
use crate::state::AppState;

/// What a recorded receipt did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Receipt {
    /// The expected amount is in escrow: the request is funded (any excess was returned).
    Funded,
    /// Less than expected so far: the request waits for the rest (flagged as a mismatch).
    Short,
    /// The request cannot take it (ended, already funded, or its round closed): returned.
    Returned,
}

/// Records, in the caller's transaction, that `amount` arrived on `on` under request
/// `request_id`'s reference (`source` says where the figure came from: a statement line or a
/// confirmed typed receipt), moves the request as the money allows, and audits it as `actor`.
pub async fn record(
    conn: &mut SqliteConnection,
    state: &AppState,
    request_id: i64,
    (amount, on): (Money, Date),
    actor: i64,
    source: &str,
) -> Result<Receipt, AppError> {
    let now = state.now();
    let t = target(conn, request_id).await?;
    let reference = moves::transfer_reference(conn, request_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let shown = amount.format(ortak_app::i18n::Locale::Tr);
    let note = format!("transfer received: {shown} on {on} ({source})");
    let (received, refund) = (MoneyKind::TransferReceived, MoneyKind::EscrowRefunded);
    let by = Some(actor);
    record_at(
        conn,
        t.id,
        received,
        amount.kurus(),
        &reference,
        by,
        &note,
        now,
    )
    .await?;
    let total = moves::received_total(conn, t.id).await?;
    moves::note_receipt(conn, t.id, total, on).await?;
    let balance = ledger_queries::escrow_balance(conn, t.id).await?;
    let receipt = if t.status != RequestStatus::FeePaid || t.round != RoundStatus::Open {
        let why = "received for a request the round cannot take: returned";
        record_at(conn, t.id, refund, amount.kurus(), &reference, by, why, now).await?;
        let noted = format!("{note} (returned)");
        record_event(conn, t.id, t.status, &noted, by, now).await?;
        Receipt::Returned
    } else if balance < t.investment_kurus {
        let noted = format!("{note} (mismatch)");
        record_event(conn, t.id, t.status, &noted, by, now).await?;
        Receipt::Short
    } else {
        if balance > t.investment_kurus {
            let excess = balance - t.investment_kurus;
            let why = "more than the investment: the excess is returned";
            record_at(conn, t.id, refund, excess, &reference, by, why, now).await?;
        }
        if !moves::set_status(conn, t.id, t.status, RequestStatus::Funded, now).await? {
            let moved = "request-moved-meanwhile";
            return Err(AppError::Refused(StatusCode::CONFLICT, moved));
        }
        record_event(conn, t.id, RequestStatus::Funded, &note, by, now).await?;
        mail_status(conn, state, t.id, "request-funded", "").await?;
        Receipt::Funded
    };
    crate::db::audit::record(
        conn,
        actor,
        "transfer.received",
        &format!("request:{request_id}"),
        Some(t.status.code()),
        Some(&format!(
            "{} on {on} ({receipt:?}, {source})",
            amount.kurus()
        )),
    )
    .await?;
    Ok(receipt)
}

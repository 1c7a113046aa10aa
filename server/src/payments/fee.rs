//! INTERIM, replaced at the merge with the rounds work: the request's side of the card fee.
//! `record_fee_paid` and `record_fee_refunded` have exactly the signatures of
//! `investing::transitions::fee_paid` and `fee_refunded` (next-phase.md's money-path
//! interface) and keep today's behaviour: the fee is stamped on a request that is still approved
//! with it unpaid, with its history line and the `fee-paid` mail; a refund adds a history line.
//! The coordinator replaces both calls with the rounds engineer's functions (ledger rows, the
//! `fee_paid` state, the `fee-refunded` mail) and deletes this file.

use ortak_app::domain::money::Money;
use sqlx::SqliteConnection;

use super::queries;
use crate::error::AppError;
use crate::investing::{mail_investor, record_event};
use crate::state::AppState;

/// The fee of `request_id` was paid by card (our payment `payment_public_id`). `false`, writing
/// nothing, when the request is no longer approved with its fee unpaid: the caller must then
/// not keep the payment as the fee.
pub async fn record_fee_paid(
    conn: &mut SqliteConnection,
    state: &AppState,
    request_id: i64,
    payment_public_id: &str,
    _amount_kurus: i64,
) -> Result<bool, AppError> {
    if !queries::mark_fee_paid(conn, request_id, state.now()).await? {
        return Ok(false);
    }
    let note = format!("service fee paid by card (payment {payment_public_id})");
    let status = ortak_app::domain::investing::RequestStatus::Approved;
    record_event(conn, request_id, status, &note, None).await?;
    // The investor hears that the fee arrived, and where the transfer details are.
    let link = format!("{}/invFlow?request={request_id}", state.shared().public_url);
    mail_investor(conn, request_id, "fee-paid", &link, "").await?;
    Ok(true)
}

/// The fee of `request_id` went back to the card (`provider_reference` is the provider's
/// refund). `false` when the request does not owe its fee back.
pub async fn record_fee_refunded(
    conn: &mut SqliteConnection,
    _state: &AppState,
    request_id: i64,
    amount_kurus: i64,
    provider_reference: &str,
) -> Result<bool, AppError> {
    let Some(status) = queries::request_status(conn, request_id).await? else {
        return Ok(false);
    };
    if !status.owes_fee_refund() {
        return Ok(false);
    }
    let amount = Money::from_kurus(amount_kurus).format(ortak_app::i18n::Locale::En);
    let note = format!("service fee of {amount} refunded to the card ({provider_reference})");
    record_event(conn, request_id, status, &note, None).await?;
    Ok(true)
}

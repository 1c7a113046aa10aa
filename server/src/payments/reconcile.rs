//! The background job that finishes what the browser left: challenges of requests that stopped
//! being payable (cancelled, rejected) are voided at once, since nothing can be charged without
//! our charge call; charges whose answer never came (a timeout, a crash) are resolved by
//! asking the provider; challenges nobody finished expire, after the provider confirms it
//! charged nothing.

use time::Duration;

use super::outcome::{reference, settle_charge};
use super::queries::charges::{self, Closing, PaymentRow, PaymentStatus};
use crate::providers::payments::Charge;
use crate::state::AppState;

/// A charge still unanswered this long is looked up (longer than any call waits).
const UNANSWERED_AFTER: Duration = Duration::minutes(5);
/// An open 3-D Secure challenge expires this long after it began.
const CHALLENGE_EXPIRES: Duration = Duration::minutes(30);

const LOG_ID: &str = "job:reconcile_payments";

pub async fn reconcile_payments(state: &AppState) -> anyhow::Result<()> {
    let (db, now) = (state.db(), state.now());
    for public_id in charges::void_unpayable_challenges(db, now).await? {
        tracing::info!(
            payment = public_id,
            "challenge voided: its request is no longer payable"
        );
    }
    for row in charges::stale(db, PaymentStatus::Authorizing, now - UNANSWERED_AFTER).await? {
        let charge = state
            .shared()
            .payments
            .retrieve(reference(&row, LOG_ID))
            .await;
        if let Charge::Unknown(why) = &charge {
            tracing::warn!(
                payment = row.public_id,
                why,
                "charge still unknown: asking again next time"
            );
            charges::note_state(db, &row.public_id, why, now).await?;
            continue;
        }
        settle_charge(state, &row, charge, LOG_ID).await?;
    }
    for row in charges::stale(db, PaymentStatus::Challenge, now - CHALLENGE_EXPIRES).await? {
        expire(state, &row).await?;
    }
    Ok(())
}

/// Ends an abandoned challenge, unless the provider says it was charged after all.
async fn expire(state: &AppState, row: &PaymentRow) -> anyhow::Result<()> {
    let provider_state = if row.provider_payment_id.is_some() {
        match state
            .shared()
            .payments
            .retrieve(reference(row, LOG_ID))
            .await
        {
            Charge::Unknown(why) => {
                tracing::warn!(
                    payment = row.public_id,
                    why,
                    "expired challenge: the provider gave no answer yet"
                );
                return Ok(());
            }
            charge @ (Charge::Paid { .. } | Charge::Mismatch(_)) => {
                settle_charge(state, row, charge, LOG_ID).await?;
                return Ok(());
            }
            Charge::Open { provider_state } => Some(provider_state),
            Charge::Failed(refusal) => Some(refusal.code),
        }
    } else {
        None
    };
    let closing = Closing {
        status: PaymentStatus::Void,
        charged: false,
        reason: Some("the 3-D Secure challenge expired"),
        provider_state: provider_state.as_deref(),
    };
    let mut conn = state.db().acquire().await?;
    charges::close(&mut conn, &row.public_id, &closing, state.now()).await?;
    tracing::info!(payment = row.public_id, "challenge expired");
    Ok(())
}

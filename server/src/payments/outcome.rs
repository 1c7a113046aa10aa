//! How a card payment ends, whichever provider and whoever asks (the browser's callback, or the
//! reconciliation job): 3-D Secure's answer, then the charge, asked for only while the request
//! is still payable, then the outcome recorded once. A payment that already ended changes
//! nothing (a replayed callback lands where the first one did); an answer we cannot trust is
//! resolved by retrieval, never by guessing.

use super::queries::charges::{self, Closing, PaymentRow, PaymentStatus};
use super::queries::refunds;
use crate::error::AppError;
use crate::investing::transitions::fee_paid;
use crate::providers::payments::{Charge, FailKind, PaymentRef, VerifiedCallback};
use crate::state::AppState;
use ortak_app::domain::money::Money;

/// Where the browser goes once a payment's outcome is known (or known to be pending).
#[derive(Debug, PartialEq, Eq)]
pub enum Landing {
    /// The fee is paid: on to the escrow step.
    Paid(i64),
    Failed(i64, Option<FailKind>),
    /// The provider's answer is not known yet; the job settles it.
    Pending(i64),
    /// The request stopped being payable (cancelled, rejected, paid): nothing counted.
    NotPayable(i64),
}

impl Landing {
    pub fn location(&self) -> String {
        match self {
            Landing::Paid(id) => format!("/invFlow?request={id}"),
            Landing::Failed(id, None) => format!("/paymentFail?request={id}"),
            Landing::Failed(id, Some(kind)) => {
                format!("/paymentFail?request={id}&reason={}", kind.code())
            }
            Landing::Pending(id) => format!("/paymentFail?request={id}&reason=pending"),
            Landing::NotPayable(id) => format!("/paymentFail?request={id}&reason=not_payable"),
        }
    }
}

/// Where a payment in its present state sends the browser.
pub fn landing_of(row: &PaymentRow) -> Landing {
    let id = row.request_id;
    match row.status {
        PaymentStatus::Succeeded => Landing::Paid(id),
        PaymentStatus::Challenge | PaymentStatus::Authorizing => Landing::Pending(id),
        PaymentStatus::Failed => Landing::Failed(id, None),
        PaymentStatus::Void => Landing::NotPayable(id),
    }
}

/// What the provider calls about `row` carry.
pub fn reference<'a>(row: &'a PaymentRow, log_id: &'a str) -> PaymentRef<'a> {
    PaymentRef {
        payment: &row.public_id,
        provider_payment_id: row.provider_payment_id.as_deref(),
        request_id: row.request_id,
        amount: Money::from_kurus(row.amount_kurus),
        locale: row.language,
        log_id,
    }
}

/// Ends the open payment `row` without a charge; `false` if it had already ended.
async fn end_uncharged(
    state: &AppState,
    row: &PaymentRow,
    status: PaymentStatus,
    reason: &str,
    provider_state: Option<&str>,
) -> Result<bool, AppError> {
    let mut conn = state.db().acquire().await?;
    let closing = Closing {
        status,
        charged: false,
        reason: Some(reason),
        provider_state,
    };
    Ok(charges::close(&mut conn, &row.public_id, &closing, state.now()).await?)
}

/// The browser came back from 3-D Secure with the provider's verified answer.
pub async fn after_callback(
    state: &AppState,
    row: PaymentRow,
    callback: &VerifiedCallback,
    log_id: &str,
) -> Result<Landing, AppError> {
    if row.status != PaymentStatus::Challenge {
        tracing::info!(request_id = log_id, payment = row.public_id, status = ?row.status, "payment callback for a payment already past 3-D Secure: nothing changes");
        return Ok(landing_of(&row));
    }
    if !callback.passed {
        let reason = format!("3-D Secure failed (mdStatus {})", callback.md_status);
        tracing::info!(
            request_id = log_id,
            payment = row.public_id,
            reason,
            "card payment failed"
        );
        end_uncharged(state, &row, PaymentStatus::Failed, &reason, None).await?;
        return Ok(Landing::Failed(row.request_id, Some(FailKind::ThreeDs)));
    }
    // The charge is asked for only while the request is approved with its fee unpaid.
    if !charges::claim_for_charge(state.db(), &row.public_id, state.now()).await? {
        let reason = "the request is no longer payable";
        if end_uncharged(state, &row, PaymentStatus::Void, reason, None).await? {
            tracing::info!(
                request_id = log_id,
                payment = row.public_id,
                "card payment voided: {reason}"
            );
            return Ok(Landing::NotPayable(row.request_id));
        }
        let now = charges::by_public_id(state.db(), &row.public_id).await?;
        return Ok(now
            .as_ref()
            .map_or(Landing::Pending(row.request_id), landing_of));
    }
    let charge = state
        .shared()
        .payments
        .complete(reference(&row, log_id), callback)
        .await;
    settle_charge(state, &row, charge, log_id).await
}

/// Records what the charge of `row` (now `authorizing`) came to. An unknown answer gets one
/// retrieval; if that is unknown too the payment stays `authorizing` for the job.
pub async fn settle_charge(
    state: &AppState,
    row: &PaymentRow,
    charge: Charge,
    log_id: &str,
) -> Result<Landing, AppError> {
    let provider = &state.shared().payments;
    let charge = match charge {
        Charge::Unknown(why) => {
            tracing::warn!(
                request_id = log_id,
                payment = row.public_id,
                why,
                "card payment outcome unknown: retrieving it"
            );
            provider.retrieve(reference(row, log_id)).await
        }
        known => known,
    };
    let id = row.request_id;
    match charge {
        Charge::Paid { provider_state } => record_paid(state, row, &provider_state, log_id).await,
        Charge::Failed(refusal) => {
            tracing::info!(
                request_id = log_id,
                payment = row.public_id,
                code = refusal.code,
                "card payment refused"
            );
            end_uncharged(state, row, PaymentStatus::Failed, &refusal.code, None).await?;
            Ok(Landing::Failed(id, Some(refusal.kind)))
        }
        Charge::Open { provider_state } => {
            // The provider never took the money (the charge did not reach it): nothing to keep.
            let reason = format!("not charged: {provider_state}");
            tracing::warn!(
                request_id = log_id,
                payment = row.public_id,
                reason,
                "card payment closed"
            );
            end_uncharged(
                state,
                row,
                PaymentStatus::Failed,
                &reason,
                Some(&provider_state),
            )
            .await?;
            Ok(Landing::Failed(id, Some(FailKind::Timeout)))
        }
        Charge::Unknown(why) => {
            charges::note_state(state.db(), &row.public_id, &why, state.now()).await?;
            Ok(Landing::Pending(id))
        }
        Charge::Mismatch(detail) => {
            tracing::error!(
                request_id = log_id,
                payment = row.public_id,
                detail,
                "card payment answer is not ours: not counted, flagged for staff"
            );
            let now = state.now();
            let mut tx = crate::db::write(state.db()).await?;
            let closing = Closing {
                status: PaymentStatus::Void,
                charged: true,
                reason: Some("the provider's answer differs from our payment"),
                provider_state: Some(&detail),
            };
            if charges::close(&mut tx, &row.public_id, &closing, now).await? {
                refunds::flag_for_staff(&mut tx, &row.public_id, &detail, now).await?;
            }
            tx.commit().await?;
            Ok(Landing::Failed(id, Some(FailKind::Provider)))
        }
    }
}

/// The money was taken: the payment becomes the request's fee, in one transaction with the
/// request's move, history and mail, unless the request stopped being payable meanwhile; then
/// the payment is `void` and charged, and `settle_refunds` gives it back.
async fn record_paid(
    state: &AppState,
    row: &PaymentRow,
    provider_state: &str,
    log_id: &str,
) -> Result<Landing, AppError> {
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    let counted = fee_paid(
        &mut tx,
        state,
        row.request_id,
        &row.public_id,
        row.amount_kurus,
    )
    .await?;
    let closing = Closing {
        status: if counted {
            PaymentStatus::Succeeded
        } else {
            PaymentStatus::Void
        },
        charged: true,
        reason: (!counted).then_some("charged after the request stopped being payable: refund due"),
        provider_state: Some(provider_state),
    };
    if !charges::close(&mut tx, &row.public_id, &closing, now).await? {
        // Somebody else (the job, a replay) recorded this payment first.
        tx.rollback().await?;
        let now = charges::by_public_id(state.db(), &row.public_id).await?;
        return Ok(now
            .as_ref()
            .map_or(Landing::Pending(row.request_id), landing_of));
    }
    tx.commit().await?;
    state.wake_mailer();
    tracing::info!(
        request_id = log_id,
        payment = row.public_id,
        counted,
        "card payment charged"
    );
    Ok(if counted {
        Landing::Paid(row.request_id)
    } else {
        Landing::NotPayable(row.request_id)
    })
}

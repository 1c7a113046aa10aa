//! Fees owed back. `settle_refunds` (a background job) refunds, through the provider, every
//! charged fee whose request no longer wants it (`RequestStatus::owes_fee_refund`, the rounds
//! work's rule) and every charge that came after its request stopped being payable; staff
//! refund one by hand from the request's page (`refund_by_staff`), e.g. after the provider
//! refused. Crash-safe: the payment is marked `refunding` in its own transaction before the
//! provider is asked; for a `refunding` row left by a crash or a lost answer the job reads
//! the provider's records (`refunds_of`, iyzico's reporting service) and records what they
//! say was given back, asking for the refund again only when nothing was. Even then the
//! provider refuses a refund beyond what is left of the payment.

use ortak_app::domain::money::Money;
use time::Duration;

use super::queries::charges::PaymentStatus;
use super::queries::refunds::{self, RefundStatus, Refundable};
use crate::error::AppError;
use crate::investing::transitions::fee_refunded;
use crate::providers::payments::{PaymentRef, RefundOutcome, RefundRecord};
use crate::state::AppState;

/// A refund asked for and unanswered this long is asked again (longer than any call waits).
const STUCK_AFTER: Duration = Duration::minutes(10);

/// Who asks when the job refunds: the server itself.
const SERVER_IP: &str = "127.0.0.1";

/// The job's name in log lines and provider calls.
const JOB: &str = "job:settle_refunds";

/// Whether the charged payment `r` is owed back now.
fn owed(r: &Refundable) -> bool {
    r.status == PaymentStatus::Void || r.request_status.owes_fee_refund()
}

/// The background job: refunds owed fees, and asks again about unanswered refunds.
pub async fn settle_refunds(state: &AppState) -> anyhow::Result<()> {
    let db = state.db();
    for r in refunds::stuck(db, state.now() - STUCK_AFTER).await? {
        let outcome = match state.shared().payments.refunds_of(reference(&r, JOB)).await {
            RefundRecord::Refunded { reference } => RefundOutcome::Refunded { reference },
            RefundRecord::NotRefunded => {
                tracing::warn!(
                    payment = r.public_id,
                    "a refund's answer never came and nothing was refunded: asking again"
                );
                ask(state, &r, JOB, SERVER_IP).await
            }
            RefundRecord::Other(what) => RefundOutcome::Refused { code: what },
            RefundRecord::Unknown(why) => RefundOutcome::Unknown(why),
        };
        record(state, &r, outcome, JOB).await?;
    }
    for r in refunds::unrefunded(db).await?.iter().filter(|r| owed(r)) {
        refund(state, r, false, JOB, SERVER_IP).await?;
    }
    Ok(())
}

/// Payment `r` as the provider knows it.
fn reference<'a>(r: &'a Refundable, log_id: &'a str) -> PaymentRef<'a> {
    PaymentRef {
        payment: &r.public_id,
        provider_payment_id: r.provider_payment_id.as_deref(),
        request_id: r.request_id,
        amount: Money::from_kurus(r.amount_kurus),
        locale: r.language,
        log_id,
    }
}

/// Asks the provider to give payment `r`'s amount back.
async fn ask(state: &AppState, r: &Refundable, log_id: &str, ip: &str) -> RefundOutcome {
    state
        .shared()
        .payments
        .refund(reference(r, log_id), ip)
        .await
}

/// Claims payment `r`'s refund (`retry`: also after a failed one), asks and records the answer.
/// `None` when somebody else is refunding it.
async fn refund(
    state: &AppState,
    r: &Refundable,
    retry: bool,
    log_id: &str,
    ip: &str,
) -> Result<Option<RefundOutcome>, AppError> {
    if !refunds::claim(state.db(), &r.public_id, retry, state.now()).await? {
        return Ok(None);
    }
    let outcome = ask(state, r, log_id, ip).await;
    record(state, r, outcome.clone(), log_id).await?;
    Ok(Some(outcome))
}

/// Records a refund's answer; a refunded fee is recorded on its request in the same
/// transaction. An unknown answer leaves the payment `refunding` for the job.
async fn record(
    state: &AppState,
    r: &Refundable,
    outcome: RefundOutcome,
    log_id: &str,
) -> Result<(), AppError> {
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    match &outcome {
        RefundOutcome::Refunded { reference } => {
            let done = refunds::settle(
                &mut tx,
                &r.public_id,
                RefundStatus::Refunded,
                Some(reference),
                None,
                now,
            )
            .await?;
            if done && r.status == PaymentStatus::Succeeded {
                fee_refunded(&mut tx, state, r.request_id, r.amount_kurus, reference).await?;
            }
            tracing::info!(
                request_id = log_id,
                payment = r.public_id,
                reference,
                "fee refunded"
            );
        }
        RefundOutcome::Refused { code } => {
            refunds::settle(
                &mut tx,
                &r.public_id,
                RefundStatus::Failed,
                None,
                Some(code),
                now,
            )
            .await?;
            tracing::warn!(
                request_id = log_id,
                payment = r.public_id,
                code,
                "fee refund refused by the provider: staff must settle it"
            );
        }
        RefundOutcome::Unknown(why) => {
            tracing::warn!(
                request_id = log_id,
                payment = r.public_id,
                why,
                "fee refund's outcome unknown: asked again later"
            );
        }
    }
    tx.commit().await?;
    Ok(())
}

/// What a staff refund came to (the flash message to show).
pub enum StaffRefund {
    Refunded,
    Refused,
    Pending,
}

/// Staff refund payment `public_id` of request `request_id`: only a charged fee that is owed
/// back (its request ended, or it was charged after the request stopped being payable) and
/// not refunded yet; a refund the provider refused may be tried again. Audited.
pub async fn refund_by_staff(
    state: &AppState,
    request_id: i64,
    public_id: &str,
    actor: i64,
    ip: &str,
    log_id: &str,
) -> Result<StaffRefund, AppError> {
    let r = refunds::of_request(state.db(), request_id, public_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let open = matches!(r.refund_status, None | Some(RefundStatus::Failed));
    if !open || !owed(&r) {
        return Err(AppError::Refused(
            axum::http::StatusCode::CONFLICT,
            "payment-refund-not-owed",
        ));
    }
    let outcome = refund(state, &r, true, log_id, ip).await?;
    let (after, result) = match outcome {
        Some(RefundOutcome::Refunded { .. }) => ("refunded", StaffRefund::Refunded),
        Some(RefundOutcome::Refused { .. }) => ("refused", StaffRefund::Refused),
        Some(RefundOutcome::Unknown(_)) | None => ("pending", StaffRefund::Pending),
    };
    let mut conn = state.db().acquire().await?;
    let before = r.refund_status.map_or("none", |s| match s {
        RefundStatus::Refunding => "refunding",
        RefundStatus::Refunded => "refunded",
        RefundStatus::Failed => "failed",
    });
    crate::db::audit::record(
        &mut conn,
        actor,
        "payment.refund",
        &format!("request:{request_id} payment:{public_id}"),
        Some(before),
        Some(after),
    )
    .await?;
    state.wake_mailer();
    Ok(result)
}

pub use super::queries::refunds::StaffPayment;

/// Request `request_id`'s payments as staff see them, each with whether staff may refund it
/// now (the request is in `request_status`).
pub async fn staff_payments(
    state: &AppState,
    request_id: i64,
    request_status: ortak_app::domain::investing::RequestStatus,
) -> Result<Vec<(StaffPayment, bool)>, AppError> {
    let payments = refunds::staff_list(state.db(), request_id).await?;
    Ok(payments
        .into_iter()
        .map(|p| {
            let refundable = p.charged
                && matches!(p.refund_status, None | Some(RefundStatus::Failed))
                && (p.status == PaymentStatus::Void || request_status.owes_fee_refund());
            (p, refundable)
        })
        .collect())
}

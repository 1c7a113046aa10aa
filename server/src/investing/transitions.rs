//! How a request moves once sent. The states follow the money: the card fee (`fee_paid`,
//! `fee_refunded`, called by `payments`), the escrow transfer (`receipts`), staff's review
//! (`staff_transition`), the investor's withdrawal
//! inside the cancellation window (`withdraw`), and the ends every path shares (`end`: what is
//! in escrow goes on the clearing bank's refund list, a paid fee is owed back, the waitlist
//! moves up). Each move writes the ledger, the status, the request's history and the
//! investor's mail (with the timeline) in one transaction; the database refuses any status the
//! state machine or the ledger does not allow.

use axum::http::StatusCode;
use ortak_app::domain::investing::{MoneyKind, RequestStatus};
use ortak_app::domain::rounds::RoundStatus;
use sqlx::SqliteConnection;
use time::{Duration, OffsetDateTime};

use super::ledger::record_at;
use super::notify::mail_status;
use super::queries::ledger as ledger_queries;
use super::queries::moves::{self, Target};
use super::{queries, rounds};
use crate::error::AppError;
use crate::state::AppState;

/// Records that request `request_id` reached (or, with a note, stayed at) `status`.
pub async fn record_event(
    conn: &mut SqliteConnection,
    request_id: i64,
    status: RequestStatus,
    note: &str,
    actor: Option<i64>,
    at: OffsetDateTime,
) -> Result<(), sqlx::Error> {
    queries::insert_event(conn, request_id, status, note, actor, at).await
}

/// The request, or 404.
pub(super) async fn target(conn: &mut SqliteConnection, id: i64) -> Result<Target, AppError> {
    moves::target(conn, id).await?.ok_or(AppError::NotFound)
}

/// Investor `user`'s own request `id`: someone else's is as missing as one that is not.
pub(super) async fn own(
    conn: &mut SqliteConnection,
    id: i64,
    user: i64,
) -> Result<Target, AppError> {
    let t = target(conn, id).await?;
    if t.user_id != user {
        return Err(AppError::NotFound);
    }
    Ok(t)
}

/// Somebody moved the request first, or the round no longer takes moves: 409.
fn conflict(message: &'static str) -> AppError {
    AppError::Refused(StatusCode::CONFLICT, message)
}

/// The service fee of request `request_id` was paid by card (payment `payment_public_id`):
/// approved -> fee_paid, with the ledger row, the history, the transfer deadline and the
/// `fee-paid` mail, in the caller's transaction. `false`, writing nothing, when the request is
/// no longer approved with its fee unpaid (cancelled, rejected, lapsed or already paid): the
/// caller must not keep the payment.
pub async fn fee_paid(
    conn: &mut SqliteConnection,
    state: &AppState,
    request_id: i64,
    payment_public_id: &str,
    amount_kurus: i64,
) -> Result<bool, AppError> {
    let now = state.now();
    // Terms changed since approval: the charge must not stand until the investor reconfirms.
    if super::reconfirmation::awaits(conn, request_id).await? {
        return Ok(false);
    }
    // The investor's MKK data was rejected meanwhile: the request is held, nothing is kept.
    let investor = target(conn, request_id).await?.user_id;
    if super::mkk::investing_blocked(&mut *conn, investor)
        .await?
        .is_some()
    {
        return Ok(false);
    }
    if !ledger_queries::insert_fee_paid(conn, request_id, amount_kurus, payment_public_id, now)
        .await?
    {
        return Ok(false);
    }
    let due = now + Duration::hours(state.shared().rounds.transfer_deadline_hours);
    if !moves::fee_paid(conn, request_id, due, now).await? {
        return Err(anyhow::anyhow!("request {request_id}: fee recorded but not moved").into());
    }
    let note = format!("service fee paid by card (payment {payment_public_id})");
    record_event(conn, request_id, RequestStatus::FeePaid, &note, None, now).await?;
    mail_status(conn, state, request_id, "fee-paid", "").await?;
    Ok(true)
}

/// The service fee of request `request_id` went back to the card (`provider_reference` is the
/// provider's refund): the ledger row, the history and a mail. Only for a request that owes
/// its fee back, once; `false` otherwise.
pub async fn fee_refunded(
    conn: &mut SqliteConnection,
    state: &AppState,
    request_id: i64,
    amount_kurus: i64,
    provider_reference: &str,
) -> Result<bool, AppError> {
    let now = state.now();
    let t = target(conn, request_id).await?;
    if !t.status.owes_fee_refund() || ledger_queries::fee_held(conn, request_id).await?.is_none() {
        return Ok(false);
    }
    let note = "service fee refunded to the card";
    let kind = MoneyKind::FeeRefunded;
    if !record_at(
        conn,
        request_id,
        kind,
        amount_kurus,
        provider_reference,
        None,
        note,
        now,
    )
    .await?
    {
        return Ok(false);
    }
    record_event(conn, request_id, t.status, note, None, now).await?;
    mail_status(conn, state, request_id, "fee-refunded", "").await?;
    Ok(true)
}

/// Ends request `t` at `to` (rejected, cancelled, lapsed or refunded): money in escrow goes on
/// the clearing bank's refund list (ledger), a paid fee is owed back (`owes_fee_refund`, the
/// payments job refunds it), the investor is mailed and the waitlist moves up.
pub(super) async fn end(
    conn: &mut SqliteConnection,
    state: &AppState,
    t: &Target,
    to: RequestStatus,
    actor: Option<i64>,
    note: &str,
    now: OffsetDateTime,
) -> Result<(), AppError> {
    let mail = format!("request-{}", to.code());
    end_as(conn, state, t, to, actor, note, &mail, now).await
}

/// [`end`], telling the investor with the automatic mail `mail`.
#[allow(clippy::too_many_arguments)]
pub(super) async fn end_as(
    conn: &mut SqliteConnection,
    state: &AppState,
    t: &Target,
    to: RequestStatus,
    actor: Option<i64>,
    note: &str,
    mail: &str,
    now: OffsetDateTime,
) -> Result<(), AppError> {
    let balance = ledger_queries::escrow_balance(conn, t.id).await?;
    if balance > 0 {
        let reference = t.reference.as_deref().unwrap_or("");
        let why = format!("returned to the payer: request {}", to.code());
        let kind = MoneyKind::EscrowRefunded;
        record_at(conn, t.id, kind, balance, reference, actor, &why, now).await?;
    }
    let moved = match to {
        RequestStatus::Rejected => moves::reject(conn, t.id, t.status, note, now).await?,
        _ => moves::set_status(conn, t.id, t.status, to, now).await?,
    };
    if !moved {
        return Err(conflict("request-moved-meanwhile"));
    }
    record_event(conn, t.id, to, note, actor, now).await?;
    mail_status(conn, state, t.id, mail, note).await?;
    // Any change to the line or to what is committed may let someone in.
    rounds::promote_waitlist(conn, state, t.startup_id, now).await?;
    Ok(())
}

/// Moves a request as staff do (review, approve, reject; reject or cancel a waitlisted one),
/// records and audits the move and mails the investor. A rejection or cancellation needs a
/// reason; a request whose money moved may be rejected only while its round is open, and what
/// was paid is refunded. Approval checks the investor again as the data stands now: MKK data
/// verified and not rejected, and the yearly limit (counted for their verified identity).
pub async fn staff_transition(
    state: &AppState,
    request_id: i64,
    to: RequestStatus,
    actor: i64,
    note: &str,
) -> Result<(), AppError> {
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    let t = target(&mut tx, request_id).await?;
    if !t.status.staff_can_move_to(to) {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    if t.round != RoundStatus::Open {
        return Err(conflict("round-not-open"));
    }
    let ends = matches!(to, RequestStatus::Rejected | RequestStatus::Cancelled);
    if !ends && super::reconfirmation::awaits(&mut tx, t.id).await? {
        return Err(conflict("request-awaits-reconfirmation"));
    }
    if ends && note.is_empty() {
        return Err(AppError::BadRequest("dashboard-reason-required"));
    }
    if to == RequestStatus::Approved {
        investor_still_eligible(&mut tx, state, t.user_id).await?;
    }
    match to {
        _ if ends => end(&mut tx, state, &t, to, Some(actor), note, now).await?,
        _ => {
            let moved = if to == RequestStatus::Approved {
                let due = now + Duration::hours(state.shared().rounds.fee_deadline_hours);
                moves::approve(&mut tx, t.id, t.status, due, now).await?
            } else {
                moves::set_status(&mut tx, t.id, t.status, to, now).await?
            };
            if !moved {
                return Err(conflict("request-moved-meanwhile"));
            }
            record_event(&mut tx, t.id, to, note, Some(actor), now).await?;
            let kind = format!("request-{}", to.code());
            mail_status(&mut tx, state, t.id, &kind, note).await?;
        }
    }
    let after = if note.is_empty() {
        to.code().to_owned()
    } else {
        format!("{} {note}", to.code())
    };
    crate::db::audit::record(
        &mut tx,
        actor,
        "request.status",
        &format!("request:{request_id}"),
        Some(t.status.code()),
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    state.wake_mailer();
    Ok(())
}

/// Refuses (409) an approval the investor's data no longer allows: MKK data not verified or
/// rejected (the request is held), or this year's requests under their verified identity over
/// their yearly limit (the request itself counts).
async fn investor_still_eligible(
    conn: &mut SqliteConnection,
    state: &AppState,
    user: i64,
) -> Result<(), AppError> {
    if let Some(why) = super::mkk::investing_blocked(&mut *conn, user).await? {
        let id = if why == "investment-needs-mkk-fix" {
            "request-held-mkk"
        } else {
            "request-investor-unverified"
        };
        return Err(conflict(id));
    }
    let standing = super::limits::standing(conn, state, user).await?;
    match standing.and_then(|s| s.limit) {
        Some(limit) if limit.used > limit.limit => Err(conflict("request-over-limit")),
        _ => Ok(()),
    }
}

/// The investor `user` withdraws request `request_id`: inside the cancellation window (a
/// waitlisted request at any time) and while the round is open; what was paid is refunded.
/// Someone else's request is as missing as one that is not; outside the window, 409.
pub async fn withdraw(state: &AppState, request_id: i64, user: i64) -> Result<(), AppError> {
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    let t = own(&mut tx, request_id, user).await?;
    let in_window = t.status == RequestStatus::Waitlisted || now < t.cancel_until;
    if !t.status.investor_may_withdraw() || t.round != RoundStatus::Open || !in_window {
        return Err(conflict("pending-not-withdrawable"));
    }
    end(
        &mut tx,
        state,
        &t,
        RequestStatus::Cancelled,
        Some(user),
        "",
        now,
    )
    .await?;
    tx.commit().await?;
    state.wake_mailer();
    Ok(())
}

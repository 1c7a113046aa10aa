//! The round's life after requests are sent: the waitlist moving up when room frees, payment
//! deadlines (a reminder before, a lapse after), and closing.
//!
//! Closing is crash-safe and idempotent. Starting a close decides its outcome (received in
//! escrow against the success threshold of the goal) and the total the shares are of, and
//! stores both with `round_status = 'closing'` in one transaction. Then each request is
//! settled in its own transaction (allocated, refunded or lapsed, with its ledger rows, history
//! and mail), guarded by the status it starts from. Last, the round is marked funded or failed
//! once no request is left unsettled. A restart after SIGKILL at any point finds the round
//! still closing and settles what is left: each request exactly once, each mail exactly once.

use axum::http::StatusCode;
use ortak_app::domain::investing::{MoneyKind, RequestStatus};
use ortak_app::domain::money::Money;
use ortak_app::domain::rounds::{RoundStatus, share_ppm};
use sqlx::SqliteConnection;
use time::{Duration, OffsetDateTime};

use super::ledger::record_at;
use super::notify::mail_status;
use super::queries::ledger as ledger_queries;
use super::queries::moves;
use super::queries::rounds as queries;
use super::transitions::{end, record_event};
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::state::AppState;

/// Sends waitlisted requests of the startup's round, in order, each that fits beside what is
/// committed (the goal plus the overfunding margin). One that does not fit keeps its place
/// and is passed over for those behind it that do: a large request must not freeze the line
/// (issue 26). Called after every change to the line or to what is committed.
pub async fn promote_waitlist(
    conn: &mut SqliteConnection,
    state: &AppState,
    startup: i64,
    now: OffsetDateTime,
) -> Result<(), AppError> {
    let round = moves::round(conn, startup).await?;
    if round.status != RoundStatus::Open {
        return Ok(());
    }
    let rules = state.shared().rounds.rules();
    let window = Duration::hours(state.shared().rounds.cancel_window_hours);
    let goal = Money::from_kurus(round.goal_kurus);
    let mut committed = Money::from_kurus(moves::committed(conn, startup).await?);
    for next in moves::waiting(conn, startup).await? {
        let amount = Money::from_kurus(next.investment_kurus);
        if !rules.fits(goal, committed, amount) {
            continue;
        }
        if !moves::promote(conn, next.id, now + window, now).await? {
            continue;
        }
        committed = Money::from_kurus(committed.kurus() + amount.kurus());
        let note = "room freed up: promoted from the waitlist";
        record_event(conn, next.id, RequestStatus::Submitted, note, None, now).await?;
        mail_status(conn, state, next.id, "request-promoted", "").await?;
    }
    Ok(())
}

/// Starts closing the startup's open round (at the end of its period, or at the early close a
/// superadmin scheduled); `false` when it was not open, 409 while investors are asked to
/// reconfirm.
pub async fn start_close(
    state: &AppState,
    startup: i64,
    by: Option<i64>,
) -> Result<bool, AppError> {
    let mut tx = crate::db::write(state.db()).await?;
    let started = start_close_in(&mut tx, state, startup, by, None).await?;
    tx.commit().await?;
    Ok(started)
}

/// [`start_close`] in the caller's transaction; `failed` forces the outcome (a termination).
pub async fn start_close_in(
    tx: &mut SqliteConnection,
    state: &AppState,
    startup: i64,
    by: Option<i64>,
    forced: Option<&str>,
) -> Result<bool, AppError> {
    if super::reconfirmation::waiting(&mut *tx, startup)
        .await?
        .count
        > 0
    {
        let message = "round-awaits-reconfirmation";
        return Err(AppError::Refused(StatusCode::CONFLICT, message));
    }
    let standing = queries::standing(&mut *tx, startup).await?;
    let rules = state.shared().rounds.rules();
    let (goal, raised) = (
        Money::from_kurus(standing.goal_kurus),
        Money::from_kurus(standing.raised_kurus),
    );
    let outcome = match forced {
        Some(outcome) => outcome,
        None if rules.succeeded(goal, raised) => "funded",
        None => "failed",
    };
    let started =
        queries::start_close(&mut *tx, startup, outcome, raised.kurus(), by, state.now()).await?;
    if let (true, Some(actor)) = (started, by) {
        let subject = format!("startup:{startup}");
        let after = format!("closing ({outcome}, {} received)", raised.kurus());
        crate::db::audit::record(
            &mut *tx,
            actor,
            "round.close",
            &subject,
            Some("open"),
            Some(&after),
        )
        .await?;
    }
    Ok(started)
}

/// Settles one request of a closing round, in its own transaction; nothing when it is already
/// settled.
async fn settle(
    state: &AppState,
    id: i64,
    (succeeded, total): (bool, i64),
    terminated: Option<&str>,
) -> Result<(), AppError> {
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    let Some(t) = moves::target(&mut tx, id).await? else {
        return Ok(());
    };
    if t.status.is_end() {
        return Ok(());
    }
    // An investor whose MKK data is rejected holds no shares: their money goes back.
    let held = super::mkk::investing_blocked(&mut *tx, t.user_id)
        .await?
        .is_some();
    match (succeeded && !held, t.status) {
        (true, RequestStatus::Funded) => {
            let amount = ledger_queries::escrow_balance(&mut tx, id).await?;
            let share = share_ppm(Money::from_kurus(amount), Money::from_kurus(total));
            let reference = t.reference.as_deref().unwrap_or("");
            let note = format!("round closed: {share} ppm of {total} kuruş");
            let kind = MoneyKind::Allocated;
            record_at(&mut tx, id, kind, amount, reference, None, &note, now).await?;
            if !moves::allocate(&mut tx, id, share, now).await? {
                return Ok(());
            }
            record_event(&mut tx, id, RequestStatus::Allocated, &note, None, now).await?;
            mail_status(&mut tx, state, id, "request-allocated", "").await?;
        }
        (_, RequestStatus::Funded | RequestStatus::FeePaid) => {
            let note = match terminated {
                Some(reason) => format!("the round was terminated: {reason}"),
                None if held => {
                    "the investor's MKK data is not verified: nothing is allocated".into()
                }
                None if succeeded => "the round closed before the transfer arrived".into(),
                None => "the round closed below its goal".into(),
            };
            end(
                &mut tx,
                state,
                &t,
                RequestStatus::Refunded,
                None,
                &note,
                now,
            )
            .await?;
        }
        _ => {
            let note = match terminated {
                Some(reason) => format!("the round was terminated: {reason}"),
                None => "the round closed before the request got through".into(),
            };
            end(&mut tx, state, &t, RequestStatus::Lapsed, None, &note, now).await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

/// The close job: cancels requests not reconfirmed in time, starts the close of every
/// investment round whose period ended, then settles
/// every closing round, request by request, and marks it funded or failed.
pub async fn close_rounds(state: &AppState) -> anyhow::Result<()> {
    // A round waiting on reconfirmations closes once they are answered or cancelled.
    super::reconfirmation::expire(state).await?;
    for startup in queries::rounds_due(state.db(), state.today(), state.now()).await? {
        start_close(state, startup, None).await?;
    }
    for round in queries::closing(state.db()).await? {
        let terminated = round.termination_reason.as_deref();
        for id in queries::unsettled(state.db(), round.id).await? {
            settle(state, id, (round.succeeded, round.total_kurus), terminated).await?;
        }
        let mut tx = crate::db::write(state.db()).await?;
        if queries::finish_close(&mut tx, round.id, state.now()).await? {
            let outcome = if round.succeeded { "funded" } else { "failed" };
            let total = Money::from_kurus(round.total_kurus).format(ortak_app::i18n::Locale::Tr);
            let notice = Mail::staff_notice(
                &state.shared().staff_email,
                &format!("Tur kapandı: {} ({outcome})", round.name),
                &[
                    ("Girişim", round.name.as_str()),
                    ("Sonuç", outcome),
                    ("Emanette", &total),
                ],
            );
            enqueue(&mut tx, &notice).await?;
            tracing::info!(startup = round.id, outcome, "round closed");
        }
        tx.commit().await?;
        state.wake_mailer();
    }
    Ok(())
}

/// The deadlines job: reminds investors before a payment deadline (once per deadline) and
/// lapses requests whose deadline passed (the fee is owed back if it was paid).
pub async fn payment_deadlines(state: &AppState) -> anyhow::Result<()> {
    let now = state.now();
    let lead = Duration::hours(state.shared().rounds.reminder_hours);
    for id in queries::reminders_due(state.db(), now, now + lead).await? {
        remind(state, id, now).await?;
    }
    for id in queries::deadlines_passed(state.db(), now).await? {
        lapse(state, id, now).await?;
    }
    state.wake_mailer();
    Ok(())
}

async fn remind(state: &AppState, id: i64, now: OffsetDateTime) -> Result<(), AppError> {
    let mut tx = crate::db::write(state.db()).await?;
    let Some(t) = moves::target(&mut tx, id).await? else {
        return Ok(());
    };
    let kind = match t.status {
        RequestStatus::Approved => "fee-reminder",
        RequestStatus::FeePaid => "transfer-reminder",
        _ => return Ok(()),
    };
    if queries::insert_notice(&mut tx, id, kind, now).await? {
        mail_status(&mut tx, state, id, "deadline-reminder", "").await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn lapse(state: &AppState, id: i64, now: OffsetDateTime) -> Result<(), AppError> {
    let mut tx = crate::db::write(state.db()).await?;
    let Some(t) = moves::target(&mut tx, id).await? else {
        return Ok(());
    };
    let due = queries::deadlines(&mut tx, id).await?;
    let note = match t.status {
        RequestStatus::Approved if due.fee_due_at.is_some_and(|d| d <= now) => {
            "the service fee was not paid in time"
        }
        RequestStatus::FeePaid if due.transfer_due_at.is_some_and(|d| d <= now) => {
            "the transfer did not reach escrow in time"
        }
        _ => return Ok(()),
    };
    if t.round == RoundStatus::Open {
        end(&mut tx, state, &t, RequestStatus::Lapsed, None, note, now).await?;
    }
    tx.commit().await?;
    Ok(())
}

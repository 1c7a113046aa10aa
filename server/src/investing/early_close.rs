//! Ending a round before its period ends, fairly (issue 27). A superadmin may:
//!
//! - schedule an early close, only while escrow already holds the success threshold: every
//!   investor with a live request is told when, the round takes no new request, and the close
//!   waits until every open cancellation window and payment deadline has passed (the close job
//!   starts it then, as at a period's end);
//! - terminate the round, with a written reason (the issuer withdrew, the committee revoked):
//!   everyone is told the reason and the round is settled as a failed one (money in escrow and
//!   fees refunded).
//!
//! Both are audited. A close never lapses a request that is still inside its own deadlines
//! (`queries::rounds::rounds_due`).

use axum::http::StatusCode;
use ortak_app::domain::money::Money;
use time::OffsetDateTime;

use super::queries::rounds as queries;
use super::rounds::{close_rounds, start_close_in};
use super::transitions::record_event;
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::state::AppState;

/// What an early close would do, for the confirmation page.
pub struct Preview {
    pub goal: Money,
    pub received: Money,
    /// Escrow holds the success threshold: the round may be closed early as a success.
    pub may_schedule: bool,
    /// When the close could happen: the end of the last open window or deadline, or now.
    pub earliest: OffsetDateTime,
    pub figures: queries::ClosePreview,
}

pub async fn preview(state: &AppState, startup: i64) -> Result<Preview, AppError> {
    let mut conn = state.db().acquire().await?;
    let standing = queries::standing(&mut conn, startup).await?;
    let (goal, received) = (
        Money::from_kurus(standing.goal_kurus),
        Money::from_kurus(standing.raised_kurus),
    );
    let now = state.now();
    Ok(Preview {
        goal,
        received,
        may_schedule: state.shared().rounds.rules().succeeded(goal, received),
        earliest: queries::rights_end(&mut conn, startup, now)
            .await?
            .unwrap_or(now),
        figures: queries::close_preview(&mut conn, startup).await?,
    })
}

/// Schedules the round's early close as superadmin `actor`; when it will happen.
pub async fn schedule(
    state: &AppState,
    startup: i64,
    actor: i64,
) -> Result<OffsetDateTime, AppError> {
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    let standing = queries::standing(&mut tx, startup).await?;
    let rules = state.shared().rounds.rules();
    let (goal, received) = (
        Money::from_kurus(standing.goal_kurus),
        Money::from_kurus(standing.raised_kurus),
    );
    if !rules.succeeded(goal, received) {
        return Err(AppError::Refused(
            StatusCode::CONFLICT,
            "round-close-below-threshold",
        ));
    }
    let at = queries::rights_end(&mut tx, startup, now)
        .await?
        .unwrap_or(now);
    if !queries::schedule_close(&mut tx, startup, at).await? {
        return Err(AppError::Refused(StatusCode::CONFLICT, "round-not-open"));
    }
    let when = ortak_app::domain::timeline::format_moment(at, ortak_app::i18n::Locale::En);
    let note = format!("the round closes early on {when} (Istanbul)");
    let mut told = std::collections::BTreeSet::new();
    for id in queries::open_requests(&mut tx, startup).await? {
        let status = current_status(&mut tx, id).await?;
        record_event(&mut tx, id, status, &note, Some(actor), now).await?;
        let investor = super::queries::investor_of(&mut tx, id).await?;
        if told.insert(investor.email.clone()) {
            let l = investor.language;
            let when = ortak_app::domain::timeline::format_moment(at, l);
            let body = l.t_args("mail-round-closing-early-body", &[("date", when.into())]);
            let link = format!("{}/pendingInvestments", state.shared().public_url);
            let subject = l.t("mail-round-closing-early-subject");
            let mail = Mail::compose(
                &investor.email,
                l,
                &investor.first_name,
                "round-closing-early",
                &link,
                subject,
                &body,
            );
            enqueue(&mut tx, &mail).await?;
        }
    }
    let subject = format!("startup:{startup}");
    let after = format!("close scheduled for {when} (Istanbul)");
    crate::db::audit::record(
        &mut tx,
        actor,
        "round.close.scheduled",
        &subject,
        None,
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    state.wake_mailer();
    Ok(at)
}

async fn current_status(
    conn: &mut sqlx::SqliteConnection,
    id: i64,
) -> Result<ortak_app::domain::investing::RequestStatus, AppError> {
    Ok(super::transitions::target(conn, id).await?.status)
}

/// Terminates the round as superadmin `actor` for `reason`: settled as a failed round, each
/// investor told why (the close mails carry the reason).
pub async fn terminate(
    state: &AppState,
    startup: i64,
    actor: i64,
    reason: &str,
) -> Result<(), AppError> {
    let mut tx = crate::db::write(state.db()).await?;
    queries::set_termination(&mut tx, startup, reason).await?;
    if !start_close_in(&mut tx, state, startup, Some(actor), Some("failed")).await? {
        return Err(AppError::Refused(StatusCode::CONFLICT, "round-not-open"));
    }
    let subject = format!("startup:{startup}");
    crate::db::audit::record(
        &mut tx,
        actor,
        "round.terminate",
        &subject,
        Some("open"),
        Some(reason),
    )
    .await?;
    tx.commit().await?;
    // Settled at once here, and by the job on every tick until done.
    close_rounds(state).await.map_err(AppError::Internal)?;
    state.wrote();
    Ok(())
}

//! How a request moves once sent: every move is recorded as an event, and the investor hears
//! of it by mail in their language. Staff's moves (`staff::investments`) and the card fee
//! (`payments`) come through here, so the rules and the mails live in one place.

use ortak_app::domain::investing::RequestStatus;
use sqlx::SqliteConnection;

use super::queries;
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::state::AppState;

/// Records that request `request_id` reached `status` (by `actor`, or by the system).
pub async fn record_event(
    conn: &mut SqliteConnection,
    request_id: i64,
    status: RequestStatus,
    note: &str,
    actor: Option<i64>,
) -> Result<(), sqlx::Error> {
    queries::insert_event(conn, request_id, status, note, actor).await
}

/// Queues the automatic mail `kind` to the investor who sent `request_id`, in their language,
/// with staff's `note` (a reason) when there is one.
pub async fn mail_investor(
    conn: &mut SqliteConnection,
    request_id: i64,
    kind: &str,
    link: &str,
    note: &str,
) -> Result<(), AppError> {
    let investor = queries::investor_of(&mut *conn, request_id).await?;
    let mail = Mail::action_noted(
        &investor.email,
        investor.language,
        &investor.first_name,
        kind,
        link,
        note,
    );
    enqueue(conn, &mail).await?;
    Ok(())
}

/// Moves a request as staff do (review, approve, reject, confirm payment, complete), records
/// and audits the move and mails the investor. A rejection needs a reason.
pub async fn staff_transition(
    state: &AppState,
    request_id: i64,
    to: RequestStatus,
    actor: i64,
    note: &str,
) -> Result<(), AppError> {
    let mut tx = state.db().begin().await?;
    let from = queries::status(&mut tx, request_id)
        .await?
        .ok_or(AppError::NotFound)?;
    if !from.staff_can_move_to(to) {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    if to == RequestStatus::Rejected && note.is_empty() {
        return Err(AppError::BadRequest("dashboard-reason-required"));
    }
    let reason = (to == RequestStatus::Rejected).then_some(note);
    queries::set_status(&mut tx, request_id, to, reason, state.now()).await?;
    record_event(&mut tx, request_id, to, note, Some(actor)).await?;
    let after = if note.is_empty() {
        to.code().to_owned()
    } else {
        format!("{} {note}", to.code())
    };
    // The investor hears of every move, in their language.
    let public_url = &state.shared().public_url;
    let link = match to {
        RequestStatus::Approved => format!("{public_url}/invFlow?request={request_id}"),
        RequestStatus::Completed => format!("{public_url}/userInvestments"),
        _ => format!("{public_url}/pendingInvestments"),
    };
    let kind = format!("request-{}", to.code());
    mail_investor(&mut tx, request_id, &kind, &link, note).await?;
    crate::db::audit::record(
        &mut tx,
        actor,
        "request.status",
        &format!("request:{request_id}"),
        Some(from.code()),
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

//! A request's timeline (see `ortak_app::domain::timeline`) from its row, history and ledger,
//! and the status mails that carry it: every mail about a request shows each step with its
//! date, the current one and the next action with its deadline, in the investor's language.

use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::money::Money;
use ortak_app::domain::rounds::RoundStatus;
use ortak_app::domain::timeline::{History, timeline_text};
use sqlx::SqliteConnection;

use super::queries::investor_of;
use super::queries::timeline::{self as queries, Event, RequestRow};
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::state::AppState;

/// The history a timeline is drawn from.
pub fn history(row: &RequestRow, events: &[Event]) -> History {
    History {
        status: row.status,
        sent_at: row.created_at,
        reached: events
            .iter()
            .filter(|e| e.request_id == row.id)
            .filter_map(|e| RequestStatus::from_code(&e.status).map(|s| (s, e.created_at)))
            .collect(),
        fee_due_at: row.fee_due_at,
        transfer_due_at: row.transfer_due_at,
        cancel_until: row.cancel_until,
        round_ends_on: row.ends_on,
        round_open: row.round == RoundStatus::Open,
        round_funded: row.round_funded,
        fee_paid: row.fee_paid,
        fee_refunded_at: row.fee_refunded_at,
        escrow_refunded_at: row.escrow_refunded_at,
    }
}

/// Where the mail of `kind` about request `id` leads.
fn link(state: &AppState, kind: &str, id: i64) -> String {
    let public_url = &state.shared().public_url;
    match kind {
        "request-approved" | "fee-paid" | "deadline-reminder" => {
            format!("{public_url}/invFlow?request={id}")
        }
        "request-allocated" => format!("{public_url}/userInvestments"),
        _ => format!("{public_url}/pendingInvestments"),
    }
}

/// Queues the automatic mail `kind` about request `id` to its investor, in their language,
/// with staff's `note` (a reason) and the request's timeline as it stands in this transaction.
pub async fn mail_status(
    conn: &mut SqliteConnection,
    state: &AppState,
    id: i64,
    kind: &str,
    note: &str,
) -> Result<(), AppError> {
    let investor = investor_of(&mut *conn, id).await?;
    let row = queries::request(&mut *conn, id).await?;
    let events = queries::events(&mut *conn, id).await?;
    let timeline = history(&row, &events).timeline(id);
    let mut details = timeline_text(&timeline, investor.language);
    if kind == "request-approved" {
        // What the investor pays next, in figures.
        let fee = Money::from_kurus(queries::fee_of(&mut *conn, id).await?);
        let args = [("fee", fee.format(investor.language).into())];
        let line = investor.language.t_args("mail-approved-fee", &args);
        details = format!("{line}\n\n{details}");
    }
    let mail = Mail::automatic(
        &investor.email,
        investor.language,
        &investor.first_name,
        kind,
        &link(state, kind, id),
        note,
        Some(details),
    );
    enqueue(conn, &mail).await?;
    Ok(())
}

//! What a round admits, read inside the write transaction that stores a request: the round is
//! still open (not closing), the investor's MKK data is verified and not rejected, the amount
//! fits their yearly limit (counted for their verified identity), and the round has room for it.
//! A request that does not fit beside the round's commitments is waitlisted; one larger than the
//! round could ever take is refused, so one request can never freeze the line (issue 26).

use axum::http::StatusCode;
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::limits::LimitStatus;
use ortak_app::domain::money::Money;
use ortak_app::domain::rounds::RoundStatus;
use sqlx::SqliteConnection;

use super::limits::{self, Standing};
use super::mkk;
use super::queries::moves;
use crate::error::AppError;
use crate::startups::CardRow;
use crate::state::AppState;

/// A request the round takes: as sent or waitlisted, under the investor's verified standing.
pub struct Admitted {
    pub status: RequestStatus,
    pub standing: Standing,
}

pub enum Admission {
    Admitted(Admitted),
    /// The amount is refused: the field error's id, with the limit to show beside it.
    Refused {
        error: &'static str,
        limit: Option<LimitStatus>,
    },
}

/// Whether round `row` takes `investment` from `user` now. A round that stopped taking requests
/// or an investor who may not invest is a 409 (the page before the form says why).
pub async fn admit(
    conn: &mut SqliteConnection,
    state: &AppState,
    row: &CardRow,
    user: i64,
    investment: Money,
) -> Result<Admission, AppError> {
    let round = moves::round(conn, row.id).await?;
    if round.status != RoundStatus::Open {
        return Err(AppError::Refused(StatusCode::CONFLICT, "investment-closed"));
    }
    if round.close_scheduled {
        return Err(AppError::Refused(
            StatusCode::CONFLICT,
            "round-closing-scheduled",
        ));
    }
    if let Some(id) = mkk::investing_blocked(&mut *conn, user).await? {
        return Err(AppError::Refused(StatusCode::CONFLICT, id));
    }
    let unverified = AppError::Refused(StatusCode::CONFLICT, "investment-needs-mkk-verification");
    let standing = limits::standing(conn, state, user)
        .await?
        .ok_or(unverified)?;
    if standing.limit.is_some_and(|l| !l.allows(investment)) {
        return Ok(Admission::Refused {
            error: "validation-over-limit",
            limit: standing.limit,
        });
    }
    Ok(match place_in_round(conn, state, row, investment).await? {
        Some(status) => Admission::Admitted(Admitted { status, standing }),
        None => Admission::Refused {
            error: "validation-over-capacity",
            limit: None,
        },
    })
}

/// Where a new commitment of `amount` goes: sent when it fits beside what is committed,
/// waitlisted when only others' commitments stand in its way, `None` when it is larger than
/// the round could ever take (its capacity beside the money it holds for good). A waitlist
/// ahead of it does not matter.
async fn place_in_round(
    conn: &mut SqliteConnection,
    state: &AppState,
    row: &CardRow,
    amount: Money,
) -> Result<Option<RequestStatus>, AppError> {
    let rules = state.shared().rounds.rules();
    let goal = Money::from_kurus(row.funding_goal_kurus);
    let settled = Money::from_kurus(moves::settled(conn, row.id, state.now()).await?);
    if !rules.fits(goal, settled, amount) {
        return Ok(None);
    }
    let committed = Money::from_kurus(moves::committed(conn, row.id).await?);
    Ok(Some(if rules.fits(goal, committed, amount) {
        RequestStatus::Submitted
    } else {
        RequestStatus::Waitlisted
    }))
}

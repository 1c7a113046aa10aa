//! Fund-use reports owed after funding (SPK III-35/A.2): one by every
//! `ORTAK_FUND_USE_REPORT_DAYS` after the round closed, until an approved report shows the plan
//! spent (`ortak_app::domain::disclosures::fund_use_due`). The founders' page says when the next
//! is due; the job chases an overdue one once per due date, as overdue quarterly reports are.

use ortak_app::domain::disclosures::{FundUseDue, Spending, fully_spent, fund_use_due};
use ortak_app::domain::time_fmt::istanbul_date;

use super::queries::disclosures as q;
use crate::error::AppError;
use crate::notifications;
use crate::state::AppState;

/// The startup's fund-use reports owed on `today`, if any are.
pub async fn due(state: &AppState, startup: i64) -> Result<Option<FundUseDue>, AppError> {
    let db = state.db();
    let Some(s) = q::fund_use_reports(db, Some(startup)).await?.pop() else {
        return Ok(None);
    };
    due_of(state, &s).await
}

async fn due_of(state: &AppState, s: &q::FundUseReports) -> Result<Option<FundUseDue>, AppError> {
    let posted: Vec<_> = q::fund_use_posted(state.db(), s.id)
        .await?
        .into_iter()
        .map(istanbul_date)
        .collect();
    let latest: Vec<Spending> = s
        .latest_spending
        .as_deref()
        .and_then(|j| serde_json::from_str(j).ok())
        .unwrap_or_default();
    let every = state.shared().rounds.fund_use_report_days;
    let closed = istanbul_date(s.closed_at);
    Ok(fund_use_due(
        closed,
        every,
        &posted,
        fully_spent(&latest),
        state.today(),
    ))
}

/// The fund-use-reports job: each funded startup's overdue fund-use report is chased once per
/// due date, to its team, its investors and staff.
pub async fn remind(state: &AppState) -> anyhow::Result<()> {
    let mut told = false;
    for s in q::fund_use_reports(state.db(), None).await? {
        let Some(FundUseDue {
            overdue: Some(due), ..
        }) = due_of(state, &s).await?
        else {
            continue;
        };
        let mut tx = crate::db::write(state.db()).await?;
        if notifications::fund_use_overdue(&mut tx, state, s.id, &s.name, due).await? {
            tracing::info!(startup = s.id, %due, "overdue fund-use report told");
            told = true;
        }
        tx.commit().await?;
    }
    if told {
        state.wake_mailer();
    }
    Ok(())
}

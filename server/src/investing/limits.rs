//! The investor's annual limit (SPK's cap for non-qualified individuals; the arithmetic is
//! `ortak_app::domain::limits`): who they are (a verified qualified declaration, a company,
//! or a person with the income they declared to MKK) and what this year's requests add up to.

use ortak_app::domain::limits::{InvestorClass, LimitStatus, annual_limit, year_bounds};
use ortak_app::domain::money::Money;
use sqlx::SqliteConnection;

use super::queries::profiles as queries;
use crate::error::AppError;
use crate::state::AppState;

/// Where `user` stands against the limit this year; `None` when they are not capped.
pub async fn status(
    conn: &mut SqliteConnection,
    state: &AppState,
    user: i64,
) -> Result<Option<LimitStatus>, AppError> {
    let (start, end) = year_bounds(state.today());
    let facts = queries::limit_facts(conn, user, start, end).await?;
    let class = if facts.qualified {
        InvestorClass::Qualified
    } else if facts.investor_type.as_deref() == Some("corporate") {
        InvestorClass::Corporate
    } else {
        InvestorClass::Individual {
            declared_income: Money::from_kurus(facts.annual_income_kurus.unwrap_or(0)),
        }
    };
    let rules = state.shared().rounds.limits();
    Ok(annual_limit(&rules, class)
        .map(|limit| LimitStatus::new(limit, Money::from_kurus(facts.used_kurus))))
}

//! The investor's annual limit (SPK's cap for non-qualified individuals; the arithmetic is
//! `ortak_app::domain::limits`). It follows verified data only: the class, identity and income
//! staff (or the e-government check) verified in the MKK record, never the record as last
//! typed, and a verified qualified-investor declaration. What counts is this year's requests
//! made under the same identity from any account, and this account's own.

use ortak_app::domain::limits::{InvestorClass, LimitStatus, annual_limit, year_bounds};
use ortak_app::domain::money::Money;
use sqlx::SqliteConnection;

use super::queries::profiles as queries;
use crate::error::AppError;
use crate::state::AppState;

/// Who the investor is, as verified, and where they stand against the limit this year.
pub struct Standing {
    pub class: InvestorClass,
    /// `tckn:…`, `ykn:…` or `vkn:…`: the verified identity the limit is counted for.
    pub identity_key: String,
    /// `None` when the class is not capped.
    pub limit: Option<LimitStatus>,
}

/// Where `user` stands; `None` while their MKK data has never been verified.
pub async fn standing(
    conn: &mut SqliteConnection,
    state: &AppState,
    user: i64,
) -> Result<Option<Standing>, AppError> {
    let (start, end) = year_bounds(state.today());
    let facts = queries::limit_facts(conn, user, start, end).await?;
    let Some(identity_key) = facts.identity_key else {
        return Ok(None);
    };
    let class = if facts.qualified {
        InvestorClass::Qualified
    } else if facts.investor_type.as_deref() == Some("corporate") {
        InvestorClass::Corporate
    } else {
        InvestorClass::Individual {
            declared_income: Money::from_kurus(facts.income_kurus.unwrap_or(0)),
        }
    };
    let rules = state.shared().rounds.limits();
    let limit = annual_limit(&rules, class)
        .map(|limit| LimitStatus::new(limit, Money::from_kurus(facts.used_kurus)));
    Ok(Some(Standing {
        class,
        identity_key,
        limit,
    }))
}

/// Where `user` stands against the limit this year; `None` when they are not capped (or not
/// verified yet: the gate before investing says so).
pub async fn status(
    conn: &mut SqliteConnection,
    state: &AppState,
    user: i64,
) -> Result<Option<LimitStatus>, AppError> {
    Ok(standing(conn, state, user).await?.and_then(|s| s.limit))
}

//! A startup's card: the row every list and page starts from (its raised amount and investor
//! count are the ledger's, kept by the database), what it says about funding today, and
//! finding one by its address. Investing reads the same card to decide whether a
//! request may be sent.

use ortak_app::domain::money::Money;
use ortak_app::domain::rounds::CLOSING_SOON_DAYS;
use ortak_app::domain::startups::{Funding, FundingStatus, PeriodKind};
use ortak_app::pages::startups::StartupCard;
use time::Date;

use super::queries::{self, CardRow};
use crate::error::AppError;
use crate::web::{Ctx, Staff};

impl CardRow {
    pub fn funding(&self) -> Funding {
        Funding {
            goal: Money::from_kurus(self.funding_goal_kurus),
            raised: Money::from_kurus(self.raised_kurus),
            funded: self.funded,
            round: self.round_status,
            period: self.period_kind,
            starts_on: self.period_starts_on,
            ends_on: self.period_ends_on,
            vip_until: self.vip_until,
        }
    }

    /// The card as shown to a viewer; `favorite`, whether they saved it, only to those signed
    /// in (`kept::Mine` knows).
    pub fn card(&self, favorite: Option<bool>, today: Date) -> StartupCard {
        let mut funding = self.funding();
        let days_left = funding.days_left(today);
        let open = funding.status() == FundingStatus::BeingFunded && days_left > 0;
        // A closed round shows what it had at its close: a failed one's ledger is empty again.
        let mut investors = self.investor_count;
        let closed = funding.status() != FundingStatus::BeingFunded;
        if let (true, Some(total), Some(count)) =
            (closed, self.closing_total_kurus, self.closing_investors)
        {
            funding.raised = Money::from_kurus(total);
            investors = count;
        }
        StartupCard {
            slug: self.slug.clone(),
            name: self.name.clone(),
            sector: self.sector.clone(),
            fund: self.fund.clone(),
            city: self.city.clone(),
            goal: funding.goal,
            raised: funding.raised,
            investors,
            completion_pct: funding.completion_pct(),
            status: funding.status(),
            period: funding.period,
            days_left,
            closing_soon: open
                && funding.period == PeriodKind::Investment
                && days_left <= CLOSING_SOON_DAYS,
            favorite,
            logo: self.logo.clone(),
            closed_on: self
                .closed_at
                .filter(|_| closed)
                .map(ortak_app::domain::time_fmt::istanbul_date),
        }
    }
}

/// A published startup's card row, whoever asks: what investing works on (staff may view
/// drafts, but nobody files a request for one).
pub async fn published_card(ctx: &Ctx, slug: &str) -> Result<CardRow, AppError> {
    find_card(ctx, None, slug).await
}

/// A published startup's card row, for the viewer; staff also see drafts, to check them.
pub async fn find_card(ctx: &Ctx, staff: Option<&Staff>, slug: &str) -> Result<CardRow, AppError> {
    queries::card(ctx.state().db(), staff.is_some(), slug)
        .await?
        .ok_or(AppError::NotFound)
}

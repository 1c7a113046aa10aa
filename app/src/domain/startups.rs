//! Startups as investors see them: funding status, periods and days left, list filters.

use time::Date;

use crate::domain::money::Money;
use crate::domain::rounds::RoundStatus;

/// Sectors are the spec's interest categories.
pub use crate::domain::onboarding::INTERESTS as SECTORS;

/// Investment stages (spec section 9).
pub const STAGES: [&str; 7] = [
    "pre-seed",
    "pre-series-a",
    "seed",
    "series-a",
    "series-b",
    "series-c",
    "other",
];

/// The twelve analysis sections, in the order of the detail page's tabs.
pub const SECTIONS: [&str; 12] = [
    "executive-summary",
    "quick-view",
    "investment-summary",
    "pain-point",
    "solution",
    "market-analysis",
    "competitive-analysis",
    "investment-conditions",
    "team",
    "traction",
    "risks",
    "disclaimer",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FundingStatus {
    BeingFunded,
    Funded,
    /// The round closed below its success threshold; what was paid is refunded.
    Failed,
}

impl FundingStatus {
    pub fn code(self) -> &'static str {
        match self {
            FundingStatus::BeingFunded => "being-funded",
            FundingStatus::Funded => "funded",
            FundingStatus::Failed => "failed",
        }
    }

    pub fn from_code(code: &str) -> Option<FundingStatus> {
        match code {
            "being-funded" => Some(FundingStatus::BeingFunded),
            "funded" => Some(FundingStatus::Funded),
            "failed" => Some(FundingStatus::Failed),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(rename_all = "snake_case"))]
pub enum PeriodKind {
    Investment,
    PreInvestment,
}

impl PeriodKind {
    pub fn code(self) -> &'static str {
        match self {
            PeriodKind::Investment => "investment",
            PeriodKind::PreInvestment => "pre_investment",
        }
    }

    pub fn from_code(code: &str) -> PeriodKind {
        if code == "pre_investment" {
            PeriodKind::PreInvestment
        } else {
            PeriodKind::Investment
        }
    }
}

/// What an investor can do with a startup today.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// The investment period is open: the invest button.
    Invest,
    /// The pre-investment period is open: the pre-investment request button.
    PreInvest,
    /// The pre-investment period is open, but only to the startup's VIP groups for now.
    VipOnly,
    /// Funded, not yet open, or ended: neither button.
    Closed,
}

#[derive(Clone, Debug)]
pub struct Funding {
    pub goal: Money,
    /// Received in escrow (from the ledger).
    pub raised: Money,
    pub funded: bool,
    /// Whether the round takes requests or has closed (and how).
    pub round: RoundStatus,
    pub period: PeriodKind,
    pub starts_on: Date,
    pub ends_on: Date,
    /// Until this day only VIP group members may pre-invest.
    pub vip_until: Option<Date>,
}

impl Funding {
    pub fn status(&self) -> FundingStatus {
        match self.round {
            _ if self.funded => FundingStatus::Funded,
            RoundStatus::Funded => FundingStatus::Funded,
            RoundStatus::Failed => FundingStatus::Failed,
            RoundStatus::Open | RoundStatus::Closing => FundingStatus::BeingFunded,
        }
    }

    /// Whole percent of the goal raised (may pass 100 when oversubscribed).
    pub fn completion_pct(&self) -> i64 {
        if self.goal.kurus() <= 0 {
            0
        } else {
            self.raised.kurus().saturating_mul(100) / self.goal.kurus()
        }
    }

    /// Days until the period ends, counting today; 0 once it has ended.
    /// Days left in the period; none once the round stopped taking requests (no countdown
    /// after a close).
    pub fn days_left(&self, today: Date) -> i64 {
        if self.round != RoundStatus::Open {
            return 0;
        }
        ((self.ends_on - today).whole_days() + 1).max(0)
    }

    pub fn offer(&self, today: Date) -> Offer {
        let open = !self.funded
            && self.round == RoundStatus::Open
            && self.starts_on <= today
            && today <= self.ends_on;
        match (open, self.period) {
            (true, PeriodKind::Investment) => Offer::Invest,
            (true, PeriodKind::PreInvestment) => Offer::PreInvest,
            _ => Offer::Closed,
        }
    }

    /// What this investor may do today: VIP periods keep pre-investment to group members.
    pub fn offer_for(&self, today: Date, vip_member: bool) -> Offer {
        match self.offer(today) {
            Offer::PreInvest
                if !vip_member && self.vip_until.is_some_and(|until| today <= until) =>
            {
                Offer::VipOnly
            }
            offer => offer,
        }
    }
}

/// A filter range over whole lira, counts or percents: `[min, max)`; `max` `None` is open.
pub struct Range {
    pub code: &'static str,
    pub min: i64,
    pub max: Option<i64>,
}

const fn range(code: &'static str, min: i64, max: Option<i64>) -> Range {
    Range { code, min, max }
}

/// Funding goal ranges, in lira (typical rounds are 1-6 million TL).
pub const GOAL_RANGES: [Range; 4] = [
    range("lt-1m", 0, Some(1_000_000)),
    range("1m-3m", 1_000_000, Some(3_000_000)),
    range("3m-6m", 3_000_000, Some(6_000_000)),
    range("gte-6m", 6_000_000, None),
];

/// Investor count ranges.
pub const INVESTOR_RANGES: [Range; 4] = [
    range("lt-10", 0, Some(10)),
    range("10-25", 10, Some(25)),
    range("25-50", 25, Some(50)),
    range("gte-50", 50, None),
];

/// Completion ranges, in percent of the goal.
pub const COMPLETION_RANGES: [Range; 4] = [
    range("lt-25", 0, Some(25)),
    range("25-50", 25, Some(50)),
    range("50-75", 50, Some(75)),
    range("gte-75", 75, None),
];

pub fn find_range<'a>(ranges: &'a [Range], code: &str) -> Option<&'a Range> {
    ranges.iter().find(|r| r.code == code)
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    #[default]
    Recent,
    AToZ,
    ZToA,
}

impl Sort {
    pub fn code(self) -> &'static str {
        match self {
            Sort::Recent => "recent",
            Sort::AToZ => "a-z",
            Sort::ZToA => "z-a",
        }
    }

    pub fn from_code(code: &str) -> Sort {
        match code {
            "a-z" => Sort::AToZ,
            "z-a" => Sort::ZToA,
            _ => Sort::Recent,
        }
    }
}

/// The list's filters as the query string carries them; unknown values are ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(default)]
pub struct ListQuery {
    pub fund: String,
    pub sector: String,
    pub city: String,
    pub goal: String,
    pub investors: String,
    pub completion: String,
    pub sort: String,
    /// Kept as text so that a bad value means page 1 rather than a refused request.
    pub page: String,
}

impl ListQuery {
    /// The query string of these filters with `page`, for links (empty values left out).
    pub fn to_query(&self, page: u32) -> String {
        let mut pairs: Vec<String> = [
            ("fund", &self.fund),
            ("sector", &self.sector),
            ("city", &self.city),
            ("goal", &self.goal),
            ("investors", &self.investors),
            ("completion", &self.completion),
            ("sort", &self.sort),
        ]
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}={}", crate::domain::paths::encode_query(v)))
        .collect();
        if page > 1 {
            pairs.push(format!("page={page}"));
        }
        pairs.join("&")
    }

    /// The page asked for (1 when missing or not a number).
    pub fn page_number(&self) -> u32 {
        self.page
            .trim()
            .parse::<u32>()
            .unwrap_or(1)
            .clamp(1, 10_000)
    }

    /// Drops values that are not a known option, so links never carry them on.
    pub fn sanitized(mut self) -> ListQuery {
        if !SECTORS.contains(&self.sector.as_str()) {
            self.sector.clear();
        }
        if find_range(&GOAL_RANGES, &self.goal).is_none() {
            self.goal.clear();
        }
        if find_range(&INVESTOR_RANGES, &self.investors).is_none() {
            self.investors.clear();
        }
        if find_range(&COMPLETION_RANGES, &self.completion).is_none() {
            self.completion.clear();
        }
        if !["recent", "a-z", "z-a"].contains(&self.sort.as_str()) {
            self.sort.clear();
        }
        self.fund = self.fund.chars().take(100).collect();
        self.city = self.city.chars().take(100).collect();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vip_periods_keep_pre_investment_to_members() {
        let today = Date::from_calendar_date(2026, time::Month::November, 22).unwrap();
        let mut f = funding(PeriodKind::PreInvestment, false);
        f.starts_on = today;
        f.ends_on = today + time::Duration::days(10);
        f.vip_until = Some(today + time::Duration::days(3));
        assert_eq!(f.offer_for(today, false), Offer::VipOnly);
        assert_eq!(f.offer_for(today, true), Offer::PreInvest);
        assert_eq!(
            f.offer_for(today + time::Duration::days(4), false),
            Offer::PreInvest
        );
        f.period = PeriodKind::Investment;
        assert_eq!(f.offer_for(today, false), Offer::Invest);
    }
    use time::macros::date;

    fn funding(period: PeriodKind, funded: bool) -> Funding {
        Funding {
            goal: Money::from_lira(2_000_000),
            raised: Money::from_lira(500_000),
            funded,
            round: RoundStatus::Open,
            period,
            starts_on: date!(2026 - 11 - 01),
            ends_on: date!(2026 - 11 - 30),
            vip_until: None,
        }
    }

    #[test]
    fn offers_follow_the_period_and_funding() {
        let f = funding(PeriodKind::Investment, false);
        assert_eq!(f.offer(date!(2026 - 11 - 21)), Offer::Invest);
        assert_eq!(f.offer(date!(2026 - 10 - 31)), Offer::Closed);
        assert_eq!(f.offer(date!(2026 - 12 - 01)), Offer::Closed);
        assert_eq!(
            funding(PeriodKind::PreInvestment, false).offer(date!(2026 - 11 - 21)),
            Offer::PreInvest
        );
        assert_eq!(
            funding(PeriodKind::Investment, true).offer(date!(2026 - 11 - 21)),
            Offer::Closed
        );
    }

    #[test]
    fn counts_days_left_and_completion() {
        let f = funding(PeriodKind::Investment, false);
        assert_eq!(f.days_left(date!(2026 - 11 - 21)), 10);
        assert_eq!(f.days_left(date!(2026 - 11 - 30)), 1);
        assert_eq!(f.days_left(date!(2026 - 12 - 05)), 0);
        assert_eq!(f.completion_pct(), 25);
        assert_eq!(f.status(), FundingStatus::BeingFunded);
        let failed = Funding {
            round: RoundStatus::Failed,
            ..f.clone()
        };
        assert_eq!(failed.status(), FundingStatus::Failed);
        assert_eq!(failed.offer(date!(2026 - 11 - 21)), Offer::Closed);
        let closing = Funding {
            round: RoundStatus::Closing,
            ..f
        };
        assert_eq!(closing.status(), FundingStatus::BeingFunded);
        assert_eq!(
            closing.offer(date!(2026 - 11 - 21)),
            Offer::Closed,
            "no new requests while closing"
        );
    }

    #[test]
    fn builds_shareable_query_strings() {
        let q = ListQuery {
            sector: "fintech".into(),
            city: "İstanbul".into(),
            sort: "a-z".into(),
            ..ListQuery::default()
        };
        assert_eq!(
            q.to_query(2),
            "sector=fintech&city=%C4%B0stanbul&sort=a-z&page=2"
        );
        assert_eq!(ListQuery::default().to_query(1), "");
        let junk = ListQuery {
            sector: "<b>".into(),
            goal: "x".into(),
            city: "İ".repeat(150),
            page: "abc".into(),
            ..ListQuery::default()
        };
        assert_eq!(junk.page_number(), 1);
        let clean = junk.sanitized();
        assert!(clean.sector.is_empty() && clean.goal.is_empty());
        assert_eq!(clean.city.chars().count(), 100);
    }
}

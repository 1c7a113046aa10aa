//! The annual investment limit for investors who are not qualified (SPK's crowdfunding
//! communiqué III-35/A.2): a non-qualified individual may invest at most a base amount per
//! calendar year, or a share of their declared annual income when that is more, up to a cap
//! (50.000 TL, or 10% of income up to 200.000 TL in the 2021 text). SPK revalues the figures,
//! so they are settings ([`LimitRules`]); qualified investors (a verified declaration) and
//! corporate investors are not capped. The year is Istanbul's calendar year.

use time::{Date, Month, OffsetDateTime};

use crate::domain::money::{MINIMUM_INVESTMENT, Money};
use crate::domain::time_fmt::ISTANBUL;

/// The figures of the limit, as settings give them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitRules {
    /// What every non-qualified individual may invest a year.
    pub base: Money,
    /// The share of the declared annual income that applies instead when it is more, in basis
    /// points (1000 = 10%).
    pub income_share_bp: i64,
    /// The most the income rule can allow.
    pub cap: Money,
}

impl Default for LimitRules {
    /// The communiqué's figures as published in 2021.
    fn default() -> LimitRules {
        LimitRules {
            base: Money::from_lira(50_000),
            income_share_bp: 1000,
            cap: Money::from_lira(200_000),
        }
    }
}

/// Who is investing, as far as the limit is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InvestorClass {
    /// A verified qualified-investor declaration: no cap.
    Qualified,
    /// A company (VKN): the individual limit does not apply.
    Corporate,
    /// A person without a verified declaration, with the annual income they declared.
    Individual { declared_income: Money },
}

impl InvestorClass {
    /// As a request's snapshot stores it (`investment_requests.investor_class`).
    pub fn code(self) -> &'static str {
        match self {
            InvestorClass::Qualified => "qualified",
            InvestorClass::Corporate => "corporate",
            InvestorClass::Individual { .. } => "individual",
        }
    }
}

/// The investor's yearly limit; `None` when they are not capped.
pub fn annual_limit(rules: &LimitRules, class: InvestorClass) -> Option<Money> {
    let InvestorClass::Individual { declared_income } = class else {
        return None;
    };
    // Rounded down to the kuruş: a limit never allows a fraction more than the rule.
    let share = i128::from(declared_income.kurus()) * i128::from(rules.income_share_bp) / 10_000;
    let by_income = i64::try_from(share)
        .map_or(rules.cap, Money::from_kurus)
        .min(rules.cap);
    Some(by_income.max(rules.base))
}

/// The declared annual income at which a non-qualified individual's limit reaches `amount`;
/// `None` when the income rule's cap is below it (only qualified status reaches it then).
pub fn income_needed_for(rules: &LimitRules, amount: Money) -> Option<Money> {
    if amount <= rules.base {
        return Some(Money::from_kurus(0));
    }
    if amount > rules.cap || rules.income_share_bp <= 0 {
        return None;
    }
    // Rounded up to the lira: that income is enough.
    let kurus = i128::from(amount.kurus()) * 10_000;
    let share = i128::from(rules.income_share_bp);
    let income = (kurus + share - 1) / share;
    let lira = (income + 99) / 100;
    i64::try_from(lira).ok().map(Money::from_lira)
}

/// Where an investor stands against the limit this year.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitStatus {
    pub limit: Money,
    /// What this year's requests that hold money, or are heading there, add up to.
    pub used: Money,
    pub remaining: Money,
}

impl LimitStatus {
    pub fn new(limit: Money, used: Money) -> LimitStatus {
        let remaining = Money::from_kurus((limit.kurus() - used.kurus()).max(0));
        LimitStatus {
            limit,
            used,
            remaining,
        }
    }

    /// Whether even the minimum investment no longer fits: the investor cannot send a request
    /// this year (unless they become qualified), and the amount page says so up front.
    pub fn below_minimum(&self) -> bool {
        self.remaining < MINIMUM_INVESTMENT
    }

    /// Whether `amount` (what goes to escrow) fits in what remains.
    pub fn allows(&self, amount: Money) -> bool {
        amount <= self.remaining
    }
}

/// The UTC instants the Istanbul calendar year of `today` starts and ends at (end exclusive),
/// to sum the requests sent in it.
pub fn year_bounds(today: Date) -> (OffsetDateTime, OffsetDateTime) {
    let start = |year: i32| {
        Date::from_calendar_date(year, Month::January, 1)
            .expect("the first of January exists")
            .midnight()
            .assume_offset(ISTANBUL)
            .to_offset(time::UtcOffset::UTC)
    };
    (start(today.year()), start(today.year() + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_income_that_reaches_the_minimum() {
        let rules = LimitRules::default();
        assert_eq!(
            income_needed_for(&rules, MINIMUM_INVESTMENT),
            Some(Money::from_lira(1_000_000))
        );
        assert_eq!(income_needed_for(&rules, Money::from_lira(300_000)), None);
        assert_eq!(
            income_needed_for(&rules, Money::from_lira(40_000)),
            Some(Money::from_kurus(0))
        );
    }
    use time::macros::{date, datetime};

    fn individual(income_lira: i64) -> InvestorClass {
        InvestorClass::Individual {
            declared_income: Money::from_lira(income_lira),
        }
    }

    #[test]
    fn the_limit_is_the_base_or_a_tenth_of_income_up_to_the_cap() {
        let rules = LimitRules::default();
        let limit = |income| annual_limit(&rules, individual(income)).unwrap();
        // A tenth of 300.000 TL is less than the base: the base applies.
        assert_eq!(limit(300_000), Money::from_lira(50_000));
        assert_eq!(limit(0), Money::from_lira(50_000));
        // 10% of 750.000 TL.
        assert_eq!(limit(750_000), Money::from_lira(75_000));
        assert_eq!(limit(1_500_000), Money::from_lira(150_000));
        // Capped at 200.000 TL however high the income.
        assert_eq!(limit(2_000_000), Money::from_lira(200_000));
        assert_eq!(limit(50_000_000), Money::from_lira(200_000));
        // Kuruş are kept: 10% of 1.234.567,89 TL.
        assert_eq!(
            annual_limit(
                &rules,
                InvestorClass::Individual {
                    declared_income: Money::from_kurus(123_456_789)
                }
            ),
            Some(Money::from_kurus(12_345_678))
        );
    }

    #[test]
    fn qualified_and_corporate_investors_are_not_capped() {
        let rules = LimitRules::default();
        assert_eq!(annual_limit(&rules, InvestorClass::Qualified), None);
        assert_eq!(annual_limit(&rules, InvestorClass::Corporate), None);
    }

    #[test]
    fn settings_change_the_figures() {
        let revalued = LimitRules {
            base: Money::from_lira(120_000),
            income_share_bp: 1500,
            cap: Money::from_lira(500_000),
        };
        assert_eq!(
            annual_limit(&revalued, individual(1_000_000)),
            Some(Money::from_lira(150_000))
        );
        assert_eq!(
            annual_limit(&revalued, individual(100_000)),
            Some(Money::from_lira(120_000))
        );
        assert_eq!(
            annual_limit(&revalued, individual(9_000_000)),
            Some(Money::from_lira(500_000))
        );
    }

    #[test]
    fn what_remains_and_whether_an_amount_fits() {
        let status = LimitStatus::new(Money::from_lira(200_000), Money::from_lira(75_000));
        assert_eq!(status.remaining, Money::from_lira(125_000));
        assert!(!status.below_minimum());
        assert!(status.allows(Money::from_lira(125_000)));
        assert!(!status.allows(Money::from_kurus(12_500_001)));
        // Used past the limit (a lower limit after a new declaration): nothing remains.
        let over = LimitStatus::new(Money::from_lira(50_000), Money::from_lira(80_000));
        assert_eq!(over.remaining, Money::from_lira(0));
        assert!(over.below_minimum() && !over.allows(Money::from_lira(1)));
        // The default base (50.000 TL) is below the 100.000 TL minimum: such an investor
        // cannot invest at all, and is told before starting.
        let base = LimitStatus::new(Money::from_lira(50_000), Money::from_lira(0));
        assert!(base.below_minimum());
        let exactly = LimitStatus::new(Money::from_lira(100_000), Money::from_lira(0));
        assert!(!exactly.below_minimum());
    }

    #[test]
    fn the_year_is_istanbul_s_calendar_year() {
        let (start, end) = year_bounds(date!(2026 - 06 - 15));
        assert_eq!(start, datetime!(2025-12-31 21:00 UTC));
        assert_eq!(end, datetime!(2026-12-31 21:00 UTC));
    }
}

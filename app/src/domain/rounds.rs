//! A startup's round: whether it is open, how much room is left before requests join the
//! waitlist (the goal plus an overfunding margin), whether it succeeded when it closes, each
//! investor's share of it, and what a holding is worth at a later valuation. Pure arithmetic
//! on kuruş, shared by the close job, the pages and the staff's round page.

use crate::domain::money::Money;
use crate::i18n::Locale;

/// Where a round stands (`startups.round_status`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(rename_all = "snake_case"))]
pub enum RoundStatus {
    /// Taking requests while its period is open.
    #[default]
    Open,
    /// The close has started (its outcome is decided and stored); the close job finishes it.
    Closing,
    /// Closed successfully: allocations made.
    Funded,
    /// Closed below the success threshold: refunds recorded.
    Failed,
}

impl RoundStatus {
    pub fn code(self) -> &'static str {
        match self {
            RoundStatus::Open => "open",
            RoundStatus::Closing => "closing",
            RoundStatus::Funded => "funded",
            RoundStatus::Failed => "failed",
        }
    }
}

/// The round settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundRules {
    /// How far past the goal commitments may go before requests join the waitlist, in basis
    /// points of the goal (2000 = 20%).
    pub overfunding_bp: i64,
    /// The share of the goal that must be received in escrow for the round to succeed, in
    /// basis points (10000 = the whole goal).
    pub success_bp: i64,
}

impl Default for RoundRules {
    fn default() -> RoundRules {
        RoundRules {
            overfunding_bp: 2000,
            success_bp: 10_000,
        }
    }
}

impl RoundRules {
    /// The most the round takes in commitments: the goal plus the overfunding margin.
    pub fn capacity(&self, goal: Money) -> Money {
        let margin = goal.percent_bp(self.overfunding_bp).unwrap_or_default();
        goal.checked_add(margin).unwrap_or(goal)
    }

    /// Whether a new commitment of `amount` fits beside those `committed` already.
    pub fn fits(&self, goal: Money, committed: Money, amount: Money) -> bool {
        committed
            .checked_add(amount)
            .is_some_and(|total| total <= self.capacity(goal))
    }

    /// Whether a round with `received` in escrow succeeded.
    pub fn succeeded(&self, goal: Money, received: Money) -> bool {
        i128::from(received.kurus()) * 10_000
            >= i128::from(goal.kurus()) * i128::from(self.success_bp)
            && received.kurus() > 0
    }
}

/// Parts per million of the round that `amount` is, of `total` allocated (rounded down).
pub fn share_ppm(amount: Money, total: Money) -> i64 {
    if total.kurus() <= 0 {
        return 0;
    }
    let ppm = i128::from(amount.kurus()) * 1_000_000 / i128::from(total.kurus());
    i64::try_from(ppm).unwrap_or(1_000_000)
}

/// A share in parts per million as a percent with two decimals: `%12,50` in Turkish, `12.50%`
/// in English.
pub fn format_share(ppm: i64, locale: Locale) -> String {
    // Hundredths of a percent, rounded half up.
    let hundredths = (ppm + 50) / 100;
    let (whole, frac) = (hundredths / 100, hundredths % 100);
    match locale {
        Locale::Tr => format!("%{whole},{frac:02}"),
        Locale::En => format!("{whole}.{frac:02}%"),
    }
}

/// What a holding of `amount` bought at the round's post-money `round_valuation` is worth at
/// the `latest` valuation (rounded down to the kuruş).
pub fn holding_value(amount: Money, round_valuation: Money, latest: Money) -> Option<Money> {
    if round_valuation.kurus() <= 0 {
        return None;
    }
    let value = i128::from(amount.kurus()) * i128::from(latest.kurus())
        / i128::from(round_valuation.kurus());
    i64::try_from(value).ok().map(Money::from_kurus)
}

/// The multiple of `value` on `amount`, in hundredths (`135` is 1,35x).
pub fn multiple_x100(amount: Money, value: Money) -> Option<i64> {
    if amount.kurus() <= 0 {
        return None;
    }
    i64::try_from(i128::from(value.kurus()) * 100 / i128::from(amount.kurus())).ok()
}

/// A multiple as shown: `1,35x` in Turkish, `1.35x` in English.
pub fn format_multiple(x100: i64, locale: Locale) -> String {
    let sep = match locale {
        Locale::Tr => ',',
        Locale::En => '.',
    };
    format!("{}{sep}{:02}x", x100 / 100, x100 % 100)
}

/// A round ends within this many days: the catalogue calls it "closing soon".
pub const CLOSING_SOON_DAYS: i64 = 3;

#[cfg(test)]
mod tests {
    use super::*;

    fn lira(n: i64) -> Money {
        Money::from_lira(n)
    }

    #[test]
    fn commitments_fit_up_to_the_goal_plus_the_margin() {
        let rules = RoundRules::default();
        assert_eq!(rules.capacity(lira(1_000_000)), lira(1_200_000));
        assert!(rules.fits(lira(1_000_000), lira(1_000_000), lira(200_000)));
        assert!(!rules.fits(lira(1_000_000), lira(1_000_000), lira(200_001)));
        let strict = RoundRules {
            overfunding_bp: 0,
            ..rules
        };
        assert!(!strict.fits(lira(1_000_000), lira(950_000), lira(100_000)));
        assert!(strict.fits(lira(1_000_000), lira(900_000), lira(100_000)));
    }

    #[test]
    fn a_round_succeeds_at_its_threshold() {
        let whole = RoundRules::default();
        assert!(whole.succeeded(lira(1_000_000), lira(1_000_000)));
        assert!(!whole.succeeded(lira(1_000_000), lira(999_999)));
        let most = RoundRules {
            success_bp: 8000,
            ..whole
        };
        assert!(most.succeeded(lira(1_000_000), lira(800_000)));
        assert!(!most.succeeded(lira(1_000_000), Money::from_kurus(79_999_999)));
        let any = RoundRules {
            success_bp: 0,
            ..whole
        };
        assert!(!any.succeeded(lira(1_000_000), lira(0)), "nothing received");
    }

    #[test]
    fn shares_of_the_round() {
        assert_eq!(share_ppm(lira(250_000), lira(1_000_000)), 250_000);
        assert_eq!(share_ppm(lira(100_000), lira(300_000)), 333_333);
        assert_eq!(share_ppm(lira(1), lira(0)), 0);
        assert_eq!(format_share(250_000, Locale::Tr), "%25,00");
        assert_eq!(format_share(333_333, Locale::En), "33.33%");
        assert_eq!(format_share(1_000_000, Locale::Tr), "%100,00");
        assert_eq!(format_share(49, Locale::En), "0.00%");
    }

    #[test]
    fn holdings_follow_the_latest_valuation() {
        let value = holding_value(lira(100_000), lira(10_000_000), lira(15_000_000)).unwrap();
        assert_eq!(value, lira(150_000));
        assert_eq!(multiple_x100(lira(100_000), value), Some(150));
        assert_eq!(format_multiple(150, Locale::Tr), "1,50x");
        assert_eq!(format_multiple(85, Locale::En), "0.85x");
        assert_eq!(holding_value(lira(1), lira(0), lira(1)), None);
    }
}

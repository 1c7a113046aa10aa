//! Rounds, payment deadlines and the investor's annual limit.

use clap::Args;

/// Rounds, payment deadlines and the investor's limits (see the README's "Investing").
#[derive(Args, Debug, Clone)]
pub struct RoundSettings {
    /// How long after sending a request the investor may withdraw it (hours).
    #[arg(
        long,
        env = "ORTAK_CANCEL_WINDOW_HOURS",
        default_value_t = 48,
        global = true
    )]
    pub cancel_window_hours: i64,
    /// How long an approved request has to pay its service fee (hours).
    #[arg(
        long,
        env = "ORTAK_FEE_DEADLINE_HOURS",
        default_value_t = 72,
        global = true
    )]
    pub fee_deadline_hours: i64,
    /// How long after the fee the investment has to reach escrow (hours).
    #[arg(
        long,
        env = "ORTAK_TRANSFER_DEADLINE_HOURS",
        default_value_t = 120,
        global = true
    )]
    pub transfer_deadline_hours: i64,
    /// How long investors have to reconfirm after staff change a live round's terms (hours).
    #[arg(
        long,
        env = "ORTAK_RECONFIRM_HOURS",
        default_value_t = ortak_app::domain::reconfirmation::DEFAULT_HOURS,
        global = true
    )]
    pub reconfirm_hours: i64,
    /// How long before a payment deadline the reminder mail goes out (hours).
    #[arg(
        long,
        env = "ORTAK_DEADLINE_REMINDER_HOURS",
        default_value_t = 24,
        global = true
    )]
    pub reminder_hours: i64,
    /// How far past its goal a round takes commitments before requests join the waitlist
    /// (basis points of the goal; 2000 = 20%).
    #[arg(
        long,
        env = "ORTAK_OVERFUNDING_BP",
        default_value_t = 2000,
        global = true
    )]
    pub overfunding_bp: i64,
    /// The share of the goal that must be in escrow when the round closes for it to succeed
    /// (basis points; 10000 = the whole goal).
    #[arg(
        long,
        env = "ORTAK_ROUND_SUCCESS_BP",
        default_value_t = 10_000,
        global = true
    )]
    pub success_bp: i64,
    /// SPK's yearly limit for non-qualified individuals (whole lira; 50.000 in the 2021 text:
    /// check the current figure).
    #[arg(
        long,
        env = "ORTAK_ANNUAL_LIMIT_TL",
        default_value_t = 50_000,
        global = true
    )]
    pub annual_limit_tl: i64,
    /// The share of declared annual income that applies instead when higher (basis points;
    /// 1000 = 10%).
    #[arg(
        long,
        env = "ORTAK_ANNUAL_LIMIT_INCOME_BP",
        default_value_t = 1000,
        global = true
    )]
    pub annual_limit_income_bp: i64,
    /// The most the income rule allows (whole lira; 200.000 in the 2021 text).
    #[arg(
        long,
        env = "ORTAK_ANNUAL_LIMIT_CAP_TL",
        default_value_t = 200_000,
        global = true
    )]
    pub annual_limit_cap_tl: i64,
    /// The longest a campaign may run, its period's first and last day included, extensions
    /// too (SPK: 60 days; enforced by the database as well).
    #[arg(
        long,
        env = "ORTAK_CAMPAIGN_MAX_DAYS",
        default_value_t = 60,
        global = true
    )]
    pub campaign_max_days: i64,
    /// The fewest members the investment committee may have to decide (SPK: three).
    #[arg(
        long,
        env = "ORTAK_COMMITTEE_MIN_MEMBERS",
        default_value_t = 3,
        global = true
    )]
    pub committee_min_members: usize,
    /// The share of all committee members whose approval approves a campaign (basis points;
    /// 5001 = more than half).
    #[arg(
        long,
        env = "ORTAK_COMMITTEE_MAJORITY_BP",
        default_value_t = 5001,
        global = true
    )]
    pub committee_majority_bp: i64,
    /// The largest total assets an issuer may have (whole lira; check the Board's current
    /// figure).
    #[arg(
        long,
        env = "ORTAK_ISSUER_MAX_ASSETS_TL",
        default_value_t = 250_000_000,
        global = true
    )]
    pub issuer_max_assets_tl: i64,
    /// The largest yearly revenue an issuer may have (whole lira; check the current figure).
    #[arg(
        long,
        env = "ORTAK_ISSUER_MAX_REVENUE_TL",
        default_value_t = 250_000_000,
        global = true
    )]
    pub issuer_max_revenue_tl: i64,
    /// The most an issuer may raise through crowdfunding in twelve months, this campaign's
    /// maximum included (whole lira; check the current figure).
    #[arg(
        long,
        env = "ORTAK_ISSUER_YEARLY_LIMIT_TL",
        default_value_t = 60_000_000,
        global = true
    )]
    pub issuer_yearly_limit_tl: i64,
    /// How long after a round is funded its founders report how the money was used, and how
    /// often after that (days).
    #[arg(
        long,
        env = "ORTAK_FUND_USE_REPORT_DAYS",
        default_value_t = 180,
        global = true
    )]
    pub fund_use_report_days: i64,
}

impl RoundSettings {
    pub fn rules(&self) -> ortak_app::domain::rounds::RoundRules {
        ortak_app::domain::rounds::RoundRules {
            overfunding_bp: self.overfunding_bp,
            success_bp: self.success_bp,
        }
    }

    pub fn limits(&self) -> ortak_app::domain::limits::LimitRules {
        use ortak_app::domain::money::Money;
        ortak_app::domain::limits::LimitRules {
            base: Money::from_lira(self.annual_limit_tl),
            income_share_bp: self.annual_limit_income_bp,
            cap: Money::from_lira(self.annual_limit_cap_tl),
        }
    }

    pub fn committee(&self) -> ortak_app::domain::committee::CommitteeRules {
        ortak_app::domain::committee::CommitteeRules {
            min_members: self.committee_min_members,
            majority_bp: self.committee_majority_bp,
        }
    }

    pub fn issuer(&self) -> ortak_app::domain::issuer::IssuerRules {
        use ortak_app::domain::money::Money;
        ortak_app::domain::issuer::IssuerRules {
            max_assets: Money::from_lira(self.issuer_max_assets_tl),
            max_revenue: Money::from_lira(self.issuer_max_revenue_tl),
            yearly_raise: Money::from_lira(self.issuer_yearly_limit_tl),
        }
    }

    /// Refuses figures that make no sense, before the server starts.
    pub fn check(&self) -> anyhow::Result<()> {
        let hours = [
            self.cancel_window_hours,
            self.fee_deadline_hours,
            self.transfer_deadline_hours,
            self.reminder_hours,
        ];
        anyhow::ensure!(
            (1..=24 * 365).contains(&self.reconfirm_hours),
            "ORTAK_RECONFIRM_HOURS must be between 1 and 8760"
        );
        anyhow::ensure!(
            hours.iter().all(|h| (0..=24 * 365).contains(h)),
            "the round's windows and deadlines must be between 0 and 8760 hours"
        );
        anyhow::ensure!(
            (0..=100_000).contains(&self.overfunding_bp)
                && (0..=100_000).contains(&self.success_bp),
            "ORTAK_OVERFUNDING_BP and ORTAK_ROUND_SUCCESS_BP must be between 0 and 100000"
        );
        anyhow::ensure!(
            self.annual_limit_tl >= 0
                && self.annual_limit_cap_tl >= 0
                && (0..=10_000).contains(&self.annual_limit_income_bp),
            "the annual limit settings must not be negative (income share at most 10000)"
        );
        anyhow::ensure!(
            (1..=366).contains(&self.campaign_max_days),
            "ORTAK_CAMPAIGN_MAX_DAYS must be between 1 and 366"
        );
        anyhow::ensure!(
            self.committee_min_members >= 1 && (1..=10_000).contains(&self.committee_majority_bp),
            "the committee needs at least one member and a majority between 1 and 10000"
        );
        anyhow::ensure!(
            self.fund_use_report_days >= 1,
            "ORTAK_FUND_USE_REPORT_DAYS must be at least 1"
        );
        Ok(())
    }
}

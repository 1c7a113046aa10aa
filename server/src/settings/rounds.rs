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
        Ok(())
    }
}

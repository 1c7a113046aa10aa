//! The card payment provider and its keys.

use super::Secret;
use clap::Args;

/// Which card payment provider takes the service fee.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaymentProviderKind {
    /// Built in, takes no money (test cards); the default for the demo.
    Sandbox,
    /// iyzico's API (3-D Secure); its sandbox or live by `ORTAK_IYZICO_BASE_URL`.
    Iyzico,
}

/// The card payment provider's settings.
#[derive(Args, Debug, Clone)]
pub struct PaymentSettings {
    /// `sandbox` (no real money) or `iyzico`.
    #[arg(
        long,
        env = "ORTAK_PAYMENT_PROVIDER",
        value_enum,
        default_value = "sandbox",
        global = true
    )]
    pub payment_provider: PaymentProviderKind,
    /// Lets the sandbox run behind an https public URL (a demo or staging install); it then
    /// warns in the log and on its pages. Without it such an install refuses to start.
    #[arg(long, env = "ORTAK_ALLOW_SANDBOX_PAYMENTS", global = true, action = clap::ArgAction::SetTrue,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub allow_sandbox_payments: bool,
    #[arg(
        long,
        env = "ORTAK_IYZICO_API_KEY",
        global = true,
        hide_env_values = true
    )]
    pub iyzico_api_key: Option<Secret>,
    #[arg(
        long,
        env = "ORTAK_IYZICO_SECRET_KEY",
        global = true,
        hide_env_values = true
    )]
    pub iyzico_secret_key: Option<Secret>,
    /// iyzico's API origin: its sandbox by default, `https://api.iyzipay.com` for live.
    #[arg(
        long,
        env = "ORTAK_IYZICO_BASE_URL",
        default_value = "https://sandbox-api.iyzipay.com",
        global = true
    )]
    pub iyzico_base_url: String,
    /// How long one call to iyzico may take before its outcome counts as unknown (seconds).
    #[arg(
        long,
        env = "ORTAK_IYZICO_TIMEOUT_SECONDS",
        default_value_t = 30,
        global = true
    )]
    pub iyzico_timeout_seconds: u64,
}

//! The operator's legal identity (`ortak_app::domain::operator`): who runs the platform, as
//! every page's footer, `/about` and the KVKK notices name it. The defaults are a sample
//! identity for demos: set the real ones in production (the server warns when it faces the
//! internet with the sample).

use clap::Args;
use ortak_app::domain::operator::{Operator, SAMPLE_MERSIS};

#[derive(Args, Clone, Debug)]
pub struct OperatorSettings {
    /// The operator's trade name (ticaret unvanı).
    #[arg(
        long,
        env = "ORTAK_OPERATOR_NAME",
        default_value = "Ortak Kitle Fonlama Platformu A.Ş.",
        global = true
    )]
    pub operator_name: String,
    #[arg(
        long,
        env = "ORTAK_OPERATOR_ADDRESS",
        default_value = "Esentepe Mah. Büyükdere Cad. No: 199, 34394 Şişli / İstanbul",
        global = true
    )]
    pub operator_address: String,
    #[arg(long, env = "ORTAK_OPERATOR_MERSIS", default_value = SAMPLE_MERSIS, global = true)]
    pub operator_mersis: String,
    #[arg(
        long,
        env = "ORTAK_OPERATOR_TRADE_REGISTRY",
        default_value = "İstanbul Ticaret Sicili Müdürlüğü, 123456-5",
        global = true
    )]
    pub operator_trade_registry: String,
    /// The date of the Capital Markets Board's decision permitting the platform (YYYY-MM-DD).
    #[arg(
        long,
        env = "ORTAK_OPERATOR_SPK_DECISION_DATE",
        default_value = "2026-03-12",
        value_parser = parse_date,
        global = true
    )]
    pub operator_spk_decision_date: time::Date,
    /// That decision's number.
    #[arg(
        long,
        env = "ORTAK_OPERATOR_SPK_DECISION_NUMBER",
        default_value = "14/412",
        global = true
    )]
    pub operator_spk_decision_number: String,
    #[arg(
        long,
        env = "ORTAK_OPERATOR_SPK_LIST_URL",
        default_value = "https://spk.gov.tr/kurumlar/kitle-fonlama-platformlari",
        global = true
    )]
    pub operator_spk_list_url: String,
    #[arg(
        long,
        env = "ORTAK_OPERATOR_PHONE",
        default_value = "+90 212 555 01 00",
        global = true
    )]
    pub operator_phone: String,
    #[arg(
        long,
        env = "ORTAK_OPERATOR_EMAIL",
        default_value = "iletisim@ortak.local",
        global = true
    )]
    pub operator_email: String,
    /// The registered electronic mail address (KEP).
    #[arg(
        long,
        env = "ORTAK_OPERATOR_KEP",
        default_value = "ortak@hs01.kep.tr",
        global = true
    )]
    pub operator_kep: String,
}

impl OperatorSettings {
    pub fn operator(&self) -> Operator {
        Operator {
            legal_name: self.operator_name.clone(),
            address: self.operator_address.clone(),
            mersis: self.operator_mersis.clone(),
            trade_registry: self.operator_trade_registry.clone(),
            spk_decision_date: Some(self.operator_spk_decision_date),
            spk_decision_number: self.operator_spk_decision_number.clone(),
            spk_list_url: self.operator_spk_list_url.clone(),
            phone: self.operator_phone.clone(),
            email: self.operator_email.clone(),
            kep: self.operator_kep.clone(),
        }
    }
}

fn parse_date(s: &str) -> Result<time::Date, String> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(s, format).map_err(|e| format!("a date as YYYY-MM-DD: {e}"))
}

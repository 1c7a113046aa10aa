//! Who runs the platform (issue 28): the operator's legal identity, its SPK permission and how
//! to reach it, shown in every page's footer, on `/about` and as the data controller in the KVKK
//! notices. The values are settings (`ORTAK_OPERATOR_*`); the defaults are a sample identity
//! for demos, which the server warns about when it faces the internet.

/// The platform operator.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Operator {
    /// The company's trade name (ticaret unvanı).
    pub legal_name: String,
    pub address: String,
    /// The MERSİS number (16 digits).
    pub mersis: String,
    /// The trade registry office and number.
    pub trade_registry: String,
    /// The Capital Markets Board's decision permitting the platform: its date and number.
    pub spk_decision_date: Option<time::Date>,
    pub spk_decision_number: String,
    /// The Board's list of crowdfunding platforms, where the operator is listed.
    pub spk_list_url: String,
    pub phone: String,
    pub email: String,
    /// The registered electronic mail address (KEP).
    pub kep: String,
}

/// The sample MERSİS number of the demo identity.
pub const SAMPLE_MERSIS: &str = "0123456789000015";

impl Operator {
    /// Whether this is still the demo's sample identity.
    pub fn is_sample(&self) -> bool {
        self.mersis == SAMPLE_MERSIS
    }

    /// The phone number as a `tel:` link target (digits and a leading `+`).
    /// The phone as shown: its groups joined by no-break spaces, so it never wraps.
    pub fn phone_shown(&self) -> String {
        self.phone.replace(' ', "\u{a0}")
    }

    pub fn phone_link(&self) -> String {
        let digits: String = self.phone.chars().filter(|c| c.is_ascii_digit()).collect();
        format!("tel:+{digits}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_phone_link_keeps_the_digits() {
        let o = Operator {
            phone: "+90 212 555 01 00".into(),
            ..Operator::default()
        };
        assert_eq!(o.phone_link(), "tel:+902125550100");
    }
}

//! The issuer's checks (SPK III-35/A.2): its legal form (an anonim şirket, or a limited company
//! converting to one), and the limits on its size and on what it raises through crowdfunding
//! in twelve months. The figures are settings (the Board revalues them: check the current
//! ones); the committee cannot approve a campaign that breaks one, and its page says which.

use crate::domain::money::Money;

/// The limits, as settings give them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IssuerRules {
    /// The largest total assets (last year's balance sheet) an issuer may have.
    pub max_assets: Money,
    /// The largest yearly revenue an issuer may have.
    pub max_revenue: Money,
    /// The most an issuer may raise on crowdfunding platforms in twelve months, this
    /// campaign's maximum included.
    pub yearly_raise: Money,
}

/// What staff recorded about the issuer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Issuer {
    /// `anonim` or `limited_converting`.
    pub legal_form: Option<String>,
    pub registry_number: String,
    pub assets_kurus: Option<i64>,
    pub revenue_kurus: Option<i64>,
    pub raised_last_12m_kurus: Option<i64>,
}

/// The checks `issuer` fails for a campaign raising at most `maximum_raise`, as Fluent ids;
/// empty when it passes every one.
pub fn breaches(issuer: &Issuer, maximum_raise: Money, rules: &IssuerRules) -> Vec<&'static str> {
    let mut out = Vec::new();
    if !matches!(
        issuer.legal_form.as_deref(),
        Some("anonim" | "limited_converting")
    ) {
        out.push("issuer-breach-legal-form");
    }
    if issuer.registry_number.trim().is_empty() {
        out.push("issuer-breach-registry");
    }
    match issuer.assets_kurus {
        None => out.push("issuer-breach-unchecked"),
        Some(a) if a > rules.max_assets.kurus() => out.push("issuer-breach-assets"),
        Some(_) => {}
    }
    match issuer.revenue_kurus {
        None if !out.contains(&"issuer-breach-unchecked") => out.push("issuer-breach-unchecked"),
        Some(r) if r > rules.max_revenue.kurus() => out.push("issuer-breach-revenue"),
        _ => {}
    }
    let raised = issuer.raised_last_12m_kurus.unwrap_or(0);
    if raised.saturating_add(maximum_raise.kurus()) > rules.yearly_raise.kurus() {
        out.push("issuer-breach-yearly");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> IssuerRules {
        IssuerRules {
            max_assets: Money::from_lira(250_000_000),
            max_revenue: Money::from_lira(250_000_000),
            yearly_raise: Money::from_lira(60_000_000),
        }
    }

    fn ok() -> Issuer {
        Issuer {
            legal_form: Some("anonim".into()),
            registry_number: "İstanbul 123456".into(),
            assets_kurus: Some(Money::from_lira(10_000_000).kurus()),
            revenue_kurus: Some(Money::from_lira(5_000_000).kurus()),
            raised_last_12m_kurus: Some(0),
        }
    }

    #[test]
    fn an_issuer_passes_or_each_breach_is_named() {
        let max = Money::from_lira(6_000_000);
        assert!(breaches(&ok(), max, &rules()).is_empty());
        assert_eq!(
            breaches(&Issuer::default(), max, &rules()),
            [
                "issuer-breach-legal-form",
                "issuer-breach-registry",
                "issuer-breach-unchecked"
            ]
        );
        let big = Issuer {
            assets_kurus: Some(Money::from_lira(300_000_000).kurus()),
            raised_last_12m_kurus: Some(Money::from_lira(55_000_000).kurus()),
            ..ok()
        };
        assert_eq!(
            breaches(&big, max, &rules()),
            ["issuer-breach-assets", "issuer-breach-yearly"]
        );
        let limited = Issuer {
            legal_form: Some("limited".into()),
            ..ok()
        };
        assert_eq!(
            breaches(&limited, max, &rules()),
            ["issuer-breach-legal-form"]
        );
    }
}

//! A submitted application's answers as staff read them.

use crate::domain::startups::{SECTORS, STAGES};
use crate::i18n::Locale;

/// An answer as staff read it, in `locale`: a sector, a stage or a yes/no by its label, a date
/// in the locale's form, a phone grouped, a figure in the locale's money format; anything else
/// as the applicant typed it.
pub fn answer_shown(key: &str, value: &str, locale: Locale) -> String {
    let label = match key {
        "sector" if SECTORS.contains(&value) => Some(format!("interest-{value}")),
        "stage" if STAGES.contains(&value) => Some(format!("stage-{value}")),
        "established" | "has_income" | "accelerator" | "prior_investment"
            if matches!(value, "yes" | "no") =>
        {
            Some(format!("answer-{value}"))
        }
        _ => None,
    };
    if let Some(id) = label {
        return locale.t(&id);
    }
    if key.ends_with("phone") {
        return crate::domain::phone::format_phone(value);
    }
    if let Some(amount) = figure(key, value, locale) {
        return amount;
    }
    let date = time::Date::parse(value, &time::format_description::well_known::Iso8601::DATE);
    match (key.ends_with("_on") || key.ends_with("_date"), date) {
        (true, Ok(date)) => crate::domain::time_fmt::format_date_short(date, locale),
        _ => value.to_owned(),
    }
}

/// A money answer in the locale's format: lira (`1.500.000 TL`), or dollars for the keys of
/// applications sent before the figures were asked in lira. `None` for other answers, or a
/// figure that is not a whole number (shown as typed).
fn figure(key: &str, value: &str, locale: Locale) -> Option<String> {
    let dollars = matches!(key, "valuation_usd" | "amount_sought_usd" | "prior_amount");
    if !dollars && !key.ends_with("_tl") && !key.starts_with("monthly_") {
        return None;
    }
    let whole: i64 = value.replace(['.', ','], "").parse().ok()?;
    let lira = crate::domain::money::Money::from_lira(whole).format(locale);
    Some(match dollars {
        true => format!("{} USD", lira.trim_end_matches(" TL")),
        false => lira,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_in_the_locale_and_their_currency() {
        assert_eq!(
            answer_shown("amount_sought_tl", "3000000", Locale::Tr),
            "3.000.000 TL"
        );
        assert_eq!(
            answer_shown("valuation_tl", "450.000", Locale::En),
            "450,000 TL"
        );
        assert_eq!(
            answer_shown("monthly_income", "12000", Locale::Tr),
            "12.000 TL"
        );
        assert_eq!(
            answer_shown("amount_sought_usd", "250000", Locale::Tr),
            "250.000 USD"
        );
        assert_eq!(
            answer_shown("prior_amount", "75000", Locale::En),
            "75,000 USD"
        );
        assert_eq!(answer_shown("team_size", "12", Locale::Tr), "12");
        assert_eq!(answer_shown("prior_amount_tl", "çok", Locale::Tr), "çok");
    }

    #[test]
    fn answers_are_shown_by_their_labels_and_dates_in_the_locale() {
        assert_eq!(
            answer_shown("sector", "fintech", Locale::En),
            Locale::En.t("interest-fintech")
        );
        assert_ne!(answer_shown("sector", "fintech", Locale::Tr), "fintech");
        assert_eq!(
            answer_shown("stage", "seed", Locale::Tr),
            Locale::Tr.t("stage-seed")
        );
        assert_eq!(
            answer_shown("has_income", "yes", Locale::Tr),
            Locale::Tr.t("answer-yes")
        );
        assert_eq!(
            answer_shown("established_on", "2024-09-15", Locale::Tr),
            "15.09.2024"
        );
        assert_eq!(
            answer_shown("prior_date", "2024-09-15", Locale::En),
            "15/09/2024"
        );
        assert_eq!(answer_shown("name", "yes", Locale::En), "yes");
        assert_eq!(
            answer_shown("founder_1_phone", "+905321234567", Locale::En),
            "+90 532 123 45 67"
        );
        assert_eq!(answer_shown("sector", "unknown", Locale::En), "unknown");
    }
}

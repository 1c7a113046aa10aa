//! Profile tabs: what each form holds and how it is checked.

use time::Date;

use crate::domain::accounts::InvestorType;
use crate::domain::identity::{IdType, validate_id};
use crate::domain::money::Money;
use crate::domain::onboarding::{Answers, validate_step};
use crate::domain::phone::normalize_mobile;
use crate::forms::FieldErrors;
use crate::i18n::Locale;

/// Everything the profile shows and edits, as form text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub position: String,
    pub phone: String,
    pub country: String,
    pub city: String,
    pub language: String,
    pub purpose: String,
    pub budget: String,
    pub interests: Vec<String>,
    pub investor_type: String,
    pub citizen: String,
    pub id_type: String,
    pub identity_number: String,
    pub company_name: String,
    pub tax_office: String,
    /// Whole lira as typed (`1.250.000`).
    pub annual_income: String,
    /// `YYYY-MM-DD`.
    pub birth_date: String,
    pub has_image: bool,
    /// The optional mails the member gets (`MailKind` codes).
    pub mails: Vec<String>,
    /// The MKK membership data the member sent, once sent: what investing goes by, so the
    /// investor tab shows it instead of a form of its own.
    pub mkk: Option<MkkSent>,
}

/// The MKK membership data as sent, formatted for reading.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MkkSent {
    pub status: String,
    pub investor_type: String,
    pub citizen: bool,
    pub id_type: String,
    pub identity_number: String,
    pub name: String,
    pub organisation: String,
    /// Formatted in the reader's language.
    pub annual_income: String,
    pub birth_date: String,
}

fn required_text(errors: &mut FieldErrors, field: &'static str, value: &str, required: bool) {
    let value = value.trim();
    if required && value.is_empty() {
        errors.add(field, "validation-required");
    } else if value.chars().count() > 200 || value.chars().any(char::is_control) {
        errors.add(field, "validation-too-long");
    }
}

/// Profile information tab.
pub fn validate_info(p: &mut Profile) -> Result<(), FieldErrors> {
    let mut errors = FieldErrors::default();
    crate::domain::accounts::person_name(&mut errors, "first_name", &p.first_name);
    crate::domain::accounts::person_name(&mut errors, "last_name", &p.last_name);
    required_text(&mut errors, "position", &p.position, false);
    if let Some(phone) = errors.check("phone", normalize_mobile(&p.phone), |e| e.message_id()) {
        p.phone = phone;
    }
    required_text(&mut errors, "country", &p.country, true);
    required_text(&mut errors, "city", &p.city, true);
    if Locale::from_code(&p.language).is_none() {
        errors.add("language", "validation-required");
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Investment preference tab: the onboarding questions 3 and 4 (purpose, budget, interests).
pub fn validate_preferences(p: &mut Profile) -> Result<(), FieldErrors> {
    let mut answers = Answers {
        purpose: p.purpose.clone(),
        budget: p.budget.clone(),
        interests: p.interests.clone(),
        how_heard: "other".into(),
        ..Answers::default()
    };
    let mut errors = FieldErrors::default();
    for step in [3, 4] {
        if let Err(e) = validate_step(step, &mut answers) {
            for field in ["purpose", "budget", "interests"] {
                if let Some(m) = e.get(field) {
                    errors.add(field, m);
                }
            }
        }
    }
    p.interests = answers.interests;
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Parses a whole-lira amount as people type it: `250000`, `250.000` (Turkish), `250,000`
/// (English) or `250 000`, with an optional `TL`. A separator must split groups of three, so a
/// decimal like `12,5` is refused rather than misread.
pub fn parse_lira(input: &str) -> Option<Money> {
    let text = input.trim().trim_end_matches("TL").trim();
    let groups: Vec<&str> = text.split(['.', ',', ' ']).collect();
    let well_formed = !text.is_empty()
        && groups
            .iter()
            .all(|g| !g.is_empty() && g.chars().all(|c| c.is_ascii_digit()))
        && (groups.len() == 1
            || (groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3)));
    let digits: String = groups.concat();
    if !well_formed || digits.len() > 13 {
        return None;
    }
    digits.parse::<i64>().ok().map(Money::from_lira)
}

/// Investor information tab. `today` is the Istanbul date, for the adult check.
pub fn validate_investor(
    p: &mut Profile,
    today: Date,
) -> Result<(Option<Money>, Option<Date>), FieldErrors> {
    let mut errors = FieldErrors::default();
    let kind = InvestorType::from_code(&p.investor_type);
    if kind.is_none() {
        errors.add("investor_type", "validation-user-type");
    }
    if !["yes", "no"].contains(&p.citizen.as_str()) {
        errors.add("citizen", "validation-required");
    }
    match IdType::from_code(&p.id_type) {
        None => errors.add("id_type", "validation-required"),
        Some(id_type) => {
            if let Some(number) = errors.check(
                "identity_number",
                validate_id(id_type, &p.identity_number),
                |e| e.message_id(),
            ) {
                p.identity_number = number;
            }
        }
    }
    let corporate = kind == Some(InvestorType::Corporate);
    required_text(&mut errors, "company_name", &p.company_name, corporate);
    required_text(&mut errors, "tax_office", &p.tax_office, corporate);
    let income = match p.annual_income.trim() {
        "" => {
            errors.add("annual_income", "validation-required");
            None
        }
        text => {
            let money = parse_lira(text);
            if money.is_none() {
                errors.add("annual_income", "validation-number");
            }
            money
        }
    };
    let birth = match p.birth_date.trim() {
        "" => {
            errors.add("birth_date", "validation-required");
            None
        }
        text => match Date::parse(
            text,
            time::macros::format_description!("[year]-[month]-[day]"),
        ) {
            Err(_) => {
                errors.add("birth_date", "validation-date");
                None
            }
            Ok(date) => {
                let adult = today.year()
                    - date.year()
                    - i32::from((today.month(), today.day()) < (date.month(), date.day()));
                if adult < 18 || date.year() < 1900 {
                    errors.add("birth_date", "validation-adult");
                }
                Some(date)
            }
        },
    };
    if errors.is_empty() {
        Ok((income, birth))
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    type Change = fn(&mut Profile);

    fn investor() -> Profile {
        Profile {
            investor_type: "individual".into(),
            citizen: "yes".into(),
            id_type: "tckn".into(),
            identity_number: "10000000146".into(),
            annual_income: "1.250.000".into(),
            birth_date: "1980-05-19".into(),
            ..Profile::default()
        }
    }

    #[test]
    fn investor_info_is_checked_field_by_field() {
        let today = date!(2026 - 11 - 21);
        let (income, birth) = validate_investor(&mut investor(), today).unwrap();
        assert_eq!(income, Some(Money::from_lira(1_250_000)));
        assert_eq!(birth, Some(date!(1980 - 05 - 19)));

        let cases: [(Change, &str, &str); 6] = [
            (
                |p| p.identity_number = "1000000014".into(),
                "identity_number",
                "validation-tckn-length",
            ),
            (
                |p| {
                    p.id_type = "vkn".into();
                    p.identity_number = "45405369".into()
                },
                "identity_number",
                "validation-vkn-length",
            ),
            (
                |p| p.identity_number = "10000000147".into(),
                "identity_number",
                "validation-id-invalid",
            ),
            (
                |p| p.annual_income = "bir milyon".into(),
                "annual_income",
                "validation-number",
            ),
            (
                |p| p.birth_date = "2010-01-01".into(),
                "birth_date",
                "validation-adult",
            ),
            (
                |p| p.investor_type = "corporate".into(),
                "company_name",
                "validation-required",
            ),
        ];
        for (change, field, message) in cases {
            let mut p = investor();
            change(&mut p);
            assert_eq!(
                validate_investor(&mut p, today).unwrap_err().get(field),
                Some(message),
                "{field}"
            );
        }
    }

    #[test]
    fn parses_lira_amounts() {
        assert_eq!(parse_lira("100.000"), Some(Money::from_lira(100_000)));
        assert_eq!(parse_lira("250000 TL"), Some(Money::from_lira(250_000)));
        assert_eq!(parse_lira("12,5"), None);
        assert_eq!(parse_lira("-5"), None);
        assert_eq!(parse_lira("250,000"), Some(Money::from_lira(250_000)));
        assert_eq!(parse_lira("1 250 000"), Some(Money::from_lira(1_250_000)));
        assert_eq!(parse_lira("1.25.000"), None);
        assert_eq!(parse_lira("250000"), Some(Money::from_lira(250_000)));
    }
}

//! The five onboarding steps: what each asks, and how each answer is checked.

use crate::domain::accounts::InvestorType;
use crate::domain::phone::normalize_mobile;
use crate::forms::FieldErrors;

pub const STEPS: u8 = 5;

/// Registration purposes (spec section 9).
pub const PURPOSES: [&str; 3] = ["invest", "technology", "ecosystem"];
/// Investment budget ranges in lira, from the minimum ticket (100.000 TL) up. The spec's
/// bands were in dollars, three of four below the minimum ticket; answers given in them are
/// stored as `usd:` and a band code (migration 0064) and read with [`budget_label`].
pub const BUDGETS: [&str; 4] = [
    "100000-250000",
    "250000-500000",
    "500000-1000000",
    "1000000-plus",
];

/// The Fluent id of a stored budget's label: a lira band, or a dollar band given before the
/// bands were in lira (`usd:0-10000`). `None` when nothing was chosen.
pub fn budget_label(stored: &str) -> Option<String> {
    match stored.strip_prefix("usd:") {
        _ if stored.is_empty() => None,
        Some(usd) => Some(format!("budget-{usd}")),
        None => Some(format!("budget-{stored}")),
    }
}
/// Interest categories (spec section 9).
pub const INTERESTS: [&str; 8] = [
    "agriculture",
    "communications",
    "consumer-software",
    "cybersecurity",
    "energy",
    "fintech",
    "healthcare",
    "mobility",
];
/// Where the user heard of the platform.
pub const HEARD_FROM: [&str; 5] = ["website", "newsletter", "friend", "social-media", "other"];

/// Everything onboarding stores, as the forms post it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answers {
    pub phone: String,
    pub country: String,
    pub city: String,
    pub investor_type: String,
    pub company_name: String,
    pub tax_office: String,
    pub position: String,
    pub purpose: String,
    pub budget: String,
    pub interests: Vec<String>,
    pub how_heard: String,
    pub experience: String,
    pub specific: String,
    pub specific_startup: String,
}

fn text(errors: &mut FieldErrors, field: &'static str, value: &str, required: bool) {
    let value = value.trim();
    if required && value.is_empty() {
        errors.add(field, "validation-required");
    } else if value.chars().count() > 200 || value.chars().any(char::is_control) {
        errors.add(field, "validation-too-long");
    }
}

fn one_of(
    errors: &mut FieldErrors,
    field: &'static str,
    value: &str,
    allowed: &[&str],
    message: &'static str,
) {
    if !allowed.contains(&value) {
        errors.add(field, message);
    }
}

/// Step 1: the mobile phone (normalised to E.164), country and city.
fn contact(errors: &mut FieldErrors, answers: &mut Answers) {
    if let Some(phone) = errors.check("phone", normalize_mobile(&answers.phone), |e| {
        e.message_id()
    }) {
        answers.phone = phone;
    }
    text(errors, "country", &answers.country, true);
    text(errors, "city", &answers.city, true);
}

/// Step 2: the investor type; corporate investors name their company and tax office, which
/// individuals' answers drop.
fn investor(errors: &mut FieldErrors, answers: &mut Answers) {
    let kind = InvestorType::from_code(&answers.investor_type);
    if kind.is_none() {
        errors.add("investor_type", "validation-user-type");
    }
    let corporate = kind == Some(InvestorType::Corporate);
    text(errors, "company_name", &answers.company_name, corporate);
    text(errors, "tax_office", &answers.tax_office, corporate);
    text(errors, "position", &answers.position, false);
    if !corporate {
        answers.company_name.clear();
        answers.tax_office.clear();
    }
}

/// Step 3: purpose and budget.
fn goals(errors: &mut FieldErrors, answers: &Answers) {
    one_of(
        errors,
        "purpose",
        &answers.purpose,
        &PURPOSES,
        "validation-required",
    );
    one_of(
        errors,
        "budget",
        &answers.budget,
        &BUDGETS,
        "validation-required",
    );
}

/// Step 4: the interests (known ones only, in the list's order, each once; at least one) and
/// where the user heard of the platform.
fn interests(errors: &mut FieldErrors, answers: &mut Answers) {
    answers
        .interests
        .retain(|i| INTERESTS.contains(&i.as_str()));
    answers
        .interests
        .sort_by_key(|i| INTERESTS.iter().position(|x| x == i));
    answers.interests.dedup();
    if answers.interests.is_empty() {
        errors.add("interests", "validation-choose-one");
    }
    one_of(
        errors,
        "how_heard",
        &answers.how_heard,
        &HEARD_FROM,
        "validation-required",
    );
}

/// Step 5: experience, and the startup the user has in mind, if any.
fn experience(errors: &mut FieldErrors, answers: &mut Answers) {
    one_of(
        errors,
        "experience",
        &answers.experience,
        &["yes", "no"],
        "validation-required",
    );
    one_of(
        errors,
        "specific",
        &answers.specific,
        &["yes", "no"],
        "validation-required",
    );
    if answers.specific == "yes" {
        text(errors, "specific_startup", &answers.specific_startup, true);
    } else {
        answers.specific_startup.clear();
    }
}

/// Checks the answers of `step`, normalising them in place (the phone to E.164).
pub fn validate_step(step: u8, answers: &mut Answers) -> Result<(), FieldErrors> {
    let mut errors = FieldErrors::default();
    match step {
        1 => contact(&mut errors, answers),
        2 => investor(&mut errors, answers),
        3 => goals(&mut errors, answers),
        4 => interests(&mut errors, answers),
        5 => experience(&mut errors, answers),
        _ => {}
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_step_checks_its_own_answers() {
        let mut a = Answers {
            phone: "0532 123 45 67".into(),
            country: "Türkiye".into(),
            city: "İzmir".into(),
            ..Answers::default()
        };
        assert!(validate_step(1, &mut a).is_ok());
        assert_eq!(a.phone, "+905321234567");

        let mut a = Answers {
            investor_type: "corporate".into(),
            ..Answers::default()
        };
        let errors = validate_step(2, &mut a).unwrap_err();
        assert_eq!(errors.get("company_name"), Some("validation-required"));
        a.investor_type = String::new();
        assert_eq!(
            validate_step(2, &mut a).unwrap_err().get("investor_type"),
            Some("validation-user-type")
        );

        let mut a = Answers {
            purpose: "invest".into(),
            budget: "1-2".into(),
            ..Answers::default()
        };
        assert_eq!(
            validate_step(3, &mut a).unwrap_err().get("budget"),
            Some("validation-required")
        );

        let mut a = Answers {
            interests: vec!["fintech".into(), "bogus".into(), "agriculture".into()],
            how_heard: "friend".into(),
            ..Answers::default()
        };
        assert!(validate_step(4, &mut a).is_ok());
        assert_eq!(a.interests, ["agriculture", "fintech"]);
        a.interests.clear();
        assert_eq!(
            validate_step(4, &mut a).unwrap_err().get("interests"),
            Some("validation-choose-one")
        );

        let mut a = Answers {
            experience: "no".into(),
            specific: "yes".into(),
            ..Answers::default()
        };
        assert_eq!(
            validate_step(5, &mut a)
                .unwrap_err()
                .get("specific_startup"),
            Some("validation-required")
        );
    }
}

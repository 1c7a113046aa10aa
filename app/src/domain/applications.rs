//! The visitors' forms: contact, fund (GSYF) application, investor academy application.

use serde::Deserialize;

use crate::domain::email::normalize_email;
use crate::domain::phone::normalize_mobile;
use crate::forms::FieldErrors;

/// Fund types a GSYF applicant can ask about.
pub const FUND_TYPES: [&str; 4] = ["technology", "impact", "healthcare", "any"];
/// GSYF investment ranges in TL (spec section 9).
pub const GSYF_RANGES: [&str; 6] = [
    "50-100k",
    "100-150k",
    "150-200k",
    "200-250k",
    "250-300k",
    "300k-plus",
];
/// Academy budget ranges: the spec's USD ranges.
pub const ACADEMY_BUDGETS: [&str; 4] = ["0-10000", "10000-25000", "25000-100000", "100000-plus"];
/// Where academy applicants heard of it (spec: website, newsletter, friend or colleague, social media, other).
pub use crate::domain::onboarding::HEARD_FROM as ACADEMY_HEARD_FROM;

fn text(
    errors: &mut FieldErrors,
    field: &'static str,
    value: &str,
    required: Option<&'static str>,
    max: usize,
) -> String {
    let v = value.trim();
    if v.is_empty() {
        if let Some(message) = required {
            errors.add(field, message);
        }
    } else if v.chars().count() > max
        || v.chars()
            .any(|c| c.is_control() && c != '\n' && c != '\r' && c != '\t')
    {
        errors.add(field, "validation-too-long");
    }
    v.to_owned()
}

/// A one-line field (a name, a subject, a city): [`text`], and no line break or tab, so what
/// a visitor typed can never pose as paragraphs (it is echoed to staff and never mailed to
/// the address typed).
fn line(
    errors: &mut FieldErrors,
    field: &'static str,
    value: &str,
    required: Option<&'static str>,
    max: usize,
) -> String {
    let v = text(errors, field, value, required, max);
    if !single_line(&v) {
        errors.add(field, "validation-single-line");
    }
    v
}

/// No line feed, carriage return or tab (nor any other line separator).
pub fn single_line(value: &str) -> bool {
    !value.chars().any(|c| {
        matches!(
            c,
            '\n' | '\r' | '\t' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
        )
    })
}

fn one_of(errors: &mut FieldErrors, field: &'static str, value: &str, allowed: &[&str]) {
    if !allowed.contains(&value) {
        errors.add(field, "validation-required");
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ContactForm {
    pub name: String,
    pub email: String,
    pub phone: String,
    pub subject: String,
    pub message: String,
}

/// Checks the contact form; returns it normalised (e-mail lower-case, phone E.164).
pub fn validate_contact(f: &ContactForm) -> Result<ContactForm, FieldErrors> {
    let mut errors = FieldErrors::default();
    let name = line(
        &mut errors,
        "name",
        &f.name,
        Some("validation-contact-name"),
        120,
    );
    let email = errors.check("email", normalize_email(&f.email), |e| e.message_id());
    let phone = errors.check("phone", normalize_mobile(&f.phone), |e| e.message_id());
    let subject = line(
        &mut errors,
        "subject",
        &f.subject,
        Some("validation-contact-subject"),
        200,
    );
    let message = text(
        &mut errors,
        "message",
        &f.message,
        Some("validation-contact-message"),
        5000,
    );
    match (email, phone) {
        (Some(email), Some(phone)) if errors.is_empty() => Ok(ContactForm {
            name,
            email,
            phone,
            subject,
            message,
        }),
        _ => Err(errors),
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct GsyfForm {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub phone: String,
    pub fund_type: String,
    pub range: String,
}

pub fn validate_gsyf(f: &GsyfForm) -> Result<GsyfForm, FieldErrors> {
    let mut errors = FieldErrors::default();
    let email = errors.check("email", normalize_email(&f.email), |e| e.message_id());
    let first_name = line(
        &mut errors,
        "first_name",
        &f.first_name,
        Some("validation-required"),
        100,
    );
    let last_name = line(
        &mut errors,
        "last_name",
        &f.last_name,
        Some("validation-required"),
        100,
    );
    let phone = errors.check("phone", normalize_mobile(&f.phone), |e| e.message_id());
    one_of(&mut errors, "fund_type", &f.fund_type, &FUND_TYPES);
    one_of(&mut errors, "range", &f.range, &GSYF_RANGES);
    match (email, phone) {
        (Some(email), Some(phone)) if errors.is_empty() => Ok(GsyfForm {
            email,
            first_name,
            last_name,
            phone,
            fund_type: f.fund_type.clone(),
            range: f.range.clone(),
        }),
        _ => Err(errors),
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct AcademyForm {
    pub event: String,
    pub email: String,
    pub name: String,
    pub institution: String,
    pub phone: String,
    pub city: String,
    pub linkedin: String,
    pub invested_before: String,
    pub budget: String,
    pub heard_from: String,
    pub note: String,
}

/// `events` are the ids of the events open for applications.
pub fn validate_academy(f: &AcademyForm, events: &[String]) -> Result<AcademyForm, FieldErrors> {
    let mut errors = FieldErrors::default();
    one_of(
        &mut errors,
        "event",
        &f.event,
        &events.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    // The academy form has its own wording for a bad address (spec).
    let email = errors.check("email", normalize_email(&f.email), |e| match e {
        crate::domain::email::EmailError::Required => "validation-required",
        crate::domain::email::EmailError::Invalid => "validation-email-academy",
    });
    let name = line(
        &mut errors,
        "name",
        &f.name,
        Some("validation-required"),
        120,
    );
    let institution = line(&mut errors, "institution", &f.institution, None, 200);
    let phone = errors.check("phone", normalize_mobile(&f.phone), |e| e.message_id());
    let city = line(&mut errors, "city", &f.city, None, 100);
    let linkedin = line(&mut errors, "linkedin", &f.linkedin, None, 300);
    if !linkedin.is_empty() && !crate::domain::paths::is_web_url(&linkedin) {
        errors.add("linkedin", "validation-url");
    }
    one_of(
        &mut errors,
        "invested_before",
        &f.invested_before,
        &["yes", "no"],
    );
    if !f.budget.is_empty() {
        one_of(&mut errors, "budget", &f.budget, &ACADEMY_BUDGETS);
    }
    if !f.heard_from.is_empty() {
        one_of(
            &mut errors,
            "heard_from",
            &f.heard_from,
            &ACADEMY_HEARD_FROM,
        );
    }
    let note = text(&mut errors, "note", &f.note, None, 2000);
    match (email, phone) {
        (Some(email), Some(phone)) if errors.is_empty() => Ok(AcademyForm {
            event: f.event.clone(),
            email,
            name,
            institution,
            phone,
            city,
            linkedin,
            invested_before: f.invested_before.clone(),
            budget: f.budget.clone(),
            heard_from: f.heard_from.clone(),
            note,
        }),
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contact_fields_each_have_their_own_message() {
        let errors = validate_contact(&ContactForm::default()).unwrap_err();
        assert_eq!(errors.get("name"), Some("validation-contact-name"));
        assert_eq!(errors.get("subject"), Some("validation-contact-subject"));
        assert_eq!(errors.get("message"), Some("validation-contact-message"));
        assert_eq!(errors.get("email"), Some("validation-required"));
        let ok = ContactForm {
            name: "Ayşe".into(),
            email: "A@Example.com".into(),
            phone: "0532 123 45 67".into(),
            subject: "Soru".into(),
            message: "Merhaba".into(),
        };
        assert_eq!(validate_contact(&ok).unwrap().phone, "+905321234567");
    }

    #[test]
    fn names_are_single_line() {
        let f = GsyfForm {
            email: "a@example.com".into(),
            first_name: "Ayşe\r\n\r\nYour account is frozen: https://evil.example".into(),
            last_name: "Yılmaz\tX".into(),
            phone: "0532 123 45 67".into(),
            fund_type: "any".into(),
            range: "50-100k".into(),
        };
        let errors = validate_gsyf(&f).unwrap_err();
        assert_eq!(errors.get("first_name"), Some("validation-single-line"));
        assert_eq!(errors.get("last_name"), Some("validation-single-line"));
        let message = ContactForm {
            name: "Ayşe".into(),
            email: "a@example.com".into(),
            phone: "0532 123 45 67".into(),
            subject: "Soru".into(),
            message: "Satır bir\r\nSatır iki".into(),
        };
        assert!(
            validate_contact(&message).is_ok(),
            "a message keeps its lines"
        );
        assert!(!single_line("a\u{2028}b") && single_line("Ayşe Yılmaz"));
    }

    #[test]
    fn academy_uses_its_own_email_message_and_requires_the_phone() {
        let f = AcademyForm {
            event: "1".into(),
            email: "x@".into(),
            name: "A".into(),
            invested_before: "no".into(),
            ..AcademyForm::default()
        };
        let errors = validate_academy(&f, &["1".into()]).unwrap_err();
        assert_eq!(errors.get("email"), Some("validation-email-academy"));
        assert_eq!(errors.get("phone"), Some("validation-required"));
        let bad_event = AcademyForm {
            event: "9".into(),
            ..f
        };
        assert_eq!(
            validate_academy(&bad_event, &["1".into()])
                .unwrap_err()
                .get("event"),
            Some("validation-required")
        );
    }

    #[test]
    fn gsyf_ranges_are_the_specs() {
        let f = GsyfForm {
            email: "a@b.co".into(),
            first_name: "A".into(),
            last_name: "B".into(),
            phone: "05321234567".into(),
            fund_type: "technology".into(),
            range: "300k-plus".into(),
        };
        assert!(validate_gsyf(&f).is_ok());
        assert_eq!(
            validate_gsyf(&GsyfForm {
                range: "1m".into(),
                ..f
            })
            .unwrap_err()
            .get("range"),
            Some("validation-required")
        );
    }
}

//! Account rules: sign-up, sign-in and password validation.

use serde::Deserialize;

use crate::domain::email::normalize_email;
use crate::domain::phone::normalize_mobile;
use crate::forms::FieldErrors;
use crate::i18n::Locale;

pub const PASSWORD_MIN_CHARS: usize = 8;
/// Argon2 hashes any length, but an unbounded password is a cheap denial of service.
pub const PASSWORD_MAX_CHARS: usize = 128;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(rename_all = "snake_case"))]
pub enum InvestorType {
    Individual,
    Corporate,
}

impl InvestorType {
    pub fn code(self) -> &'static str {
        match self {
            InvestorType::Individual => "individual",
            InvestorType::Corporate => "corporate",
        }
    }

    pub fn from_code(code: &str) -> Option<InvestorType> {
        match code {
            "individual" => Some(InvestorType::Individual),
            "corporate" => Some(InvestorType::Corporate),
            _ => None,
        }
    }
}

/// Checks a new password and its confirmation, adding errors under `field` and `confirm_field`.
pub fn check_new_password(
    errors: &mut FieldErrors,
    field: &'static str,
    confirm_field: &'static str,
    password: &str,
    confirmation: &str,
) {
    let chars = password.chars().count();
    if password.is_empty() {
        errors.add(field, "validation-required");
    } else if chars < PASSWORD_MIN_CHARS {
        errors.add(field, "validation-password-short");
    } else if chars > PASSWORD_MAX_CHARS {
        errors.add(field, "validation-password-long");
    }
    if confirmation.is_empty() {
        errors.add(confirm_field, "validation-required");
    } else if confirmation != password {
        errors.add(confirm_field, "validation-passwords-match");
    }
}

fn required(errors: &mut FieldErrors, field: &'static str, value: &str, max: usize) -> String {
    let value = value.trim();
    if value.is_empty() {
        errors.add(field, "validation-required");
    } else if value.chars().count() > max || value.chars().any(char::is_control) {
        errors.add(field, "validation-too-long");
    }
    value.to_owned()
}

/// A person's name: required, at most 100 characters, letters and name punctuation only.
pub fn person_name(errors: &mut FieldErrors, field: &'static str, value: &str) -> String {
    let name = required(errors, field, value, 100);
    if !name.is_empty()
        && errors.get(field).is_none()
        && !crate::domain::text::is_person_name(&name)
    {
        errors.add(field, "validation-name-characters");
    }
    name
}

/// The sign-up form as posted. Every field defaults to empty, so a missing field is reported
/// as required rather than refused as a malformed request.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct SignupForm {
    pub csrf: String,
    pub email: String,
    pub password: String,
    pub password_confirm: String,
    pub first_name: String,
    pub last_name: String,
    pub phone: String,
    pub country: String,
    pub city: String,
    pub language: String,
    pub investor_type: String,
    pub terms: Option<String>,
    /// Where to go once the address is verified (a local path), kept through sign-up.
    pub next: String,
}

/// Where a founder staff invited lands: their startup's dashboard.
pub const FOUNDER_LANDING: &str = "/vc-dashboard";

/// Whether a sign-up going on to `next` is a founder's (from staff's invitation): a founder
/// joins to work for their startup, so the form does not make them pick an investor type
/// (onboarding asks it of anyone who goes on to invest).
pub fn founder_signup(next: &str) -> bool {
    next == FOUNDER_LANDING || next.starts_with("/vc-dashboard/")
}

pub struct NewAccount {
    pub email: String,
    pub password: String,
    pub first_name: String,
    pub last_name: String,
    pub phone: String,
    pub country: String,
    pub city: String,
    pub language: Locale,
    /// `None` for a founder's sign-up that did not say.
    pub investor_type: Option<InvestorType>,
}

pub fn validate_signup(form: &SignupForm) -> Result<NewAccount, FieldErrors> {
    let mut errors = FieldErrors::default();
    let email = errors.check("email", normalize_email(&form.email), |e| e.message_id());
    check_new_password(
        &mut errors,
        "password",
        "password_confirm",
        &form.password,
        &form.password_confirm,
    );
    let first_name = person_name(&mut errors, "first_name", &form.first_name);
    let last_name = person_name(&mut errors, "last_name", &form.last_name);
    let phone = errors.check("phone", normalize_mobile(&form.phone), |e| e.message_id());
    let country = required(&mut errors, "country", &form.country, 100);
    let city = required(&mut errors, "city", &form.city, 100);
    let language = Locale::from_code(&form.language);
    if language.is_none() {
        errors.add("language", "validation-required");
    }
    let investor_type = InvestorType::from_code(&form.investor_type);
    let optional = founder_signup(&form.next) && form.investor_type.is_empty();
    if investor_type.is_none() && !optional {
        errors.add("investor_type", "validation-user-type");
    }
    if form.terms.as_deref() != Some("on") {
        errors.add("terms", "validation-terms");
    }
    match (email, phone, language) {
        (Some(email), Some(phone), Some(language)) if errors.is_empty() => Ok(NewAccount {
            email,
            password: form.password.clone(),
            first_name,
            last_name,
            phone,
            country,
            city,
            language,
            investor_type,
        }),
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Change = Box<dyn Fn(&mut SignupForm)>;

    fn valid() -> SignupForm {
        SignupForm {
            email: "ayse@example.com".into(),
            password: "uzun-bir-sifre".into(),
            password_confirm: "uzun-bir-sifre".into(),
            first_name: "Ayşe".into(),
            last_name: "Yılmaz".into(),
            phone: "0532 123 45 67".into(),
            country: "Türkiye".into(),
            city: "İstanbul".into(),
            language: "tr".into(),
            investor_type: "individual".into(),
            terms: Some("on".into()),
            ..SignupForm::default()
        }
    }

    #[test]
    fn accepts_a_complete_form() {
        let account = validate_signup(&valid()).unwrap();
        assert_eq!(account.phone, "+905321234567");
        assert_eq!(account.investor_type, Some(InvestorType::Individual));
    }

    #[test]
    fn a_founder_need_not_pick_an_investor_type() {
        let mut form = valid();
        form.investor_type = String::new();
        form.next = FOUNDER_LANDING.into();
        assert_eq!(validate_signup(&form).unwrap().investor_type, None);
        form.investor_type = "corporate".into();
        assert_eq!(
            validate_signup(&form).unwrap().investor_type,
            Some(InvestorType::Corporate)
        );
        form.investor_type = "other".into();
        assert!(
            validate_signup(&form).is_err(),
            "a bad value is still refused"
        );
        form.investor_type = String::new();
        form.next = "/startups".into();
        assert!(validate_signup(&form).is_err(), "investors pick one");
    }

    #[test]
    fn reports_each_spec_message() {
        let cases: Vec<(Change, &str, &str)> = vec![
            (
                Box::new(|f| f.email = "x".into()),
                "email",
                "validation-email",
            ),
            (
                Box::new(|f| f.password = "short".into()),
                "password",
                "validation-password-short",
            ),
            (
                Box::new(|f| f.password_confirm = "different!".into()),
                "password_confirm",
                "validation-passwords-match",
            ),
            (
                Box::new(|f| f.first_name = " ".into()),
                "first_name",
                "validation-required",
            ),
            (
                Box::new(|f| f.phone = "0532 123".into()),
                "phone",
                "validation-phone-incomplete",
            ),
            (
                Box::new(|f| f.phone = "05321234x67".into()),
                "phone",
                "validation-digits-only",
            ),
            (
                Box::new(|f| f.investor_type = String::new()),
                "investor_type",
                "validation-user-type",
            ),
            (Box::new(|f| f.terms = None), "terms", "validation-terms"),
            (
                Box::new(|f| f.city = "a".repeat(101)),
                "city",
                "validation-too-long",
            ),
        ];
        for (change, field, message) in cases {
            let mut form = valid();
            change(&mut form);
            let errors = validate_signup(&form).err().unwrap();
            assert_eq!(errors.get(field), Some(message), "{field}");
        }
    }
}

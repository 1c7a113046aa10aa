//! The investor-registry (MKK) membership form: who may invest, with which identity.

use time::Date;

use crate::domain::accounts::InvestorType;
use crate::domain::email::normalize_email;
use crate::domain::identity::{IdType, validate_id};
use crate::domain::money::Money;
use crate::domain::phone::normalize_mobile;
use crate::domain::profile::parse_lira;
use crate::forms::FieldErrors;

/// The form as typed.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(default)]
pub struct MkkForm {
    pub investor_type: String,
    pub citizen: String,
    pub id_type: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: String,
    pub annual_income: String,
    pub identity_number: String,
    pub organisation: String,
    pub birth_date: String,
    /// Where to continue after saving: the investment that sent the member here (a path on
    /// this site; anything else is ignored).
    pub next: String,
}

/// The checked membership data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mkk {
    pub investor_type: InvestorType,
    pub citizen: bool,
    pub id_type: IdType,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: String,
    pub annual_income: Money,
    pub identity_number: String,
    pub organisation: String,
    pub birth_date: Date,
}

impl Mkk {
    /// The identity the yearly limit is counted for (`tckn:…`, `ykn:…`, `vkn:…`), as requests
    /// store it.
    pub fn identity_key(&self) -> String {
        format!("{}:{}", self.id_type.code(), self.identity_number)
    }
}

/// An identity key (`tckn:10000000146`) as people read it: `TCKN 10000000146`.
pub fn identity_label(key: &str) -> String {
    match key.split_once(':') {
        Some((kind, number)) => format!("{} {number}", kind.to_uppercase()),
        None => key.to_owned(),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(rename_all = "snake_case"))]
pub enum MkkStatus {
    Submitted,
    Verified,
    Rejected,
}

impl MkkStatus {
    pub fn code(self) -> &'static str {
        match self {
            MkkStatus::Submitted => "submitted",
            MkkStatus::Verified => "verified",
            MkkStatus::Rejected => "rejected",
        }
    }

    pub fn from_code(code: &str) -> MkkStatus {
        match code {
            "verified" => MkkStatus::Verified,
            "rejected" => MkkStatus::Rejected,
            _ => MkkStatus::Submitted,
        }
    }

    /// Complete data lets the investor send requests; rejected data must be corrected first.
    pub fn allows_investing(self) -> bool {
        self != MkkStatus::Rejected
    }
}

fn name(errors: &mut FieldErrors, field: &'static str, value: &str) -> String {
    crate::domain::accounts::person_name(errors, field, value)
}

/// Who invests: the investor type, citizenship and ID type, which must fit each other.
fn investor(
    errors: &mut FieldErrors,
    form: &MkkForm,
) -> (Option<InvestorType>, Option<bool>, Option<IdType>) {
    let investor_type = InvestorType::from_code(&form.investor_type);
    if investor_type.is_none() {
        errors.add("investor_type", "validation-user-type");
    }
    let citizen = match form.citizen.as_str() {
        "yes" => Some(true),
        "no" => Some(false),
        _ => {
            errors.add("citizen", "validation-required");
            None
        }
    };
    let id_type = IdType::from_code(&form.id_type);
    match (investor_type, citizen, id_type) {
        (_, _, None) => errors.add("id_type", "validation-required"),
        (Some(InvestorType::Corporate), _, Some(t)) if t != IdType::Vkn => {
            errors.add("id_type", "validation-id-type-mismatch")
        }
        (Some(InvestorType::Individual), Some(true), Some(t)) if t != IdType::Tckn => {
            errors.add("id_type", "validation-id-type-mismatch")
        }
        (Some(InvestorType::Individual), Some(false), Some(t)) if t != IdType::Ykn => {
            errors.add("id_type", "validation-id-type-mismatch")
        }
        _ => {}
    }
    (investor_type, citizen, id_type)
}

fn annual_income(errors: &mut FieldErrors, text: &str) -> Option<Money> {
    if text.trim().is_empty() {
        errors.add("annual_income", "validation-required");
        None
    } else {
        let m = parse_lira(text);
        if m.is_none() {
            errors.add("annual_income", "validation-number");
        }
        m
    }
}

/// The birth date, of an adult (18 to 120 years old on `today`).
fn birth_date(errors: &mut FieldErrors, text: &str, today: Date) -> Option<Date> {
    match Date::parse(
        text.trim(),
        time::macros::format_description!("[year]-[month]-[day]"),
    ) {
        _ if text.trim().is_empty() => {
            errors.add("birth_date", "validation-required");
            None
        }
        Err(_) => {
            errors.add("birth_date", "validation-date");
            None
        }
        Ok(date) => {
            let age = today.year()
                - date.year()
                - i32::from((today.month(), today.day()) < (date.month(), date.day()));
            if !(18..=120).contains(&age) {
                errors.add("birth_date", "validation-adult");
            }
            Some(date)
        }
    }
}

/// Individuals give a TCKN (citizens) or YKN (foreigners); corporate investors give the
/// organisation's VKN and name. `today` is the Istanbul date, for the adult check.
pub fn validate_mkk(form: &MkkForm, today: Date) -> Result<Mkk, FieldErrors> {
    let mut errors = FieldErrors::default();
    let (investor_type, citizen, id_type) = investor(&mut errors, form);
    let identity_number = match id_type {
        Some(t) => errors.check(
            "identity_number",
            validate_id(t, &form.identity_number),
            |e| e.message_id(),
        ),
        None => None,
    };
    let first_name = name(&mut errors, "first_name", &form.first_name);
    let last_name = name(&mut errors, "last_name", &form.last_name);
    let email = errors.check("email", normalize_email(&form.email), |e| e.message_id());
    let phone = errors.check("phone", normalize_mobile(&form.phone), |e| e.message_id());
    let annual_income = annual_income(&mut errors, &form.annual_income);
    let corporate = investor_type == Some(InvestorType::Corporate);
    let organisation = form.organisation.trim().to_owned();
    if corporate && organisation.is_empty() {
        errors.add("organisation", "validation-required");
    }
    let birth_date = birth_date(&mut errors, &form.birth_date, today);
    match (
        investor_type,
        citizen,
        id_type,
        identity_number,
        email,
        phone,
        annual_income,
        birth_date,
    ) {
        (
            Some(investor_type),
            Some(citizen),
            Some(id_type),
            Some(identity_number),
            Some(email),
            Some(phone),
            Some(annual_income),
            Some(birth_date),
        ) if errors.is_empty() => Ok(Mkk {
            investor_type,
            citizen,
            id_type,
            first_name,
            last_name,
            email,
            phone,
            annual_income,
            identity_number,
            organisation: if corporate {
                organisation
            } else {
                String::new()
            },
            birth_date,
        }),
        _ => Err(errors),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_keys_read_as_their_kind_and_number() {
        assert_eq!(identity_label("tckn:10000000146"), "TCKN 10000000146");
        assert_eq!(identity_label("vkn:1234567890"), "VKN 1234567890");
    }
    use time::macros::date;

    fn form() -> MkkForm {
        MkkForm {
            investor_type: "individual".into(),
            citizen: "yes".into(),
            id_type: "tckn".into(),
            first_name: "Ayşe".into(),
            last_name: "Yılmaz".into(),
            email: "ayse@example.com".into(),
            phone: "0532 123 45 67".into(),
            annual_income: "750.000".into(),
            identity_number: "10000000146".into(),
            organisation: String::new(),
            birth_date: "1984-02-29".into(),
            next: String::new(),
        }
    }

    #[test]
    fn accepts_individuals_and_corporates() {
        let today = date!(2026 - 11 - 21);
        assert!(validate_mkk(&form(), today).is_ok());
        let corporate = MkkForm {
            investor_type: "corporate".into(),
            id_type: "vkn".into(),
            identity_number: "4540536920".into(),
            organisation: "Anadolu Holding A.Ş.".into(),
            ..form()
        };
        assert_eq!(
            validate_mkk(&corporate, today).unwrap().organisation,
            "Anadolu Holding A.Ş."
        );
    }

    #[test]
    fn refuses_mismatches_and_bad_numbers() {
        let today = date!(2026 - 11 - 21);
        let foreigner_with_tckn = MkkForm {
            citizen: "no".into(),
            ..form()
        };
        assert_eq!(
            validate_mkk(&foreigner_with_tckn, today)
                .unwrap_err()
                .get("id_type"),
            Some("validation-id-type-mismatch")
        );
        let corporate_without_name = MkkForm {
            investor_type: "corporate".into(),
            id_type: "vkn".into(),
            identity_number: "4540536920".into(),
            ..form()
        };
        assert_eq!(
            validate_mkk(&corporate_without_name, today)
                .unwrap_err()
                .get("organisation"),
            Some("validation-required")
        );
        let short = MkkForm {
            identity_number: "123".into(),
            ..form()
        };
        assert_eq!(
            validate_mkk(&short, today)
                .unwrap_err()
                .get("identity_number"),
            Some("validation-tckn-length")
        );
        let income = MkkForm {
            annual_income: "çok".into(),
            ..form()
        };
        assert_eq!(
            validate_mkk(&income, today)
                .unwrap_err()
                .get("annual_income"),
            Some("validation-number")
        );
    }
}

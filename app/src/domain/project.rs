//! The startup application (`/projectFlow/1-4`): its answers and how each step is checked.

use std::collections::BTreeMap;

use crate::domain::email::normalize_email;
use crate::domain::phone::normalize_mobile;
use crate::domain::startups::{SECTORS, STAGES};
use crate::forms::FieldErrors;

mod answers;
pub use answers::answer_shown;

pub const STEPS: u8 = 4;
pub const DESCRIPTION_MAX_CHARS: usize = 1000;
/// Presentation files: pdf, pptx or ppt, at most 5 MB (spec).
pub const PRESENTATION_MAX_BYTES: usize = 5 * 1024 * 1024;
/// Founder rows on step 4: name, position, phone, professional-network account.
pub const FOUNDER_FIELDS: [[&str; 4]; 3] = [
    [
        "founder_1_name",
        "founder_1_position",
        "founder_1_phone",
        "founder_1_linkedin",
    ],
    [
        "founder_2_name",
        "founder_2_position",
        "founder_2_phone",
        "founder_2_linkedin",
    ],
    [
        "founder_3_name",
        "founder_3_position",
        "founder_3_phone",
        "founder_3_linkedin",
    ],
];

/// The fields each step asks for (names as posted); founders are `founder_{n}_{field}`.
pub fn step_fields(step: u8) -> Vec<String> {
    let fixed: &[&str] = match step {
        1 => &[
            "name",
            "sector",
            "subcategory",
            "country",
            "city",
            "description",
            "website",
            "instagram",
            "twitter",
            "youtube",
        ],
        2 => &[
            "team_size",
            "established",
            "established_on",
            "stage",
            "has_income",
            "monthly_income",
            "monthly_expense",
            "valuation_tl",
            "amount_sought_tl",
        ],
        3 => &[
            "accelerator",
            "accelerator_date",
            "accelerator_program",
            "accelerator_country",
            "prior_investment",
            "prior_date",
            "prior_investors",
            "prior_amount_tl",
        ],
        4 => &["contact_email", "how_heard", "note"],
        _ => &[],
    };
    let mut fields: Vec<String> = fixed.iter().map(|f| (*f).to_owned()).collect();
    if step == 4 {
        fields.extend(FOUNDER_FIELDS.iter().flatten().map(|f| (*f).to_owned()));
    }
    fields
}

/// Each answer of steps 1-4 with the Fluent id of its label, in the form's order (founders
/// apart: see [`FOUNDER_FIELDS`]), for showing a submitted application to staff. The figures
/// are in lira; applications sent before they were (issue 28) hold them in dollars, under the
/// keys marked `legacy`, still shown with their own labels.
pub const ANSWER_LABELS: [(&str, &str); 33] = [
    ("name", "project-name"),
    ("sector", "filter-sector"),
    ("subcategory", "project-subcategory"),
    ("country", "field-country"),
    ("city", "field-city"),
    ("description", "project-description"),
    ("website", "project-website"),
    ("instagram", "project-instagram"),
    ("twitter", "project-twitter"),
    ("youtube", "project-youtube"),
    ("team_size", "project-team-size"),
    ("established", "project-established"),
    ("established_on", "project-established-on"),
    ("stage", "startup-stage"),
    ("has_income", "project-has-income"),
    ("monthly_income", "project-monthly-income"),
    ("monthly_expense", "project-monthly-expense"),
    ("valuation_tl", "project-valuation-tl"),
    ("amount_sought_tl", "project-amount-sought-tl"),
    // legacy: in dollars
    ("valuation_usd", "project-valuation"),
    ("amount_sought_usd", "project-amount-sought"),
    ("accelerator", "project-accelerator"),
    ("accelerator_date", "project-date"),
    ("accelerator_program", "project-program"),
    ("accelerator_country", "field-country"),
    ("prior_investment", "project-prior"),
    ("prior_date", "project-date"),
    ("prior_investors", "project-investors"),
    ("prior_amount_tl", "project-amount-tl"),
    // legacy: in dollars
    ("prior_amount", "project-amount-usd"),
    ("contact_email", "project-contact-email"),
    ("how_heard", "field-how-heard"),
    ("note", "field-note"),
];

/// A presentation recognised by its first bytes: `pdf`, `pptx` or `ppt`.
pub fn presentation_kind(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"%PDF-") {
        Some("pdf")
    } else if bytes.starts_with(b"PK\x03\x04")
        && bytes.windows(4).take(1 << 20).any(|w| w == b"ppt/")
    {
        Some("pptx")
    } else if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) {
        Some("ppt")
    } else {
        None
    }
}

fn get<'a>(a: &'a BTreeMap<String, String>, k: &str) -> &'a str {
    a.get(k).map(|s| s.trim()).unwrap_or("")
}

fn text(
    errors: &mut FieldErrors,
    a: &BTreeMap<String, String>,
    field: &'static str,
    required: bool,
    max: usize,
) {
    let v = get(a, field);
    if required && v.is_empty() {
        errors.add(field, "validation-required");
    } else if v.chars().count() > max
        || v.chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        errors.add(field, "validation-too-long");
    }
}

/// A one-line answer: [`text`], and no line break or tab.
fn line(
    errors: &mut FieldErrors,
    a: &BTreeMap<String, String>,
    field: &'static str,
    required: bool,
    max: usize,
) {
    text(errors, a, field, required, max);
    if !crate::domain::applications::single_line(get(a, field)) {
        errors.add(field, "validation-single-line");
    }
}

fn number(
    errors: &mut FieldErrors,
    a: &BTreeMap<String, String>,
    field: &'static str,
    required: bool,
) {
    let v = get(a, field).replace(['.', ','], "");
    if v.is_empty() {
        if required {
            errors.add(field, "validation-required");
        }
    } else if v.len() > 15 || !v.chars().all(|c| c.is_ascii_digit()) {
        errors.add(field, "validation-number");
    }
}

fn date(
    errors: &mut FieldErrors,
    a: &BTreeMap<String, String>,
    field: &'static str,
    required: bool,
) {
    let v = get(a, field);
    if v.is_empty() {
        if required {
            errors.add(field, "validation-required");
        }
    } else if time::Date::parse(v, time::macros::format_description!("[year]-[month]-[day]"))
        .is_err()
    {
        errors.add(field, "validation-date");
    }
}

fn yes_no(errors: &mut FieldErrors, a: &BTreeMap<String, String>, field: &'static str) -> bool {
    match get(a, field) {
        "yes" => true,
        "no" => false,
        _ => {
            errors.add(field, "validation-required");
            false
        }
    }
}

fn url(errors: &mut FieldErrors, a: &BTreeMap<String, String>, field: &'static str) {
    let v = get(a, field);
    line(errors, a, field, false, 300);
    if !v.is_empty() && !crate::domain::paths::is_web_url(v) {
        errors.add(field, "validation-url");
    }
}

/// Step 1: the startup, its place and description, its links, and the presentation.
fn startup(errors: &mut FieldErrors, a: &BTreeMap<String, String>, has_presentation: bool) {
    line(errors, a, "name", true, 120);
    if !SECTORS.contains(&get(a, "sector")) {
        errors.add("sector", "validation-required");
    }
    line(errors, a, "subcategory", false, 120);
    line(errors, a, "country", true, 100);
    line(errors, a, "city", true, 100);
    let description = get(a, "description");
    if description.is_empty() {
        errors.add("description", "validation-required");
    } else if description.chars().count() > DESCRIPTION_MAX_CHARS {
        errors.add("description", "validation-description-long");
    }
    for field in ["website", "instagram", "twitter", "youtube"] {
        url(errors, a, field);
    }
    if !has_presentation {
        errors.add("presentation", "validation-presentation");
    }
}

/// Step 2: team, founding, stage and money.
fn company(errors: &mut FieldErrors, a: &BTreeMap<String, String>) {
    number(errors, a, "team_size", true);
    if yes_no(errors, a, "established") {
        date(errors, a, "established_on", true);
    }
    if !STAGES.contains(&get(a, "stage")) {
        errors.add("stage", "validation-required");
    }
    if yes_no(errors, a, "has_income") {
        number(errors, a, "monthly_income", true);
        number(errors, a, "monthly_expense", true);
    }
    number(errors, a, "valuation_tl", false);
    number(errors, a, "amount_sought_tl", true);
}

/// Step 3: an accelerator programme and an earlier round, each only when there was one.
fn history(errors: &mut FieldErrors, a: &BTreeMap<String, String>) {
    if yes_no(errors, a, "accelerator") {
        date(errors, a, "accelerator_date", true);
        line(errors, a, "accelerator_program", true, 200);
        line(errors, a, "accelerator_country", true, 100);
    }
    if yes_no(errors, a, "prior_investment") {
        date(errors, a, "prior_date", true);
        line(errors, a, "prior_investors", true, 300);
        number(errors, a, "prior_amount_tl", true);
    }
}

/// Step 4: the contact address (normalised), how they heard of us, a note, and the founders
/// (their phones normalised).
fn contact(errors: &mut FieldErrors, a: &mut BTreeMap<String, String>) {
    match normalize_email(get(a, "contact_email")) {
        Ok(email) => {
            a.insert("contact_email".into(), email);
        }
        Err(e) => errors.add("contact_email", e.message_id()),
    }
    line(errors, a, "how_heard", false, 200);
    text(errors, a, "note", false, 2000);
    for (i, [name, position, phone, linkedin]) in FOUNDER_FIELDS.into_iter().enumerate() {
        let filled = [name, position, phone, linkedin]
            .iter()
            .any(|f| !get(a, f).is_empty());
        // The first founder is required; further rows only once started.
        if i == 0 || filled {
            line(errors, a, name, true, 120);
            line(errors, a, position, true, 120);
            match normalize_mobile(get(a, phone)) {
                Ok(p) => {
                    a.insert(phone.to_owned(), p);
                }
                Err(e) => errors.add(phone, e.message_id()),
            }
            url(errors, a, linkedin);
        }
    }
}

/// Checks `step`'s answers. `has_presentation` says whether the draft holds a presentation.
pub fn validate_step(
    step: u8,
    a: &mut BTreeMap<String, String>,
    has_presentation: bool,
) -> Result<(), FieldErrors> {
    let mut errors = FieldErrors::default();
    match step {
        1 => startup(&mut errors, a, has_presentation),
        2 => company(&mut errors, a),
        3 => history(&mut errors, a),
        4 => contact(&mut errors, a),
        _ => {}
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Where a startup application is: a draft being filled in, then sent (new) and moved on by
/// staff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(rename_all = "snake_case"))]
pub enum ApplicationStatus {
    Draft,
    New,
    InReview,
    Accepted,
    Declined,
}

impl ApplicationStatus {
    /// The moves staff make, in the order the buttons show.
    pub const MOVES: [ApplicationStatus; 3] = [
        ApplicationStatus::InReview,
        ApplicationStatus::Accepted,
        ApplicationStatus::Declined,
    ];

    pub fn code(self) -> &'static str {
        match self {
            ApplicationStatus::Draft => "draft",
            ApplicationStatus::New => "new",
            ApplicationStatus::InReview => "in_review",
            ApplicationStatus::Accepted => "accepted",
            ApplicationStatus::Declined => "declined",
        }
    }

    /// One of the staff's moves, by its code.
    pub fn move_from_code(code: &str) -> Option<ApplicationStatus> {
        Self::MOVES.into_iter().find(|s| s.code() == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn step_one_needs_a_presentation_and_a_short_description() {
        let mut a = answers(&[
            ("name", "Kuzey"),
            ("sector", "fintech"),
            ("country", "Türkiye"),
            ("city", "İzmir"),
            ("description", "Ödeme"),
        ]);
        assert_eq!(
            validate_step(1, &mut a, false)
                .unwrap_err()
                .get("presentation"),
            Some("validation-presentation")
        );
        assert!(validate_step(1, &mut a, true).is_ok());
        a.insert("description".into(), "ç".repeat(1001));
        assert_eq!(
            validate_step(1, &mut a, true)
                .unwrap_err()
                .get("description"),
            Some("validation-description-long")
        );
    }

    #[test]
    fn numbers_and_conditional_fields() {
        let mut a = answers(&[
            ("team_size", "beş"),
            ("established", "yes"),
            ("stage", "seed"),
            ("has_income", "no"),
            ("amount_sought_tl", "250.000"),
        ]);
        let e = validate_step(2, &mut a, true).unwrap_err();
        assert_eq!(e.get("team_size"), Some("validation-number"));
        assert_eq!(e.get("established_on"), Some("validation-required"));
        let mut a = answers(&[
            ("accelerator", "no"),
            ("prior_investment", "yes"),
            ("prior_date", "2025-01-01"),
            ("prior_investors", "Melek"),
            ("prior_amount_tl", "x"),
        ]);
        assert_eq!(
            validate_step(3, &mut a, true)
                .unwrap_err()
                .get("prior_amount_tl"),
            Some("validation-number")
        );
    }

    #[test]
    fn founders_and_presentations() {
        let mut a = answers(&[
            ("contact_email", "a@b.co"),
            ("founder_1_name", "Ece"),
            ("founder_1_position", "CEO"),
            ("founder_1_phone", "05321234567"),
            ("founder_2_name", "Ali"),
        ]);
        let e = validate_step(4, &mut a, true).unwrap_err();
        assert_eq!(e.get("founder_2_position"), Some("validation-required"));
        assert!(e.get("founder_3_name").is_none(), "empty rows are skipped");
        assert_eq!(presentation_kind(b"%PDF-1.7 ..."), Some("pdf"));
        assert_eq!(
            presentation_kind(b"PK\x03\x04....ppt/slides/slide1.xml"),
            Some("pptx")
        );
        assert_eq!(presentation_kind(b"PK\x03\x04....word/document.xml"), None);
        assert_eq!(presentation_kind(b"MZ\x90\0 this program"), None);
    }
}

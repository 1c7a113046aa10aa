//! The staff startup editor's form: what staff type, and the checked record it becomes,
//! checked one group of fields at a time. Reading single values (addresses, whole numbers,
//! dates, the founders box) is the `parse` submodule.

mod parse;

use std::collections::BTreeMap;

use time::Date;

pub use parse::{is_slug, parse_founders, slugify};

use crate::domain::money::Money;
use crate::domain::paths::is_web_url;
use crate::domain::profile::parse_lira;
use crate::domain::project::DESCRIPTION_MAX_CHARS;
use crate::domain::startups::{PeriodKind, SECTIONS, SECTORS, STAGES};
use crate::forms::FieldErrors;
use parse::{date, whole};

/// The editor's fields as typed (kept as text so a refused form shows them again).
#[derive(Clone, Debug, Default)]
pub struct StartupForm {
    pub name: String,
    pub slug: String,
    pub sector: String,
    pub subcategory: String,
    pub fund: String,
    pub country: String,
    pub city: String,
    pub description_tr: String,
    pub description_en: String,
    pub website: String,
    pub instagram: String,
    pub twitter: String,
    pub youtube: String,
    pub team_size: String,
    pub established_on: String,
    pub stage: String,
    pub monthly_income: String,
    pub monthly_expense: String,
    pub valuation_usd: String,
    pub amount_sought_usd: String,
    pub goal: String,
    pub period_kind: String,
    pub starts_on: String,
    pub ends_on: String,
    pub vip_until: String,
    pub published: bool,
    /// One founder a line: `Name | Title | https://profile`.
    pub founders: String,
    /// Section id → (Turkish, English) Markdown.
    pub sections: BTreeMap<String, (String, String)>,
}

/// A founder as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Founder {
    pub name: String,
    pub title: String,
    pub linkedin: String,
}

/// A checked startup, ready to store.
#[derive(Clone, Debug)]
pub struct StartupRecord {
    pub name: String,
    pub slug: String,
    pub sector: String,
    pub subcategory: String,
    pub fund_id: i64,
    pub country: String,
    pub city: String,
    pub description_tr: String,
    pub description_en: String,
    pub website: String,
    pub instagram: String,
    pub twitter: String,
    pub youtube: String,
    pub team_size: i64,
    pub established_on: Option<Date>,
    pub stage: String,
    pub monthly_income: Option<Money>,
    pub monthly_expense: Option<Money>,
    pub valuation_usd: Option<i64>,
    pub amount_sought_usd: Option<i64>,
    pub goal: Money,
    pub period_kind: PeriodKind,
    pub starts_on: Date,
    pub ends_on: Date,
    pub vip_until: Option<Date>,
    pub published: bool,
    pub founders: Vec<Founder>,
    pub sections: BTreeMap<String, (String, String)>,
}

/// The texts every startup needs: name, city and both descriptions.
fn required_texts(form: &StartupForm, e: &mut FieldErrors) {
    let required = [
        ("name", &form.name),
        ("city", &form.city),
        ("description_tr", &form.description_tr),
        ("description_en", &form.description_en),
    ];
    for (field, value) in required {
        if value.trim().is_empty() {
            e.add(field, "validation-required");
        } else if value.chars().count() > DESCRIPTION_MAX_CHARS {
            e.add(field, "validation-description-long");
        }
    }
}

/// The address as typed, or made from the name when left empty.
fn slug(form: &StartupForm, e: &mut FieldErrors) -> String {
    let slug = if form.slug.trim().is_empty() {
        slugify(&form.name)
    } else {
        form.slug.trim().to_owned()
    };
    if !form.name.trim().is_empty() && !is_slug(&slug) {
        e.add("slug", "validation-slug");
    }
    slug
}

/// Sector and stage among the known ones, and the fund among `funds`; returns the fund.
fn choices(form: &StartupForm, funds: &[i64], e: &mut FieldErrors) -> Option<i64> {
    if !SECTORS.contains(&form.sector.as_str()) {
        e.add("sector", "validation-required");
    }
    if !STAGES.contains(&form.stage.as_str()) {
        e.add("stage", "validation-required");
    }
    let fund_id = form.fund.parse::<i64>().ok().filter(|f| funds.contains(f));
    if fund_id.is_none() {
        e.add("fund", "validation-required");
    }
    fund_id
}

/// The website and social accounts, each empty or a web address.
fn links(form: &StartupForm, e: &mut FieldErrors) {
    for (field, value) in [
        ("website", &form.website),
        ("instagram", &form.instagram),
        ("twitter", &form.twitter),
        ("youtube", &form.youtube),
    ] {
        if !value.trim().is_empty() && !is_web_url(value.trim()) {
            e.add(field, "validation-url");
        }
    }
}

/// An optional value: `None` when left empty, `message` under `field` when it does not parse.
fn optional<T>(
    e: &mut FieldErrors,
    field: &'static str,
    text: &str,
    parse: impl FnOnce(&str) -> Option<T>,
    message: &'static str,
) -> Option<T> {
    if text.trim().is_empty() {
        None
    } else {
        let value = parse(text);
        if value.is_none() {
            e.add(field, message);
        }
        value
    }
}

/// The company's optional figures and dates, as checked.
struct Figures {
    /// `None` when typed but not a number (empty means 0).
    team_size: Option<i64>,
    established_on: Option<Date>,
    vip_until: Option<Date>,
    monthly_income: Option<Money>,
    monthly_expense: Option<Money>,
    valuation_usd: Option<i64>,
    amount_sought_usd: Option<i64>,
}

fn figures(form: &StartupForm, e: &mut FieldErrors) -> Figures {
    let team_size = if form.team_size.trim().is_empty() {
        Some(0)
    } else {
        whole(&form.team_size)
    };
    if team_size.is_none() {
        e.add("team_size", "validation-number");
    }
    let (number, day) = ("validation-number", "validation-date");
    Figures {
        team_size,
        established_on: optional(e, "established_on", &form.established_on, date, day),
        vip_until: optional(e, "vip_until", &form.vip_until, date, day),
        monthly_income: optional(
            e,
            "monthly_income",
            &form.monthly_income,
            parse_lira,
            number,
        ),
        monthly_expense: optional(
            e,
            "monthly_expense",
            &form.monthly_expense,
            parse_lira,
            number,
        ),
        valuation_usd: optional(e, "valuation_usd", &form.valuation_usd, whole, number),
        amount_sought_usd: optional(
            e,
            "amount_sought_usd",
            &form.amount_sought_usd,
            whole,
            number,
        ),
    }
}

/// The round as checked: a positive goal, the period's kind, and its dates in order.
struct Round {
    goal: Option<Money>,
    period_kind: Option<PeriodKind>,
    starts_on: Option<Date>,
    ends_on: Option<Date>,
}

fn round(form: &StartupForm, e: &mut FieldErrors) -> Round {
    let goal = parse_lira(&form.goal).filter(|m| m.kurus() > 0);
    if form.goal.trim().is_empty() {
        e.add("goal", "validation-required");
    } else if goal.is_none() {
        e.add("goal", "validation-number");
    }
    let period_kind = match form.period_kind.as_str() {
        "investment" => Some(PeriodKind::Investment),
        "pre_investment" => Some(PeriodKind::PreInvestment),
        _ => None,
    };
    if period_kind.is_none() {
        e.add("period_kind", "validation-required");
    }
    let starts_on = date(&form.starts_on);
    if starts_on.is_none() {
        e.add("starts_on", "validation-date");
    }
    let ends_on = date(&form.ends_on).filter(|end| starts_on.is_none_or(|s| s <= *end));
    if ends_on.is_none() {
        e.add("ends_on", "validation-period-end");
    }
    Round {
        goal,
        period_kind,
        starts_on,
        ends_on,
    }
}

/// Checks the form; `funds` are the ids staff may choose from.
pub fn validate(form: &StartupForm, funds: &[i64]) -> Result<StartupRecord, FieldErrors> {
    let mut e = FieldErrors::default();
    required_texts(form, &mut e);
    let slug = slug(form, &mut e);
    let fund_id = choices(form, funds, &mut e);
    links(form, &mut e);
    let figures = figures(form, &mut e);
    let round = round(form, &mut e);
    let founders = parse_founders(&form.founders);
    if founders.is_none() {
        e.add("founders", "validation-founders");
    }
    let sections = form
        .sections
        .iter()
        .filter(|(k, _)| SECTIONS.contains(&k.as_str()))
        .map(|(k, (tr, en))| (k.clone(), (tr.trim().to_owned(), en.trim().to_owned())))
        .collect();
    if !e.is_empty() {
        return Err(e);
    }
    Ok(StartupRecord {
        name: form.name.trim().to_owned(),
        slug,
        sector: form.sector.clone(),
        subcategory: form.subcategory.trim().to_owned(),
        fund_id: fund_id.unwrap_or_default(),
        country: if form.country.trim().is_empty() {
            "Türkiye".to_owned()
        } else {
            form.country.trim().to_owned()
        },
        city: form.city.trim().to_owned(),
        description_tr: form.description_tr.trim().to_owned(),
        description_en: form.description_en.trim().to_owned(),
        website: form.website.trim().to_owned(),
        instagram: form.instagram.trim().to_owned(),
        twitter: form.twitter.trim().to_owned(),
        youtube: form.youtube.trim().to_owned(),
        team_size: figures.team_size.unwrap_or_default(),
        established_on: figures.established_on,
        stage: form.stage.clone(),
        monthly_income: figures.monthly_income,
        monthly_expense: figures.monthly_expense,
        valuation_usd: figures.valuation_usd,
        amount_sought_usd: figures.amount_sought_usd,
        goal: round.goal.unwrap_or_default(),
        period_kind: round.period_kind.unwrap_or(PeriodKind::Investment),
        starts_on: round.starts_on.unwrap_or(Date::MIN),
        ends_on: round.ends_on.unwrap_or(Date::MIN),
        vip_until: figures.vip_until,
        published: form.published,
        founders: founders.unwrap_or_default(),
        sections,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled() -> StartupForm {
        StartupForm {
            name: "Çağrı Şehir Işık".into(),
            sector: "energy".into(),
            fund: "2".into(),
            city: "İzmir".into(),
            description_tr: "Güneş".into(),
            description_en: "Solar".into(),
            stage: "seed".into(),
            goal: "2.500.000".into(),
            period_kind: "investment".into(),
            starts_on: "2026-11-01".into(),
            ends_on: "2026-12-31".into(),
            founders: "Ayşe Yılmaz | CEO | https://www.linkedin.com/in/ayse\nCan Demir | CTO"
                .into(),
            ..StartupForm::default()
        }
    }

    #[test]
    fn slugs_drop_turkish_marks() {
        assert_eq!(slugify("Çağrı Şehir Işık"), "cagri-sehir-isik");
        assert_eq!(slugify("  A & B  "), "a-b");
        assert!(is_slug("cemre-enerji-2"));
        assert!(!is_slug("Cemre"));
    }

    #[test]
    fn a_complete_form_becomes_a_record() {
        let r = validate(&filled(), &[1, 2]).unwrap();
        assert_eq!(r.slug, "cagri-sehir-isik");
        assert_eq!(r.goal, Money::from_lira(2_500_000));
        assert_eq!(r.fund_id, 2);
        assert_eq!(r.founders.len(), 2);
        assert_eq!(r.founders[1].linkedin, "");
        assert_eq!(r.country, "Türkiye");
    }

    #[test]
    fn each_bad_field_has_its_message() {
        let mut f = filled();
        f.fund = "9".into();
        f.goal = "12,5".into();
        f.ends_on = "2026-10-01".into();
        f.website = "javascript:alert(1)".into();
        f.founders = "just a name".into();
        f.description_en = "x".repeat(1001);
        f.team_size = "many".into();
        let e = validate(&f, &[1, 2]).unwrap_err();
        assert_eq!(e.get("fund"), Some("validation-required"));
        assert_eq!(e.get("goal"), Some("validation-number"));
        assert_eq!(e.get("ends_on"), Some("validation-period-end"));
        assert_eq!(e.get("website"), Some("validation-url"));
        assert_eq!(e.get("founders"), Some("validation-founders"));
        assert_eq!(e.get("description_en"), Some("validation-description-long"));
        assert_eq!(e.get("team_size"), Some("validation-number"));
        assert_eq!(
            validate(&StartupForm::default(), &[1])
                .unwrap_err()
                .get("name"),
            Some("validation-required")
        );
    }
}

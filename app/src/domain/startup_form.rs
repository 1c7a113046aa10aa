//! The staff startup editor's form: what staff type, and the checked record it becomes.

use std::collections::BTreeMap;

use time::Date;

use crate::domain::money::Money;
use crate::domain::paths::is_web_url;
use crate::domain::profile::parse_lira;
use crate::domain::project::DESCRIPTION_MAX_CHARS;
use crate::domain::startups::{PeriodKind, SECTIONS, SECTORS, STAGES};
use crate::domain::text::turkish_lowercase;
use crate::forms::FieldErrors;

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
    pub funded: bool,
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
    pub funded: bool,
    pub period_kind: PeriodKind,
    pub starts_on: Date,
    pub ends_on: Date,
    pub vip_until: Option<Date>,
    pub published: bool,
    pub founders: Vec<Founder>,
    pub sections: BTreeMap<String, (String, String)>,
}

/// An ASCII address for a name: Turkish letters lose their marks, the rest becomes hyphens.
pub fn slugify(name: &str) -> String {
    let mut out = String::new();
    for c in turkish_lowercase(name).chars() {
        let c = match c {
            'ç' => 'c',
            'ğ' => 'g',
            'ı' => 'i',
            'ö' => 'o',
            'ş' => 's',
            'ü' => 'u',
            'â' => 'a',
            'î' => 'i',
            'û' => 'u',
            c if c.is_ascii_alphanumeric() => c,
            _ => '-',
        };
        if c != '-' || !out.ends_with('-') {
            out.push(c);
        }
    }
    out.trim_matches('-').chars().take(80).collect()
}

/// Whether `slug` is a usable address segment.
pub fn is_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= 100
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn date(text: &str) -> Option<Date> {
    Date::parse(
        text.trim(),
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .ok()
}

fn whole(text: &str) -> Option<i64> {
    let digits: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, '.' | ',' | ' '))
        .collect();
    if digits.is_empty() || digits.len() > 15 || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Parses the founders box; `None` when a line is not `name | title [| https://…]`.
pub fn parse_founders(text: &str) -> Option<Vec<Founder>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split('|').map(str::trim).collect();
            match parts.as_slice() {
                [name, title] | [name, title, ""] if !name.is_empty() && !title.is_empty() => {
                    Some(Founder {
                        name: (*name).to_owned(),
                        title: (*title).to_owned(),
                        linkedin: String::new(),
                    })
                }
                [name, title, link]
                    if !name.is_empty() && !title.is_empty() && is_web_url(link) =>
                {
                    Some(Founder {
                        name: (*name).to_owned(),
                        title: (*title).to_owned(),
                        linkedin: (*link).to_owned(),
                    })
                }
                _ => None,
            }
        })
        .collect()
}

/// Checks the form; `funds` are the ids staff may choose from.
pub fn validate(form: &StartupForm, funds: &[i64]) -> Result<StartupRecord, FieldErrors> {
    let mut e = FieldErrors::default();
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
    let slug = if form.slug.trim().is_empty() {
        slugify(&form.name)
    } else {
        form.slug.trim().to_owned()
    };
    if !form.name.trim().is_empty() && !is_slug(&slug) {
        e.add("slug", "validation-slug");
    }
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
    let team_size = if form.team_size.trim().is_empty() {
        Some(0)
    } else {
        whole(&form.team_size)
    };
    if team_size.is_none() {
        e.add("team_size", "validation-number");
    }
    let optional_date = |field: &'static str, text: &str, e: &mut FieldErrors| {
        if text.trim().is_empty() {
            None
        } else {
            let d = date(text);
            if d.is_none() {
                e.add(field, "validation-date");
            }
            d
        }
    };
    let established_on = optional_date("established_on", &form.established_on, &mut e);
    let vip_until = optional_date("vip_until", &form.vip_until, &mut e);
    let optional_lira = |field: &'static str, text: &str, e: &mut FieldErrors| {
        if text.trim().is_empty() {
            None
        } else {
            let m = parse_lira(text);
            if m.is_none() {
                e.add(field, "validation-number");
            }
            m
        }
    };
    let monthly_income = optional_lira("monthly_income", &form.monthly_income, &mut e);
    let monthly_expense = optional_lira("monthly_expense", &form.monthly_expense, &mut e);
    let optional_whole = |field: &'static str, text: &str, e: &mut FieldErrors| {
        if text.trim().is_empty() {
            None
        } else {
            let n = whole(text);
            if n.is_none() {
                e.add(field, "validation-number");
            }
            n
        }
    };
    let valuation_usd = optional_whole("valuation_usd", &form.valuation_usd, &mut e);
    let amount_sought_usd = optional_whole("amount_sought_usd", &form.amount_sought_usd, &mut e);
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
        team_size: team_size.unwrap_or_default(),
        established_on,
        stage: form.stage.clone(),
        monthly_income,
        monthly_expense,
        valuation_usd,
        amount_sought_usd,
        goal: goal.unwrap_or_default(),
        funded: form.funded,
        period_kind: period_kind.unwrap_or(PeriodKind::Investment),
        starts_on: starts_on.unwrap_or(Date::MIN),
        ends_on: ends_on.unwrap_or(Date::MIN),
        vip_until,
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

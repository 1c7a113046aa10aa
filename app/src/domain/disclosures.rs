//! Founders' disclosures after a round is funded (SPK III-35/A.2): material events, and
//! fund-use reports that set what was spent against each line of the plan in the information
//! form. Staff approve one before investors see it. A fund-use report is owed every
//! `every_days` after the round closed, until a report shows the plan fully spent.

use serde::{Deserialize, Serialize};
use time::{Date, Duration};

use crate::domain::campaign::{FUND_ROWS, FundUse};
use crate::domain::profile::parse_lira;
use crate::forms::FieldErrors;

/// What a disclosure is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    MaterialEvent,
    FundUse,
}

impl Kind {
    pub fn code(self) -> &'static str {
        match self {
            Kind::MaterialEvent => "material-event",
            Kind::FundUse => "fund-use",
        }
    }

    pub fn parse(code: &str) -> Option<Kind> {
        match code {
            "material-event" => Some(Kind::MaterialEvent),
            "fund-use" => Some(Kind::FundUse),
            _ => None,
        }
    }
}

/// One line of a fund-use report: the plan's line and what was spent on it so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spending {
    pub tr: String,
    pub en: String,
    pub planned: i64,
    pub spent: i64,
}

/// Whether a report's lines show every planned amount spent.
pub fn fully_spent(lines: &[Spending]) -> bool {
    !lines.is_empty() && lines.iter().all(|l| l.spent >= l.planned)
}

/// The disclosure form as typed; `spent` holds one amount per line of the plan.
#[derive(Clone, Debug, Default)]
pub struct DisclosureForm {
    pub kind: String,
    pub title_tr: String,
    pub title_en: String,
    pub body_tr: String,
    pub body_en: String,
    pub spent: Vec<String>,
}

/// A disclosure ready to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disclosure {
    pub kind: Kind,
    pub title_tr: String,
    pub title_en: String,
    pub body_tr: String,
    pub body_en: String,
    /// Empty for a material event.
    pub spending: Vec<Spending>,
}

/// The field of the amount spent on the plan's line `i` (a plan has at most
/// [`FUND_ROWS`] lines).
pub fn spent_field(i: usize) -> &'static str {
    const SPENT: [&str; FUND_ROWS] = [
        "spent_0", "spent_1", "spent_2", "spent_3", "spent_4", "spent_5",
    ];
    SPENT[i.min(FUND_ROWS - 1)]
}

/// Checks a typed disclosure against the plan in the information form.
pub fn validate(form: &DisclosureForm, plan: &[FundUse]) -> Result<Disclosure, FieldErrors> {
    let mut e = FieldErrors::default();
    let kind = Kind::parse(&form.kind);
    if kind.is_none() {
        e.add("kind", "validation-required");
    }
    let mut text = |field: &'static str, value: &str, max: usize| {
        let v = value.trim().replace("\r\n", "\n");
        if v.is_empty() {
            e.add(field, "validation-required");
        } else if v.chars().count() > max {
            e.add(field, "validation-too-long");
        }
        v
    };
    let title_tr = text("title_tr", &form.title_tr, 200);
    let title_en = text("title_en", &form.title_en, 200);
    let body_tr = text("body_tr", &form.body_tr, 4000);
    let body_en = text("body_en", &form.body_en, 4000);
    let mut spending = Vec::new();
    if kind == Some(Kind::FundUse) {
        if plan.is_empty() {
            e.add("kind", "validation-disclosure-no-plan");
        }
        for (i, line) in plan.iter().take(FUND_ROWS).enumerate() {
            let typed = form.spent.get(i).map_or("", |s| s.trim());
            let spent = match parse_lira(typed) {
                Some(m) if m.kurus() >= 0 && !typed.is_empty() => m.kurus(),
                _ => {
                    e.add(spent_field(i), "validation-number");
                    0
                }
            };
            spending.push(Spending {
                tr: line.tr.clone(),
                en: line.en.clone(),
                planned: line.kurus,
                spent,
            });
        }
    }
    match kind {
        Some(kind) if e.is_empty() => Ok(Disclosure {
            kind,
            title_tr,
            title_en,
            body_tr,
            body_en,
            spending,
        }),
        _ => Err(e),
    }
}

/// Where a startup stands with its fund-use reports on `today`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FundUseDue {
    /// The latest due date that passed with no report since the one before it.
    pub overdue: Option<Date>,
    /// The next due date (today or later).
    pub next: Date,
}

/// The fund-use reports owed by a round that closed on `closed`: one by every `every_days`
/// after it; a report posted after a due date answers the next one. `reported` are the days
/// reports were posted (returned ones excluded). `None` once a report showed the plan fully
/// spent (`done`).
pub fn fund_use_due(
    closed: Date,
    every_days: i64,
    reported: &[Date],
    done: bool,
    today: Date,
) -> Option<FundUseDue> {
    if done || every_days <= 0 {
        return None;
    }
    let due = |k: i64| closed + Duration::days(every_days * k);
    let mut k = 1;
    let mut overdue = None;
    while due(k) < today {
        let since = due(k - 1);
        if !reported.iter().any(|d| *d > since) {
            overdue = Some(due(k));
        } else {
            overdue = None;
        }
        k += 1;
    }
    Some(FundUseDue {
        overdue,
        next: due(k),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    fn plan() -> Vec<FundUse> {
        vec![
            FundUse {
                tr: "Ürün".into(),
                en: "Product".into(),
                kurus: 30_000_000,
            },
            FundUse {
                tr: "Pazarlama".into(),
                en: "Marketing".into(),
                kurus: 20_000_000,
            },
        ]
    }

    fn form(kind: &str, spent: &[&str]) -> DisclosureForm {
        DisclosureForm {
            kind: kind.into(),
            title_tr: "Başlık".into(),
            title_en: "Title".into(),
            body_tr: "Metin".into(),
            body_en: "Text".into(),
            spent: spent.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn a_fund_use_report_sets_spending_against_the_plan() {
        let d = validate(&form("fund-use", &["120.000", "0"]), &plan()).unwrap();
        assert_eq!(d.kind, Kind::FundUse);
        assert_eq!(d.spending[0].planned, 30_000_000);
        assert_eq!(d.spending[0].spent, 12_000_000);
        assert_eq!(d.spending[1].spent, 0);
        assert!(!fully_spent(&d.spending));
    }

    #[test]
    fn every_line_needs_an_amount() {
        let e = validate(&form("fund-use", &["120.000"]), &plan()).unwrap_err();
        assert_eq!(e.get("spent_1"), Some("validation-number"));
        let e = validate(&form("fund-use", &["abc", "-5"]), &plan()).unwrap_err();
        assert_eq!(e.get("spent_0"), Some("validation-number"));
        assert_eq!(e.get("spent_1"), Some("validation-number"));
    }

    #[test]
    fn a_material_event_has_no_spending_and_needs_its_texts() {
        let d = validate(&form("material-event", &[]), &plan()).unwrap();
        assert!(d.spending.is_empty());
        let mut f = form("material-event", &[]);
        f.title_en = " ".into();
        f.kind = "other".into();
        let e = validate(&f, &plan()).unwrap_err();
        assert_eq!(e.get("title_en"), Some("validation-required"));
        assert_eq!(e.get("kind"), Some("validation-required"));
    }

    #[test]
    fn fund_use_reports_fall_due_every_period_after_the_close() {
        let closed = date!(2026 - 01 - 01);
        let due = fund_use_due(closed, 180, &[], false, date!(2026 - 03 - 01)).unwrap();
        assert_eq!(due.overdue, None);
        assert_eq!(due.next, date!(2026 - 06 - 30));
        // The first due date passed with no report.
        let due = fund_use_due(closed, 180, &[], false, date!(2026 - 07 - 01)).unwrap();
        assert_eq!(due.overdue, Some(date!(2026 - 06 - 30)));
        assert_eq!(due.next, date!(2026 - 12 - 27));
        // A late report answers it; the next one is owed by the next due date.
        let late = [date!(2026 - 07 - 10)];
        let due = fund_use_due(closed, 180, &late, false, date!(2026 - 07 - 11)).unwrap();
        assert_eq!(due.overdue, None);
        let due = fund_use_due(closed, 180, &late, false, date!(2027 - 01 - 01)).unwrap();
        assert_eq!(
            due.overdue, None,
            "posted after the first due date: it answers the second"
        );
        let due = fund_use_due(closed, 180, &late, false, date!(2027 - 07 - 01)).unwrap();
        assert_eq!(due.overdue, Some(date!(2027 - 06 - 25)));
        // Nothing is owed once the plan is spent.
        assert_eq!(
            fund_use_due(closed, 180, &[], true, date!(2027 - 07 - 01)),
            None
        );
    }
}

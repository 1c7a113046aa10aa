//! A material change to a live round's terms: staff change the goal, a valuation, the period or
//! the information form while requests are open, and every investor with an open request must
//! reconfirm before the request proceeds. A request not reconfirmed by the deadline is
//! cancelled, and what was paid goes back.
//!
//! A change is stored as its terms with the value before and after, each as the database
//! keeps it (kuruş, dollars, ISO dates); `shown` writes them in the reader's language.

use time::{Date, OffsetDateTime};

use crate::domain::money::Money;
use crate::domain::time_fmt::{format_date_short, format_day};
use crate::i18n::Locale;

/// How long an investor has to reconfirm (Regulation Crowdfunding gives five business days
/// after a material change; five calendar days is never shorter than that in Turkey's week).
pub const DEFAULT_HOURS: i64 = 5 * 24;

/// A term of a round whose change is material.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// The funding goal (kuruş).
    Goal,
    /// The startup's valuation on its record (whole US dollars).
    ValuationUsd,
    /// The round's post-money valuation holdings are valued against (kuruş).
    RoundValuation,
    /// The investment period, `start..end` (ISO dates).
    Period,
    /// The information form: its current version and when it was uploaded
    /// (`2 2026-11-27T10:00:00Z`).
    InformationForm,
}

impl Term {
    pub const ALL: [Term; 5] = [
        Term::Goal,
        Term::ValuationUsd,
        Term::RoundValuation,
        Term::Period,
        Term::InformationForm,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Term::Goal => "goal",
            Term::ValuationUsd => "valuation-usd",
            Term::RoundValuation => "round-valuation",
            Term::Period => "period",
            Term::InformationForm => "information-form",
        }
    }

    pub fn from_code(code: &str) -> Option<Term> {
        Term::ALL.into_iter().find(|t| t.code() == code)
    }

    /// The message id of the term's name.
    pub fn label_id(self) -> String {
        format!("reconfirm-term-{}", self.code())
    }
}

/// One changed term: its value before and after, as stored (empty when there was none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermChange {
    pub term: Term,
    pub before: String,
    pub after: String,
}

impl TermChange {
    /// The change, when `before` and `after` differ.
    pub fn between(term: Term, before: String, after: String) -> Option<TermChange> {
        (before != after).then_some(TermChange {
            term,
            before,
            after,
        })
    }

    /// The value before and after, in `locale`.
    pub fn shown(&self, locale: Locale) -> (String, String) {
        (
            show(self.term, &self.before, locale),
            show(self.term, &self.after, locale),
        )
    }
}

/// A period as stored: `2026-12-01..2027-01-31`.
pub fn period_code(starts_on: Date, ends_on: Date) -> String {
    format!("{starts_on}..{ends_on}")
}

fn parse_date(s: &str) -> Option<Date> {
    Date::parse(s, &time::format_description::well_known::Iso8601::DATE).ok()
}

fn show(term: Term, value: &str, locale: Locale) -> String {
    if value.is_empty() {
        return "—".to_owned();
    }
    let shown = match term {
        Term::Goal | Term::RoundValuation => value
            .parse()
            .ok()
            .map(|k| Money::from_kurus(k).format(locale)),
        Term::ValuationUsd => value.parse().ok().map(|d| format_usd(d, locale)),
        Term::Period => value.split_once("..").and_then(|(a, b)| {
            let (a, b) = (parse_date(a)?, parse_date(b)?);
            Some(format!(
                "{} – {}",
                format_date_short(a, locale),
                format_date_short(b, locale)
            ))
        }),
        Term::InformationForm => value.split_once(' ').and_then(|(version, at)| {
            let at = OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339);
            let day = format_day(at.ok()?, locale);
            Some(match locale {
                Locale::Tr => format!("{version}. sürüm, {day}"),
                Locale::En => format!("version {version}, {day}"),
            })
        }),
    };
    shown.unwrap_or_else(|| value.to_owned())
}

/// Whole dollars with the locale's thousands separator: `1.500.000 USD` / `1,500,000 USD`.
fn format_usd(dollars: i64, locale: Locale) -> String {
    let lira = Money::from_lira(dollars).format(locale);
    format!("{} USD", lira.trim_end_matches(" TL"))
}

/// The answer to a reconfirmation (until it comes, the question is `pending`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Reconfirmed,
    /// The investor withdrew the request instead.
    Withdrawn,
    /// The deadline passed without an answer: the request was cancelled.
    Expired,
}

impl Answer {
    pub fn code(self) -> &'static str {
        match self {
            Answer::Reconfirmed => "reconfirmed",
            Answer::Withdrawn => "withdrawn",
            Answer::Expired => "expired",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn only_a_different_value_is_a_change() {
        assert_eq!(
            TermChange::between(Term::Goal, "1".into(), "1".into()),
            None
        );
        let change = TermChange::between(Term::Goal, "100000000".into(), "150000000".into());
        assert!(change.is_some());
    }

    #[test]
    fn values_are_shown_in_the_readers_language() {
        let goal = TermChange::between(Term::Goal, "100000000".into(), "150000000".into()).unwrap();
        assert_eq!(
            goal.shown(Locale::Tr),
            ("1.000.000 TL".to_owned(), "1.500.000 TL".to_owned())
        );
        assert_eq!(goal.shown(Locale::En).1, "1,500,000 TL");
        let usd = TermChange::between(Term::ValuationUsd, String::new(), "2500000".into()).unwrap();
        assert_eq!(
            usd.shown(Locale::En),
            ("—".to_owned(), "2,500,000 USD".to_owned())
        );
        let period = period_code(date!(2026 - 12 - 01), date!(2027 - 01 - 31));
        let change = TermChange::between(Term::Period, String::new(), period).unwrap();
        assert_eq!(change.shown(Locale::Tr).1, "01.12.2026 – 31.01.2027");
        assert_eq!(change.shown(Locale::En).1, "01/12/2026 – 31/01/2027");
        let form = TermChange::between(
            Term::InformationForm,
            String::new(),
            "2 2026-11-27T22:30:00Z".into(),
        )
        .unwrap();
        // Uploaded after 21:00 UTC: the next day in Istanbul.
        assert_eq!(form.shown(Locale::Tr).1, "2. sürüm, 28.11.2026");
        assert_eq!(form.shown(Locale::En).1, "version 2, 28/11/2026");
    }

    #[test]
    fn codes_round_trip() {
        for term in Term::ALL {
            assert_eq!(Term::from_code(term.code()), Some(term));
        }
        assert_eq!(Term::from_code("fee"), None);
    }
}

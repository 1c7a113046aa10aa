//! Calendar quarters of quarterly reports: parsed from what staff and founders type, stored as
//! `2026-Q3`, each due by the end of the month after it ends.

use time::{Date, Month};

use crate::i18n::Locale;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Quarter {
    pub year: i32,
    /// 1 to 4.
    pub q: u8,
}

impl Quarter {
    /// Reads `2026-Q3`, `2026 Q3`, `2026 Ç3`, `Q3 2026`, `2026/3` and the like.
    pub fn parse(text: &str) -> Option<Quarter> {
        let compact: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '/' | '.'))
            .flat_map(char::to_uppercase)
            .collect();
        let year_first = |s: &str| {
            let (year, rest) = s.split_at_checked(4)?;
            let rest = rest
                .strip_prefix('Q')
                .or_else(|| rest.strip_prefix('Ç'))
                .unwrap_or(rest);
            Some((year.to_owned(), rest.to_owned()))
        };
        let quarter_first = |s: &str| {
            let rest = s.strip_prefix('Q').or_else(|| s.strip_prefix('Ç'))?;
            let (q, year) = rest.split_at_checked(1)?;
            Some((year.to_owned(), q.to_owned()))
        };
        let (year, q) = year_first(&compact)
            .filter(|(y, _)| y.chars().all(|c| c.is_ascii_digit()))
            .or_else(|| quarter_first(&compact))?;
        let year: i32 = year.parse().ok().filter(|y| (2000..=2100).contains(y))?;
        let q: u8 = q.parse().ok().filter(|q| (1..=4).contains(q))?;
        Some(Quarter { year, q })
    }

    /// As stored: `2026-Q3`.
    pub fn code(self) -> String {
        format!("{}-Q{}", self.year, self.q)
    }

    /// As shown: `2026 Ç3` in Turkish, `2026 Q3` in English.
    pub fn label(self, locale: Locale) -> String {
        let letter = match locale {
            Locale::Tr => 'Ç',
            Locale::En => 'Q',
        };
        format!("{} {letter}{}", self.year, self.q)
    }

    /// The quarter `date` falls in.
    pub fn of(date: Date) -> Quarter {
        Quarter {
            year: date.year(),
            q: (u8::from(date.month()) - 1) / 3 + 1,
        }
    }

    pub fn next(self) -> Quarter {
        if self.q == 4 {
            Quarter {
                year: self.year + 1,
                q: 1,
            }
        } else {
            Quarter {
                year: self.year,
                q: self.q + 1,
            }
        }
    }

    /// The last day a report on this quarter may be published: the end of the month after the
    /// quarter ends (30 September's quarter is due by 31 October).
    pub fn due(self) -> Date {
        let (year, month) = match self.q {
            4 => (self.year + 1, Month::January),
            q => (self.year, Month::try_from(q * 3 + 1).expect("a month")),
        };
        let first = Date::from_calendar_date(year, month, 1).expect("a date");
        first
            .replace_day(month.length(year))
            .expect("the month's last day")
    }
}

/// A stored `reports.quarter` as shown in `locale` (reports stored before quarters were read
/// keep what was typed).
pub fn label_of(stored: &str, locale: Locale) -> String {
    Quarter::parse(stored).map_or_else(|| stored.to_owned(), |q| q.label(locale))
}

/// The quarters whose report is overdue on `today` for a startup whose round closed on
/// `closed_on`: every full quarter after the close, due before `today`, not in `reported`.
pub fn overdue(closed_on: Date, reported: &[Quarter], today: Date) -> Vec<Quarter> {
    let mut quarter = Quarter::of(closed_on).next();
    let mut late = Vec::new();
    while quarter.due() < today {
        if !reported.contains(&quarter) {
            late.push(quarter);
        }
        quarter = quarter.next();
    }
    late
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn quarters_are_read_as_people_type_them() {
        let q = Quarter { year: 2026, q: 3 };
        for text in [
            "2026-Q3", "2026 Q3", "2026 Ç3", "2026 ç3", "q3 2026", "Ç3 2026", "2026/3",
        ] {
            assert_eq!(Quarter::parse(text), Some(q), "{text}");
        }
        for text in ["2026-Q5", "2026", "Q3", "bahar", "1999 Q1", ""] {
            assert_eq!(Quarter::parse(text), None, "{text}");
        }
        assert_eq!(q.code(), "2026-Q3");
        assert_eq!(
            (q.label(Locale::Tr), q.label(Locale::En)),
            ("2026 Ç3".into(), "2026 Q3".into())
        );
    }

    #[test]
    fn each_quarter_is_due_by_the_end_of_the_next_month() {
        assert_eq!(Quarter { year: 2026, q: 1 }.due(), date!(2026 - 04 - 30));
        assert_eq!(Quarter { year: 2026, q: 3 }.due(), date!(2026 - 10 - 31));
        assert_eq!(Quarter { year: 2026, q: 4 }.due(), date!(2027 - 01 - 31));
        assert_eq!(
            Quarter::of(date!(2026 - 12 - 31)).next(),
            Quarter { year: 2027, q: 1 }
        );
    }

    #[test]
    fn overdue_quarters_start_after_the_close_and_skip_those_reported() {
        let closed = date!(2026 - 02 - 10); // in Q1: Q2 is the first full quarter
        let q = |q| Quarter { year: 2026, q };
        assert_eq!(overdue(closed, &[], date!(2026 - 07 - 31)), []);
        assert_eq!(overdue(closed, &[], date!(2026 - 08 - 01)), [q(2)]);
        assert_eq!(overdue(closed, &[q(2)], date!(2026 - 11 - 27)), [q(3)]);
        assert_eq!(overdue(closed, &[q(2), q(3)], date!(2026 - 11 - 27)), []);
    }
}

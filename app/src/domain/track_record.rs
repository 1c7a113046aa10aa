//! The platform's track record (issue 28), computed from the ledger's closes and the reports
//! funded startups posted: every closed round, the success rate, what was raised and refunded,
//! and whether quarterly reports arrived by their due dates.

use time::Date;

use crate::domain::money::Money;
use crate::domain::quarters::Quarter;

/// A round that closed, as its close recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosedRound {
    pub name: String,
    pub slug: String,
    pub fund: String,
    pub funded: bool,
    pub closed_on: Date,
    pub goal: Money,
    /// What escrow held at the close: allocated when funded, refunded when not.
    pub total: Money,
    pub investors: i64,
}

/// The figures over every closed round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub closed: i64,
    pub funded: i64,
    /// Funded rounds out of closed ones, in whole percent.
    pub success_pct: i64,
    pub raised: Money,
    pub refunded: Money,
}

pub fn summary(rounds: &[ClosedRound]) -> Summary {
    let mut s = Summary::default();
    for r in rounds {
        s.closed += 1;
        if r.funded {
            s.funded += 1;
            s.raised = s.raised.checked_add(r.total).unwrap_or(s.raised);
        } else {
            s.refunded = s.refunded.checked_add(r.total).unwrap_or(s.refunded);
        }
    }
    if s.closed > 0 {
        s.success_pct = s.funded * 100 / s.closed;
    }
    s
}

/// Quarterly reports owed so far by rounds funded on `closed_on` days, and how many arrived by
/// their due date: `(due, on time)`. `posted` holds each report's quarter and publication day.
pub fn reports_on_time(closed_on: Date, posted: &[(Quarter, Date)], today: Date) -> (i64, i64) {
    let mut quarter = Quarter::of(closed_on).next();
    let (mut due, mut on_time) = (0, 0);
    while quarter.due() < today {
        due += 1;
        if posted
            .iter()
            .any(|(q, on)| *q == quarter && *on <= quarter.due())
        {
            on_time += 1;
        }
        quarter = quarter.next();
    }
    (due, on_time)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    fn round(funded: bool, lira: i64) -> ClosedRound {
        ClosedRound {
            name: "A".into(),
            slug: "a".into(),
            fund: "F".into(),
            funded,
            closed_on: date!(2026 - 01 - 10),
            goal: Money::from_lira(lira),
            total: Money::from_lira(lira),
            investors: 3,
        }
    }

    #[test]
    fn the_summary_counts_raised_and_refunded_apart() {
        let s = summary(&[
            round(true, 1_000_000),
            round(false, 400_000),
            round(true, 500_000),
        ]);
        assert_eq!((s.closed, s.funded, s.success_pct), (3, 2, 66));
        assert_eq!(s.raised, Money::from_lira(1_500_000));
        assert_eq!(s.refunded, Money::from_lira(400_000));
        assert_eq!(summary(&[]), Summary::default());
    }

    #[test]
    fn a_report_counts_on_time_only_by_its_due_date() {
        let q2 = Quarter::parse("2026-Q2").unwrap();
        let q3 = Quarter::parse("2026-Q3").unwrap();
        // Closed in Q1: Q2 is due by 31.07, Q3 by 31.10.
        let posted = [(q2, date!(2026 - 07 - 20)), (q3, date!(2026 - 11 - 15))];
        assert_eq!(
            reports_on_time(date!(2026 - 02 - 01), &posted, date!(2026 - 11 - 28)),
            (2, 1)
        );
    }
}

//! A request's timeline as the investor sees it on `/pendingInvestments`, `/userInvestments`
//! and in every status mail: each step with its date, the current one, what happens next
//! and by when, and whether the request may still be withdrawn (the cancellation window's
//! countdown). Built from the request's history and the ledger; pure, so the pages and the
//! mails show the same thing.

use time::{Date, Duration, OffsetDateTime};

use crate::domain::investing::RequestStatus;
use crate::domain::time_fmt::{ISTANBUL, format_date_short};
use crate::i18n::{FluentArg, Locale};

/// What the timeline is built from.
#[derive(Clone, Debug)]
pub struct History {
    pub status: RequestStatus,
    pub sent_at: OffsetDateTime,
    /// When each status was first reached (the request's events), in any order.
    pub reached: Vec<(RequestStatus, OffsetDateTime)>,
    pub fee_due_at: Option<OffsetDateTime>,
    pub transfer_due_at: Option<OffsetDateTime>,
    /// The end of the cancellation window.
    pub cancel_until: OffsetDateTime,
    /// The last day of the round's period.
    pub round_ends_on: Date,
    /// Whether the round still takes changes (not closing or closed).
    pub round_open: bool,
    /// The round closed funded: a request refunded then was one the close could not allocate
    /// (otherwise the round closed unfunded), and its timeline says which.
    pub round_funded: bool,
    /// The service fee was paid (ledger).
    pub fee_paid: bool,
    /// When the fee went back to the card, once it has.
    pub fee_refunded_at: Option<OffsetDateTime>,
    /// When an escrow refund was put on the clearing bank's refund list.
    pub escrow_refunded_at: Option<OffsetDateTime>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepState {
    Done,
    Current,
    Upcoming,
}

impl StepState {
    pub fn code(self) -> &'static str {
        match self {
            StepState::Done => "done",
            StepState::Current => "current",
            StepState::Upcoming => "upcoming",
        }
    }
}

/// One line of the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The Fluent id of its label.
    pub label: &'static str,
    pub at: Option<OffsetDateTime>,
    pub state: StepState,
}

/// When the next action is due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    At(OffsetDateTime),
    /// The end of a day (a round's last day).
    Day(Date),
}

/// What happens next, and by when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextAction {
    /// The Fluent id of the sentence (takes `$deadline` when there is one).
    pub message: &'static str,
    pub deadline: Option<Deadline>,
    /// Where the investor acts, when it is on them.
    pub link: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    pub steps: Vec<Step>,
    pub next: NextAction,
}

/// The happy path, in order.
const PATH: [RequestStatus; 6] = [
    RequestStatus::Submitted,
    RequestStatus::UnderReview,
    RequestStatus::Approved,
    RequestStatus::FeePaid,
    RequestStatus::Funded,
    RequestStatus::Allocated,
];

fn label(status: RequestStatus) -> &'static str {
    match status {
        RequestStatus::Waitlisted => "timeline-waitlisted",
        RequestStatus::Submitted => "timeline-submitted",
        RequestStatus::UnderReview => "timeline-under_review",
        RequestStatus::Approved => "timeline-approved",
        RequestStatus::FeePaid => "timeline-fee_paid",
        RequestStatus::Funded => "timeline-funded",
        RequestStatus::Allocated => "timeline-allocated",
        RequestStatus::Refunded => "timeline-refunded",
        RequestStatus::Rejected => "timeline-rejected",
        RequestStatus::Cancelled => "timeline-cancelled",
        RequestStatus::Lapsed => "timeline-lapsed",
    }
}

impl History {
    fn reached_at(&self, status: RequestStatus) -> Option<OffsetDateTime> {
        if status == RequestStatus::Submitted {
            // Sent: the request's own time (a promoted one was submitted when promoted).
            return self
                .reached
                .iter()
                .filter(|(s, _)| *s == status)
                .map(|(_, at)| *at)
                .min()
                .or(Some(self.sent_at))
                .filter(|_| self.status != RequestStatus::Waitlisted);
        }
        self.reached
            .iter()
            .filter(|(s, _)| *s == status)
            .map(|(_, at)| *at)
            .min()
    }

    /// Whether the investor may withdraw now, and until when.
    pub fn withdrawable_until(&self, now: OffsetDateTime) -> Option<OffsetDateTime> {
        if !self.status.investor_may_withdraw() || !self.round_open {
            return None;
        }
        if self.status == RequestStatus::Waitlisted {
            // Holds no place: free to leave the line while the round is open.
            return Some(
                self.round_ends_on
                    .next_day()
                    .unwrap_or(self.round_ends_on)
                    .midnight()
                    .assume_offset(ISTANBUL),
            );
        }
        (now < self.cancel_until).then_some(self.cancel_until)
    }

    pub fn timeline(&self, request_id: i64) -> Timeline {
        let mut steps = Vec::new();
        let waitlisted_at = self.reached_at(RequestStatus::Waitlisted);
        if self.status == RequestStatus::Waitlisted || waitlisted_at.is_some() {
            steps.push(Step {
                label: label(RequestStatus::Waitlisted),
                at: waitlisted_at.or(Some(self.sent_at)),
                state: if self.status == RequestStatus::Waitlisted {
                    StepState::Current
                } else {
                    StepState::Done
                },
            });
        }
        let current = PATH.iter().position(|s| *s == self.status);
        // The furthest step reached on the path (an ended request stops there).
        let furthest = PATH
            .iter()
            .rposition(|s| self.reached_at(*s).is_some())
            .unwrap_or(0);
        for (i, status) in PATH.iter().enumerate() {
            let at = self.reached_at(*status);
            let state = match current {
                Some(c) if i == c => StepState::Current,
                Some(c) if i < c => StepState::Done,
                Some(_) => StepState::Upcoming,
                None if self.status == RequestStatus::Waitlisted => StepState::Upcoming,
                None if i <= furthest && at.is_some() => StepState::Done,
                None => continue,
            };
            // A step skipped on the way (review straight to approval) is left out.
            if state == StepState::Done && at.is_none() {
                continue;
            }
            steps.push(Step {
                label: label(*status),
                at,
                state,
            });
        }
        if self.status.is_end() && self.status != RequestStatus::Allocated {
            let ended = match self.status {
                RequestStatus::Refunded if self.round_funded => "timeline-refunded-not-allocated",
                status => label(status),
            };
            steps.push(Step {
                label: ended,
                at: self.reached_at(self.status),
                state: StepState::Current,
            });
            if self.fee_paid {
                steps.push(Step {
                    label: "timeline-fee-refund",
                    at: self.fee_refunded_at,
                    state: if self.fee_refunded_at.is_some() {
                        StepState::Done
                    } else {
                        StepState::Upcoming
                    },
                });
            }
            if let Some(at) = self.escrow_refunded_at {
                steps.push(Step {
                    label: "timeline-escrow-refund",
                    at: Some(at),
                    state: StepState::Done,
                });
            }
        }
        Timeline {
            steps,
            next: self.next_action(request_id),
        }
    }

    fn next_action(&self, request_id: i64) -> NextAction {
        let pay = Some(format!("/invFlow?request={request_id}"));
        let (message, deadline, link) = match self.status {
            RequestStatus::Waitlisted => (
                "timeline-next-waitlisted",
                Some(Deadline::Day(self.round_ends_on)),
                None,
            ),
            RequestStatus::Submitted | RequestStatus::UnderReview => {
                ("timeline-next-review", None, None)
            }
            RequestStatus::Approved => {
                ("timeline-next-fee", self.fee_due_at.map(Deadline::At), pay)
            }
            RequestStatus::FeePaid => (
                "timeline-next-transfer",
                self.transfer_due_at.map(Deadline::At),
                pay,
            ),
            RequestStatus::Funded => (
                "timeline-next-close",
                Some(Deadline::Day(self.round_ends_on)),
                None,
            ),
            RequestStatus::Allocated => ("timeline-next-allocated", None, None),
            _ if self.fee_paid && self.fee_refunded_at.is_none() => {
                ("timeline-next-fee-refund", None, None)
            }
            _ if self.escrow_refunded_at.is_some() => ("timeline-next-escrow-refund", None, None),
            _ => ("timeline-next-none", None, None),
        };
        NextAction {
            message,
            deadline,
            link,
        }
    }
}

/// `21.11.2026 14:30` in Turkish, `21/11/2026 14:30` in English (Istanbul time).
pub fn format_moment(at: OffsetDateTime, locale: Locale) -> String {
    let local = at.to_offset(ISTANBUL);
    format!(
        "{} {:02}:{:02}",
        format_date_short(local.date(), locale),
        local.hour(),
        local.minute()
    )
}

/// A deadline as a sentence shows it: a moment, or a day.
pub fn format_deadline(deadline: Deadline, locale: Locale) -> String {
    match deadline {
        Deadline::At(at) => format_moment(at, locale),
        Deadline::Day(day) => format_date_short(day, locale),
    }
}

/// What is left of a window, as `1 gün 3 saat` / `1 day 3 hours` (or minutes under an hour).
pub fn format_left(left: Duration, locale: Locale) -> String {
    let minutes = left.whole_minutes().max(0);
    let (days, hours, mins) = (minutes / 1440, minutes % 1440 / 60, minutes % 60);
    let args = |n: i64| [("count", FluentArg::Num(n))];
    let days_t = |n| locale.t_args("time-days", &args(n));
    let hours_t = |n| locale.t_args("time-hours", &args(n));
    let minutes_t = |n| locale.t_args("time-minutes", &args(n));
    let parts = if days > 0 {
        vec![days_t(days), hours_t(hours)]
    } else if hours > 0 && mins > 0 {
        vec![hours_t(hours), minutes_t(mins)]
    } else if hours > 0 {
        vec![hours_t(hours)]
    } else {
        vec![minutes_t(mins)]
    };
    parts.join(" ")
}

/// The next action as a sentence in `locale`.
pub fn next_sentence(next: &NextAction, locale: Locale) -> String {
    match next.deadline {
        Some(d) => locale.t_args(
            next.message,
            &[("deadline", format_deadline(d, locale).into())],
        ),
        None => locale.t(next.message),
    }
}

/// The timeline as plain text for a mail: one line per step, then the next action.
pub fn timeline_text(timeline: &Timeline, locale: Locale) -> String {
    let mut lines: Vec<String> = vec![locale.t("timeline-title")];
    for step in &timeline.steps {
        let mark = match step.state {
            StepState::Done => "✓",
            StepState::Current => "→",
            StepState::Upcoming => "·",
        };
        let when = step
            .at
            .map(|at| format!(" ({})", format_moment(at, locale)))
            .unwrap_or_default();
        lines.push(format!("{mark} {}{when}", locale.t(step.label)));
    }
    lines.push(format!(
        "{}: {}",
        locale.t("timeline-next"),
        next_sentence(&timeline.next, locale)
    ));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::{date, datetime};

    fn history(status: RequestStatus, reached: &[(RequestStatus, OffsetDateTime)]) -> History {
        History {
            status,
            sent_at: datetime!(2026-11-02 09:00 UTC),
            reached: reached.to_vec(),
            fee_due_at: None,
            transfer_due_at: None,
            cancel_until: datetime!(2026-11-04 09:00 UTC),
            round_ends_on: date!(2026 - 11 - 30),
            round_open: true,
            round_funded: false,
            fee_paid: false,
            fee_refunded_at: None,
            escrow_refunded_at: None,
        }
    }

    fn labels(t: &Timeline) -> Vec<(&'static str, StepState)> {
        t.steps.iter().map(|s| (s.label, s.state)).collect()
    }

    #[test]
    fn an_approved_request_shows_its_fee_deadline() {
        use RequestStatus::*;
        let mut h = history(
            Approved,
            &[
                (Submitted, datetime!(2026-11-02 09:00 UTC)),
                (Approved, datetime!(2026-11-03 10:00 UTC)),
            ],
        );
        h.fee_due_at = Some(datetime!(2026-11-06 10:00 UTC));
        let t = h.timeline(7);
        assert_eq!(
            labels(&t),
            [
                ("timeline-submitted", StepState::Done),
                ("timeline-approved", StepState::Current),
                ("timeline-fee_paid", StepState::Upcoming),
                ("timeline-funded", StepState::Upcoming),
                ("timeline-allocated", StepState::Upcoming),
            ],
            "review skipped, so not shown"
        );
        assert_eq!(t.next.message, "timeline-next-fee");
        assert_eq!(
            t.next.deadline,
            Some(Deadline::At(datetime!(2026-11-06 10:00 UTC)))
        );
        assert_eq!(t.next.link.as_deref(), Some("/invFlow?request=7"));
        assert_eq!(
            format_deadline(t.next.deadline.unwrap(), Locale::Tr),
            "06.11.2026 13:00"
        );
    }

    #[test]
    fn an_ended_request_shows_its_refunds() {
        use RequestStatus::*;
        let mut h = history(
            Refunded,
            &[
                (Submitted, datetime!(2026-11-02 09:00 UTC)),
                (UnderReview, datetime!(2026-11-02 12:00 UTC)),
                (Approved, datetime!(2026-11-03 10:00 UTC)),
                (FeePaid, datetime!(2026-11-03 11:00 UTC)),
                (Funded, datetime!(2026-11-05 11:00 UTC)),
                (Refunded, datetime!(2026-12-01 06:00 UTC)),
            ],
        );
        h.fee_paid = true;
        h.escrow_refunded_at = Some(datetime!(2026-12-01 06:00 UTC));
        let t = h.timeline(1);
        assert_eq!(
            labels(&t),
            [
                ("timeline-submitted", StepState::Done),
                ("timeline-under_review", StepState::Done),
                ("timeline-approved", StepState::Done),
                ("timeline-fee_paid", StepState::Done),
                ("timeline-funded", StepState::Done),
                ("timeline-refunded", StepState::Current),
                ("timeline-fee-refund", StepState::Upcoming),
                ("timeline-escrow-refund", StepState::Done),
            ]
        );
        assert_eq!(t.next.message, "timeline-next-fee-refund");
        h.fee_refunded_at = Some(datetime!(2026-12-01 07:00 UTC));
        assert_eq!(h.timeline(1).next.message, "timeline-next-escrow-refund");
        assert!(
            h.withdrawable_until(datetime!(2026-11-02 10:00 UTC))
                .is_none()
        );
    }

    #[test]
    fn the_cancellation_window_counts_down() {
        use RequestStatus::*;
        let h = history(Submitted, &[]);
        assert_eq!(
            h.withdrawable_until(datetime!(2026-11-03 09:00 UTC)),
            Some(datetime!(2026-11-04 09:00 UTC))
        );
        assert_eq!(h.withdrawable_until(datetime!(2026-11-04 09:00 UTC)), None);
        let closing = History {
            round_open: false,
            ..h.clone()
        };
        assert_eq!(
            closing.withdrawable_until(datetime!(2026-11-03 09:00 UTC)),
            None
        );
        // A waitlisted request may leave the line any time before the round closes.
        let waiting = history(Waitlisted, &[]);
        assert!(
            waiting
                .withdrawable_until(datetime!(2026-11-20 09:00 UTC))
                .is_some()
        );
        let t = waiting.timeline(3);
        assert_eq!(
            t.steps[0],
            Step {
                label: "timeline-waitlisted",
                at: Some(datetime!(2026-11-02 09:00 UTC)),
                state: StepState::Current
            }
        );
        assert_eq!(t.next.deadline, Some(Deadline::Day(date!(2026 - 11 - 30))));
    }

    #[test]
    fn the_countdown_reads_naturally() {
        assert_eq!(
            format_left(Duration::minutes(47 * 60 + 59), Locale::Tr),
            "1 gün 23 saat"
        );
        assert_eq!(
            format_left(Duration::minutes(48 * 60), Locale::En),
            "2 days 0 hours"
        );
        assert_eq!(
            format_left(Duration::minutes(125), Locale::En),
            "2 hours 5 minutes"
        );
        assert_eq!(format_left(Duration::minutes(59), Locale::Tr), "59 dakika");
        assert_eq!(format_left(Duration::minutes(60), Locale::En), "1 hour");
    }

    #[test]
    fn the_mail_text_lists_the_steps_and_what_is_next() {
        use RequestStatus::*;
        let h = history(Submitted, &[(Submitted, datetime!(2026-11-02 09:00 UTC))]);
        let text = timeline_text(&h.timeline(1), Locale::En);
        assert!(text.starts_with("Your request, step by step"), "{text}");
        assert!(text.contains("→ Sent (02/11/2026 12:00)"), "{text}");
        assert!(text.contains("· Allocated"), "{text}");
        assert!(
            text.ends_with("Next: Our team reviews your request."),
            "{text}"
        );
    }
}

//! The mails a member may switch off (`/profile?tab=notifications`, and one click from the mail
//! itself). Service mails (sign-in, payments, the states of one's requests) are not among them:
//! they cannot be switched off.

use time::{OffsetDateTime, Weekday};

use super::time_fmt::ISTANBUL;

/// A kind of optional mail, as stored in `mail_preferences.kind` and named in
/// `List-Unsubscribe` links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailKind {
    /// A startup in one of the member's interest sectors is published.
    NewStartups,
    /// A saved (favourite) startup's round ends within
    /// [`CLOSING_SOON_DAYS`](crate::domain::rounds::CLOSING_SOON_DAYS).
    ClosingSoon,
    /// A startup the member saved or invested in posts an update.
    Updates,
    /// A question the member asked, or one about a startup they saved, is answered.
    Answers,
    /// A weekly summary of new startups and updates.
    Digest,
}

impl MailKind {
    pub const ALL: [MailKind; 5] = [
        MailKind::NewStartups,
        MailKind::ClosingSoon,
        MailKind::Updates,
        MailKind::Answers,
        MailKind::Digest,
    ];

    pub fn code(self) -> &'static str {
        match self {
            MailKind::NewStartups => "new-startups",
            MailKind::ClosingSoon => "closing-soon",
            MailKind::Updates => "updates",
            MailKind::Answers => "answers",
            MailKind::Digest => "digest",
        }
    }

    pub fn from_code(code: &str) -> Option<MailKind> {
        MailKind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// Whether the kind is sent to a member who never chose. The digest is a commercial
    /// electronic message (Law 6563): only with recorded consent. The others follow what the
    /// member asked for: interest sectors, saved startups, investments.
    pub fn on_by_default(self) -> bool {
        !matches!(self, MailKind::Digest)
    }
}

/// The week whose digest is due at `now`, as `scheduled_mails.subject` names it (`2026-W48`,
/// the ISO week in Istanbul): from Monday 09:00 Istanbul until the week ends. `None` on Monday
/// before nine, when last week's was already due.
pub fn digest_week(now: OffsetDateTime) -> Option<String> {
    let local = now.to_offset(ISTANBUL);
    if local.weekday() == Weekday::Monday && local.hour() < 9 {
        return None;
    }
    let (year, week, _) = local.date().to_iso_week_date();
    Some(format!("{year}-W{week:02}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn the_digest_is_due_from_monday_nine_in_istanbul() {
        // Monday 30 November 2026, 08:59 and 09:00 in Istanbul (UTC+3).
        assert_eq!(digest_week(datetime!(2026-11-30 05:59 UTC)), None);
        assert_eq!(
            digest_week(datetime!(2026-11-30 06:00 UTC)).as_deref(),
            Some("2026-W49")
        );
        // Sunday 29 November, late in Istanbul, is still week 48.
        assert_eq!(
            digest_week(datetime!(2026-11-29 20:00 UTC)).as_deref(),
            Some("2026-W48")
        );
        // Sunday 21:30 UTC is Monday 00:30 in Istanbul: not yet due.
        assert_eq!(digest_week(datetime!(2026-11-29 21:30 UTC)), None);
    }

    #[test]
    fn codes_round_trip_and_only_the_digest_waits_for_consent() {
        for kind in MailKind::ALL {
            assert_eq!(MailKind::from_code(kind.code()), Some(kind));
        }
        assert_eq!(MailKind::from_code("request-approved"), None);
        let off: Vec<_> = MailKind::ALL
            .into_iter()
            .filter(|k| !k.on_by_default())
            .collect();
        assert_eq!(off, [MailKind::Digest]);
    }
}

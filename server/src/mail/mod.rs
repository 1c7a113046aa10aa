//! E-mail. This file builds mails ([`Mail`]: the transactional layout, staff notices) and
//! queues them: [`enqueue`] writes a mail to the outbox in the caller's transaction, applying
//! staff's rewritten template when there is one, and the [`worker`] sends it over SMTP with
//! retries, so a crash loses no mail. Without SMTP configured, mails stay in the outbox,
//! readable by superadmins. Sign-in, reset, verification and newsletter confirmation links are
//! issued only when a mail is sent ([`links`]). All SQL is in `queries.rs`.

mod bilingual;
pub mod links;
mod queries;
pub mod unsubscribe;
pub mod worker;

pub use links::{Link, MailLink, TokenKind};
use std::borrow::Cow;

use sqlx::SqlitePool;
use time::OffsetDateTime;

use ortak_app::domain::notifications::MailKind;
use ortak_app::i18n::{FluentArg, Locale};
use sqlx::SqliteConnection;

/// A mail ready for the outbox, in the recipient's language.
#[derive(Clone)]
pub struct Mail {
    pub to: String,
    pub locale: Locale,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// For automatic mails: what staff may rewrite or switch off in `/dashboard/autoMail`.
    pub automatic: Option<Automatic>,
    /// The token link the worker writes in at send time (the bodies hold
    /// [`links::PLACEHOLDER`]).
    pub link: Option<Link>,
    /// For mails a member may switch off: the kind, so the worker adds a one-click unsubscribe
    /// link (RFC 8058) when it sends.
    pub unsubscribe: Option<MailKind>,
    /// The outbox forgets the mail (and so the address) once it is sent: the confirmation of
    /// a deleted membership.
    pub erase_when_sent: bool,
}

/// What an automatic mail was built from, so a staff-edited text can rebuild it.
#[derive(Clone)]
pub struct Automatic {
    pub kind: String,
    pub name: String,
    pub link: String,
    /// Staff's reason, added under the (possibly edited) body.
    pub note: Option<String>,
    /// Facts added under the body and the reason whatever staff wrote (a request's timeline).
    pub details: Option<String>,
}

/// Where a mail in the outbox is, as `outbox.status` stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "lowercase")]
pub enum OutboxStatus {
    /// Waiting for its (next) attempt.
    Pending,
    Sent,
    /// Given up after the last attempt; left for staff.
    Failed,
}

impl OutboxStatus {
    pub fn code(self) -> &'static str {
        match self {
            OutboxStatus::Pending => "pending",
            OutboxStatus::Sent => "sent",
            OutboxStatus::Failed => "failed",
        }
    }
}

/// The automatic mails staff can edit, in the order `/dashboard/autoMail` lists them.
pub const AUTOMATIC: [&str; 43] = [
    "verify",
    "signin",
    "reset",
    "exists",
    "welcome",
    "mkk-rejected",
    "request",
    "request-waitlisted",
    "request-promoted",
    "request-under_review",
    "request-approved",
    "request-rejected",
    "request-contacted",
    "fee-paid",
    "request-funded",
    "request-allocated",
    "request-refunded",
    "request-cancelled",
    "request-lapsed",
    "deadline-reminder",
    "request-reconfirm",
    "reconfirm-expired",
    "fee-refunded",
    "startup-match",
    "startup-update",
    "startup-report",
    "report-overdue",
    "report-overdue-team",
    "fund-use-overdue",
    "fund-use-overdue-team",
    "closing-soon",
    "weekly-digest",
    "question-answered",
    "founder-invite",
    "campaign-returned",
    "campaign-decided",
    "disclosure-returned",
    "application",
    "application-declined",
    "contact",
    "gsyf",
    "academy",
    "newsletter-confirm",
];

/// Mails that accounts and the money path cannot work without: their texts may change, but
/// they cannot be switched off (an investor must hear that a round's terms changed).
pub const ESSENTIAL: [&str; 8] = [
    "verify",
    "signin",
    "reset",
    "exists",
    "mkk-rejected",
    "newsletter-confirm",
    "request-reconfirm",
    "reconfirm-expired",
];

/// Mails to an address typed in a form, which may have no account: their footer does not
/// speak of "your Ortak account".
const TO_TYPED_ADDRESSES: &[&str] = &[
    "application",
    "application-declined",
    "contact",
    "gsyf",
    "academy",
    "newsletter-confirm",
    "founder-invite",
];

pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Mail {
    /// A transactional mail: greeting, the message `{kind}-body`, one action link, sign-off.
    /// Subjects and texts are the Fluent messages `mail-{kind}-subject`, `-body`, `-button`
    /// unless staff rewrote them (see [`enqueue`]).
    pub fn action(to: &str, locale: Locale, name: &str, kind: &str, link: &str) -> Mail {
        Mail::action_noted(to, locale, name, kind, link, "")
    }

    /// An account mail whose button is a token link (`verify`, `signin`, `reset`, `exists`),
    /// issued only when the mail is sent.
    pub fn with_link(to: &str, locale: Locale, name: &str, kind: &str, link: MailLink) -> Mail {
        let mut mail = Mail::action(to, locale, name, kind, links::PLACEHOLDER);
        mail.link = Some(Link::Account(link));
        mail
    }

    /// The newsletter confirmation mail: its link confirms the recipient's pending
    /// subscription and is issued only when the mail is sent.
    pub fn newsletter_confirm(to: &str, locale: Locale) -> Mail {
        let mut mail = Mail::action(to, locale, "", "newsletter-confirm", links::PLACEHOLDER);
        mail.link = Some(Link::Newsletter);
        mail
    }

    /// An automatic mail with staff's `note` (a reason) under its body, when there is one.
    pub fn action_noted(
        to: &str,
        locale: Locale,
        name: &str,
        kind: &str,
        link: &str,
        note: &str,
    ) -> Mail {
        Mail::automatic(to, locale, name, kind, link, note, None)
    }

    /// An automatic mail with staff's `note` and `details` (a request's timeline) under its
    /// body, when there are some.
    pub fn automatic(
        to: &str,
        locale: Locale,
        name: &str,
        kind: &str,
        link: &str,
        note: &str,
        details: Option<String>,
    ) -> Mail {
        let subject = locale.t(&format!("mail-{kind}-subject"));
        let note = (!note.is_empty()).then(|| note.to_owned());
        let body = with_details(
            with_note(
                locale,
                locale.t(&format!("mail-{kind}-body")),
                note.as_deref(),
            ),
            details.as_deref(),
        );
        let mut mail = Mail::compose(to, locale, name, kind, link, subject, &body);
        mail.automatic = Some(Automatic {
            kind: kind.to_owned(),
            name: name.to_owned(),
            link: link.to_owned(),
            note,
            details,
        });
        mail
    }

    /// Lays out an action mail from its subject and body (paragraphs split by blank lines).
    pub fn compose(
        to: &str,
        locale: Locale,
        name: &str,
        kind: &str,
        link: &str,
        subject: String,
        body: &str,
    ) -> Mail {
        let args: [(&'static str, FluentArg); 1] = [("name", name.into())];
        // Mails to an address a visitor typed carry no name: nothing a visitor wrote.
        let greeting = if name.is_empty() {
            locale.t("mail-greeting-plain")
        } else {
            locale.t_args("mail-greeting", &args)
        };
        let button = locale.t(&format!("mail-{kind}-button"));
        let footer = locale.t(if TO_TYPED_ADDRESSES.contains(&kind) {
            "mail-footer-typed"
        } else {
            "mail-footer"
        });
        let text = format!("{greeting}\n\n{body}\n\n{button}: {link}\n\n{footer}\n");
        let paragraphs: String = body
            .split("\n\n")
            .map(|p| format!("<p>{}</p>", escape(p).replace('\n', "<br>")))
            .collect();
        let html = format!(
            "<!DOCTYPE html><html lang=\"{lang}\"><body style=\"font-family:system-ui,sans-serif;color:#0f1b2d;line-height:1.5\">\
             <p>{greeting}</p>{paragraphs}\
             <p><a href=\"{href}\" style=\"display:inline-block;padding:10px 18px;background:#0f766e;color:#fff;border-radius:6px;text-decoration:none\">{button}</a></p>\
             <p style=\"font-size:13px;color:#52667a\">{href}</p><p style=\"font-size:13px;color:#52667a\">{footer}</p></body></html>",
            lang = locale.code(),
            greeting = escape(&greeting),
            href = escape(link),
            button = escape(&button),
            footer = escape(&footer),
        );
        Mail {
            to: to.to_owned(),
            locale,
            subject,
            text,
            html,
            automatic: None,
            link: None,
            unsubscribe: None,
            erase_when_sent: false,
        }
    }
}

impl Mail {
    /// A plain notice to staff (in Turkish, the staff's language): a subject and lines.
    pub fn staff_notice(to: &str, subject: &str, lines: &[(&str, &str)]) -> Mail {
        let text: String = lines.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
        let rows: String = lines
            .iter()
            .map(|(k, v)| {
                format!(
                    "<tr><th align=\"left\">{}</th><td>{}</td></tr>",
                    escape(k),
                    escape(v)
                )
            })
            .collect();
        Mail {
            to: to.to_owned(),
            locale: ortak_app::i18n::Locale::Tr,
            subject: subject.to_owned(),
            html: format!(
                "<!DOCTYPE html><html lang=\"tr\"><body><table>{rows}</table></body></html>"
            ),
            text,
            automatic: None,
            link: None,
            unsubscribe: None,
            erase_when_sent: false,
        }
    }
}

fn with_details(body: String, details: Option<&str>) -> String {
    match details {
        Some(details) => format!("{body}\n\n{details}"),
        None => body,
    }
}

fn with_note(locale: Locale, body: String, note: Option<&str>) -> String {
    match note {
        Some(note) => format!("{body}\n\n{}: {note}", locale.t("mail-reason")),
        None => body,
    }
}

/// Queues `mail` in the caller's transaction; the worker is woken after commit by
/// [`worker::MailWaker::wake`]. An automatic mail takes staff's rewritten subject and body in
/// its language, and is dropped when staff switched it off (unless it is [`ESSENTIAL`]).
pub async fn enqueue(conn: &mut SqliteConnection, mail: &Mail) -> Result<(), sqlx::Error> {
    match as_staff_wrote_it(conn, mail).await? {
        Some(Cow::Borrowed(mail)) => queries::insert(conn, mail).await,
        Some(Cow::Owned(edited)) => queries::insert(conn, &edited).await,
        None => Ok(()),
    }
}

/// Queues one mail in Turkish and in English (`tr` and `en`, the same automatic mail), for an
/// address whose language nobody knows yet; each half as staff wrote it. Nothing is queued
/// when staff switched the mail off.
pub async fn enqueue_bilingual(
    conn: &mut SqliteConnection,
    tr: &Mail,
    en: &Mail,
) -> Result<(), sqlx::Error> {
    let (Some(tr), Some(en)) = (
        as_staff_wrote_it(conn, tr).await?,
        as_staff_wrote_it(conn, en).await?,
    ) else {
        return Ok(());
    };
    queries::insert(conn, &bilingual::join(&tr, &en)).await
}

/// `mail` with staff's rewritten subject and body in its language when there are some, or
/// `None` when staff switched it off (unless it is [`ESSENTIAL`]).
async fn as_staff_wrote_it<'m>(
    conn: &mut SqliteConnection,
    mail: &'m Mail,
) -> Result<Option<Cow<'m, Mail>>, sqlx::Error> {
    let Some(auto) = &mail.automatic else {
        return Ok(Some(Cow::Borrowed(mail)));
    };
    let Some(template) = queries::template(&mut *conn, &auto.kind).await? else {
        return Ok(Some(Cow::Borrowed(mail)));
    };
    if !template.enabled && !ESSENTIAL.contains(&auto.kind.as_str()) {
        return Ok(None);
    }
    let (subject, body) = match mail.locale {
        Locale::Tr => (template.subject_tr, template.body_tr),
        Locale::En => (template.subject_en, template.body_en),
    };
    let mut edited = Mail::compose(
        &mail.to,
        mail.locale,
        &auto.name,
        &auto.kind,
        &auto.link,
        subject,
        &with_details(
            with_note(mail.locale, body, auto.note.as_deref()),
            auto.details.as_deref(),
        ),
    );
    edited.link = mail.link.clone();
    edited.unsubscribe = mail.unsubscribe;
    edited.erase_when_sent = mail.erase_when_sent;
    Ok(Some(Cow::Owned(edited)))
}

/// How long the bodies of sent mails are kept (the staff mailbox and backups hold nothing older).
pub const SENT_BODIES_KEPT: time::Duration = time::Duration::days(30);

/// Empties the bodies of mails sent more than [`SENT_BODIES_KEPT`] ago (a background job).
pub async fn purge_sent_bodies(db: &SqlitePool, now: OffsetDateTime) -> anyhow::Result<()> {
    let purged = queries::purge_sent_bodies(db, now - SENT_BODIES_KEPT).await?;
    if purged > 0 {
        tracing::info!(purged, "bodies of old sent mails emptied");
    }
    Ok(())
}

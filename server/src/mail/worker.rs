//! Sends the outbox over SMTP, oldest first and a few at a time, retrying failures with
//! exponential backoff. Due
//! times come from the injectable clock, like every other time. A mail with a token link gets
//! its token here, just before it is sent ([`super::links`]): the link exists only in the copy
//! that goes out. So does a mail's one-click unsubscribe link ([`super::unsubscribe`]).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use sqlx::SqlitePool;
use tokio::sync::Notify;
use tokio::task::JoinSet;

use super::queries::{self, Due};
use super::unsubscribe::UnsubscribeKey;
use super::{OutboxStatus, links};
use crate::db::clock::Clock;

/// After this many failed attempts a mail is marked failed and left for staff.
const MAX_ATTEMPTS: i64 = 8;

/// Wakes the worker when a mail was queued, so it goes out at once rather than at the next poll;
/// and says whether a worker sends at all (SMTP is configured).
#[derive(Clone, Default)]
pub struct MailWaker(Arc<Notify>, Arc<AtomicBool>);

impl MailWaker {
    pub fn wake(&self) {
        self.0.notify_one();
    }

    /// Whether mails leave the outbox (without SMTP they wait there, for staff to read).
    pub fn sending(&self) -> bool {
        self.1.load(Ordering::Relaxed)
    }
}

pub struct SmtpSender {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    /// The most one send may take, answers included (issue 30: the transport's own timeout
    /// did not cover reading answers, and a server that accepted and went silent stopped all
    /// mail for good).
    deadline: Duration,
}

impl SmtpSender {
    /// `url` as lettre reads it: `smtp://host:port` (plain, for a local relay),
    /// `smtp://user:pass@host:587?tls=required` (STARTTLS) or `smtps://host` (TLS).
    pub fn new(url: &str, from: &str, deadline: Duration) -> anyhow::Result<SmtpSender> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| anyhow::anyhow!("ORTAK_SMTP_URL: {e}"))?
            .timeout(Some(deadline))
            .build();
        let from = from
            .parse()
            .map_err(|e| anyhow::anyhow!("ORTAK_MAIL_FROM: {e}"))?;
        Ok(SmtpSender {
            transport,
            from,
            deadline,
        })
    }

    /// Sends `mail` with these bodies; with `unsubscribe` (a URL), the RFC 8058 headers that let
    /// mail clients offer a one-click unsubscribe.
    async fn send(
        &self,
        mail: &Due,
        (text, html): (&str, &str),
        unsubscribe: Option<&str>,
    ) -> anyhow::Result<()> {
        // Base64 bodies keep long links intact and Turkish letters exact.
        let part = |kind: ContentType, body: &str| {
            SinglePart::builder()
                .header(kind)
                .header(ContentTransferEncoding::Base64)
                .body(body.to_owned())
        };
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(mail.to_email.parse()?)
            .subject(&mail.subject);
        if let Some(url) = unsubscribe {
            let header =
                |name, value| HeaderValue::new(HeaderName::new_from_ascii_str(name), value);
            builder = builder
                .raw_header(header("List-Unsubscribe", format!("<{url}>")))
                .raw_header(header(
                    "List-Unsubscribe-Post",
                    "List-Unsubscribe=One-Click".to_owned(),
                ));
        }
        let message = builder.multipart(
            MultiPart::alternative()
                .singlepart(part(ContentType::TEXT_PLAIN, text))
                .singlepart(part(ContentType::TEXT_HTML, html)),
        )?;
        match tokio::time::timeout(self.deadline, self.transport.send(message)).await {
            Ok(sent) => sent.map(|_| ()).map_err(anyhow::Error::from),
            Err(_) => anyhow::bail!(
                "the mail server did not answer within {} s",
                self.deadline.as_secs()
            ),
        }
    }
}

/// Whether the mail server refused this mail for good (a 5xx such as an unknown mailbox):
/// trying again in hours would only be refused again.
fn permanent(error: &anyhow::Error) -> bool {
    error
        .downcast_ref::<lettre::transport::smtp::Error>()
        .is_some_and(lettre::transport::smtp::Error::is_permanent)
}

/// What the worker needs besides the mails: the database, the clock and the site's address
/// (for the links it issues).
pub struct Worker {
    pub db: SqlitePool,
    pub clock: Clock,
    pub public_url: String,
    pub unsubscribe: UnsubscribeKey,
}

/// How many mails are sent at once: a mail whose server is slow holds one of these, for at
/// most its deadline, while the others keep going (issue 30).
const PARALLEL: usize = 4;

/// Runs forever: keeps up to [`PARALLEL`] due mails sending, and sleeps until woken, a send
/// ends or the next poll.
pub async fn run(worker: Worker, sender: SmtpSender, waker: MailWaker) {
    waker.1.store(true, Ordering::Relaxed);
    let (worker, sender) = (Arc::new(worker), Arc::new(sender));
    let mut sending: JoinSet<()> = JoinSet::new();
    // Which mail each running send is sending, so a poll never starts it twice.
    let mut busy: HashMap<tokio::task::Id, i64> = HashMap::new();
    loop {
        let free = PARALLEL - sending.len();
        if free > 0 {
            let taken: HashSet<i64> = busy.values().copied().collect();
            let limit = (free + taken.len()) as i64;
            match queries::due(&worker.db, worker.clock.now(), limit).await {
                Ok(due) => {
                    for mail in due
                        .into_iter()
                        .filter(|m| !taken.contains(&m.id))
                        .take(free)
                    {
                        let id = mail.id;
                        let (worker, sender) = (worker.clone(), sender.clone());
                        let task = sending.spawn(async move {
                            if let Err(e) = send_one(&worker, &sender, mail).await {
                                tracing::error!(outbox_id = id, error = %e, "mail worker");
                            }
                        });
                        busy.insert(task.id(), id);
                    }
                }
                Err(e) => tracing::error!(error = %e, "mail worker"),
            }
        }
        tokio::select! {
            Some(done) = sending.join_next_with_id() => {
                let task = done.map_or_else(|e| e.id(), |(task, ())| task);
                busy.remove(&task);
            },
            () = waker.0.notified() => {},
            () = tokio::time::sleep(Duration::from_secs(5)) => {},
        }
    }
}

/// The bodies to send: the stored ones with the link written in, after issuing its token.
/// `None` when what the link is for is gone (nothing is issued).
async fn with_link(worker: &Worker, mail: &Due) -> anyhow::Result<Option<(String, String)>> {
    let Some(link) = mail.link() else {
        return Ok(Some((mail.text_body.clone(), mail.html_body.clone())));
    };
    let mut tx = crate::db::write(&worker.db).await?;
    let url = links::issue_for_mail(
        &mut tx,
        mail.id,
        &mail.to_email,
        &link,
        &worker.public_url,
        worker.clock.now(),
    )
    .await?;
    tx.commit().await?;
    Ok(url.map(|url| {
        let html_url = url.replace('&', "&amp;");
        (
            mail.text_body.replace(links::PLACEHOLDER, &url),
            mail.html_body.replace(links::PLACEHOLDER, &html_url),
        )
    }))
}

/// The one-click unsubscribe URL of an optional mail to a member, written into its bodies too.
async fn with_unsubscribe(
    worker: &Worker,
    mail: &Due,
    (text, html): (String, String),
) -> anyhow::Result<(String, String, Option<String>)> {
    let Some(kind) = mail.unsubscribe() else {
        return Ok((text, html, None));
    };
    let Some(user) = queries::member_id(&worker.db, &mail.to_email).await? else {
        return Ok((text, html, None));
    };
    let url = format!(
        "{}/unsubscribe?token={}",
        worker.public_url,
        worker.unsubscribe.token(user, kind)
    );
    let label = mail.language.t("mail-unsubscribe-text");
    let text = format!("{text}\n{label}: {url}\n");
    let line = format!(
        "<p style=\"font-size:13px;color:#52667a\"><a href=\"{}\">{}</a></p></body>",
        super::escape(&url),
        super::escape(&label)
    );
    let html = html.replacen("</body>", &line, 1);
    Ok((text, html, Some(url)))
}

/// Tries mail `mail` once; a failure is recorded on it with the time of its next try.
async fn send_one(worker: &Worker, sender: &SmtpSender, mail: Due) -> anyhow::Result<()> {
    let (db, clock) = (&worker.db, &worker.clock);
    let Some((text, html)) = with_link(worker, &mail).await? else {
        tracing::warn!(
            outbox_id = mail.id,
            "mail not sent: the account is not active"
        );
        let reason = "the account is not active";
        let failed = OutboxStatus::Failed;
        queries::mark_attempt_failed(db, mail.id, failed, mail.attempts, reason, clock.now())
            .await?;
        return Ok(());
    };
    let (text, html, unsubscribe) = with_unsubscribe(worker, &mail, (text, html)).await?;
    match sender
        .send(&mail, (&text, &html), unsubscribe.as_deref())
        .await
    {
        Ok(()) => queries::mark_sent(db, mail.id, clock.now()).await?,
        Err(e) => {
            let attempts = mail.attempts + 1;
            let status = if attempts >= MAX_ATTEMPTS || permanent(&e) {
                OutboxStatus::Failed
            } else {
                OutboxStatus::Pending
            };
            // 1 min, 2 min, ... capped near 8.5 h
            let backoff = time::Duration::seconds(30_i64 << attempts.min(10));
            tracing::warn!(outbox_id = mail.id, attempts, error = %e, "mail not sent");
            metrics::counter!("ortak_mail_send_failures_total").increment(1);
            let next = clock.now() + backoff;
            queries::mark_attempt_failed(db, mail.id, status, attempts, &e.to_string(), next)
                .await?;
        }
    }
    Ok(())
}

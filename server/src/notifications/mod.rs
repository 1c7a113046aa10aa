//! Optional mails: new startups in a member's sectors, updates of startups they follow (and
//! their overdue quarterly and fund-use reports), a saved startup closing soon and the weekly digest. Each is sent only to members who get that kind
//! (`/profile?tab=notifications`) and carries a one-click unsubscribe link (RFC 8058,
//! [`crate::mail::unsubscribe`]) served here at `/unsubscribe`. The scheduled ones are queued by
//! background jobs ([`schedule`]); service mails never pass through here.

pub mod queries;
pub mod schedule;

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::notifications::MailKind;
use ortak_app::domain::quarters::Quarter;
use ortak_app::domain::time_fmt::format_date_short;
use ortak_app::i18n::Locale;
use ortak_app::markdown;
use ortak_app::pages::unsubscribe::{Unsubscribe, unsubscribe_page};
use serde::Deserialize;
use sqlx::SqliteConnection;

use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::web::{Access, Ctx, Routes};
use queries::{Recipient, Via};

pub fn routes() -> Vec<Routes> {
    // A mail client's one-click POST (RFC 8058) carries no session and no CSRF token: the signed
    // link alone says whose mail of which kind to stop, and it can do nothing else.
    vec![
        Routes::new(Access::Public)
            .get("/unsubscribe", confirm)
            .post("/unsubscribe", unsubscribe),
    ]
}

/// An optional mail of `kind` to `to`: the automatic mail `mail_kind` with `details` under its
/// body, and its one-click unsubscribe.
fn optional(
    to: &Recipient,
    kind: MailKind,
    mail_kind: &str,
    link: &str,
    details: Option<String>,
) -> Mail {
    let (email, name) = (&to.email, &to.first_name);
    let mut mail = Mail::automatic(email, to.language, name, mail_kind, link, "", details);
    mail.unsubscribe = Some(kind);
    mail
}

/// On a startup's first publication (by staff, or by the committee's approval): tells members
/// whose interests include its sector, in their language (the `startup-match` mail). Once per
/// startup, however often it is unpublished and published again.
pub async fn announce(
    conn: &mut SqliteConnection,
    public_url: &str,
    startup: i64,
    now: time::OffsetDateTime,
) -> Result<(), AppError> {
    match queries::mark_announced(conn, startup, now).await? {
        Some((slug, sector)) => new_startup(conn, public_url, &slug, &sector).await,
        None => Ok(()),
    }
}

/// Tells members whose interests include `sector` about a newly published startup.
async fn new_startup(
    conn: &mut SqliteConnection,
    public_url: &str,
    slug: &str,
    sector: &str,
) -> Result<(), AppError> {
    let link = format!("{public_url}/startups/{slug}");
    for to in queries::interested_in(conn, sector).await? {
        let mail = optional(&to, MailKind::NewStartups, "startup-match", &link, None);
        enqueue(conn, &mail).await?;
    }
    Ok(())
}

/// A startup's update or quarterly report as its mail carries it: the name, then the text in
/// both languages; `mail` is the automatic mail (`startup-update`, `startup-report`).
pub struct Update<'a> {
    pub mail: &'static str,
    pub startup: i64,
    pub slug: &'a str,
    pub name: &'a str,
    pub body_tr: &'a str,
    pub body_en: &'a str,
}

/// Tells members who saved the startup or hold a request on it about its update or report,
/// with its text in their language.
pub async fn startup_update(
    conn: &mut SqliteConnection,
    public_url: &str,
    update: &Update<'_>,
) -> Result<(), AppError> {
    let link = format!("{public_url}/startups/{}", update.slug);
    for to in queries::update_recipients(conn, update.startup).await? {
        let body = match to.language {
            ortak_app::i18n::Locale::Tr => update.body_tr,
            ortak_app::i18n::Locale::En => update.body_en,
        };
        // Updates are Markdown: a mail carries their words, not the marks.
        let details = format!("{}:\n{}", update.name, markdown::plain_text(body));
        let mail = optional(&to, MailKind::Updates, update.mail, &link, Some(details));
        enqueue(conn, &mail).await?;
    }
    Ok(())
}

/// Tells, once per startup and quarter (`false` when it already was), that the startup's
/// quarterly report for `quarter` is overdue: its team (a service mail: the report is theirs to
/// post), its investors who get updates and reports, and staff. In the caller's transaction.
pub async fn report_overdue(
    conn: &mut SqliteConnection,
    state: &crate::state::AppState,
    startup: i64,
    name: &str,
    quarter: Quarter,
) -> Result<bool, AppError> {
    if !queries::mark_report_reminder(conn, startup, &quarter.code(), state.now()).await? {
        return Ok(false);
    }
    let line = |locale: Locale| {
        let args = [
            ("startup", name.to_owned().into()),
            ("quarter", quarter.label(locale).into()),
            ("due", format_date_short(quarter.due(), locale).into()),
        ];
        locale.t_args("reports-overdue-item", &args)
    };
    let late = Late {
        startup,
        name,
        team_mail: "report-overdue-team",
        team_page: format!("/vc-dashboard/startups/{startup}"),
        investor_mail: "report-overdue",
        investor_page: "/reports".into(),
        staff_subject: format!("Rapor gecikti: {name} ({})", quarter.label(Locale::Tr)),
    };
    tell_late(conn, state, &late, line).await?;
    Ok(true)
}

/// Tells, once per startup and due date (`false` when it already was), that the startup's
/// fund-use report due `due` is overdue, to the same people as a late quarterly report.
pub async fn fund_use_overdue(
    conn: &mut SqliteConnection,
    state: &crate::state::AppState,
    startup: i64,
    name: &str,
    due: time::Date,
) -> Result<bool, AppError> {
    if !queries::mark_fund_use_reminder(conn, startup, due, state.now()).await? {
        return Ok(false);
    }
    let line = |locale: Locale| {
        let args = [
            ("startup", name.to_owned().into()),
            ("due", format_date_short(due, locale).into()),
        ];
        locale.t_args("disclosure-fund-use-overdue-item", &args)
    };
    let late = Late {
        startup,
        name,
        team_mail: "fund-use-overdue-team",
        team_page: format!("/vc-dashboard/startups/{startup}/disclosures"),
        investor_mail: "fund-use-overdue",
        investor_page: "/reports".into(),
        staff_subject: format!("Fon kullanım raporu gecikti: {name}"),
    };
    tell_late(conn, state, &late, line).await?;
    Ok(true)
}

/// Something a funded startup owes and did not post in time, and the mails that chase it.
struct Late<'a> {
    startup: i64,
    name: &'a str,
    team_mail: &'static str,
    team_page: String,
    investor_mail: &'static str,
    investor_page: String,
    staff_subject: String,
}

/// Chases `late`: its team (a service mail), its investors who get updates and reports, and
/// staff; `line` says what is late in a recipient's language.
async fn tell_late(
    conn: &mut SqliteConnection,
    state: &crate::state::AppState,
    late: &Late<'_>,
    line: impl Fn(Locale) -> String,
) -> Result<(), AppError> {
    let public_url = &state.shared().public_url;
    let team_link = format!("{public_url}{}", late.team_page);
    for to in queries::team_of(conn, late.startup).await? {
        let details = Some(line(to.language));
        let (email, first_name) = (&to.email, &to.first_name);
        let mail = Mail::automatic(
            email,
            to.language,
            first_name,
            late.team_mail,
            &team_link,
            "",
            details,
        );
        enqueue(conn, &mail).await?;
    }
    let link = format!("{public_url}{}", late.investor_page);
    for to in queries::investors_for_updates(conn, late.startup).await? {
        let details = Some(line(to.language));
        let mail = optional(&to, MailKind::Updates, late.investor_mail, &link, details);
        enqueue(conn, &mail).await?;
    }
    let staff_link = format!("{public_url}/dashboard/startups/{}", late.startup);
    let lines = [("Girişim", late.name), ("Sayfa", staff_link.as_str())];
    let notice = Mail::staff_notice(&state.shared().staff_email, &late.staff_subject, &lines);
    enqueue(conn, &notice).await?;
    Ok(())
}

/// A question just answered, as its mail carries it.
pub struct Answer<'a> {
    pub startup: i64,
    pub name: &'a str,
    /// The thread's address, at the question.
    pub link: &'a str,
    pub question: &'a str,
    pub text: &'a str,
    pub asker: i64,
    pub answerer: i64,
    /// Who answered, as the thread names them.
    pub by: &'a ortak_app::pages::questions::Answerer,
}

/// Tells the asker and the members who saved the startup that a question was answered, with
/// the question, the answer and who gave it; never the one who answered.
pub async fn question_answered(
    conn: &mut SqliteConnection,
    answer: &Answer<'_>,
) -> Result<(), AppError> {
    let recipients =
        queries::answer_recipients(conn, answer.startup, answer.asker, answer.answerer).await?;
    for to in recipients {
        let label = to.language.t("questions-answer");
        let by = answer.by.label(to.language);
        let details = format!(
            "{}\n\n{}\n\n{label} ({by}): {}",
            answer.name, answer.question, answer.text
        );
        let kind = MailKind::Answers;
        let mail = optional(&to, kind, "question-answered", answer.link, Some(details));
        enqueue(conn, &mail).await?;
    }
    Ok(())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TokenQuery {
    token: String,
}

/// `GET /unsubscribe?token=…`: asks before switching off, so a link scanner that opens every
/// link in a mail changes nothing.
async fn confirm(ctx: Ctx, Query(q): Query<TokenQuery>) -> Response {
    let state = match ctx.state().shared().unsubscribe.check(&q.token) {
        Some((_, kind)) => Unsubscribe::Confirm {
            token: q.token,
            kind: kind.code(),
        },
        None => Unsubscribe::Invalid,
    };
    answer(&ctx, state).await
}

/// `POST /unsubscribe?token=…`: switches the kind off (the mail client's one-click, or the
/// button on the page above). Repeating it changes nothing.
async fn unsubscribe(ctx: Ctx, Query(q): Query<TokenQuery>) -> Result<Response, AppError> {
    let Some((user, kind)) = ctx.state().shared().unsubscribe.check(&q.token) else {
        tracing::warn!(request_id = ctx.request_id, "unsubscribe with a bad token");
        return Ok(answer(&ctx, Unsubscribe::Invalid).await);
    };
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if queries::active(&mut tx, user).await? {
        let now = ctx.state().now();
        queries::choose(&mut tx, user, kind, false, Via::Unsubscribe, now).await?;
    }
    tx.commit().await?;
    Ok(answer(&ctx, Unsubscribe::Done { kind: kind.code() }).await)
}

async fn answer(ctx: &Ctx, state: Unsubscribe) -> Response {
    let status = match state {
        Unsubscribe::Invalid => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    };
    let page = ctx.page_ctx(|pc| unsubscribe_page(pc, &state));
    ctx.render_private(status, page).await
}

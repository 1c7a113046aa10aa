//! Reconfirmation after a material change to a live round's terms (see
//! `ortak_app::domain::reconfirmation`). Staff's save calls `terms_changed` in its own
//! transaction: every open request of the round is asked, its investor mailed what changed and
//! until when. Until the answer the database holds the request (no review, approval, fee or
//! allocation) and the round (no close). The investor reconfirms (having opened the current
//! information form) or withdraws; at the deadline the round job cancels what was not
//! reconfirmed, and what was paid goes back as on every other end.

use axum::http::StatusCode;
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::reconfirmation::{Answer, Term, TermChange, period_code};
use ortak_app::domain::rounds::RoundStatus;
use ortak_app::domain::timeline::format_moment;
use ortak_app::i18n::Locale;
use sqlx::SqliteConnection;
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

use super::notify::mail_status;
use super::queries::investor_of;
use super::queries::moves::{self, Target};
use super::queries::reconfirmations as queries;
use super::transitions::{end, end_as, own, record_event, target};
use crate::error::AppError;
use crate::state::AppState;

pub use queries::{Terms, Waiting};

/// The round's material terms before a change staff make (none for a new startup).
pub async fn terms(conn: &mut SqliteConnection, startup: i64) -> Result<Option<Terms>, AppError> {
    Ok(queries::terms(conn, startup).await?)
}

/// After staff member `actor` saved `startup` (whose terms were `before`): asks the round's
/// open requests to reconfirm whatever material term changed.
pub async fn after_change(
    conn: &mut SqliteConnection,
    state: &AppState,
    startup: i64,
    before: Option<Terms>,
    actor: i64,
) -> Result<(), AppError> {
    let (Some(before), Some(after)) = (before, queries::terms(conn, startup).await?) else {
        return Ok(());
    };
    let changes = changed(&before, &after);
    terms_changed(conn, state, startup, &changes, actor).await
}

/// The material terms that differ between `a` and `b`.
fn changed(a: &Terms, b: &Terms) -> Vec<TermChange> {
    fn text<T: ToString>(v: Option<T>) -> String {
        v.map(|v| v.to_string()).unwrap_or_default()
    }
    let form = |t: &Terms| {
        t.information_form_at
            .and_then(|at| at.format(&Rfc3339).ok())
            .map(|at| format!("{} {at}", t.information_forms))
            .unwrap_or_default()
    };
    [
        (
            Term::Goal,
            text(Some(a.goal_kurus)),
            text(Some(b.goal_kurus)),
        ),
        (
            Term::ValuationUsd,
            text(a.valuation_usd),
            text(b.valuation_usd),
        ),
        (
            Term::RoundValuation,
            text(a.round_valuation_kurus),
            text(b.round_valuation_kurus),
        ),
        (
            Term::Period,
            period_code(a.starts_on, a.ends_on),
            period_code(b.starts_on, b.ends_on),
        ),
        (Term::InformationForm, form(a), form(b)),
    ]
    .into_iter()
    .filter_map(|(term, before, after)| TermChange::between(term, before, after))
    .collect()
}

/// Asks every open request of `startup`'s round to reconfirm `changes`, made by staff member
/// `actor`: in the caller's transaction, so the change and the questions land together.
/// Nothing when nothing changed, the round is not open or no request is.
async fn terms_changed(
    conn: &mut SqliteConnection,
    state: &AppState,
    startup: i64,
    changes: &[TermChange],
    actor: i64,
) -> Result<(), AppError> {
    if changes.is_empty() || moves::round(conn, startup).await?.status != RoundStatus::Open {
        return Ok(());
    }
    let requests = queries::open_requests(conn, startup).await?;
    if requests.is_empty() {
        return Ok(());
    }
    let now = state.now();
    let deadline = now + Duration::hours(state.shared().rounds.reconfirm_hours);
    let change = queries::insert_change(conn, startup, actor, now, deadline).await?;
    for item in changes {
        queries::insert_item(conn, change, item).await?;
    }
    let terms = changes
        .iter()
        .map(|c| c.term.code())
        .collect::<Vec<_>>()
        .join(", ");
    let note = format!("the round's terms changed ({terms}): awaiting reconfirmation");
    for r in &requests {
        let request = r.id;
        queries::ask(conn, request, change).await?;
        record_event(conn, request, r.status, &note, Some(actor), now).await?;
        let language = investor_of(conn, request).await?.language;
        let what = changes_text(changes, deadline, language);
        mail_status(conn, state, request, "request-reconfirm", &what).await?;
    }
    let after = format!(
        "{terms}: {} requests asked until {deadline}",
        requests.len()
    );
    let subject = format!("startup:{startup}");
    crate::db::audit::record(
        conn,
        actor,
        "round.terms.change",
        &subject,
        None,
        Some(&after),
    )
    .await?;
    Ok(())
}

/// The changes and the deadline, a line each, as the mail shows them.
fn changes_text(changes: &[TermChange], deadline: OffsetDateTime, locale: Locale) -> String {
    let mut lines: Vec<String> = changes
        .iter()
        .map(|c| {
            let (before, after) = c.shown(locale);
            format!("{}: {before} → {after}", locale.t(&c.term.label_id()))
        })
        .collect();
    lines.push(format!(
        "{}: {}",
        locale.t("reconfirm-deadline"),
        format_moment(deadline, locale)
    ));
    lines.join("\n")
}

/// The investor's own request that waits on a reconfirmation; someone else's is as missing as
/// one that does not exist, and one that waits on nothing is a conflict.
async fn awaiting(conn: &mut SqliteConnection, id: i64, user: i64) -> Result<Target, AppError> {
    let t = own(conn, id, user).await?;
    if queries::pending(conn, id).await?.is_none() {
        return Err(AppError::Refused(
            StatusCode::CONFLICT,
            "reconfirm-nothing-pending",
        ));
    }
    Ok(t)
}

/// Whether request `id` waits on its investor's reconfirmation.
pub async fn awaits(conn: &mut SqliteConnection, id: i64) -> Result<bool, AppError> {
    Ok(queries::pending(conn, id).await?.is_some())
}

/// What a reconfirmation did.
#[derive(Debug, PartialEq, Eq)]
pub enum Reconfirmed {
    Done,
    /// The round's current information form was not opened yet: nothing was recorded.
    OpenTheForm,
}

/// Investor `user` reconfirms request `id` under the changed terms; the request then stands on
/// the current information form, which they must have opened.
pub async fn reconfirm(state: &AppState, id: i64, user: i64) -> Result<Reconfirmed, AppError> {
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    let t = awaiting(&mut tx, id, user).await?;
    let form = crate::startups::documents::information_form(&mut tx, t.startup_id, user).await?;
    if form.form.is_some() && !form.opened {
        return Ok(Reconfirmed::OpenTheForm);
    }
    queries::answer(&mut tx, id, Answer::Reconfirmed, now).await?;
    if let Some(form) = form.form {
        queries::set_information_form(&mut tx, id, form).await?;
    }
    let note = "the investor reconfirmed the changed terms";
    record_event(&mut tx, id, t.status, note, Some(user), now).await?;
    tx.commit().await?;
    Ok(Reconfirmed::Done)
}

/// Investor `user` withdraws request `id` rather than reconfirm: at any point of the request
/// while the question is open, the cancellation window aside; what was paid is refunded.
pub async fn decline(state: &AppState, id: i64, user: i64) -> Result<(), AppError> {
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    let t = awaiting(&mut tx, id, user).await?;
    if t.round != RoundStatus::Open {
        return Err(AppError::Refused(StatusCode::CONFLICT, "round-not-open"));
    }
    queries::answer(&mut tx, id, Answer::Withdrawn, now).await?;
    let note = "the investor withdrew after the round's terms changed";
    record_event(&mut tx, id, t.status, note, Some(user), now).await?;
    end(
        &mut tx,
        state,
        &t,
        RequestStatus::Cancelled,
        Some(user),
        "",
        now,
    )
    .await?;
    tx.commit().await?;
    state.wake_mailer();
    Ok(())
}

/// The round job: cancels every request whose reconfirmation deadline passed unanswered (a
/// question is pending only while its request is open: the database closes it on any end).
pub async fn expire(state: &AppState) -> Result<(), AppError> {
    let now = state.now();
    for p in queries::expired(state.db(), now).await? {
        let mut tx = crate::db::write(state.db()).await?;
        let t = target(&mut tx, p.request_id).await?;
        if !queries::answer(&mut tx, p.request_id, Answer::Expired, now).await? {
            continue;
        }
        if t.round == RoundStatus::Open {
            let note = "not reconfirmed by the deadline after the round's terms changed";
            record_event(&mut tx, t.id, t.status, note, None, now).await?;
            let (to, mail) = (RequestStatus::Cancelled, "reconfirm-expired");
            end_as(&mut tx, state, &t, to, None, "", mail, now).await?;
        }
        tx.commit().await?;
    }
    state.wake_mailer();
    Ok(())
}

/// What a request card shows while its investor is asked: the changes in their language and
/// the deadline.
pub async fn question(
    conn: &mut SqliteConnection,
    id: i64,
    locale: Locale,
) -> Result<Option<ortak_app::pages::requests::Reconfirm>, AppError> {
    let Some(p) = queries::pending(conn, id).await? else {
        return Ok(None);
    };
    let t = target(conn, id).await?;
    let form = crate::startups::documents::information_form(conn, t.startup_id, t.user_id).await?;
    let form_to_open = match (form.form, form.opened) {
        (Some(document), false) => {
            let (slug, _) = crate::startups::slug_and_name(&mut *conn, t.startup_id)
                .await?
                .ok_or(AppError::NotFound)?;
            Some(format!("/startups/{slug}/documents/{document}"))
        }
        _ => None,
    };
    let changes = queries::pending_items(conn, id)
        .await?
        .iter()
        .map(|c| {
            let (before, after) = c.shown(locale);
            (locale.t(&c.term.label_id()), before, after)
        })
        .collect();
    Ok(Some(ortak_app::pages::requests::Reconfirm {
        changes,
        deadline: p.deadline_at,
        form_to_open,
    }))
}

/// How many of the startup's requests are still asked, and until when.
pub async fn waiting(conn: &mut SqliteConnection, startup: i64) -> Result<Waiting, AppError> {
    Ok(queries::waiting(conn, startup).await?)
}

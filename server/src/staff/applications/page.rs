//! `/dashboard/applications/{id}`: one submitted application on its own page: every answer
//! labelled in the staff member's language, the founders, the presentation, the startup made
//! from it, its status moves and its history from the audit log.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::domain::project::{ANSWER_LABELS, ApplicationStatus, FOUNDER_FIELDS, answer_shown};
use ortak_app::i18n::FluentArg;
use ortak_app::pages::staff_table::Cell;

use super::{application_actions, status_label};
use crate::error::AppError;
use crate::staff::queries::applications::{self as queries, Answers, Application};
use crate::staff::queries::audit_log;
use crate::staff::table::render_detail;
use crate::web::{Ctx, Staff};
use ortak_app::pages::dashboard::StaffDetail;

/// An answer, trimmed ("" when the applicant left it out).
fn answer(answers: &Answers, key: &str) -> String {
    answers
        .get(key)
        .map_or_else(String::new, |v| v.trim().to_owned())
}

pub async fn application_page(
    ctx: Ctx,
    _: Staff,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let a = queries::application(db, id)
        .await?
        .ok_or(AppError::NotFound)?;
    // Its history: every staff action on it, from the audit log.
    let history = audit_log::about(db, &format!("application:{id}"))
        .await?
        .into_iter()
        .map(|e| {
            vec![
                Cell::DateTime(e.created_at),
                e.actor.into(),
                e.action.into(),
                e.before.into(),
                e.after.into(),
            ]
        })
        .collect();
    let title = match answer(&a.answers, "name") {
        name if name.is_empty() => ctx.t("dashboard-applications"),
        name => name,
    };
    let detail = StaffDetail {
        title,
        facts: facts(&ctx, &a),
        columns: vec![
            "dashboard-col-date",
            "dashboard-col-by",
            "dashboard-col-action",
            "dashboard-audit-before",
            "dashboard-audit-after",
        ],
        history,
        actions: application_actions(id, a.status, a.startup_id),
        link: link(id, &a),
        irreversible: (a.status != ApplicationStatus::Declined)
            .then(|| {
                let href = format!("/dashboard/applications/{id}/decline");
                (href, "dashboard-app-decline".to_owned())
            })
            .into_iter()
            .collect(),
    };
    Ok(render_detail(&ctx, detail).await)
}

/// Status, date, every answer given, the founders, the presentation and the startup made.
fn facts(ctx: &Ctx, a: &Application) -> Vec<(String, Cell)> {
    let mut facts = vec![
        (ctx.t("dashboard-col-handled"), status_label(a.status)),
        (
            ctx.t("dashboard-col-date"),
            a.submitted_at.map(Cell::Date).into(),
        ),
    ];
    facts.extend(
        ANSWER_LABELS
            .iter()
            .map(|(key, label)| (key, ctx.t(label), answer(&a.answers, key)))
            .filter(|(_, _, v)| !v.is_empty())
            .map(|(key, label, v)| (label, answer_shown(key, &v, ctx.locale).into())),
    );
    for (n, fields) in FOUNDER_FIELDS.iter().enumerate() {
        let founder: Vec<String> = fields
            .iter()
            .map(|k| answer_shown(k, &answer(&a.answers, k), ctx.locale))
            .filter(|v| !v.is_empty())
            .collect();
        if !founder.is_empty() {
            let label = ctx
                .locale
                .t_args("project-founder", &[("n", FluentArg::Num(n as i64 + 1))]);
            facts.push((label, founder.join(" · ").into()));
        }
    }
    if let Some(name) = &a.presentation_name {
        facts.push((ctx.t("project-presentation"), name.clone().into()));
    }
    if let Some(reason) = &a.decline_reason {
        facts.push((ctx.t("dashboard-app-decline-reason"), reason.clone().into()));
    }
    if let Some(name) = &a.startup_name {
        facts.push((ctx.t("dashboard-app-startup-made"), name.clone().into()));
    }
    facts
}

/// The presentation's download, or else the startup made from it.
fn link(id: i64, a: &Application) -> Option<(String, String)> {
    match (&a.presentation_name, a.startup_id) {
        (Some(_), _) => Some((
            format!("/dashboard/applications/{id}/presentation"),
            "dashboard-download".to_owned(),
        )),
        (None, Some(startup)) => Some((
            format!("/dashboard/startups/{startup}"),
            "dashboard-app-open-startup".to_owned(),
        )),
        (None, None) => None,
    }
}

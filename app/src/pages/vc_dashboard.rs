//! `/vc-dashboard`: a fund team's startups, the interest they draw, and the reports and
//! updates the team posts for investors.

use leptos::prelude::*;

use super::reports::{Overdue, overdue_notice};
use super::startup_editor::{ReportForm, report_form};
use crate::domain::money::Money;
use crate::forms::{FieldErrors, csrf_field, error_summary, textarea_text};
use crate::shell::{Page, PageContext};

/// One of the fund's startups with the interest it draws.
pub struct VcStartup {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub fund: String,
    pub favorites: i64,
    /// `(status code, requests, amount)`.
    pub requests: Vec<(String, i64, Money)>,
    /// The quarterly reports posted so far: `(quarter, Turkish title, English title)`.
    pub reports: Vec<(String, String, String)>,
}

/// A page of the area under the site header (sign-out and the rest of the site are there):
/// the way back one level (a startup's pages to the startup, the startup to the dashboard's
/// home), the title and `content`.
pub(crate) fn layout(ctx: &PageContext, title: String, content: AnyView) -> Page {
    let segments = ctx.path.trim_end_matches('/').split('/').count();
    let back = match segments {
        // "", "vc-dashboard": the home has no way back.
        0..=2 => None,
        // "", "vc-dashboard", "startups", id: the startup's page.
        3 | 4 => Some(("/vc-dashboard".to_owned(), "vc-dashboard-back")),
        _ => {
            let parent: Vec<&str> = ctx.path.split('/').take(4).collect();
            Some((parent.join("/"), "disclosure-back"))
        }
    }
    .map(|(href, label)| view! { <p class="back-link"><a href=href>{ctx.t(label)}</a></p> });
    let body = view! {
        <section class="vc-area stack">
            {back}
            <h1>{title.clone()}</h1>
            {content}
        </section>
    }
    .into_any();
    let mut page = Page::new(title.clone(), title, body);
    page.indexable = false;
    page
}

fn interest(ctx: &PageContext, s: &VcStartup) -> impl IntoView + use<> {
    let rows = s
        .requests
        .iter()
        .map(|(status, n, amount)| {
            view! {
                <tr>
                    <td>{ctx.t(&format!("request-status-{status}"))}</td>
                    <td class="num">{*n}</td>
                    <td class="num">{amount.format(ctx.locale)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <p>{ctx.t("vc-favorites")}": " <strong data-field="favorites">{s.favorites}</strong></p>
        <table class="table">
            <thead><tr>
                <th scope="col">{ctx.t("dashboard-col-status")}</th>
                <th scope="col" class="num">{ctx.t("vc-requests")}</th>
                <th scope="col" class="num">{ctx.t("dashboard-col-amount")}</th>
            </tr></thead>
            <tbody>{rows}</tbody>
        </table>
    }
}

/// Who the area is for: a fund's team sees the fund's startups, a founder (who is on no fund's
/// team) their own startup; the title says which.
pub fn vc_dashboard_title(ctx: &PageContext, fund_team: bool) -> String {
    ctx.t(if fund_team {
        "vc-dashboard-title"
    } else {
        "vc-dashboard-title-founder"
    })
}

pub fn vc_home_page(
    ctx: &PageContext,
    fund_team: bool,
    startups: Vec<VcStartup>,
    overdue: &[Overdue],
) -> Page {
    let empty = startups
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("dashboard-empty")}</p> });
    let items = startups
        .iter()
        .map(|s| {
            let href = format!("/vc-dashboard/startups/{}", s.id);
            view! {
                <article class="card stack" data-startup=s.id>
                    <h2><a href=href>{s.name.clone()}</a></h2>
                    <p class="muted">{s.fund.clone()}</p>
                    {interest(ctx, s)}
                </article>
            }
        })
        .collect_view();
    let content =
        view! { {overdue_notice(ctx, overdue)}{empty}<div class="stack">{items}</div> }.into_any();
    let lead = ctx.t(if fund_team {
        "vc-dashboard-lead"
    } else {
        "vc-dashboard-lead-founder"
    });
    let content = view! { <p class="lead">{lead}</p>{content} }.into_any();
    layout(ctx, vc_dashboard_title(ctx, fund_team), content)
}

/// Posted updates, `(date, Turkish, English)`.
pub type Updates = Vec<(String, String, String)>;

/// What the update form holds.
#[derive(Clone, Debug, Default)]
pub struct UpdateForm {
    pub body_tr: String,
    pub body_en: String,
}

pub fn vc_startup_page(
    ctx: &PageContext,
    startup: VcStartup,
    updates: Updates,
    update: &UpdateForm,
    report: &ReportForm,
    errors: &FieldErrors,
) -> Page {
    let area = |name: &'static str, label: &'static str, value: &str| {
        let error = errors.get(name);
        view! {
            <div class="field">
                <label class="field__label" for=name>{ctx.t(label)}</label>
                <textarea class="input" id=name name=name rows="5" aria-invalid=error.map(|_| "true") aria-describedby=error.map(|_| format!("{name}-error"))>{textarea_text(value)}</textarea>
                {crate::forms::error_view(ctx, name, error)}
            </div>
        }
    };
    let posted = updates
        .into_iter()
        .map(|(at, tr, en)| {
            let text = if ctx.locale == crate::i18n::Locale::En {
                en
            } else {
                tr
            };
            view! {
                <li class="update">
                    <time class="update__date">{at}</time>
                    <div class="update__text prose" inner_html=crate::markdown::render(&text)></div>
                </li>
            }
        })
        .collect_view();
    let reports = startup
        .reports
        .iter()
        .map(|(quarter, tr, en)| {
            let title = if ctx.locale == crate::i18n::Locale::En && !en.is_empty() {
                en
            } else {
                tr
            };
            let quarter = crate::domain::quarters::label_of(quarter, ctx.locale);
            view! { <li><strong>{quarter}</strong>" · "{title.clone()}</li> }
        })
        .collect_view();
    let id = startup.id;
    let content = view! {
        {error_summary(ctx, errors)}
        <p>
            <a href=format!("/vc-dashboard/startups/{id}/campaign")>{ctx.t("vc-campaign-link")}</a>" · "
            <a href=format!("/vc-dashboard/startups/{id}/disclosures")>{ctx.t("vc-disclosures-link")}</a>" · "
            <a href=format!("/startups/{}/questions", startup.slug)>{ctx.t("questions-link-title")}</a>
        </p>
        {interest(ctx, &startup)}
        <section class="stack" aria-labelledby="updates-title">
            <h2 id="updates-title">{ctx.t("vc-updates")}</h2>
            <ul class="updates">{posted}</ul>
            <form class="form" method="post" action=format!("/vc-dashboard/startups/{id}/updates") novalidate>
                {csrf_field(ctx)}
                <div class="form__row">
                    {area("body_tr", "dashboard-body-tr", &update.body_tr)}
                    {area("body_en", "dashboard-body-en", &update.body_en)}
                </div>
                <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("vc-post-update")}</button></div>
            </form>
        </section>
        <section class="stack" aria-labelledby="reports-title">
            <h2 id="reports-title">{ctx.t("dashboard-startup-reports")}</h2>
            <ul class="updates">{reports}</ul>
            {report_form(ctx, &format!("/vc-dashboard/startups/{id}/reports"), report, errors)}
        </section>
    }
    .into_any();
    layout(ctx, startup.name.clone(), content)
}

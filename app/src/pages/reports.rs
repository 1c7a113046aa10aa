//! `/reports`: quarterly reports of the startups the investor invested in or follows.

use leptos::prelude::*;
use time::Date;

use crate::domain::quarters::{Quarter, label_of};
use crate::domain::time_fmt::format_date_short;
use crate::i18n::FluentArg;
use crate::shell::{Page, PageContext};

pub struct ReportItem {
    pub id: i64,
    pub startup: String,
    pub startup_slug: String,
    pub quarter: String,
    pub title: String,
    pub summary: String,
    pub published: Date,
    /// The member invested (or works for the startup): the summary and the PDF are theirs; a
    /// saved startup's report is listed for them to know it exists.
    pub readable: bool,
}

/// A quarterly report a startup owes: its quarter and the day it was due.
pub struct Overdue {
    pub startup: String,
    pub quarter: Quarter,
    pub due: Date,
}

/// The flag of overdue reports, shown to staff, to the startup's team and to its investors;
/// nothing when none is late.
pub fn overdue_notice(ctx: &PageContext, overdue: &[Overdue]) -> Option<impl IntoView + use<>> {
    (!overdue.is_empty()).then(|| {
        let items = overdue
            .iter()
            .map(|o| {
                let args: [(&'static str, FluentArg); 3] = [
                    ("startup", o.startup.clone().into()),
                    ("quarter", o.quarter.label(ctx.locale).into()),
                    ("due", format_date_short(o.due, ctx.locale).into()),
                ];
                view! { <li>{ctx.locale.t_args("reports-overdue-item", &args)}</li> }
            })
            .collect_view();
        view! {
            <div class="flash flash--error" role="status">
                <p><strong>{ctx.t("reports-overdue-title")}</strong></p>
                <ul>{items}</ul>
            </div>
        }
    })
}

pub fn reports_page(ctx: &PageContext, reports: Vec<ReportItem>, overdue: &[Overdue]) -> Page {
    let empty = reports
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("reports-empty")}</p> });
    let items = reports
        .into_iter()
        .map(|r| {
            let (summary, open) = if r.readable {
                (
                    view! { <p>{r.summary}</p> }.into_any(),
                    view! { <a class="card__link" href=format!("/reports/{}/file", r.id)>{ctx.t("reports-download")}</a> }.into_any(),
                )
            } else {
                (().into_any(), view! { <p class="muted report-card__locked">{ctx.t("reports-investors-only")}</p> }.into_any())
            };
            view! {
                <article class="card report-card">
                    <p class="muted"><a href=format!("/startups/{}", r.startup_slug)>{r.startup}</a> " · " {label_of(&r.quarter, ctx.locale)}</p>
                    <h2 class="card__title">{r.title}</h2>
                    {summary}
                    <p class="meta"><time datetime=r.published.to_string()>{format_date_short(r.published, ctx.locale)}</time></p>
                    {open}
                </article>
            }
        })
        .collect_view();
    let body = view! {
        <header class="prose__header">
            <h1>{ctx.t("reports-title")}</h1>
            <p class="lead">{ctx.t("reports-description")}</p>
        </header>
        {overdue_notice(ctx, overdue)}
        {empty}
        <div class="card-grid">{items}</div>
    }
    .into_any();
    let mut page = Page::new(ctx.t("reports-title"), ctx.t("reports-description"), body);
    page.indexable = false;
    page
}

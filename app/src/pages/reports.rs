//! `/reports`: quarterly reports of the startups the investor invested in or follows.

use leptos::prelude::*;
use time::Date;

use crate::domain::time_fmt::format_date_short;
use crate::shell::{Page, PageContext};

pub struct ReportItem {
    pub id: i64,
    pub startup: String,
    pub startup_slug: String,
    pub quarter: String,
    pub title: String,
    pub summary: String,
    pub published: Date,
}

pub fn reports_page(ctx: &PageContext, reports: Vec<ReportItem>) -> Page {
    let empty = reports
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("reports-empty")}</p> });
    let items = reports
        .into_iter()
        .map(|r| {
            view! {
                <article class="card report-card">
                    <p class="muted"><a href=format!("/startups/{}", r.startup_slug)>{r.startup}</a> " · " {r.quarter}</p>
                    <h2 class="card__title">{r.title}</h2>
                    <p>{r.summary}</p>
                    <p class="meta"><time datetime=r.published.to_string()>{format_date_short(r.published, ctx.locale)}</time></p>
                    <a class="card__link" href=format!("/reports/{}/file", r.id)>{ctx.t("reports-download")}</a>
                </article>
            }
        })
        .collect_view();
    let body = view! {
        <header class="prose__header">
            <h1>{ctx.t("reports-title")}</h1>
            <p class="lead">{ctx.t("reports-description")}</p>
        </header>
        {empty}
        <div class="card-grid">{items}</div>
    }
    .into_any();
    let mut page = Page::new(ctx.t("reports-title"), ctx.t("reports-description"), body);
    page.indexable = false;
    page
}

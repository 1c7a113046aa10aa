//! `/dashboard`: today's figures and the weekly charts.

use leptos::prelude::*;

use super::staff_layout;
use crate::shell::{Page, PageContext};

/// Today's figures and the charts on the dashboard home.
pub struct StaffHome {
    /// `(Fluent id, number, link)`.
    pub figures: Vec<(&'static str, i64, &'static str)>,
    /// `(week label, sign-ups)`, oldest first.
    pub signups: Vec<(String, i64)>,
    /// `(week label, investment requests)`, oldest first.
    pub requests: Vec<(String, i64)>,
    /// The request funnel: submitted, approved, paid, completed.
    pub funnel: Vec<(String, i64)>,
    /// Quarterly reports funded startups owe.
    pub overdue: Vec<crate::pages::reports::Overdue>,
}

/// A labelled SVG bar chart; the numbers are also its accessible name.
fn bar_chart(
    ctx: &PageContext,
    id: &'static str,
    title_id: &str,
    data: &[(String, i64)],
) -> impl IntoView + use<> {
    let max = data.iter().map(|(_, n)| *n).max().unwrap_or(1).max(1);
    let bars = data
        .iter()
        .enumerate()
        .map(|(i, (label, n))| {
            let h = n * 120 / max;
            let x = i as i64 * 90 + 10;
            view! {
                <g>
                    <rect x=x.to_string() y=(140 - h).to_string() width="50" height=h.to_string() fill="#0f766e"></rect>
                    <text x=(x + 25).to_string() y="160" font-size="12" text-anchor="middle" fill="#475569">{label.clone()}</text>
                    <text x=(x + 25).to_string() y=(134 - h).to_string() font-size="12" text-anchor="middle" fill="#0f1b2d">{*n}</text>
                </g>
            }
        })
        .collect_view();
    let summary = data
        .iter()
        .map(|(w, n)| format!("{w}: {n}"))
        .collect::<Vec<_>>()
        .join(", ");
    let width = (data.len() as i64 * 90 + 20).max(100);
    let empty = data
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("dashboard-empty")}</p> });
    view! {
        <section aria-labelledby=id>
            <h2 id=id>{ctx.t(title_id)}</h2>
            {empty}
            <svg class="chart" viewBox=format!("0 0 {width} 170") role="img" aria-label=summary font-family="system-ui, sans-serif">{bars}</svg>
        </section>
    }
}

pub fn staff_home_page(ctx: &PageContext, home: StaffHome) -> Page {
    let figures = home
        .figures
        .into_iter()
        .map(|(label, n, href)| {
            view! {
                <a class="card staff-figure" href=href>
                    <span class="stat__value">{n}</span>
                    <span class="stat__label">{ctx.t(label)}</span>
                </a>
            }
        })
        .collect_view();
    let content = view! {
        {crate::pages::reports::overdue_notice(ctx, &home.overdue)}
        <div class="card-grid staff-figures">{figures}</div>
        {bar_chart(ctx, "signups-title", "dashboard-signups-by-week", &home.signups)}
        {bar_chart(ctx, "requests-title", "dashboard-requests-by-week", &home.requests)}
        {bar_chart(ctx, "funnel-title", "dashboard-funnel", &home.funnel)}
    }
    .into_any();
    staff_layout(ctx, ctx.t("dashboard-home"), content)
}

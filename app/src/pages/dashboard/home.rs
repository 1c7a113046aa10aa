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

/// A titled bar chart (`components::bar_list`), or a line saying there is nothing yet.
fn bar_chart(
    ctx: &PageContext,
    id: &'static str,
    title_id: &str,
    data: &[(String, i64)],
) -> impl IntoView + use<> {
    let chart = if data.is_empty() {
        view! { <p class="empty-state">{ctx.t("dashboard-empty")}</p> }.into_any()
    } else {
        let rows = data
            .iter()
            .map(|(label, n)| (label.clone(), *n, n.to_string()));
        crate::components::bar_list(rows.collect()).into_any()
    };
    view! {
        <section aria-labelledby=id>
            <h2 id=id>{ctx.t(title_id)}</h2>
            {chart}
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

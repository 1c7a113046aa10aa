//! The signed-in investor's home (`/` and `/overview`): portfolio, pending requests, startups,
//! reports, the fund-application card, the holdings (see `portfolio`) and the portfolio by
//! sector as a server-drawn chart.

use leptos::prelude::*;

use crate::domain::money::Money;
use crate::i18n::FluentArg;
use crate::pages::portfolio::{Holding, by_sector, holdings_table, totals};
use crate::shell::{Page, PageContext};

pub struct Overview {
    /// Allocations, with their valuations.
    pub holdings: Vec<Holding>,
    pub pending: i64,
    pub pending_total: Money,
    pub open_startups: i64,
    pub reports: i64,
    pub mkk_missing: bool,
}

/// Horizontal bars, one per sector, drawn on the server (no JavaScript).
pub fn sector_chart(ctx: &PageContext, data: &[(String, Money)]) -> impl IntoView + use<> {
    let max = data
        .iter()
        .map(|(_, m)| m.kurus())
        .max()
        .unwrap_or(1)
        .max(1);
    let row_height = 44;
    let height = (data.len() as i64 * row_height).max(row_height);
    let bars = data
        .iter()
        .enumerate()
        .map(|(i, (sector, amount))| {
            let y = i as i64 * row_height;
            let width = (amount.kurus() * 560 / max).max(4);
            let label = ctx.t(&format!("interest-{sector}"));
            view! {
                <g>
                    <text x="0" y=(y + 18).to_string() font-size="14" fill="#0f1b2d">{label}</text>
                    <rect x="0" y=(y + 24).to_string() width=width.to_string() height="12" rx="6" fill="#0f766e"></rect>
                    <text x=(width + 8).to_string() y=(y + 35).to_string() font-size="13" fill="#475569">{amount.format(ctx.locale)}</text>
                </g>
            }
        })
        .collect_view();
    let summary = data
        .iter()
        .map(|(s, m)| {
            format!(
                "{}: {}",
                ctx.t(&format!("interest-{s}")),
                m.format(ctx.locale)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    view! {
        <svg class="chart" viewBox=format!("0 0 760 {height}") role="img" aria-label=summary font-family="system-ui, sans-serif">
            {bars}
        </svg>
    }
}

pub fn overview_page(ctx: &PageContext, o: Overview) -> Page {
    let count = |id: &str, n: i64| ctx.locale.t_args(id, &[("count", FluentArg::Num(n))]);
    let mkk = o.mkk_missing.then(|| {
        view! {
            <div class="flash flash--info" role="status">
                {ctx.t("investment-needs-mkk")} " " <a href="/mkk">{ctx.t("investment-needs-mkk-link")}</a>
            </div>
        }
    });
    let onboarding = ctx.viewer.and_then(|v| v.onboarding_path.clone()).map(|href| {
        view! {
            <div class="flash flash--info" role="status">
                {ctx.t("home-onboarding-banner")} " " <a href=href>{ctx.t("home-onboarding-link")}</a>
            </div>
        }
    });
    let sectors = by_sector(&o.holdings);
    let chart = if sectors.is_empty() {
        view! { <p class="empty-state">{ctx.t("my-investments-empty")}</p> }.into_any()
    } else {
        sector_chart(ctx, &sectors).into_any()
    };
    let (invested, value) = totals(&o.holdings);
    let holdings = (!o.holdings.is_empty()).then(|| {
        view! {
            <section class="section" aria-labelledby="holdings">
                <h2 class="section__title" id="holdings">{ctx.t("portfolio-holdings")}</h2>
                {holdings_table(ctx, &o.holdings)}
            </section>
        }
    });
    let name = ctx.viewer.map(|v| v.first_name.clone()).unwrap_or_default();
    let body = view! {
        <header class="prose__header">
            <h1>{ctx.locale.t_args("overview-greeting", &[("name", name.into())])}</h1>
            <p class="lead">{ctx.t("overview-lead")}</p>
        </header>
        {onboarding}
        {mkk}
        <div class="card-grid overview-cards">
            <article class="card">
                <h2 class="card__title">{ctx.t("home-card-portfolio-title")}</h2>
                <p class="stat__value">{invested.format(ctx.locale)}</p>
                <p class="muted">{count("overview-investments", o.holdings.len() as i64)} " · " {ctx.t("portfolio-total-value")} ": " {value.format(ctx.locale)}</p>
                <a class="card__link" href="/userInvestments">{ctx.t("nav-my-investments")}</a>
            </article>
            <article class="card">
                <h2 class="card__title">{ctx.t("home-card-pending-title")}</h2>
                <p class="stat__value">{o.pending}</p>
                <p class="muted">{o.pending_total.format(ctx.locale)}</p>
                <a class="card__link" href="/pendingInvestments">{ctx.t("nav-pending-investments")}</a>
            </article>
            <article class="card">
                <h2 class="card__title">{ctx.t("home-card-startups-title")}</h2>
                <p class="stat__value">{o.open_startups}</p>
                <p class="muted">{ctx.t("overview-open-startups")}</p>
                <a class="card__link" href="/startups">{ctx.t("home-hero-primary")}</a>
            </article>
            <article class="card">
                <h2 class="card__title">{ctx.t("home-card-reports-title")}</h2>
                <p class="stat__value">{o.reports}</p>
                <p class="muted">{ctx.t("overview-reports")}</p>
                <a class="card__link" href="/reports">{ctx.t("reports-title")}</a>
            </article>
            <article class="card card--accent">
                <h2 class="card__title">{ctx.t("home-fund-title")}</h2>
                <p>{ctx.t("home-fund-text")}</p>
                <a class="card__link" href="/gsyf">{ctx.t("home-fund-button")}</a>
            </article>
        </div>
        {holdings}
        <section class="section" aria-labelledby="by-sector">
            <h2 class="section__title" id="by-sector">{ctx.t("overview-by-sector")}</h2>
            {chart}
        </section>
    }
    .into_any();
    let mut page = Page::new(ctx.t("nav-overview"), ctx.t("overview-lead"), body);
    page.indexable = false;
    page
}

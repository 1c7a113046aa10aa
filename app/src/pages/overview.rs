//! The signed-in investor's home (`/` and `/overview`): portfolio, pending requests, startups,
//! reports, the fund-application card, the holdings (see `portfolio`) and the portfolio by
//! sector as a chart of HTML bars.

use leptos::prelude::*;

use crate::domain::money::Money;
use crate::i18n::FluentArg;
use crate::pages::portfolio::{Holding, by_sector, holdings_table, totals};
use crate::pages::startups::{StartupCard, startup_card};
use crate::shell::{Page, PageContext};

pub struct Overview {
    /// Allocations, with their valuations.
    pub holdings: Vec<Holding>,
    pub pending: i64,
    pub pending_total: Money,
    /// Money in escrow, waiting for its round's close.
    pub escrow: Money,
    pub open_startups: i64,
    pub reports: i64,
    pub mkk_missing: bool,
    /// The member's address is not verified yet: nothing else can happen before it is.
    pub unverified: bool,
    /// Startups the investor saved, newest first (a few).
    pub followed: Vec<StartupCard>,
}

/// The startups the investor follows, as cards, or how to follow one.
fn followed(ctx: &PageContext, cards: &[StartupCard]) -> impl IntoView + use<> {
    let content = if cards.is_empty() {
        view! {
            <p class="empty-state">
                {ctx.t("overview-followed-empty")} " " <a href="/startups">{ctx.t("home-hero-primary")}</a>
            </p>
        }
        .into_any()
    } else {
        let cards = cards.iter().map(|c| startup_card(ctx, c)).collect_view();
        view! {
            <div class="card-grid startup-grid">{cards}</div>
            <p><a class="card__link" href="/favorites">{ctx.t("overview-followed-all")}</a></p>
        }
        .into_any()
    };
    view! {
        <section class="section" aria-labelledby="followed">
            <h2 class="section__title" id="followed">{ctx.t("overview-followed")}</h2>
            {content}
        </section>
    }
}

/// Horizontal bars, one per sector, with the amounts invested.
pub fn sector_chart(ctx: &PageContext, data: &[(String, Money)]) -> impl IntoView + use<> {
    crate::components::bar_list(
        data.iter()
            .map(|(sector, amount)| {
                let label = ctx.t(&format!("interest-{sector}"));
                (label, amount.kurus(), amount.format(ctx.locale))
            })
            .collect(),
    )
}

pub fn overview_page(ctx: &PageContext, o: Overview) -> Page {
    let sectors = by_sector(&o.holdings);
    let chart = if sectors.is_empty() {
        view! { <p class="empty-state">{ctx.t("my-investments-empty")}</p> }.into_any()
    } else {
        sector_chart(ctx, &sectors).into_any()
    };
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
        {notices(ctx, &o)}
        {summary_cards(ctx, &o)}
        {followed(ctx, &o.followed)}
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

/// What the member still has to do: confirm the e-mail address, finish onboarding, give the
/// MKK number (asked once the address is confirmed).
fn notices(ctx: &PageContext, o: &Overview) -> impl IntoView + use<> {
    let verify = o.unverified.then(|| {
        view! {
            <div class="flash flash--error notice-row" role="alert">
                <p>{ctx.t("overview-verify")}</p>
                <form method="post" action="/verification">
                    {crate::forms::csrf_field(ctx)}
                    <button class="button button--ghost" type="submit">{ctx.t("verification-resend")}</button>
                </form>
            </div>
        }
    });
    let mkk = (o.mkk_missing && !o.unverified).then(|| {
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
    view! { {verify} {onboarding} {mkk} }
}

/// One card each: the portfolio, pending requests, open startups, reports, and the fund's
/// invitation.
fn summary_cards(ctx: &PageContext, o: &Overview) -> impl IntoView + use<> {
    let count = |id: &str, n: i64| ctx.locale.t_args(id, &[("count", FluentArg::Num(n))]);
    let (invested, value) = totals(&o.holdings);
    view! {
        <div class="card-grid overview-cards">
            <article class="card">
                <h2 class="card__title">{ctx.t("home-card-portfolio-title")}</h2>
                <p class="stat__value">{invested.format(ctx.locale)}</p>
                <p class="muted">{count("overview-investments", o.holdings.len() as i64)} " · " {ctx.t("portfolio-total-value")} ": " {value.format(ctx.locale)}</p>
                {(o.escrow.kurus() > 0).then(|| view! { <p class="muted" data-field="escrow">{ctx.t("portfolio-in-escrow")} ": " {o.escrow.format(ctx.locale)}</p> })}
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
    }
}

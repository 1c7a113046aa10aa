//! The investor's holdings (`/userInvestments`, and on the overview): for each allocation, the
//! amount, the share of the round and the date, the latest valuation staff recorded for the
//! startup (with its source and date), and the value and multiple that follow; with the
//! portfolio by sector as a chart.

use leptos::prelude::*;

use crate::domain::money::Money;
use crate::domain::rounds::{format_multiple, format_share};
use crate::domain::time_fmt::format_date_short;
use crate::pages::overview::sector_chart;
use crate::shell::{Page, PageContext};

/// A valuation staff recorded for a startup.
#[derive(Clone, Debug)]
pub struct Valuation {
    pub amount: Money,
    pub source: String,
    pub on: time::Date,
}

/// One allocation.
#[derive(Clone, Debug)]
pub struct Holding {
    pub startup_slug: String,
    pub startup_name: String,
    pub sector: String,
    pub amount: Money,
    /// Parts per million of the round.
    pub share_ppm: i64,
    pub allocated_on: time::Date,
    pub valuation: Option<Valuation>,
    /// At the latest valuation, when the round's own valuation is known.
    pub value: Option<Money>,
    pub multiple_x100: Option<i64>,
}

/// The portfolio's totals: invested, and its value where valuations are known.
pub fn totals(holdings: &[Holding]) -> (Money, Money) {
    holdings
        .iter()
        .fold((Money::default(), Money::default()), |(inv, val), h| {
            let value = h.value.unwrap_or(h.amount);
            (
                inv.checked_add(h.amount).unwrap_or(inv),
                val.checked_add(value).unwrap_or(val),
            )
        })
}

/// The holdings as a table (empty state when there are none).
pub fn holdings_table(ctx: &PageContext, holdings: &[Holding]) -> AnyView {
    if holdings.is_empty() {
        return view! { <p class="empty-state">{ctx.t("my-investments-empty")}</p> }.into_any();
    }
    let dash = || "—".to_owned();
    let rows = holdings
        .iter()
        .map(|h| {
            let valuation = h.valuation.as_ref().map_or_else(dash, |v| {
                ctx.locale.t_args(
                    "portfolio-valuation-of",
                    &[
                        ("amount", v.amount.format(ctx.locale).into()),
                        ("source", v.source.clone().into()),
                        ("date", format_date_short(v.on, ctx.locale).into()),
                    ],
                )
            });
            view! {
                <tr>
                    <th scope="row"><a href=format!("/startups/{}", h.startup_slug)>{h.startup_name.clone()}</a></th>
                    <td>{format_date_short(h.allocated_on, ctx.locale)}</td>
                    <td class="num">{h.amount.format(ctx.locale)}</td>
                    <td class="num">{format_share(h.share_ppm, ctx.locale)}</td>
                    <td>{valuation}</td>
                    <td class="num">{h.value.map_or_else(dash, |v| v.format(ctx.locale))}</td>
                    <td class="num">{h.multiple_x100.map_or_else(dash, |m| format_multiple(m, ctx.locale))}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="table holdings">
                <caption class="visually-hidden">{ctx.t("portfolio-holdings")}</caption>
                <thead><tr>
                    <th scope="col">{ctx.t("startups-title")}</th>
                    <th scope="col">{ctx.t("portfolio-allocated-on")}</th>
                    <th scope="col" class="num">{ctx.t("investment-summary-amount")}</th>
                    <th scope="col" class="num">{ctx.t("portfolio-share")}</th>
                    <th scope="col">{ctx.t("portfolio-valuation")}</th>
                    <th scope="col" class="num">{ctx.t("portfolio-value")}</th>
                    <th scope="col" class="num">{ctx.t("portfolio-multiple")}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

/// Invested amounts by sector, largest first.
pub fn by_sector(holdings: &[Holding]) -> Vec<(String, Money)> {
    let mut sectors: Vec<(String, Money)> = Vec::new();
    for h in holdings {
        match sectors.iter_mut().find(|(s, _)| *s == h.sector) {
            Some((_, total)) => *total = total.checked_add(h.amount).unwrap_or(*total),
            None => sectors.push((h.sector.clone(), h.amount)),
        }
    }
    sectors.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    sectors
}

/// A request whose money is in escrow, waiting for its round to close.
pub struct InEscrow {
    pub request: i64,
    pub startup: String,
    pub slug: String,
    pub amount: Money,
    pub since: time::Date,
}

/// The money in escrow, each request with a link to its card.
fn escrow_view(ctx: &PageContext, escrow: &[InEscrow]) -> impl IntoView + use<> {
    let total = escrow.iter().fold(Money::from_kurus(0), |t, e| {
        t.checked_add(e.amount).unwrap_or(t)
    });
    let rows = escrow
        .iter()
        .map(|e| {
            view! {
                <tr>
                    <td><a href=format!("/startups/{}", e.slug)>{e.startup.clone()}</a></td>
                    <td class="num">{e.amount.format(ctx.locale)}</td>
                    <td>{crate::domain::time_fmt::format_date_short(e.since, ctx.locale)}</td>
                    <td><a href=format!("/pendingInvestments#request-{}-title", e.request)>{ctx.t("portfolio-escrow-follow")}</a></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <section class="section" aria-labelledby="in-escrow">
            <h2 class="section__title" id="in-escrow">{ctx.t("portfolio-in-escrow")} ": " {total.format(ctx.locale)}</h2>
            <p class="muted">{ctx.t("portfolio-escrow-text")}</p>
            <div class="table-wrap">
                <table class="table">
                    <thead><tr>
                        <th scope="col">{ctx.t("dashboard-col-startup")}</th>
                        <th scope="col" class="num">{ctx.t("investment-summary-payment")}</th>
                        <th scope="col">{ctx.t("pending-date")}</th>
                        <th scope="col">{ctx.t("dashboard-col-status")}</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
}

pub fn my_investments_page(
    ctx: &PageContext,
    holdings: Vec<Holding>,
    escrow: Vec<InEscrow>,
) -> Page {
    let (invested, value) = totals(&holdings);
    // Money in escrow is not "no investments": it is said so, and shares come with the close.
    let table = if holdings.is_empty() && !escrow.is_empty() {
        view! { <p class="muted">{ctx.t("portfolio-none-allocated")}</p> }.into_any()
    } else {
        holdings_table(ctx, &holdings)
    };
    let escrow = (!escrow.is_empty()).then(|| escrow_view(ctx, &escrow));
    let sectors = by_sector(&holdings);
    let chart = (!sectors.is_empty()).then(|| {
        view! {
            <section class="section" aria-labelledby="by-sector">
                <h2 class="section__title" id="by-sector">{ctx.t("overview-by-sector")}</h2>
                {sector_chart(ctx, &sectors)}
            </section>
        }
    });
    let body = view! {
        <header class="prose__header"><h1>{ctx.t("my-investments-title")}</h1></header>
        <dl class="figures portfolio-totals">
            <div><dt>{ctx.t("my-investments-total")}</dt><dd>{invested.format(ctx.locale)}</dd></div>
            <div><dt>{ctx.t("portfolio-total-value")}</dt><dd>{value.format(ctx.locale)}</dd></div>
        </dl>
        {escrow}
        {table}
        {chart}
        <p class="muted">{ctx.t("portfolio-note")}</p>
    }
    .into_any();
    let mut page = Page::new(
        ctx.t("my-investments-title"),
        ctx.t("my-investments-title"),
        body,
    );
    page.indexable = false;
    page
}

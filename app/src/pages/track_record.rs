//! `/track-record` (public): what went through Ortak, computed from the ledger's closes (issue
//! 28): every closed round with its outcome, the success rate, what was raised and refunded,
//! how many investors got shares, whether quarterly reports arrived on time, and the partner
//! funds that approve the startups.

use leptos::prelude::*;

use crate::domain::text::{initials, palette_index};
use crate::domain::time_fmt::format_date_short;
use crate::domain::track_record::{ClosedRound, Summary};
use crate::i18n::{FluentArg, Locale};
use crate::shell::{Page, PageContext};

/// A partner fund as the page shows it.
pub struct PartnerFund {
    pub slug: String,
    pub name: String,
    pub description: String,
    pub website: String,
    pub startups: i64,
    pub funded: i64,
}

pub struct TrackRecord {
    pub summary: Summary,
    pub investors: i64,
    /// Quarterly reports due so far, and how many arrived by their due dates.
    pub reports: (i64, i64),
    pub rounds: Vec<ClosedRound>,
    pub partners: Vec<PartnerFund>,
}

fn figures(ctx: &PageContext, t: &TrackRecord) -> impl IntoView + use<> {
    let s = t.summary;
    let pct = |p: i64| ctx.locale.t_args("percent", &[("pct", FluentArg::Num(p))]);
    let on_time = if t.reports.0 > 0 {
        pct(t.reports.1 * 100 / t.reports.0)
    } else {
        "—".to_owned()
    };
    let items = [
        (s.closed.to_string(), "track-closed"),
        (pct(s.success_pct), "track-success"),
        (s.raised.format(ctx.locale), "track-raised"),
        (s.refunded.format(ctx.locale), "track-refunded"),
        (t.investors.to_string(), "track-investors"),
        (on_time, "track-reports-on-time"),
    ]
    .into_iter()
    .map(|(value, label)| {
        view! { <li class="stat"><span class="stat__value">{value}</span><span class="stat__label">{ctx.t(label)}</span></li> }
    })
    .collect_view();
    let reports = ctx.locale.t_args(
        "track-reports-of",
        &[
            ("due", FluentArg::Num(t.reports.0)),
            ("on_time", FluentArg::Num(t.reports.1)),
        ],
    );
    view! {
        <ul class="stat-list">{items}</ul>
        <p class="muted track-reports">{reports}</p>
    }
}

fn rounds(ctx: &PageContext, rounds: &[ClosedRound]) -> impl IntoView + use<> {
    if rounds.is_empty() {
        return view! { <p class="empty-state">{ctx.t("track-none")}</p> }.into_any();
    }
    let rows = rounds
        .iter()
        .map(|r| {
            let (badge, outcome) = if r.funded {
                ("funded", "status-funded")
            } else {
                ("failed", "status-failed")
            };
            view! {
                <tr>
                    <td>{r.name.clone()}</td>
                    <td>{r.fund.clone()}</td>
                    <td><span class=format!("badge badge--{badge}")>{ctx.t(outcome)}</span></td>
                    <td class="num">{r.total.format(ctx.locale)}</td>
                    <td class="num">{r.goal.format(ctx.locale)}</td>
                    <td class="num">{r.investors}</td>
                    <td>{format_date_short(r.closed_on, ctx.locale)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="table track-table">
                <thead><tr>
                    <th scope="col">{ctx.t("dashboard-col-startup")}</th>
                    <th scope="col">{ctx.t("filter-fund")}</th>
                    <th scope="col">{ctx.t("dashboard-col-status")}</th>
                    <th scope="col" class="num">{ctx.t("track-col-total")}</th>
                    <th scope="col" class="num">{ctx.t("startup-goal")}</th>
                    <th scope="col" class="num">{ctx.t("startup-investors")}</th>
                    <th scope="col">{ctx.t("track-col-closed")}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

fn partners(ctx: &PageContext, funds: &[PartnerFund]) -> impl IntoView + use<> {
    let cards = funds
        .iter()
        .map(|f| {
            let tint = format!("logo-tile logo-tile--md logo-tile--tint{}", palette_index(&f.slug, 6));
            let args = [("startups", FluentArg::Num(f.startups)), ("funded", FluentArg::Num(f.funded))];
            let website = (!f.website.is_empty()).then(|| {
                view! { <a href=f.website.clone() rel="noopener noreferrer">{ctx.t("track-fund-website")}</a> }
            });
            view! {
                <article class="card partner">
                    <div class="partner__id">
                        <span class=tint aria-hidden="true">{initials(&f.name)}</span>
                        <h3 class="card__title">{f.name.clone()}</h3>
                    </div>
                    <p>{f.description.clone()}</p>
                    <p class="muted">{ctx.locale.t_args("track-fund-figures", &args)}</p>
                    {website}
                </article>
            }
        })
        .collect_view();
    view! { <div class="card-grid partners">{cards}</div> }
}

pub fn track_record_page(ctx: &PageContext, t: TrackRecord) -> Page {
    let title = ctx.t("track-title");
    let body = view! {
        <article class="stack track-record">
            <header class="prose__header">
                <h1>{title.clone()}</h1>
                <p class="lead">{ctx.t("track-lead")}</p>
            </header>
            <section class="stats" aria-label=ctx.t("track-title")>{figures(ctx, &t)}</section>
            <section class="section" aria-labelledby="track-rounds">
                <h2 class="section__title" id="track-rounds">{ctx.t("track-rounds")}</h2>
                {rounds(ctx, &t.rounds)}
            </section>
            <section class="section" aria-labelledby="track-partners">
                <h2 class="section__title" id="track-partners">{ctx.t("track-partners")}</h2>
                {partners(ctx, &t.partners)}
            </section>
            <p class="muted">{ctx.t("track-method")}</p>
        </article>
    }
    .into_any();
    Page::new(title, ctx.t("track-description"), body)
}

/// A fund's description in `locale`.
pub fn pick(locale: Locale, tr: String, en: String) -> String {
    if locale == Locale::En && !en.is_empty() {
        en
    } else {
        tr
    }
}

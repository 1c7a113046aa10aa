//! `/startups`: the catalogue, its filters (fund, sector, city, goal, investors, completion,
//! order) and its pages.

use leptos::prelude::*;

use super::{StartupCard, filter_select, options, startup_card};
use crate::domain::startups::{
    COMPLETION_RANGES, GOAL_RANGES, INVESTOR_RANGES, ListQuery, Range, SECTORS, Sort,
};
use crate::i18n::FluentArg;
use crate::shell::{Page, PageContext};

pub struct ListPage {
    pub cards: Vec<StartupCard>,
    pub total: i64,
    pub page: u32,
    pub per_page: u32,
    pub query: ListQuery,
    /// `(slug, name)` of every fund, for the filter.
    pub funds: Vec<(String, String)>,
    pub cities: Vec<String>,
}

fn range_options(ctx: &PageContext, prefix: &str, ranges: &[Range]) -> Vec<(String, String)> {
    ranges
        .iter()
        .map(|r| (r.code.to_owned(), ctx.t(&format!("{prefix}-{}", r.code))))
        .collect()
}

/// The order choices, `sort` selected.
fn sort_options(ctx: &PageContext, sort: Sort) -> AnyView {
    [Sort::Recent, Sort::AToZ, Sort::ZToA]
        .iter()
        .map(|s| {
            let selected = *s == sort;
            view! { <option value=s.code() selected=selected>{ctx.t(&format!("sort-{}", s.code()))}</option> }
        })
        .collect_view()
        .into_any()
}

/// The filter form: "clean" keeps only the order, "reset" drops everything.
fn filters(ctx: &PageContext, list: &ListPage) -> impl IntoView + use<> {
    let q = &list.query;
    let sort = Sort::from_code(&q.sort);
    let sectors = SECTORS
        .iter()
        .map(|s| ((*s).to_owned(), ctx.t(&format!("interest-{s}"))))
        .collect();
    let cities = list.cities.iter().map(|c| (c.clone(), c.clone())).collect();
    let clean_href = match sort {
        Sort::Recent => "/startups".to_owned(),
        s => format!("/startups?sort={}", s.code()),
    };
    let active = [
        &q.fund,
        &q.sector,
        &q.city,
        &q.goal,
        &q.investors,
        &q.completion,
    ]
    .iter()
    .filter(|v| !v.is_empty())
    .count();
    let summary = match active {
        0 => ctx.t("filters-summary"),
        n => ctx.locale.t_args(
            "filters-summary-active",
            &[("count", FluentArg::Num(n as i64))],
        ),
    };
    // A disclosure on phones, so the first startup shows above the fold; wider screens show
    // the form open (the summary is hidden there).
    view! {
        <details class="filters-panel">
        <summary class="filters-panel__summary">{summary}</summary>
        <form class="filters" method="get" action="/startups" aria-label=ctx.t("filters-label")>
            {filter_select(ctx, "fund", "filter-fund", options(ctx, &q.fund, list.funds.clone()).into_any())}
            {filter_select(ctx, "sector", "filter-sector", options(ctx, &q.sector, sectors).into_any())}
            {filter_select(ctx, "city", "filter-city", options(ctx, &q.city, cities).into_any())}
            {filter_select(ctx, "goal", "filter-goal", options(ctx, &q.goal, range_options(ctx, "goal", &GOAL_RANGES)).into_any())}
            {filter_select(ctx, "investors", "filter-investors", options(ctx, &q.investors, range_options(ctx, "investors", &INVESTOR_RANGES)).into_any())}
            {filter_select(ctx, "completion", "filter-completion", options(ctx, &q.completion, range_options(ctx, "completion", &COMPLETION_RANGES)).into_any())}
            {filter_select(ctx, "sort", "filter-sort", sort_options(ctx, sort))}
            <div class="form__actions filters__actions">
                <button class="button button--primary" type="submit">{ctx.t("filter-apply")}</button>
                <a class="button button--ghost" href=clean_href>{ctx.t("filter-clean")}</a>
                <a class="button button--ghost" href="/startups">{ctx.t("filter-reset")}</a>
                <p class="filters__hint">{ctx.t("filters-hint")}</p>
            </div>
        </form>
        </details>
    }
}

/// Links to every page of the results, keeping the filters; none when one page holds them.
fn pagination(ctx: &PageContext, list: &ListPage) -> Option<impl IntoView + use<>> {
    let per_page = i64::from(list.per_page);
    let pages = ((list.total + per_page - 1) / per_page).max(1) as u32;
    (pages > 1).then(|| {
        let links = (1..=pages)
            .map(|p| {
                let query = list.query.to_query(p);
                let href = if query.is_empty() { "/startups".to_owned() } else { format!("/startups?{query}") };
                let current = (p == list.page).then_some("page");
                view! { <li><a href=href aria-current=current>{p}</a></li> }
            })
            .collect_view();
        view! { <nav class="pagination" aria-label=ctx.t("pagination-label")><ul>{links}</ul></nav> }
    })
}

/// Visitors are told that signing up shows more.
fn join_notice(ctx: &PageContext) -> Option<impl IntoView + use<>> {
    ctx.viewer.is_none().then(|| {
        view! {
            <p class="flash flash--info">
                {ctx.t("startups-join-to-see")} " "
                <a href="/signup">{ctx.t("sign-up")}</a> " · " <a href="/signin?next=/startups">{ctx.t("sign-in")}</a>
            </p>
        }
    })
}

pub fn startups_page(ctx: &PageContext, list: ListPage) -> Page {
    let empty = list
        .cards
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("startups-empty")}</p> });
    let cards = list
        .cards
        .iter()
        .map(|c| startup_card(ctx, c))
        .collect_view();
    let count = ctx
        .locale
        .t_args("startups-count", &[("count", FluentArg::Num(list.total))]);
    let body = view! {
        <header class="prose__header">
            <h1>{ctx.t("startups-title")}</h1>
            <p class="lead">{ctx.t("startups-description")}</p>
        </header>
        {join_notice(ctx)}
        {filters(ctx, &list)}
        <p class="muted" role="status">{count}</p>
        {empty}
        <div class="card-grid startup-grid">{cards}</div>
        {pagination(ctx, &list)}
    }
    .into_any();
    Page::new(ctx.t("startups-title"), ctx.t("startups-description"), body)
}

//! `/favorites`: the viewer's saved startups, with the `favorites-filters` island.

use leptos::prelude::*;

use super::{StartupCard, filter_select, options, startup_card};
use crate::shell::{Page, PageContext};

/// The `favorites-filters` island's props: the filters as given and the texts it shows.
fn island_props(ctx: &PageContext, q: &str, status: &str) -> String {
    serde_json::json!({
        "q": q,
        "status": status,
        "listId": "favorites-list",
        "statuses": [
            { "value": "being-funded", "label": ctx.t("status-being-funded") },
            { "value": "funded", "label": ctx.t("status-funded") },
            { "value": "failed", "label": ctx.t("status-failed") },
        ],
        "labels": {
            "search": ctx.t("favorites-search"), "status": ctx.t("favorites-status"), "any": ctx.t("filter-any"),
            "reset": ctx.t("filter-reset"), "filters": ctx.t("filters-label"),
            "noMatch": ctx.t("favorites-no-match"),
        },
        "locale": ctx.locale.code(),
    })
    .to_string()
}

/// The search box and the funding-status filter, a plain GET form.
fn filters(ctx: &PageContext, q: &str, status: &str) -> impl IntoView + use<> {
    let statuses = ["being-funded", "funded", "failed"]
        .iter()
        .map(|s| ((*s).to_owned(), ctx.t(&format!("status-{s}"))))
        .collect();
    view! {
        <form class="filters" method="get" action="/favorites" aria-label=ctx.t("filters-label")>
            <div class="field">
                <label class="field__label" for="favorites-q">{ctx.t("favorites-search")}</label>
                <input class="input" id="favorites-q" type="search" name="q" value=q.to_owned() />
            </div>
            {filter_select(ctx, "status", "favorites-status", options(ctx, status, statuses).into_any())}
            <div class="form__actions filters__actions">
                <button class="button button--primary" type="submit">{ctx.t("filter-apply")}</button>
                <a class="button button--ghost" href="/favorites">{ctx.t("filter-reset")}</a>
            </div>
        </form>
    }
}

/// `/favorites`: the list and its filters (search and funding status, also in the query).
/// Every saved startup is rendered; those the filters leave out are `hidden`, so the island
/// can filter instantly and the page still works without JavaScript.
pub fn favorites_page(
    ctx: &PageContext,
    cards: Vec<(StartupCard, bool)>,
    q: &str,
    status: &str,
) -> Page {
    let total_saved = cards.len();
    let visible = cards.iter().filter(|(_, shown)| *shown).count();
    let empty = if total_saved == 0 {
        Some(view! { <p class="empty-state">{ctx.t("favorites-empty")}</p> }.into_any())
    } else if visible == 0 {
        Some(view! { <p class="empty-state" id="favorites-no-match">{ctx.t("favorites-no-match")}</p> }.into_any())
    } else {
        None
    };
    let list = cards
        .iter()
        .map(|(c, shown)| {
            view! {
                <div class="favorite-item" data-name=c.name.clone() data-city=c.city.clone() data-status=c.status.code() hidden=!*shown>
                    {startup_card(ctx, c)}
                </div>
            }
        })
        .collect_view();
    let body = view! {
        <header class="prose__header">
            <h1>{ctx.t("favorites-title")}</h1>
        </header>
        <div data-island="favorites-filters" data-props=island_props(ctx, q, status)>
            {filters(ctx, q, status)}
        </div>
        {empty}
        <div class="card-grid startup-grid" id="favorites-list">{list}</div>
    }
    .into_any();
    let mut page = Page::new(ctx.t("favorites-title"), ctx.t("favorites-title"), body);
    page.indexable = false;
    page.islands.push("favorites-filters");
    page
}

//! `/startups`, a startup's page and `/favorites`.

use leptos::prelude::*;

use crate::domain::money::Money;
use crate::domain::startups::{
    COMPLETION_RANGES, FundingStatus, GOAL_RANGES, INVESTOR_RANGES, ListQuery, Offer, PeriodKind,
    Range, SECTIONS, SECTORS, Sort,
};
use crate::forms::csrf_field;
use crate::i18n::FluentArg;
use crate::markdown;
use crate::shell::{Page, PageContext};

/// A startup as a card shows it.
#[derive(Clone, Debug)]
pub struct StartupCard {
    pub slug: String,
    pub name: String,
    pub sector: String,
    pub fund: String,
    pub city: String,
    pub goal: Money,
    pub raised: Money,
    pub investors: i64,
    pub completion_pct: i64,
    pub status: FundingStatus,
    pub period: PeriodKind,
    pub days_left: i64,
    /// `None` for visitors, who cannot keep favourites.
    pub favorite: Option<bool>,
}

fn days_left(ctx: &PageContext, card: &StartupCard) -> String {
    let period = match card.period {
        PeriodKind::Investment => ctx.t("period-investment"),
        PeriodKind::PreInvestment => ctx.t("period-pre-investment"),
    };
    if card.status == FundingStatus::Funded || card.days_left == 0 {
        ctx.locale
            .t_args("period-ended", &[("period", period.into())])
    } else {
        ctx.locale.t_args(
            "days-left",
            &[
                ("days", FluentArg::Num(card.days_left)),
                ("period", period.into()),
            ],
        )
    }
}

/// The favourite toggle: a small form, so it works without JavaScript.
pub fn favorite_toggle(
    ctx: &PageContext,
    slug: &str,
    favorite: bool,
    return_to: &str,
) -> impl IntoView + use<> {
    let (label, pressed) = if favorite {
        (ctx.t("favorite-remove"), "true")
    } else {
        (ctx.t("favorite-add"), "false")
    };
    view! {
        <form class="favorite-toggle" method="post" action=format!("/favorites/{slug}")>
            {csrf_field(ctx)}
            <input type="hidden" name="return" value=return_to.to_owned() />
            <input type="hidden" name="favorite" value=if favorite { "0" } else { "1" } />
            <button class="link-button favorite-toggle__button" type="submit" aria-pressed=pressed>
                <span aria-hidden="true">{if favorite { "★" } else { "☆" }}</span>
                " "
                {label}
            </button>
        </form>
    }
}

pub fn startup_card(ctx: &PageContext, card: &StartupCard) -> impl IntoView + use<> {
    let href = format!("/startups/{}", card.slug);
    let pct = card.completion_pct.clamp(0, 100);
    let status_class = format!("badge badge--{}", card.status.code());
    let return_to = match ctx.query {
        Some(q) => format!("{}?{q}", ctx.path),
        None => ctx.path.to_owned(),
    };
    let favorite = card
        .favorite
        .map(|f| favorite_toggle(ctx, &card.slug, f, &return_to));
    view! {
        <article class="card startup-card" data-status=card.status.code() data-name=card.name.clone() data-city=card.city.clone()>
            <div class="startup-card__top">
                <span class=status_class>{ctx.t(&format!("status-{}", card.status.code()))}</span>
                <span class="muted">{ctx.t(&format!("interest-{}", card.sector))}</span>
            </div>
            <h2 class="card__title"><a href=href>{card.name.clone()}</a></h2>
            <p class="muted">{card.fund.clone()} " · " {card.city.clone()}</p>
            <progress
                class="progress"
                max="100"
                value=pct.to_string()
                aria-label=ctx.locale.t_args("completion-label", &[("pct", FluentArg::Num(card.completion_pct))])
            ></progress>
            <dl class="figures">
                <div><dt>{ctx.t("startup-goal")}</dt><dd>{card.goal.format(ctx.locale)}</dd></div>
                <div><dt>{ctx.t("startup-raised")}</dt><dd>{card.raised.format(ctx.locale)} " (%" {card.completion_pct} ")"</dd></div>
                <div><dt>{ctx.t("startup-investors")}</dt><dd>{card.investors}</dd></div>
            </dl>
            <p class="startup-card__days">{days_left(ctx, card)}</p>
            {favorite}
        </article>
    }
}

fn options(
    ctx: &PageContext,
    selected: &str,
    items: Vec<(String, String)>,
) -> impl IntoView + use<> {
    let any = ctx.t("filter-any");
    let items = items
        .into_iter()
        .map(|(value, label)| {
            let is = value == selected;
            view! { <option value=value selected=is>{label}</option> }
        })
        .collect_view();
    view! { <option value="">{any}</option> {items} }
}

fn range_options(ctx: &PageContext, prefix: &str, ranges: &[Range]) -> Vec<(String, String)> {
    ranges
        .iter()
        .map(|r| (r.code.to_owned(), ctx.t(&format!("{prefix}-{}", r.code))))
        .collect()
}

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

fn filter_select(
    ctx: &PageContext,
    name: &'static str,
    label_id: &str,
    opts: AnyView,
) -> impl IntoView + use<> {
    let id = format!("filter-{name}");
    view! {
        <div class="field">
            <label class="field__label" for=id.clone()>{ctx.t(label_id)}</label>
            <select class="input" id=id name=name>{opts}</select>
        </div>
    }
}

pub fn startups_page(ctx: &PageContext, list: ListPage) -> Page {
    let q = &list.query;
    let sort = Sort::from_code(&q.sort);
    let sectors = SECTORS
        .iter()
        .map(|s| ((*s).to_owned(), ctx.t(&format!("interest-{s}"))))
        .collect();
    let cities = list.cities.iter().map(|c| (c.clone(), c.clone())).collect();
    let sorts = [Sort::Recent, Sort::AToZ, Sort::ZToA]
        .iter()
        .map(|s| {
            let selected = *s == sort;
            view! { <option value=s.code() selected=selected>{ctx.t(&format!("sort-{}", s.code()))}</option> }
        })
        .collect_view();
    let clean_href = match sort {
        Sort::Recent => "/startups".to_owned(),
        s => format!("/startups?sort={}", s.code()),
    };
    let pages =
        ((list.total + i64::from(list.per_page) - 1) / i64::from(list.per_page)).max(1) as u32;
    let pagination = (pages > 1).then(|| {
        let links = (1..=pages)
            .map(|p| {
                let query = q.to_query(p);
                let href = if query.is_empty() { "/startups".to_owned() } else { format!("/startups?{query}") };
                let current = (p == list.page).then_some("page");
                view! { <li><a href=href aria-current=current>{p}</a></li> }
            })
            .collect_view();
        view! { <nav class="pagination" aria-label=ctx.t("pagination-label")><ul>{links}</ul></nav> }
    });
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
    let join = ctx.viewer.is_none().then(|| {
        view! {
            <p class="flash flash--info">
                {ctx.t("startups-join-to-see")} " "
                <a href="/signup">{ctx.t("sign-up")}</a> " · " <a href="/signin?next=/startups">{ctx.t("sign-in")}</a>
            </p>
        }
    });
    let body = view! {
        <header class="prose__header">
            <h1>{ctx.t("startups-title")}</h1>
            <p class="lead">{ctx.t("startups-description")}</p>
        </header>
        {join}
        <form class="filters" method="get" action="/startups" aria-label=ctx.t("filters-label")>
            {filter_select(ctx, "fund", "filter-fund", options(ctx, &q.fund, list.funds.clone()).into_any())}
            {filter_select(ctx, "sector", "filter-sector", options(ctx, &q.sector, sectors).into_any())}
            {filter_select(ctx, "city", "filter-city", options(ctx, &q.city, cities).into_any())}
            {filter_select(ctx, "goal", "filter-goal", options(ctx, &q.goal, range_options(ctx, "goal", &GOAL_RANGES)).into_any())}
            {filter_select(ctx, "investors", "filter-investors", options(ctx, &q.investors, range_options(ctx, "investors", &INVESTOR_RANGES)).into_any())}
            {filter_select(ctx, "completion", "filter-completion", options(ctx, &q.completion, range_options(ctx, "completion", &COMPLETION_RANGES)).into_any())}
            {filter_select(ctx, "sort", "filter-sort", sorts.into_any())}
            <div class="form__actions filters__actions">
                <button class="button button--primary" type="submit">{ctx.t("filter-apply")}</button>
                <a class="button button--ghost" href=clean_href>{ctx.t("filter-clean")}</a>
                <a class="button button--ghost" href="/startups">{ctx.t("filter-reset")}</a>
            </div>
        </form>
        <p class="muted" role="status">{count}</p>
        {empty}
        <div class="card-grid startup-grid">{cards}</div>
        {pagination}
    }
    .into_any();
    Page::new(ctx.t("startups-title"), ctx.t("startups-description"), body)
}

/// Everything a startup's page shows.
pub struct StartupDetail {
    pub card: StartupCard,
    pub description: String,
    pub website: String,
    pub stage: String,
    pub team_size: i64,
    pub offer: Offer,
    /// `(section code, Markdown)` in the page's language.
    pub sections: Vec<(String, String)>,
    /// `(name, title)`.
    pub founders: Vec<(String, String)>,
    /// Positions of the presentation pages, shown as images.
    pub pages: Vec<i64>,
    /// `(date, programme, country)`.
    pub accelerators: Vec<(String, String, String)>,
    /// `(date, investors, amount in USD)`.
    pub prior_rounds: Vec<(String, String, i64)>,
    /// The fund team's updates, `(date, text in the page's language)`, newest first.
    pub updates: Vec<(String, String)>,
}

pub fn startup_page(ctx: &PageContext, d: StartupDetail) -> Page {
    let c = &d.card;
    let action = match d.offer {
        Offer::Invest => view! {
            <a class="button button--primary" href=format!("/investmentFlow?startup={}", c.slug)>{ctx.t("startup-invest")}</a>
        }
        .into_any(),
        Offer::PreInvest => view! {
            <a class="button button--primary" href=format!("/investmentFlow?startup={}", c.slug)>{ctx.t("startup-pre-invest")}</a>
        }
        .into_any(),
        Offer::VipOnly => view! { <p class="muted">{ctx.t("startup-vip-only")}</p> }.into_any(),
        Offer::Closed => view! { <p class="muted">{ctx.t("startup-closed")}</p> }.into_any(),
    };
    let favorite = c
        .favorite
        .map(|f| favorite_toggle(ctx, &c.slug, f, &format!("/startups/{}", c.slug)));
    let present: Vec<&str> = SECTIONS
        .iter()
        .copied()
        .filter(|s| d.sections.iter().any(|(k, _)| k == s))
        .collect();
    let tabs = present
        .iter()
        .map(|s| view! { <li><a href=format!("#{s}")>{ctx.t(&format!("section-{s}"))}</a></li> })
        .collect_view();
    let sections = d
        .sections
        .iter()
        .map(|(key, body)| {
            let html = markdown::render(body);
            view! {
                <section class="analysis" id=key.clone() aria-labelledby=format!("{key}-title")>
                    <h2 id=format!("{key}-title")>{ctx.t(&format!("section-{key}"))}</h2>
                    <div class="prose" inner_html=html></div>
                </section>
            }
        })
        .collect_view();
    let founders = d
        .founders
        .iter()
        .map(|(name, title)| view! { <li><strong>{name.clone()}</strong> " · " {title.clone()}</li> })
        .collect_view();
    let website = (!d.website.is_empty()).then(|| {
        view! { <div><dt>{ctx.t("startup-website")}</dt><dd><a href=d.website.clone() rel="noopener noreferrer">{d.website.clone()}</a></dd></div> }
    });
    let slides = (!d.pages.is_empty()).then(|| {
        let items = d
            .pages
            .iter()
            .map(|n| {
                let alt = ctx.locale.t_args("startup-page-alt", &[("name", c.name.clone().into()), ("page", FluentArg::Num(*n))]);
                view! {
                    <li><img src=format!("/startups/{}/pages/{n}", c.slug) alt=alt loading="lazy" width="1280" height="720" /></li>
                }
            })
            .collect_view();
        view! {
            <section class="analysis" id="presentation" aria-labelledby="presentation-title">
                <h2 id="presentation-title">{ctx.t("startup-presentation")}</h2>
                <ol class="slides">{items}</ol>
            </section>
        }
    });
    let history = (!d.accelerators.is_empty() || !d.prior_rounds.is_empty()).then(|| {
        let accelerators = d
            .accelerators
            .iter()
            .map(|(date, program, country)| view! { <li>{date.clone()} " · " <strong>{program.clone()}</strong> " · " {country.clone()}</li> })
            .collect_view();
        let rounds = d
            .prior_rounds
            .iter()
            .map(|(date, investors, usd)| {
                let amount = format!("{} USD", Money::from_lira(*usd).format(ctx.locale).trim_end_matches(" TL"));
                view! { <li>{date.clone()} " · " {investors.clone()} " · " <strong>{amount}</strong></li> }
            })
            .collect_view();
        view! {
            <section class="analysis" id="history" aria-labelledby="history-title">
                <h2 id="history-title">{ctx.t("startup-history")}</h2>
                <h3>{ctx.t("startup-accelerators")}</h3>
                <ul>{accelerators}</ul>
                <h3>{ctx.t("startup-prior-rounds")}</h3>
                <ul>{rounds}</ul>
            </section>
        }
    });
    let updates = (!d.updates.is_empty()).then(|| {
        let items = d
            .updates
            .iter()
            .map(|(date, text)| view! { <li><time>{date.clone()}</time>" · "{text.clone()}</li> })
            .collect_view();
        view! {
            <section class="analysis" id="updates" aria-labelledby="updates-title">
                <h2 id="updates-title">{ctx.t("startup-updates")}</h2>
                <ul>{items}</ul>
            </section>
        }
    });
    let title = c.name.clone();
    let body = view! {
        <article class="startup">
            <header class="startup__header stack">
                <p><a href="/startups">{ctx.t("startups-back")}</a></p>
                <h1>{c.name.clone()}</h1>
                <p class="lead">{d.description.clone()}</p>
                <dl class="figures">
                    <div><dt>{ctx.t("filter-sector")}</dt><dd>{ctx.t(&format!("interest-{}", c.sector))}</dd></div>
                    <div><dt>{ctx.t("filter-fund")}</dt><dd>{c.fund.clone()}</dd></div>
                    <div><dt>{ctx.t("filter-city")}</dt><dd>{c.city.clone()}</dd></div>
                    <div><dt>{ctx.t("startup-stage")}</dt><dd>{ctx.t(&format!("stage-{}", d.stage))}</dd></div>
                    <div><dt>{ctx.t("startup-team-size")}</dt><dd>{d.team_size}</dd></div>
                    <div><dt>{ctx.t("startup-goal")}</dt><dd>{c.goal.format(ctx.locale)}</dd></div>
                    <div><dt>{ctx.t("startup-raised")}</dt><dd>{c.raised.format(ctx.locale)} " (%" {c.completion_pct} ")"</dd></div>
                    <div><dt>{ctx.t("startup-investors")}</dt><dd>{c.investors}</dd></div>
                    {website}
                </dl>
                <p class="startup-card__days">
                    <span class=format!("badge badge--{}", c.status.code())>{ctx.t(&format!("status-{}", c.status.code()))}</span>
                    " " {days_left(ctx, c)}
                </p>
                <div class="form__actions">{action} {favorite}</div>
            </header>
            <nav class="section-tabs" aria-label=ctx.t("sections-label")><ul>{tabs}</ul></nav>
            {sections}
            <section class="analysis" aria-labelledby="founders-title">
                <h2 id="founders-title">{ctx.t("startup-founders")}</h2>
                <ul>{founders}</ul>
            </section>
            {updates}
            {history}
            {slides}
        </article>
    }
    .into_any();
    let mut page = Page::new(title, d.description.clone(), body);
    page.indexable = false;
    page
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
    let statuses = ["being-funded", "funded"]
        .iter()
        .map(|s| ((*s).to_owned(), ctx.t(&format!("status-{s}"))))
        .collect();
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
    let props = serde_json::json!({
        "q": q,
        "status": status,
        "listId": "favorites-list",
        "statuses": [
            { "value": "being-funded", "label": ctx.t("status-being-funded") },
            { "value": "funded", "label": ctx.t("status-funded") },
        ],
        "labels": {
            "search": ctx.t("favorites-search"), "status": ctx.t("favorites-status"), "any": ctx.t("filter-any"),
            "reset": ctx.t("filter-reset"), "filters": ctx.t("filters-label"),
            "noMatch": ctx.t("favorites-no-match"),
        },
        "locale": ctx.locale.code(),
    })
    .to_string();
    let body = view! {
        <header class="prose__header">
            <h1>{ctx.t("favorites-title")}</h1>
        </header>
        <div data-island="favorites-filters" data-props=props>
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

//! Startups as investors see them: the card and the favourite toggle shared by every list,
//! and the filter controls; the catalogue (`/startups`), a startup's page and `/favorites`
//! are submodules, re-exported here.

mod catalogue;
mod detail;
mod favorites;
mod story;

use leptos::prelude::*;

pub use catalogue::{ListPage, startups_page};
pub use detail::{RoundFigures, StartupDetail, startup_page};
pub use favorites::favorites_page;

use crate::domain::money::Money;
use crate::domain::startups::{FundingStatus, PeriodKind};
use crate::domain::text::{initials, palette_index};
use crate::domain::time_fmt::format_date_short;
use crate::forms::csrf_field;
use crate::i18n::FluentArg;
use crate::shell::PageContext;

/// A startup as a card shows it.
#[derive(Clone, Debug)]
pub struct StartupCard {
    pub slug: String,
    pub name: String,
    pub sector: String,
    pub fund: String,
    pub city: String,
    pub goal: Money,
    /// Received in escrow (the ledger), the round's raised amount.
    pub raised: Money,
    /// Investors whose money is in escrow.
    pub investors: i64,
    pub completion_pct: i64,
    pub status: FundingStatus,
    pub period: PeriodKind,
    pub days_left: i64,
    /// The period ends within a few days and the round is still open.
    pub closing_soon: bool,
    /// `None` for visitors, who cannot keep favourites.
    pub favorite: Option<bool>,
    /// The uploaded logo's stored name; designed initials stand in without one.
    pub logo: Option<String>,
    /// The day a closed round was settled (allocated or refunded).
    pub closed_on: Option<time::Date>,
}

fn days_left(ctx: &PageContext, card: &StartupCard) -> String {
    let period = match card.period {
        PeriodKind::Investment => ctx.t("period-investment"),
        PeriodKind::PreInvestment => ctx.t("period-pre-investment"),
    };
    let closed = card
        .closed_on
        .map(|d| FluentArg::Str(format_date_short(d, ctx.locale)));
    match (card.status, closed) {
        (FundingStatus::Funded, Some(on)) => {
            return ctx.locale.t_args("round-allocated-on", &[("date", on)]);
        }
        (FundingStatus::Failed, Some(on)) => {
            return ctx.locale.t_args("round-refunded-on", &[("date", on)]);
        }
        _ => {}
    }
    if card.status != FundingStatus::BeingFunded || card.days_left == 0 {
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

/// The raised amount with its share of the goal, as the locale writes a percentage ("70%",
/// "%70").
fn raised_share(ctx: &PageContext, card: &StartupCard) -> String {
    ctx.locale.t_args(
        "raised-share",
        &[
            ("amount", FluentArg::Str(card.raised.format(ctx.locale))),
            ("pct", FluentArg::Num(card.completion_pct)),
        ],
    )
}

/// The raised share of the goal as a bar, labelled with the percentage.
pub fn progress(ctx: &PageContext, card: &StartupCard) -> impl IntoView + use<> {
    let pct = card.completion_pct.clamp(0, 100);
    view! {
        <progress
            class="progress"
            max="100"
            value=pct.to_string()
            aria-label=ctx.locale.t_args("completion-label", &[("pct", FluentArg::Num(card.completion_pct))])
        ></progress>
    }
}

/// A badge on rounds whose period ends within a few days.
pub fn closing_soon(ctx: &PageContext, card: &StartupCard) -> Option<impl IntoView + use<>> {
    card.closing_soon.then(
        || view! { <span class="badge badge--closing-soon">{ctx.t("status-closing-soon")}</span> },
    )
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

/// The address of a stored picture's variant `width` px wide (`startups::images` on the
/// server names the files).
pub fn media_url(name: &str, width: u32) -> String {
    format!("/media/startups/{name}-{width}.webp")
}

/// A startup's logo: the uploaded one (96 px, 192 px for sharp screens), else designed
/// initials on one of six tints chosen by its address, so a startup looks the same on every
/// page. `size` is `md` (48 px) or `lg` (72 px).
pub fn startup_logo(card: &StartupCard, size: &str) -> AnyView {
    match &card.logo {
        Some(logo) => {
            let px = if size == "lg" { 72 } else { 48 };
            view! {
                <img
                    class=format!("logo-tile logo-tile--{size} logo-img")
                    src=media_url(logo, 96)
                    srcset=format!("{} 1x, {} 2x", media_url(logo, 96), media_url(logo, 192))
                    width=px
                    height=px
                    alt=""
                    loading=(size != "lg").then_some("lazy")
                />
            }
            .into_any()
        }
        None => {
            let class = format!(
                "logo-tile logo-tile--{size} logo-tile--tint{}",
                palette_index(&card.slug, 6)
            );
            view! { <span class=class aria-hidden="true">{initials(&card.name)}</span> }.into_any()
        }
    }
}

pub fn startup_card(ctx: &PageContext, card: &StartupCard) -> impl IntoView + use<> {
    let href = format!("/startups/{}", card.slug);
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
            <div class="startup-card__id">
                {startup_logo(card, "md")}
                <div>
                    <h2 class="card__title"><a href=href>{card.name.clone()}</a></h2>
                    <p class="startup-card__sector">{ctx.t(&format!("interest-{}", card.sector))}</p>
                </div>
            </div>
            <div class="startup-card__top">
                <span class=status_class>{ctx.t(&format!("status-{}", card.status.code()))}</span>
                {closing_soon(ctx, card)}
            </div>
            <p class="muted startup-card__fund">{card.fund.clone()} " · " {card.city.clone()}</p>
            {progress(ctx, card)}
            <dl class="figures">
                <div><dt>{ctx.t("startup-goal")}</dt><dd>{card.goal.format(ctx.locale)}</dd></div>
                <div><dt>{ctx.t("startup-raised")}</dt><dd>{raised_share(ctx, card)}</dd></div>
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

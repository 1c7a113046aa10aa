//! The story half of a startup's page: founders, the fund team's updates, history and the
//! presentation.

use leptos::prelude::*;

use super::{StartupDetail, media_url};
use crate::domain::money::Money;
use crate::domain::text::{initials, palette_index};
use crate::i18n::FluentArg;
use crate::shell::PageContext;

/// A founder's photo (96 px, 192 px for sharp screens), else designed initials.
fn founder_photo(name: &str, photo: Option<&String>) -> AnyView {
    match photo {
        Some(photo) => view! {
            <img
                class="founder__photo"
                src=media_url(photo, 96)
                srcset=format!("{} 1x, {} 2x", media_url(photo, 96), media_url(photo, 192))
                width="48"
                height="48"
                alt=""
                loading="lazy"
            />
        }
        .into_any(),
        None => view! {
            <span class=format!("founder__photo logo-tile--tint{}", palette_index(name, 6)) aria-hidden="true">{initials(name)}</span>
        }
        .into_any(),
    }
}

/// The founders, each with their photo or designed initials, if the page lists any.
pub(super) fn founders(
    ctx: &PageContext,
    founders: &[(String, String, Option<String>)],
) -> Option<impl IntoView + use<>> {
    (!founders.is_empty()).then(|| {
        let items = founders
            .iter()
            .map(|(name, title, photo)| {
                view! {
                    <li class="founder">
                        {founder_photo(name, photo.as_ref())}
                        <span><strong>{name.clone()}</strong><br /><span class="muted">{title.clone()}</span></span>
                    </li>
                }
            })
            .collect_view();
        view! {
            <section class="analysis" id="founders" aria-labelledby="founders-title">
                <h2 id="founders-title">{ctx.t("startup-founders")}</h2>
                <ul class="founders">{items}</ul>
            </section>
        }
    })
}

/// The presentation's pages as images, if it has any.
pub(super) fn slides(ctx: &PageContext, d: &StartupDetail) -> Option<impl IntoView + use<>> {
    let c = &d.card;
    (!d.pages.is_empty()).then(|| {
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
    })
}

/// Accelerator programmes and earlier rounds, if there were any.
pub(super) fn history(ctx: &PageContext, d: &StartupDetail) -> Option<impl IntoView + use<>> {
    (!d.accelerators.is_empty() || !d.prior_rounds.is_empty()).then(|| {
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
    })
}

/// The updates its founders and fund team posted (Markdown, rendered and sanitized), if any.
pub(super) fn updates(
    ctx: &PageContext,
    updates: &[(String, String)],
) -> Option<impl IntoView + use<>> {
    (!updates.is_empty()).then(|| {
        let items = updates
            .iter()
            .map(|(date, text)| {
                view! {
                    <li class="update">
                        <time class="update__date">{date.clone()}</time>
                        <div class="update__text prose" inner_html=crate::markdown::render(text)></div>
                    </li>
                }
            })
            .collect_view();
        view! {
            <section class="analysis" id="updates" aria-labelledby="updates-title">
                <h2 id="updates-title">{ctx.t("startup-updates")}</h2>
                <ul class="updates">{items}</ul>
            </section>
        }
    })
}

//! Bilingual content pages stored in the database: the policies and `/techinvestor`.

use leptos::prelude::*;
use time::Date;

use crate::components::POLICY_SLUGS;
use crate::domain::time_fmt::format_date_short;
use crate::markdown;
use crate::shell::{Page, PageContext};

/// A content page in the page's language.
pub struct ContentPage {
    pub slug: String,
    pub title: String,
    pub description: String,
    pub body_markdown: String,
    pub updated: Option<Date>,
}

pub fn policy_page(ctx: &PageContext, page: ContentPage) -> Page {
    let nav = POLICY_SLUGS
        .iter()
        .map(|slug| {
            let href = format!("/politikalar/{slug}");
            let current = (*slug == page.slug).then_some("page");
            view! {
                <li>
                    <a href=href aria-current=current>{ctx.t(&format!("policy-{slug}"))}</a>
                </li>
            }
        })
        .collect_view();
    let title = page.title.clone();
    let description = page.description.clone();
    // A KVKK notice names its data controller first (KVKK article 10).
    let controller = page
        .slug
        .starts_with("kvkk")
        .then(|| crate::pages::about::data_controller(ctx));
    let body = view! {
        <div class="with-sidebar">
            <nav class="policy-nav" aria-label=ctx.t("policies-nav-label")>
                <ul>{nav}</ul>
            </nav>
            {article(ctx, page, controller)}
        </div>
    }
    .into_any();
    Page::new(title, description, body)
}

pub fn plain_page(ctx: &PageContext, page: ContentPage) -> Page {
    let title = page.title.clone();
    let description = page.description.clone();
    Page::new(
        title,
        description,
        article(ctx, page, None::<()>).into_any(),
    )
}

/// The page's text under its title; `aside` (the data controller of a KVKK notice) right
/// under the title, where the notice must name it first.
fn article<A: IntoView + 'static>(
    ctx: &PageContext,
    page: ContentPage,
    aside: Option<A>,
) -> impl IntoView + use<A> {
    let html = markdown::render(&page.body_markdown);
    let updated = page.updated.map(|date| {
        let iso = date.to_string();
        view! {
            <p class="meta">
                {ctx.t("last-updated")} ": " <time datetime=iso>{format_date_short(date, ctx.locale)}</time>
            </p>
        }
    });
    view! {
        <article class="prose">
            <header class="prose__header">
                <h1>{page.title}</h1>
                <p class="lead">{page.description}</p>
                {updated}
            </header>
            {aside}
            <div inner_html=html></div>
        </article>
    }
}

//! `/`: the public home page with the platform's facts, the investor-area cards and the
//! fund-application card.

use leptos::prelude::*;

use crate::domain::money::MINIMUM_INVESTMENT;
use crate::pages::blog::{PostSummary, post_list};
use crate::shell::{Page, PageContext};

/// The platform's figures: deal flow, round size and length, the minimum investment.
fn stats(ctx: &PageContext) -> impl IntoView + use<> {
    let items = [
        ("150-200".to_owned(), "home-stat-screened"),
        ("20-30".to_owned(), "home-stat-meetings"),
        ("2-3".to_owned(), "home-stat-deals"),
        (ctx.t("home-stat-round-value"), "home-stat-round"),
        (ctx.t("home-stat-days-value"), "home-stat-days"),
        (MINIMUM_INVESTMENT.format(ctx.locale), "home-stat-minimum"),
    ]
    .into_iter()
    .map(|(value, label)| {
        view! {
            <li class="stat">
                <span class="stat__value">{value}</span>
                <span class="stat__label">{ctx.t(label)}</span>
            </li>
        }
    })
    .collect_view();
    view! {
        <section class="stats" aria-labelledby="home-stats">
            <h2 class="visually-hidden" id="home-stats">{ctx.t("home-stats-title")}</h2>
            <ul class="stat-list">{items}</ul>
        </section>
    }
}

/// How investing works, in five steps.
fn steps(ctx: &PageContext) -> impl IntoView + use<> {
    let items = (1..=5)
        .map(|n| {
            view! {
                <li class="step">
                    <span class="step__num" aria-hidden="true">{n}</span>
                    <strong>{ctx.t(&format!("home-step-{n}-title"))}</strong>
                    <p>{ctx.t(&format!("home-step-{n}-text"))}</p>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="section" id="how-it-works" aria-labelledby="home-steps">
            <h2 class="section__title" id="home-steps">{ctx.t("home-steps-title")}</h2>
            <p class="section__lead">{ctx.t("home-steps-lead")}</p>
            <ol class="steps">{items}</ol>
        </section>
    }
}

/// The investor areas, each a card, then the fund-application card.
fn area_cards(ctx: &PageContext) -> impl IntoView + use<> {
    let cards = [
        ("portfolio", "/userInvestments"),
        ("pending", "/pendingInvestments"),
        ("startups", "/startups"),
        ("reports", "/reports"),
    ]
    .into_iter()
    .map(|(key, href)| {
        view! {
            <article class="card">
                <h3 class="card__title">{ctx.t(&format!("home-card-{key}-title"))}</h3>
                <p>{ctx.t(&format!("home-card-{key}-text"))}</p>
                <a class="card__link" href=href>{ctx.t(&format!("home-card-{key}-link"))}</a>
            </article>
        }
    })
    .collect_view();
    view! {
        <section class="section" aria-labelledby="home-cards">
            <h2 class="section__title" id="home-cards">{ctx.t("home-cards-title")}</h2>
            <p class="section__lead">{ctx.t("home-cards-lead")}</p>
            <div class="card-grid">
                {cards}
                <article class="card card--accent">
                    <h3 class="card__title">{ctx.t("home-fund-title")}</h3>
                    <p>{ctx.t("home-fund-text")}</p>
                    <a class="card__link" href="/gsyf">{ctx.t("home-fund-button")}</a>
                </article>
            </div>
        </section>
    }
}

/// The latest blog posts, if there are any.
fn latest_blog(ctx: &PageContext, posts: Vec<PostSummary>) -> Option<impl IntoView + use<>> {
    (!posts.is_empty()).then(|| {
        view! {
            <section class="section" aria-labelledby="home-blog">
                <h2 class="section__title" id="home-blog">{ctx.t("home-blog-title")}</h2>
                {post_list(ctx, posts)}
            </section>
        }
    })
}

/// Visitors are invited to sign up or sign in.
fn join(ctx: &PageContext) -> Option<impl IntoView + use<>> {
    ctx.viewer.is_none().then(|| {
        view! {
            <section class="section" aria-labelledby="home-join">
                <h2 class="section__title" id="home-join">{ctx.t("home-join-title")}</h2>
                <p class="section__lead">{ctx.t("home-join-text")}</p>
                <div class="hero__actions">
                    <a class="button button--primary" href="/signup">{ctx.t("sign-up")}</a>
                    <a class="button button--ghost" href="/signin">{ctx.t("sign-in")}</a>
                </div>
            </section>
        }
    })
}

/// A member who has not finished onboarding is shown where to resume.
fn onboarding_banner(ctx: &PageContext) -> Option<impl IntoView + use<>> {
    ctx.viewer
        .and_then(|v| v.onboarding_path.clone())
        .map(|href| {
            view! {
                <div class="flash flash--info" role="status">
                    {ctx.t("home-onboarding-banner")} " "
                    <a href=href>{ctx.t("home-onboarding-link")}</a>
                </div>
            }
        })
}

pub fn home_page(ctx: &PageContext, latest_posts: Vec<PostSummary>) -> Page {
    let body = view! {
        {onboarding_banner(ctx)}
        <section class="hero">
            <h1>{ctx.t("home-hero-title")}</h1>
            <p class="lead">{ctx.t("home-hero-lead")}</p>
            <div class="hero__actions">
                <a class="button button--primary" href="/startups">{ctx.t("home-hero-primary")}</a>
                <a class="button button--ghost" href="#how-it-works">{ctx.t("home-hero-secondary")}</a>
            </div>
        </section>
        {stats(ctx)}
        {steps(ctx)}
        {area_cards(ctx)}
        {latest_blog(ctx, latest_posts)}
        {join(ctx)}
    }
    .into_any();
    let mut page = Page::new(ctx.t("home-title"), ctx.t("home-description"), body);
    page.json_ld = Some(serde_json::json!({
        "@context": "https://schema.org",
        "@type": "Organization",
        "name": ctx.t("site-name"),
        "url": ctx.public_url,
        "logo": format!("{}/favicon.svg", ctx.public_url),
        "description": ctx.t("home-description"),
    }));
    page
}

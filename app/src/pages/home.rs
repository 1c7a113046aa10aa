//! `/`: the public home page with the platform's facts, the investor-area cards and the
//! fund-application card.

use leptos::prelude::*;

use crate::domain::money::MINIMUM_INVESTMENT;
use crate::pages::blog::{PostSummary, post_list};
use crate::shell::{Page, PageContext};

/// The hero's drawing: a round's card over a rising chart, and the brand's linked rings.
/// Decorative, so it carries no text to translate.
fn hero_art() -> impl IntoView {
    view! {
        <svg class="hero__art" viewBox="0 0 420 340" aria-hidden="true" focusable="false">
            <rect x="20" y="20" width="340" height="210" rx="18" fill="#fff" fill-opacity=".06" stroke="#fff" stroke-opacity=".18" />
            <path d="M44 80H336M44 130H336M44 180H336" stroke="#fff" stroke-opacity=".08" stroke-width="2" />
            <path d="M44 200 96 178 140 186 188 148 232 156 280 104 336 72V210H44Z" fill="#2dd4bf" fill-opacity=".14" />
            <path d="M44 200 96 178 140 186 188 148 232 156 280 104 336 72" fill="none" stroke="#2dd4bf" stroke-width="4" stroke-linecap="round" stroke-linejoin="round" />
            <circle cx="336" cy="72" r="7" fill="#2dd4bf" />
            <rect x="146" y="186" width="252" height="134" rx="16" fill="#04101f" fill-opacity=".35" />
            <rect x="140" y="178" width="252" height="134" rx="16" fill="#fff" />
            <rect x="162" y="200" width="40" height="40" rx="10" fill="#0f766e" />
            <rect x="216" y="204" width="112" height="11" rx="5.5" fill="#14243f" />
            <rect x="216" y="224" width="72" height="9" rx="4.5" fill="#c3cad6" />
            <rect x="162" y="256" width="208" height="10" rx="5" fill="#e7f5f2" />
            <rect x="162" y="256" width="146" height="10" rx="5" fill="#0f766e" />
            <rect x="162" y="282" width="64" height="9" rx="4.5" fill="#c3cad6" />
            <rect x="246" y="282" width="48" height="9" rx="4.5" fill="#c3cad6" />
            <rect x="318" y="280" width="52" height="14" rx="7" fill="#e7f5f2" />
            <circle cx="52" cy="290" r="24" fill="none" stroke="#2dd4bf" stroke-width="6" />
            <circle cx="80" cy="290" r="24" fill="none" stroke="#fff" stroke-width="6" />
        </svg>
    }
}

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
            <p class="stats__note">{ctx.t("home-limit-note")} " " <a href="/limits">{ctx.t("limits-calculate")}</a></p>
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
            <div class="hero__text">
                <p class="hero__eyebrow">{ctx.t("home-hero-eyebrow")}</p>
                <h1>{ctx.t("home-hero-title")}</h1>
                <p class="lead">{ctx.t("home-hero-lead")}</p>
                <div class="hero__actions">
                    <a class="button button--primary" href="/startups">{ctx.t("home-hero-primary")}</a>
                    <a class="button button--ghost" href="#how-it-works">{ctx.t("home-hero-secondary")}</a>
                </div>
                <ul class="hero__trust">
                    <li>{ctx.t("home-hero-trust-approved")}</li>
                    <li>{ctx.t("home-hero-trust-escrow")}</li>
                    <li>{ctx.t("home-hero-trust-refund")}</li>
                </ul>
            </div>
            {hero_art()}
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

//! Pieces shared by many pages: header, footer, the newsletter box.

use leptos::prelude::*;
use serde_json::json;

use crate::i18n::Locale;
use crate::shell::{PageContext, Viewer};

/// The nine policy pages, in footer order; each slug is also its Fluent id suffix.
pub const POLICY_SLUGS: [&str; 9] = [
    "degerlendirme-politikasi",
    "genel-risk-bildirimi",
    "cikar-catismasi",
    "bilgi-guvenligi",
    "kvkk-genel-aydinlatma-metni",
    "cerez-politikasi",
    "uyelik-sozlesmesi",
    "kitle-fonlamasi",
    "uye-elektronik-ticaret",
];

/// The platform's social accounts shown in the footer.
const SOCIAL_LINKS: [(&str, &str); 4] = [
    ("LinkedIn", "https://www.linkedin.com/company/ortak-yatirim"),
    ("X", "https://x.com/ortakyatirim"),
    ("Instagram", "https://www.instagram.com/ortakyatirim"),
    ("YouTube", "https://www.youtube.com/@ortakyatirim"),
];

fn nav_link(ctx: &PageContext, href: &'static str, label_id: &str) -> impl IntoView + use<> {
    let current = (ctx.path == href).then_some("page");
    view! {
        <li>
            <a href=href aria-current=current>{ctx.t(label_id)}</a>
        </li>
    }
}

/// The main navigation: the investor's areas when signed in, the public pages otherwise.
fn site_nav_links(ctx: &PageContext) -> AnyView {
    if ctx.viewer.is_some() {
        view! {
            {nav_link(ctx, "/overview", "nav-overview")}
            {nav_link(ctx, "/startups", "nav-startups")}
            {nav_link(ctx, "/userInvestments", "nav-my-investments")}
            {nav_link(ctx, "/pendingInvestments", "nav-pending-investments")}
        }
        .into_any()
    } else {
        view! {
            {nav_link(ctx, "/", "nav-home")}
            {nav_link(ctx, "/startups", "nav-startups")}
            {nav_link(ctx, "/faq", "nav-faq")}
            {nav_link(ctx, "/blog", "nav-blog")}
        }
        .into_any()
    }
}

/// The navigation as a menu for phones: a disclosure, so it opens without JavaScript. Only
/// one of it and the inline navigation is displayed at a width.
fn nav_menu(ctx: &PageContext) -> impl IntoView + use<> {
    view! {
        <details class="nav-menu">
            <summary>
                <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                    <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
                </svg>
                <span class="nav-menu__label">{ctx.t("nav-menu")}</span>
            </summary>
            <nav class="nav-menu__panel" aria-label=ctx.t("nav-menu")>
                <ul>{site_nav_links(ctx)}</ul>
            </nav>
        </details>
    }
}

/// The gear icon linking to the profile's settings.
fn settings_link(ctx: &PageContext) -> impl IntoView + use<> {
    view! {
        <a class="icon-link" href="/profile" title=ctx.t("settings")>
            <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                <path
                    fill="currentColor"
                    d="M19.4 13a7.7 7.7 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.6 7.6 0 0 0-1.7-1L15 3.3h-4l-.4 2.6a7.6 7.6 0 0 0-1.7 1l-2.5-1-2 3.5L6.5 11a7.7 7.7 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.6 7.6 0 0 0 1.7 1l.4 2.6h4l.4-2.6a7.6 7.6 0 0 0 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z"
                />
            </svg>
            <span class="visually-hidden">{ctx.t("settings")}</span>
        </a>
    }
}

/// The signed-in user's menu: avatar and name, their pages, and signing out.
fn avatar_menu(ctx: &PageContext, viewer: &Viewer) -> impl IntoView + use<> {
    let name = format!("{} {}", viewer.first_name, viewer.last_name);
    let avatar = viewer
        .avatar_url
        .clone()
        .unwrap_or_else(|| "/avatar.svg".to_owned());
    view! {
        <details class="avatar-menu">
            <summary>
                <img class="avatar" src=avatar alt="" width="32" height="32" />
                <span class="avatar-menu__name">{name.clone()}</span>
            </summary>
            <div class="avatar-menu__panel">
                <p class="avatar-menu__who">
                    <strong>{name}</strong>
                    <span>{viewer.position.clone()}</span>
                </p>
                <ul>
                    {(!ctx.staff_nav.is_empty()).then(|| view! { <li><a href="/dashboard">{ctx.t("menu-dashboard")}</a></li> })}
                    <li><a href="/profile">{ctx.t("menu-profile")}</a></li>
                    <li><a href="/gsyf">{ctx.t("menu-gsyf")}</a></li>
                    <li><a href="/favorites">{ctx.t("menu-favorites")}</a></li>
                    <li><a href="/documents">{ctx.t("menu-documents")}</a></li>
                    <li><a href="/qualifiedInvestor">{ctx.t("menu-qualified")}</a></li>
                    <li><a href="/contactUs">{ctx.t("menu-contact")}</a></li>
                    <li><a href="/profile?tab=security">{ctx.t("menu-settings")}</a></li>
                </ul>
                <form class="avatar-menu__logout" method="post" action="/logout">
                    <input type="hidden" name="csrf" value=ctx.csrf.to_owned() />
                    <button class="link-button" type="submit">{ctx.t("logout")}</button>
                </form>
            </div>
        </details>
    }
}

/// The account tools: settings and the user's menu when signed in, sign-in and sign-up
/// otherwise.
fn account_tools(ctx: &PageContext) -> AnyView {
    match ctx.viewer {
        Some(viewer) => view! { {settings_link(ctx)}{avatar_menu(ctx, viewer)} }.into_any(),
        None => view! {
            <a class="button button--ghost" href="/signin">{ctx.t("sign-in")}</a>
            <a class="button button--primary" href="/signup">{ctx.t("sign-up")}</a>
        }
        .into_any(),
    }
}

/// The site header: brand, the page title, navigation, language toggle and account tools.
pub fn header(ctx: &PageContext, title: &str) -> AnyView {
    let other = ctx.locale.other();
    view! {
        <header class="site-header">
            <div class="container site-header__inner">
                <a class="brand" href="/">
                    {crate::brand::logo(ctx.t("site-name"))}
                </a>
                <span class="site-header__title">{title.to_owned()}</span>
                <nav class="site-nav" aria-label=ctx.t("nav-label")>
                    <ul>{site_nav_links(ctx)}</ul>
                </nav>
                {nav_menu(ctx)}
                <div class="site-header__tools">
                    <a
                        class="lang-toggle"
                        href=ctx.switch_href(other)
                        hreflang=other.code()
                        lang=other.code()
                        title=ctx.t("lang-switch-label")
                        rel="alternate"
                    >
                        {ctx.t("lang-switch-text")}
                    </a>
                    {account_tools(ctx)}
                </div>
            </div>
        </header>
    }
    .into_any()
}

/// The site footer: call to action, policy, platform and social links, newsletter, small print.
/// A `slim` footer (inside flows: onboarding, MKK, investing and payment steps, the startup
/// application, the founders' and funds' dashboard) keeps the policies and the small print and
/// leaves out the call to invest, the platform and social links and the newsletter.
pub fn footer(ctx: &PageContext, with_newsletter: bool, slim: bool) -> AnyView {
    let policies = POLICY_SLUGS
        .iter()
        .map(|slug| {
            let href = format!("/politikalar/{slug}");
            view! {
                <li>
                    <a href=href>{ctx.t(&format!("policy-{slug}"))}</a>
                </li>
            }
        })
        .collect_view();
    let social = SOCIAL_LINKS
        .iter()
        .map(|(name, href)| {
            view! {
                <li>
                    <a href=*href rel="noopener noreferrer me">{*name}</a>
                </li>
            }
        })
        .collect_view();
    let footer_class = if slim {
        "site-footer site-footer--slim"
    } else {
        "site-footer"
    };
    view! {
        <footer class=footer_class>
            <div class="container">
                {(!slim).then(|| view! {
                    <section class="footer-cta">
                        <h2>{ctx.t("footer-cta-title")}</h2>
                        <p>{ctx.t("footer-cta-text")}</p>
                        <a class="button button--primary" href="/startups">{ctx.t("footer-cta-button")}</a>
                    </section>
                })}
                <div class="footer-grid">
                    <nav class="footer-links" aria-labelledby="footer-policies">
                        <h2 class="footer-links__title" id="footer-policies">{ctx.t("footer-policies")}</h2>
                        <ul>{policies}</ul>
                    </nav>
                    {(!slim).then(|| view! {
                        <nav class="footer-links" aria-labelledby="footer-platform">
                            <h2 class="footer-links__title" id="footer-platform">{ctx.t("footer-platform")}</h2>
                            <ul>
                                <li><a href="/startups">{ctx.t("nav-startups")}</a></li>
                                <li><a href="/track-record">{ctx.t("track-link")}</a></li>
                                <li><a href="/limits">{ctx.t("limits-title")}</a></li>
                                <li><a href="/techinvestor">{ctx.t("techinvestor-link")}</a></li>
                                <li><a href="/faq">{ctx.t("nav-faq")}</a></li>
                                <li><a href="/blog">{ctx.t("nav-blog")}</a></li>
                                <li><a href="/gsyf">{ctx.t("menu-gsyf")}</a></li>
                                <li><a href="/academy">{ctx.t("footer-academy")}</a></li>
                            </ul>
                        </nav>
                        <nav class="footer-links" aria-labelledby="footer-social">
                            <h2 class="footer-links__title" id="footer-social">{ctx.t("footer-social")}</h2>
                            <ul>{social}</ul>
                        </nav>
                    })}
                    {(with_newsletter && !slim).then(|| view! {
                        <section class="newsletter-box" aria-labelledby="newsletter-title">
                            <h2 id="newsletter-title">{ctx.t("newsletter-title")}</h2>
                            <p>{ctx.t("newsletter-text")}</p>
                            {newsletter_island(ctx, &NewsletterState::default())}
                        </section>
                    })}
                </div>
                {crate::pages::about::operator_footer(ctx)}
                <p class="footer-legal">{ctx.t("footer-legal")}</p>
                <p class="footer-legal">
                    {ctx.locale.t_args("footer-copyright", &[("year", i64::from(ctx.year).into()), ("name", ctx.operator.legal_name.clone().into())])}
                </p>
            </div>
        </footer>
    }
    .into_any()
}

/// What the newsletter form shows: the typed address and a message, if any.
#[derive(Clone, Debug, Default)]
pub struct NewsletterState {
    pub email: String,
    /// Fluent id of the error for the e-mail field.
    pub error_id: Option<&'static str>,
    /// Where a successful no-JavaScript submission returns to; the current page by default.
    pub return_to: Option<String>,
}

/// The newsletter box: a plain form that posts without JavaScript, and the React island's
/// mount point, whose props carry the same texts in the page's language.
pub fn newsletter_island(ctx: &PageContext, state: &NewsletterState) -> impl IntoView + use<> {
    let locale: Locale = ctx.locale;
    let error = state.error_id.map(|id| locale.t(id));
    let props = json!({
        "action": "/api/newsletter",
        "csrf": ctx.csrf,
        "email": state.email,
        "error": error,
        "labels": {
            "label": locale.t("newsletter-label"),
            "placeholder": locale.t("newsletter-placeholder"),
            "button": locale.t("newsletter-button"),
            "sending": locale.t("newsletter-sending"),
            "consent": locale.t("newsletter-consent"),
        },
        "messages": {
            "invalid": locale.t("validation-email"),
            "required": locale.t("validation-required"),
            "failed": locale.t("newsletter-failed"),
        },
    })
    .to_string();
    let has_error = error.is_some();
    let return_to = state
        .return_to
        .clone()
        .unwrap_or_else(|| ctx.path.to_owned());
    view! {
        <div data-island="newsletter" data-props=props>
            <form class="newsletter" method="post" action="/newsletter" novalidate>
                <input type="hidden" name="csrf" value=ctx.csrf.to_owned() />
                <input type="hidden" name="return" value=return_to />
                <label class="field__label" for="newsletter-email">{locale.t("newsletter-label")}</label>
                <div class="newsletter__row">
                    <input
                        class="input"
                        id="newsletter-email"
                        type="email"
                        name="email"
                        autocomplete="email"
                        required
                        placeholder=locale.t("newsletter-placeholder")
                        value=state.email.clone()
                        aria-invalid=has_error.then_some("true")
                        aria-describedby=has_error.then_some("newsletter-email-error")
                    />
                    <button class="button button--primary" type="submit">{locale.t("newsletter-button")}</button>
                </div>
                <p class="field__hint">{locale.t("newsletter-consent")}</p>
                {error.map(|message| view! {
                    <p class="newsletter__message newsletter__message--error" id="newsletter-email-error" role="alert">
                        {message}
                    </p>
                })}
            </form>
        </div>
    }
}

/// A bar chart as HTML: one row per entry with its label, a `<meter>` against the largest value
/// and the value as written, so the text stays legible at any width (an SVG's text shrinks with
/// it) and no JavaScript or inline style is needed. Rows are `(label, value, value as shown)`.
pub fn bar_list(rows: Vec<(String, i64, String)>) -> impl IntoView + use<> {
    let max = rows.iter().map(|(_, v, _)| *v).max().unwrap_or(1).max(1);
    let rows = rows
        .into_iter()
        .map(|(label, value, shown)| {
            view! {
                <li class="chart__row">
                    <span class="chart__label">{label.clone()}</span>
                    <meter class="chart__bar" min="0" max=max.to_string() value=value.to_string() aria-label=label></meter>
                    <span class="chart__value">{shown}</span>
                </li>
            }
        })
        .collect_view();
    view! { <ul class="chart chart--bars">{rows}</ul> }
}

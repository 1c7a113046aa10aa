//! The document shell: one render path wraps every page in `<html>`, head metadata, the
//! header and footer the layout rules allow, and the scripts of the islands the page uses.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::components::{footer, header};
use crate::i18n::Locale;
use crate::layout::{Footer, chrome_for};

/// Built asset URLs (content-hashed), produced by the server's build from esbuild's manifest.
#[derive(Clone, Debug, Default)]
pub struct Assets {
    pub style: String,
    /// The typeface files, preloaded so text does not wait for the stylesheet to ask.
    pub fonts: Vec<String>,
    pub islands: Vec<IslandAsset>,
}

#[derive(Clone, Debug)]
pub struct IslandAsset {
    pub name: String,
    pub src: String,
    /// Chunks the island imports statically, preloaded to avoid a request waterfall.
    pub preload: Vec<String>,
}

/// The signed-in user as the header shows them.
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    pub first_name: String,
    pub last_name: String,
    pub position: String,
    pub avatar_url: Option<String>,
    /// The onboarding step to resume, while onboarding is unfinished.
    pub onboarding_path: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FlashKind {
    Success,
    Error,
}

/// A one-time message carried across a redirect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flash {
    pub kind: FlashKind,
    pub message_id: String,
}

/// Everything about the request that the shell and pages need.
pub struct PageContext<'a> {
    pub locale: Locale,
    pub path: &'a str,
    /// The raw query string, if any, used to keep filters when switching language.
    pub query: Option<&'a str>,
    /// Scheme and host the site is reached at, without a trailing slash.
    pub public_url: &'a str,
    pub csrf: &'a str,
    pub viewer: Option<&'a Viewer>,
    pub flash: Option<Flash>,
    pub assets: &'a Assets,
    pub year: i32,
    /// The staff navigation this viewer may open, `(path, Fluent id)`; empty for others.
    pub staff_nav: &'a [(&'a str, &'a str)],
    /// Who runs the platform.
    pub operator: &'a crate::domain::operator::Operator,
}

impl PageContext<'_> {
    pub fn t(&self, id: &str) -> String {
        self.locale.t(id)
    }

    /// The absolute URL of `path` in `locale`: Turkish is the bare URL, English adds `?lang=en`.
    pub fn url_in(&self, path: &str, locale: Locale) -> String {
        match locale {
            Locale::Tr => format!("{}{path}", self.public_url),
            Locale::En => format!("{}{path}?lang=en", self.public_url),
        }
    }

    /// The current path and query with `lang` set to `locale` (the language toggle's link).
    pub fn switch_href(&self, locale: Locale) -> String {
        let mut pairs: Vec<&str> = self
            .query
            .unwrap_or("")
            .split('&')
            .filter(|p| !p.is_empty() && !p.starts_with("lang="))
            .collect();
        let lang = format!("lang={}", locale.code());
        pairs.push(&lang);
        format!("{}?{}", self.path, pairs.join("&"))
    }
}

/// What a page contributes to the document.
pub struct Page {
    pub title: String,
    pub description: String,
    /// `website` or `article` for Open Graph.
    pub og_type: &'static str,
    /// Error and form-result pages ask search engines not to index them.
    pub indexable: bool,
    pub body: AnyView,
    /// Islands the page body uses, beyond the footer's newsletter box.
    pub islands: Vec<&'static str>,
    /// The newsletter page shows its own form, so the footer leaves its copy out.
    pub footer_newsletter: bool,
    /// Structured data for search engines (schema.org), written as a JSON-LD data block.
    pub json_ld: Option<serde_json::Value>,
}

impl Page {
    pub fn new(title: String, description: String, body: AnyView) -> Page {
        Page {
            title,
            description,
            og_type: "website",
            indexable: true,
            body,
            islands: Vec::new(),
            footer_newsletter: true,
            json_ld: None,
        }
    }
}

/// The module scripts of the islands in `islands`, and the chunks they import (preloaded,
/// each once).
fn island_scripts(assets: &Assets, islands: &[&str]) -> (Vec<String>, Vec<String>) {
    let scripts: Vec<&IslandAsset> = assets
        .islands
        .iter()
        .filter(|a| islands.contains(&a.name.as_str()))
        .collect();
    let mut preloads: Vec<String> = scripts.iter().flat_map(|a| a.preload.clone()).collect();
    preloads.sort();
    preloads.dedup();
    let srcs = scripts.iter().map(|a| a.src.clone()).collect();
    (preloads, srcs)
}

/// The language of this URL's own version: `?lang=en` pages are English, and an address
/// without it is the Turkish page (what crawlers, which send no Accept-Language, are given),
/// even when a visitor's browser asked for English there.
fn url_locale(ctx: &PageContext) -> Locale {
    match ctx
        .query
        .is_some_and(|q| q.split('&').any(|p| p == "lang=en"))
    {
        true => Locale::En,
        false => Locale::Tr,
    }
}

/// The `<head>`: title and description, robots, the canonical address and its language
/// alternates, Open Graph, structured data, the style sheet and the islands' scripts.
fn document_head(ctx: &PageContext, page: &Page) -> impl IntoView + use<> {
    // The footer's newsletter box is its plain form (no JavaScript on pages without islands);
    // /newsletter mounts the island.
    let (preloads, srcs) = island_scripts(ctx.assets, &page.islands);
    let site = ctx.t("site-name");
    let full_title = if page.title.contains(&site) {
        page.title.clone()
    } else {
        format!("{} | {site}", page.title)
    };
    let canonical = ctx.url_in(ctx.path, url_locale(ctx));
    let tr_url = ctx.url_in(ctx.path, Locale::Tr);
    let en_url = ctx.url_in(ctx.path, Locale::En);
    // A data block, not a script: CSP does not run it. `<` is escaped so no text in it can
    // close the element.
    let json_ld = page
        .json_ld
        .as_ref()
        .map(|data| data.to_string().replace('<', "\\u003c"));
    view! {
        <head>
            <meta charset="utf-8" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <title>{full_title}</title>
            <meta name="description" content=page.description.clone() />
            {(!page.indexable).then(|| view! { <meta name="robots" content="noindex" /> })}
            <link rel="canonical" href=canonical.clone() />
            <link rel="alternate" hreflang="tr" href=tr_url.clone() />
            <link rel="alternate" hreflang="en" href=en_url />
            <link rel="alternate" hreflang="x-default" href=tr_url />
            {og("og:site_name", site)}
            {og("og:type", page.og_type)}
            {og("og:title", page.title.clone())}
            {og("og:description", page.description.clone())}
            {og("og:url", canonical)}
            {og("og:locale", ctx.locale.og_locale())}
            {og("og:locale:alternate", ctx.locale.other().og_locale())}
            <meta name="theme-color" content="#0b2540" />
            {json_ld.map(|data| view! { <script type="application/ld+json" inner_html=data></script> })}
            <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
            {ctx
                .assets
                .fonts
                .iter()
                .map(|href| {
                    view! {
                        <link rel="preload" href=href.clone() r#as="font" r#type="font/woff2" crossorigin=true />
                    }
                })
                .collect_view()}
            <link rel="stylesheet" href=ctx.assets.style.clone() />
            {preloads
                .into_iter()
                .map(|href| view! { <link rel="modulepreload" href=href /> })
                .collect_view()}
            {srcs
                .into_iter()
                .map(|src| view! { <script type="module" src=src></script> })
                .collect_view()}
        </head>
    }
}

/// Renders a complete HTML document for `page`.
pub fn render_document(ctx: &PageContext, page: Page) -> String {
    let chrome = chrome_for(ctx.path);
    let bare = !chrome.header && chrome.footer == Footer::None;
    let flash = ctx.flash.clone();
    let html = Owner::new().with(|| {
        let head = document_head(ctx, &page);
        view! {
            <html lang=ctx.locale.code()>
                {head}
                <body class=bare.then_some("bare")>
                    <a class="skip-link" href="#main">{ctx.t("skip-to-content")}</a>
                    {chrome.header.then(|| header(ctx, &page.title))}
                    <main id="main" class="site-main">
                        <div class="container">
                            {flash.map(|f| flash_view(ctx.locale, f))}
                            {page.body}
                        </div>
                    </main>
                    {(chrome.footer != Footer::None)
                        .then(|| footer(ctx, page.footer_newsletter, chrome.footer == Footer::Slim))}
                    // A bare page (signing in, a mailed link's page) still names who runs Ortak.
                    {bare.then(|| view! { <footer class="bare-footer">{crate::pages::about::operator_line(ctx)}</footer> })}
                </body>
            </html>
        }
        .to_html()
    });
    // Leptos marks empty optional slots with `<!>`, a hydration aid we never use and an HTML
    // parse error; text and attribute values are escaped, so only markers match.
    format!("<!DOCTYPE html>{}", html.replace("<!>", ""))
}

/// An Open Graph `<meta property content>`; `property` is not an attribute `view!` knows.
fn og(property: &'static str, content: impl Into<String>) -> impl IntoView {
    leptos::html::meta()
        .attr("property", property)
        .attr("content", content.into())
}

fn flash_view(locale: Locale, flash: Flash) -> impl IntoView {
    let message = locale.t(&flash.message_id);
    match flash.kind {
        FlashKind::Success => {
            view! { <div class="flash flash--success" role="status">{message}</div> }.into_any()
        }
        FlashKind::Error => {
            view! { <div class="flash flash--error" role="alert">{message}</div> }.into_any()
        }
    }
}

//! `/blog` and `/blog/{slug}`.

use leptos::prelude::*;
use time::Date;

use crate::domain::time_fmt::format_date_long;
use crate::i18n::Locale;
use crate::markdown;
use crate::shell::{Page, PageContext};

#[derive(Clone, Debug)]
pub struct PostSummary {
    pub slug: String,
    pub title: String,
    pub description: String,
    pub published: Date,
}

pub struct Post {
    pub summary: PostSummary,
    pub body_markdown: String,
}

pub fn published(date: Date, locale: Locale) -> impl IntoView + use<> {
    view! { <time datetime=date.to_string()>{format_date_long(date, locale)}</time> }
}

/// Post cards, also used on the home page.
pub fn post_list(ctx: &PageContext, posts: Vec<PostSummary>) -> impl IntoView + use<> {
    let locale = ctx.locale;
    let items = posts
        .into_iter()
        .map(|post| {
            let href = format!("/blog/{}", post.slug);
            view! {
                <li class="post-card">
                    <h2><a href=href>{post.title}</a></h2>
                    <p class="meta">{published(post.published, locale)}</p>
                    <p>{post.description}</p>
                </li>
            }
        })
        .collect_view();
    view! { <ul class="post-list">{items}</ul> }
}

pub fn blog_index(ctx: &PageContext, posts: Vec<PostSummary>) -> Page {
    let empty = posts
        .is_empty()
        .then(|| view! { <p class="muted">{ctx.t("blog-empty")}</p> });
    let body = view! {
        <header class="prose__header">
            <h1>{ctx.t("blog-title")}</h1>
            <p class="lead">{ctx.t("blog-description")}</p>
        </header>
        {empty}
        {post_list(ctx, posts)}
    }
    .into_any();
    Page::new(ctx.t("blog-title"), ctx.t("blog-description"), body)
}

pub fn blog_post(ctx: &PageContext, post: Post) -> Page {
    let html = markdown::render(&post.body_markdown);
    let PostSummary {
        title,
        description,
        published: date,
        ..
    } = post.summary;
    let body = view! {
        <article class="prose">
            <header class="prose__header">
                <h1>{title.clone()}</h1>
                <p class="lead">{description.clone()}</p>
                <p class="meta">{ctx.t("published-on")} ": " {published(date, ctx.locale)}</p>
            </header>
            <div inner_html=html></div>
            <p>
                <a href="/blog">{ctx.t("blog-back")}</a>
            </p>
        </article>
    }
    .into_any();
    let json_ld = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": title,
        "description": description,
        "datePublished": date.to_string(),
        "inLanguage": ctx.locale.code(),
        "url": ctx.url_in(ctx.path, ctx.locale),
        "publisher": { "@type": "Organization", "name": ctx.t("site-name"), "url": ctx.public_url },
    });
    let mut page = Page::new(title, description, body);
    page.og_type = "article";
    page.json_ld = Some(json_ld);
    page
}

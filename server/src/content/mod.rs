//! Public content: home, policies, `/techinvestor`, FAQ, blog, sitemap and robots.txt.

pub mod seed;

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use ortak_app::components::POLICY_SLUGS;
use ortak_app::i18n::Locale;
use ortak_app::pages::blog::{
    Post, PostSummary, blog_index as blog_index_page, blog_post as blog_post_page,
};
use ortak_app::pages::content::{ContentPage, plain_page, policy_page};
use ortak_app::pages::faq::{FaqItem, faq_page};
use ortak_app::pages::home::home_page;
use sqlx::FromRow;

use crate::db::parse_utc;
use crate::error::AppError;
use crate::state::AppState;
use crate::web::{Access, Ctx, Routes};

/// The text in the page's language, or the other language's when that one is empty.
fn pick(locale: Locale, tr: String, en: String) -> String {
    match locale {
        Locale::Tr if !tr.trim().is_empty() => tr,
        Locale::En if !en.trim().is_empty() => en,
        Locale::Tr => en,
        Locale::En => tr,
    }
}

fn date_of(text: &str) -> Option<time::Date> {
    parse_utc(text).map(ortak_app::domain::time_fmt::istanbul_date)
}

#[derive(FromRow)]
struct PageRow {
    slug: String,
    title_tr: String,
    title_en: String,
    description_tr: String,
    description_en: String,
    body_tr: String,
    body_en: String,
    updated_at: String,
}

impl PageRow {
    fn localized(self, locale: Locale) -> ContentPage {
        ContentPage {
            updated: date_of(&self.updated_at),
            slug: self.slug,
            title: pick(locale, self.title_tr, self.title_en),
            description: pick(locale, self.description_tr, self.description_en),
            body_markdown: pick(locale, self.body_tr, self.body_en),
        }
    }
}

async fn load_page(state: &AppState, slug: &str) -> Result<PageRow, AppError> {
    sqlx::query_as::<_, PageRow>(
        "SELECT slug, title_tr, title_en, description_tr, description_en, body_tr, body_en, updated_at
         FROM pages WHERE slug = ?",
    )
    .bind(slug)
    .fetch_optional(state.db())
    .await?
    .ok_or(AppError::NotFound)
}

#[derive(FromRow)]
struct PostRow {
    slug: String,
    title_tr: String,
    title_en: String,
    description_tr: String,
    description_en: String,
    body_tr: String,
    body_en: String,
    published_at: String,
}

impl PostRow {
    fn summary(&mut self, locale: Locale) -> PostSummary {
        PostSummary {
            slug: self.slug.clone(),
            title: pick(
                locale,
                std::mem::take(&mut self.title_tr),
                std::mem::take(&mut self.title_en),
            ),
            description: pick(
                locale,
                std::mem::take(&mut self.description_tr),
                std::mem::take(&mut self.description_en),
            ),
            published: date_of(&self.published_at).unwrap_or(time::Date::MIN),
        }
    }
}

const POST_COLUMNS: &str = "slug, title_tr, title_en, description_tr, description_en, '' AS body_tr, '' AS body_en, published_at";

async fn latest_posts(
    state: &AppState,
    locale: Locale,
    limit: i64,
) -> Result<Vec<PostSummary>, AppError> {
    let rows = sqlx::query_as::<_, PostRow>(&format!(
        "SELECT {POST_COLUMNS} FROM blog_posts WHERE published_at IS NOT NULL
         ORDER BY published_at DESC, id DESC LIMIT ?"
    ))
    .bind(limit)
    .fetch_all(state.db())
    .await?;
    Ok(rows.into_iter().map(|mut r| r.summary(locale)).collect())
}

/// Visitors get the public home page; signed-in members their overview (spec: "Home/overview").
pub async fn home(ctx: Ctx) -> Result<Response, AppError> {
    if let Some(user) = ctx.user.clone() {
        return crate::investing::portfolio::overview_for(&ctx, &user).await;
    }
    let posts = latest_posts(ctx.state(), ctx.locale, 3).await?;
    let page = ctx.page_ctx(|pc| home_page(pc, posts));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn policy(ctx: Ctx, Path(slug): Path<String>) -> Result<Response, AppError> {
    if !POLICY_SLUGS.contains(&slug.as_str()) {
        return Err(AppError::NotFound);
    }
    let row = load_page(ctx.state(), &slug).await?;
    let page = ctx.page_ctx(|pc| policy_page(pc, row.localized(pc.locale)));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn techinvestor(ctx: Ctx) -> Result<Response, AppError> {
    let row = load_page(ctx.state(), "techinvestor").await?;
    let page = ctx.page_ctx(|pc| plain_page(pc, row.localized(pc.locale)));
    Ok(ctx.render(StatusCode::OK, page).await)
}

#[derive(FromRow)]
struct FaqRow {
    question_tr: String,
    question_en: String,
    answer_tr: String,
    answer_en: String,
}

pub async fn faq(ctx: Ctx) -> Result<Response, AppError> {
    let rows = sqlx::query_as::<_, FaqRow>(
        "SELECT question_tr, question_en, answer_tr, answer_en FROM faqs
         WHERE published = 1 ORDER BY position, id",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let items = rows
        .into_iter()
        .map(|r| FaqItem {
            question: pick(ctx.locale, r.question_tr, r.question_en),
            answer_markdown: pick(ctx.locale, r.answer_tr, r.answer_en),
        })
        .collect();
    let page = ctx.page_ctx(|pc| faq_page(pc, items));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn blog_index(ctx: Ctx) -> Result<Response, AppError> {
    let posts = latest_posts(ctx.state(), ctx.locale, 100).await?;
    let page = ctx.page_ctx(|pc| blog_index_page(pc, posts));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn blog_post(ctx: Ctx, Path(slug): Path<String>) -> Result<Response, AppError> {
    let mut row = sqlx::query_as::<_, PostRow>(
        "SELECT slug, title_tr, title_en, description_tr, description_en, body_tr, body_en, published_at
         FROM blog_posts WHERE slug = ? AND published_at IS NOT NULL",
    )
    .bind(&slug)
    .fetch_optional(ctx.state().db())
    .await?
    .ok_or(AppError::NotFound)?;
    let summary = row.summary(ctx.locale);
    let body_markdown = pick(ctx.locale, row.body_tr, row.body_en);
    let page = ctx.page_ctx(|pc| {
        blog_post_page(
            pc,
            Post {
                summary,
                body_markdown,
            },
        )
    });
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// Every public URL, each with its Turkish and English alternates.
pub async fn sitemap(State(state): State<AppState>) -> Result<Response, AppError> {
    let mut paths: Vec<String> = [
        "/",
        "/startups",
        "/faq",
        "/blog",
        "/techinvestor",
        "/newsletter",
        "/gsyf",
        "/academy",
    ]
    .iter()
    .map(|p| (*p).to_owned())
    .collect();
    paths.extend(POLICY_SLUGS.iter().map(|s| format!("/politikalar/{s}")));
    let slugs: Vec<(String,)> = sqlx::query_as(
        "SELECT slug FROM blog_posts WHERE published_at IS NOT NULL ORDER BY published_at DESC",
    )
    .fetch_all(state.db())
    .await?;
    paths.extend(slugs.into_iter().map(|(s,)| format!("/blog/{s}")));

    let base = &state.shared().public_url;
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    for path in &paths {
        let tr = format!("{base}{path}");
        let en = format!("{base}{path}?lang=en");
        for loc in [&tr, &en] {
            xml.push_str(&format!(
                "<url><loc>{}</loc><xhtml:link rel=\"alternate\" hreflang=\"tr\" href=\"{}\"/><xhtml:link rel=\"alternate\" hreflang=\"en\" href=\"{}\"/></url>\n",
                xml_escape(loc),
                xml_escape(&tr),
                xml_escape(&en)
            ));
        }
    }
    xml.push_str("</urlset>\n");
    Ok((
        [(header::CONTENT_TYPE, "application/xml; charset=utf-8")],
        xml,
    )
        .into_response())
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub async fn robots(State(state): State<AppState>) -> Response {
    let body = format!(
        "User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /dashboard\nDisallow: /vc-dashboard\n\nSitemap: {}/sitemap.xml\n",
        state.shared().public_url
    );
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response()
}

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Public)
            .get("/", home)
            .get("/politikalar/{slug}", policy)
            .get("/techinvestor", techinvestor)
            .get("/faq", faq)
            .get("/blog", blog_index)
            .get("/blog/{slug}", blog_post)
            .get("/sitemap.xml", sitemap)
            .get("/robots.txt", robots),
    ]
}

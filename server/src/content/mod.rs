//! Public content: home, policies, `/techinvestor`, FAQ, blog, sitemap and robots.txt. Staff
//! edit it in `staff::content`; `seed` inserts what the product ships with, `queries` holds the
//! SQL. Texts are stored in both languages and each page falls back to the other language when
//! its own is empty.

pub mod queries;
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
use time::OffsetDateTime;

use self::queries::{PageRow, PostSummaryRow};
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

/// A stored time as its day in Istanbul.
fn day(at: OffsetDateTime) -> time::Date {
    ortak_app::domain::time_fmt::istanbul_date(at)
}

fn localized_page(row: PageRow, locale: Locale) -> ContentPage {
    ContentPage {
        updated: Some(day(row.updated_at)),
        slug: row.slug,
        title: pick(locale, row.title_tr, row.title_en),
        description: pick(locale, row.description_tr, row.description_en),
        body_markdown: pick(locale, row.body_tr, row.body_en),
    }
}

async fn load_page(state: &AppState, slug: &str) -> Result<PageRow, AppError> {
    queries::page(state.db(), slug)
        .await?
        .ok_or(AppError::NotFound)
}

fn summary(row: PostSummaryRow, locale: Locale) -> PostSummary {
    PostSummary {
        slug: row.slug,
        title: pick(locale, row.title_tr, row.title_en),
        description: pick(locale, row.description_tr, row.description_en),
        published: day(row.published_at),
    }
}

async fn latest_posts(
    state: &AppState,
    locale: Locale,
    limit: i64,
) -> Result<Vec<PostSummary>, AppError> {
    let rows = queries::latest_posts(state.db(), limit).await?;
    Ok(rows.into_iter().map(|r| summary(r, locale)).collect())
}

/// The public home page (members get their overview at `/` instead: see `routes::home`).
pub async fn home(ctx: Ctx) -> Result<Response, AppError> {
    let posts = latest_posts(ctx.state(), ctx.locale, 3).await?;
    let page = ctx.page_ctx(|pc| home_page(pc, posts));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn policy(ctx: Ctx, Path(slug): Path<String>) -> Result<Response, AppError> {
    if !POLICY_SLUGS.contains(&slug.as_str()) {
        return Err(AppError::NotFound);
    }
    let row = load_page(ctx.state(), &slug).await?;
    let page = ctx.page_ctx(|pc| policy_page(pc, localized_page(row, pc.locale)));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn techinvestor(ctx: Ctx) -> Result<Response, AppError> {
    let row = load_page(ctx.state(), "techinvestor").await?;
    let page = ctx.page_ctx(|pc| plain_page(pc, localized_page(row, pc.locale)));
    Ok(ctx.render(StatusCode::OK, page).await)
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
pub struct LimitQuery {
    income: Option<String>,
}

/// `/limits`: the yearly limit explained, with a calculator (`?income=` declared annual
/// income): the same rule investing applies.
pub async fn limits(
    ctx: Ctx,
    axum::extract::Query(q): axum::extract::Query<LimitQuery>,
) -> Response {
    use ortak_app::domain::limits::{InvestorClass, annual_limit};
    use ortak_app::pages::limits::{Calculation, limits_page};
    let rules = ctx.state().shared().rounds.limits();
    let typed = q
        .income
        .unwrap_or_default()
        .trim()
        .chars()
        .take(30)
        .collect::<String>();
    let mut errors = ortak_app::forms::FieldErrors::default();
    let limit = match ortak_app::domain::profile::parse_lira(&typed) {
        _ if typed.is_empty() => None,
        Some(income) if income.kurus() >= 0 => annual_limit(
            &rules,
            InvestorClass::Individual {
                declared_income: income,
            },
        ),
        _ => {
            errors.add("income", "validation-number");
            None
        }
    };
    let status = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let calc = Calculation {
        typed,
        limit,
        errors,
    };
    let page = ctx.page_ctx(|pc| limits_page(pc, &rules, calc));
    ctx.render(status, page).await
}

/// `/about`: who runs Ortak, its permission and how to reach it (the settings').
pub async fn about(ctx: Ctx) -> Response {
    let page = ctx.page_ctx(ortak_app::pages::about::about_page);
    ctx.render(StatusCode::OK, page).await
}

pub async fn faq(ctx: Ctx) -> Result<Response, AppError> {
    let rows = queries::published_faqs(ctx.state().db()).await?;
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
    let row = queries::published_post(ctx.state().db(), &slug)
        .await?
        .ok_or(AppError::NotFound)?;
    let summary = PostSummary {
        slug: row.slug,
        title: pick(ctx.locale, row.title_tr, row.title_en),
        description: pick(ctx.locale, row.description_tr, row.description_en),
        published: day(row.published_at),
    };
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
        "/about",
        "/contactUs",
        "/limits",
        "/track-record",
        "/newsletter",
        "/gsyf",
        "/academy",
    ]
    .iter()
    .map(|p| (*p).to_owned())
    .collect();
    paths.extend(POLICY_SLUGS.iter().map(|s| format!("/politikalar/{s}")));
    let slugs = queries::published_slugs(state.db()).await?;
    paths.extend(slugs.into_iter().map(|s| format!("/blog/{s}")));

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
            .get("/politikalar/{slug}", policy)
            .get("/techinvestor", techinvestor)
            .get("/about", about)
            .get("/limits", limits)
            .get("/faq", faq)
            .get("/blog", blog_index)
            .get("/blog/{slug}", blog_post)
            .get("/sitemap.xml", sitemap)
            .get("/robots.txt", robots),
    ]
}

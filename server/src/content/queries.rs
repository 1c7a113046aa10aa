//! The SQL of the public content: pages (policies, `/techinvestor`), the FAQ and published
//! blog posts, and the seeding of the pages and FAQ the product ships with.

use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

use super::seed::Texts;

/// `pages.kind`: one of the nine policies, or another standalone page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum PageKind {
    Policy,
    Page,
}

/// A standalone page, both languages side by side.
pub struct PageRow {
    pub slug: String,
    pub title_tr: String,
    pub title_en: String,
    pub description_tr: String,
    pub description_en: String,
    pub body_tr: String,
    pub body_en: String,
    pub updated_at: OffsetDateTime,
}

pub async fn page(db: &SqlitePool, slug: &str) -> sqlx::Result<Option<PageRow>> {
    sqlx::query_as!(
        PageRow,
        r#"SELECT slug AS "slug!", title_tr, title_en, description_tr, description_en, body_tr,
                  body_en, updated_at AS "updated_at: OffsetDateTime"
           FROM pages WHERE slug = ?"#,
        slug
    )
    .fetch_optional(db)
    .await
}

/// A published post as lists show it.
pub struct PostSummaryRow {
    pub slug: String,
    pub title_tr: String,
    pub title_en: String,
    pub description_tr: String,
    pub description_en: String,
    pub published_at: OffsetDateTime,
}

/// The newest `limit` published posts.
pub async fn latest_posts(db: &SqlitePool, limit: i64) -> sqlx::Result<Vec<PostSummaryRow>> {
    sqlx::query_as!(
        PostSummaryRow,
        r#"SELECT slug, title_tr, title_en, description_tr, description_en,
                  published_at AS "published_at!: OffsetDateTime"
           FROM blog_posts WHERE published_at IS NOT NULL
           ORDER BY published_at DESC, id DESC LIMIT ?"#,
        limit
    )
    .fetch_all(db)
    .await
}

/// A published post with its body.
pub struct PostRow {
    pub slug: String,
    pub title_tr: String,
    pub title_en: String,
    pub description_tr: String,
    pub description_en: String,
    pub body_tr: String,
    pub body_en: String,
    pub published_at: OffsetDateTime,
}

pub async fn published_post(db: &SqlitePool, slug: &str) -> sqlx::Result<Option<PostRow>> {
    sqlx::query_as!(
        PostRow,
        r#"SELECT slug, title_tr, title_en, description_tr, description_en, body_tr, body_en,
                  published_at AS "published_at!: OffsetDateTime"
           FROM blog_posts WHERE slug = ? AND published_at IS NOT NULL"#,
        slug
    )
    .fetch_optional(db)
    .await
}

/// Every published post's slug, newest first (for the sitemap).
pub async fn published_slugs(db: &SqlitePool) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        "SELECT slug FROM blog_posts WHERE published_at IS NOT NULL ORDER BY published_at DESC"
    )
    .fetch_all(db)
    .await
}

pub struct FaqRow {
    pub question_tr: String,
    pub question_en: String,
    pub answer_tr: String,
    pub answer_en: String,
}

/// The published questions, in staff's order.
pub async fn published_faqs(db: &SqlitePool) -> sqlx::Result<Vec<FaqRow>> {
    sqlx::query_as!(
        FaqRow,
        "SELECT question_tr, question_en, answer_tr, answer_en FROM faqs
         WHERE published = 1 ORDER BY position, id"
    )
    .fetch_all(db)
    .await
}

// ---- seeding -------------------------------------------------------------------------------

/// A page as the content files hold it.
pub struct NewPage<'a> {
    pub slug: &'a str,
    pub kind: PageKind,
    pub texts: Texts<'a>,
}

/// The slugs of every page, for the start-up seeding to insert only what is missing.
pub async fn page_slugs(db: &SqlitePool) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(r#"SELECT slug AS "slug!" FROM pages"#)
        .fetch_all(db)
        .await
}

/// Inserts the page unless one with its slug exists (staff edits are never overwritten).
pub async fn insert_page_if_missing(
    conn: &mut SqliteConnection,
    p: &NewPage<'_>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT OR IGNORE INTO pages
         (slug, kind, title_tr, title_en, description_tr, description_en, body_tr, body_en)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        p.slug,
        p.kind,
        p.texts.title_tr,
        p.texts.title_en,
        p.texts.description_tr,
        p.texts.description_en,
        p.texts.body_tr,
        p.texts.body_en
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn faq_count(db: &SqlitePool) -> sqlx::Result<i64> {
    sqlx::query_scalar!(r#"SELECT COUNT(*) AS "count!: i64" FROM faqs"#)
        .fetch_one(db)
        .await
}

/// A question and its answer, in both languages, as `faq.json` holds them.
#[derive(serde::Deserialize)]
pub struct NewFaq {
    pub question_tr: String,
    pub answer_tr: String,
    pub question_en: String,
    pub answer_en: String,
}

pub async fn insert_faq(
    conn: &mut SqliteConnection,
    position: i64,
    faq: &NewFaq,
) -> sqlx::Result<()> {
    sqlx::query!(
        "INSERT INTO faqs (position, question_tr, question_en, answer_tr, answer_en)
         VALUES (?, ?, ?, ?, ?)",
        position,
        faq.question_tr,
        faq.question_en,
        faq.answer_tr,
        faq.answer_en
    )
    .execute(conn)
    .await?;
    Ok(())
}

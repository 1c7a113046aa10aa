//! The SQL of the blog and FAQ editors (`staff/content.rs`).

use ortak_app::pages::dashboard::ContentForm;
use sqlx::{SqliteConnection, SqlitePool};
use time::OffsetDateTime;

/// A row of the blog or FAQ list.
pub struct ListedContent {
    pub id: i64,
    pub title_tr: String,
    pub title_en: String,
    pub published: bool,
}

/// The FAQ in its order.
pub async fn faqs(db: &SqlitePool) -> sqlx::Result<Vec<ListedContent>> {
    sqlx::query_as!(
        ListedContent,
        r#"SELECT id, question_tr AS title_tr, question_en AS title_en,
                published AS "published: bool"
         FROM faqs ORDER BY position, id"#
    )
    .fetch_all(db)
    .await
}

/// The blog posts, newest (by publication, else creation) first.
pub async fn blog_posts(db: &SqlitePool) -> sqlx::Result<Vec<ListedContent>> {
    sqlx::query_as!(
        ListedContent,
        r#"SELECT id, title_tr, title_en, published_at IS NOT NULL AS "published!: bool"
         FROM blog_posts ORDER BY COALESCE(published_at, created_at) DESC"#
    )
    .fetch_all(db)
    .await
}

/// An FAQ entry as the editor shows it: the question is the title, the answer the body.
pub async fn faq(db: &SqlitePool, id: i64) -> sqlx::Result<Option<ContentForm>> {
    sqlx::query_as!(
        ContentForm,
        r#"SELECT '' AS "slug!: String", question_tr AS title_tr, question_en AS title_en,
                '' AS "description_tr!: String", '' AS "description_en!: String",
                answer_tr AS body_tr, answer_en AS body_en, published AS "published: bool"
         FROM faqs WHERE id = ?"#,
        id
    )
    .fetch_optional(db)
    .await
}

pub async fn blog_post(db: &SqlitePool, id: i64) -> sqlx::Result<Option<ContentForm>> {
    sqlx::query_as!(
        ContentForm,
        r#"SELECT slug, title_tr, title_en, description_tr, description_en, body_tr, body_en,
                published_at IS NOT NULL AS "published!: bool"
         FROM blog_posts WHERE id = ?"#,
        id
    )
    .fetch_optional(db)
    .await
}

/// Whether another post than `except` has `slug`. Only for showing a form again (a preview,
/// a refused form): saving relies on the unique constraint.
pub async fn blog_slug_taken(
    db: &SqlitePool,
    slug: &str,
    except: Option<i64>,
) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM blog_posts WHERE slug = ? AND id IS NOT ?) AS "taken!: bool""#,
        slug,
        except
    )
    .fetch_one(db)
    .await
}

/// Adds an FAQ entry at the end.
pub async fn insert_faq(conn: &mut SqliteConnection, f: &ContentForm) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO faqs (position, question_tr, question_en, answer_tr, answer_en, published)
         VALUES ((SELECT COALESCE(MAX(position), 0) + 1 FROM faqs), ?, ?, ?, ?, ?)
         RETURNING id AS "id!""#,
        f.title_tr,
        f.title_en,
        f.body_tr,
        f.body_en,
        f.published
    )
    .fetch_one(conn)
    .await
}

pub async fn update_faq(conn: &mut SqliteConnection, id: i64, f: &ContentForm) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE faqs SET question_tr = ?, question_en = ?, answer_tr = ?, answer_en = ?,
             published = ?
         WHERE id = ?",
        f.title_tr,
        f.title_en,
        f.body_tr,
        f.body_en,
        f.published,
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Adds a post, published `now` if it is; a taken slug fails with a unique violation of
/// `blog_posts.slug`.
pub async fn insert_blog_post(
    conn: &mut SqliteConnection,
    f: &ContentForm,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    sqlx::query_scalar!(
        r#"INSERT INTO blog_posts (slug, title_tr, title_en, description_tr, description_en,
             body_tr, body_en, published_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, CASE WHEN ? THEN ? END)
         RETURNING id AS "id!""#,
        f.slug,
        f.title_tr,
        f.title_en,
        f.description_tr,
        f.description_en,
        f.body_tr,
        f.body_en,
        f.published,
        now
    )
    .fetch_one(conn)
    .await
}

/// Saves a post; publishing keeps the first publication time, unpublishing clears it. A
/// taken slug fails with a unique violation of `blog_posts.slug`.
pub async fn update_blog_post(
    conn: &mut SqliteConnection,
    id: i64,
    f: &ContentForm,
    now: OffsetDateTime,
) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE blog_posts SET slug = ?, title_tr = ?, title_en = ?, description_tr = ?,
             description_en = ?, body_tr = ?, body_en = ?,
             published_at = CASE WHEN ? THEN COALESCE(published_at, ?) END, updated_at = ?
         WHERE id = ?",
        f.slug,
        f.title_tr,
        f.title_en,
        f.description_tr,
        f.description_en,
        f.body_tr,
        f.body_en,
        f.published,
        now,
        now,
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

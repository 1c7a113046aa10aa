//! `/dashboard/faq` and `/dashboard/blogs`: bilingual content with Markdown preview and a
//! publish switch. Every save is audited.

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::dashboard::{ContentForm, content_editor_page};
use ortak_app::pages::staff_table::{StaffRow, StaffTable};

use crate::db::audit;
use crate::error::AppError;
use crate::web::form::FormBody;
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes};

/// Which kind of content an editor works on.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Faq,
    Blog,
}

impl Kind {
    fn base(self) -> &'static str {
        match self {
            Kind::Faq => "/dashboard/faq",
            Kind::Blog => "/dashboard/blogs",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Kind::Faq => "dashboard-faq",
            Kind::Blog => "dashboard-blogs",
        }
    }
}

async fn list(ctx: Ctx, kind: Kind) -> Result<Response, AppError> {
    let sql = match kind {
        Kind::Faq => {
            "SELECT id, question_tr, question_en, published FROM faqs ORDER BY position, id"
        }
        Kind::Blog => {
            "SELECT id, title_tr, title_en, published_at IS NOT NULL FROM blog_posts ORDER BY COALESCE(published_at, created_at) DESC"
        }
    };
    let rows: Vec<(i64, String, String, bool)> =
        sqlx::query_as(sql).fetch_all(ctx.state().db()).await?;
    let rows = rows
        .into_iter()
        .map(|(id, tr, en, published)| StaffRow {
            id,
            cells: vec![
                tr.into(),
                en.into(),
                ctx.t(if published {
                    "dashboard-published"
                } else {
                    "dashboard-draft"
                })
                .into(),
            ],
            link: Some((format!("{}/{id}", kind.base()), "dashboard-edit".to_owned())),
            actions: Vec::new(),
        })
        .collect();
    let table = StaffTable {
        title_id: kind.title(),
        columns: vec![
            "dashboard-title-tr",
            "dashboard-title-en",
            "dashboard-col-handled",
        ],
        rows,
        search: None,
        csv: None,
        create: Some(match kind {
            Kind::Faq => "/dashboard/faq/new",
            Kind::Blog => "/dashboard/blogs/new",
        }),
    };
    super::table::render_table(&ctx, table).await
}

async fn load(ctx: &Ctx, kind: Kind, id: i64) -> Result<ContentForm, AppError> {
    Ok(match kind {
        Kind::Faq => {
            let (title_tr, title_en, body_tr, body_en, published): (String, String, String, String, bool) =
                sqlx::query_as("SELECT question_tr, question_en, answer_tr, answer_en, published FROM faqs WHERE id = ?")
                    .bind(id)
                    .fetch_optional(ctx.state().db())
                    .await?
                    .ok_or(AppError::NotFound)?;
            ContentForm {
                title_tr,
                title_en,
                body_tr,
                body_en,
                published,
                ..ContentForm::default()
            }
        }
        Kind::Blog => {
            let (slug, title_tr, title_en, description_tr, description_en, body_tr, body_en, published): (
                String,
                String,
                String,
                String,
                String,
                String,
                String,
                bool,
            ) = sqlx::query_as(
                "SELECT slug, title_tr, title_en, description_tr, description_en, body_tr, body_en, published_at IS NOT NULL
                 FROM blog_posts WHERE id = ?",
            )
            .bind(id)
            .fetch_optional(ctx.state().db())
            .await?
            .ok_or(AppError::NotFound)?;
            ContentForm {
                slug,
                title_tr,
                title_en,
                description_tr,
                description_en,
                body_tr,
                body_en,
                published,
            }
        }
    })
}

fn editor(
    ctx: &Ctx,
    kind: Kind,
    action: &str,
    form: &ContentForm,
    errors: &FieldErrors,
    preview: bool,
) -> ortak_app::shell::Page {
    ctx.page_ctx(|pc| {
        content_editor_page(
            pc,
            kind.title(),
            action,
            form,
            errors,
            kind == Kind::Blog,
            preview,
        )
    })
}

async fn show(ctx: Ctx, kind: Kind, id: Option<i64>) -> Result<Response, AppError> {
    ctx.require(Role::Admin)?;
    let form = match id {
        Some(id) => load(&ctx, kind, id).await?,
        None => ContentForm::default(),
    };
    let action = id
        .map(|id| format!("{}/{id}", kind.base()))
        .unwrap_or_else(|| format!("{}/new", kind.base()));
    let page = editor(&ctx, kind, &action, &form, &FieldErrors::default(), false);
    Ok(ctx.render(StatusCode::OK, page).await)
}

fn check(kind: Kind, form: &ContentForm) -> FieldErrors {
    let mut errors = FieldErrors::default();
    let mut required = vec![
        ("title_tr", &form.title_tr),
        ("title_en", &form.title_en),
        ("body_tr", &form.body_tr),
        ("body_en", &form.body_en),
    ];
    if kind == Kind::Blog {
        required.push(("description_tr", &form.description_tr));
        required.push(("description_en", &form.description_en));
        let slug_ok = !form.slug.is_empty()
            && form.slug.len() <= 100
            && form
                .slug
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !slug_ok {
            errors.add("slug", "validation-slug");
        }
    }
    for (field, value) in required {
        if value.trim().is_empty() {
            errors.add(field, "validation-required");
        }
    }
    errors
}

async fn save(
    ctx: Ctx,
    kind: Kind,
    id: Option<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let staff = ctx.require(Role::Admin)?.clone();
    let f = FormBody::parse(&body);
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    let form = ContentForm {
        slug: f.get("slug").trim().to_owned(),
        title_tr: f.get("title_tr").trim().to_owned(),
        title_en: f.get("title_en").trim().to_owned(),
        description_tr: f.get("description_tr").trim().to_owned(),
        description_en: f.get("description_en").trim().to_owned(),
        body_tr: f.get("body_tr").replace("\r\n", "\n"),
        body_en: f.get("body_en").replace("\r\n", "\n"),
        published: f.get("published") == "on",
    };
    let action = id
        .map(|id| format!("{}/{id}", kind.base()))
        .unwrap_or_else(|| format!("{}/new", kind.base()));
    let mut errors = check(kind, &form);
    if kind == Kind::Blog && errors.get("slug").is_none() {
        let taken: Option<i64> = sqlx::query_scalar("SELECT id FROM blog_posts WHERE slug = ?")
            .bind(&form.slug)
            .fetch_optional(ctx.state().db())
            .await?;
        if taken.is_some_and(|t| Some(t) != id) {
            errors.add("slug", "validation-slug-taken");
        }
    }
    if f.get("intent") == "preview" || !errors.is_empty() {
        let status = if errors.is_empty() {
            StatusCode::OK
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        let page = editor(&ctx, kind, &action, &form, &errors, errors.is_empty());
        return Ok(ctx.render(status, page).await);
    }
    let before = match id {
        Some(id) => Some(load(&ctx, kind, id).await?),
        None => None,
    };
    let mut tx = ctx.state().db().begin().await?;
    let saved_id: i64 = match (kind, id) {
        (Kind::Faq, None) => sqlx::query_scalar(
            "INSERT INTO faqs (position, question_tr, question_en, answer_tr, answer_en, published)
             VALUES ((SELECT COALESCE(MAX(position), 0) + 1 FROM faqs), ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(&form.title_tr)
        .bind(&form.title_en)
        .bind(&form.body_tr)
        .bind(&form.body_en)
        .bind(form.published)
        .fetch_one(&mut *tx)
        .await?,
        (Kind::Faq, Some(id)) => {
            sqlx::query("UPDATE faqs SET question_tr = ?, question_en = ?, answer_tr = ?, answer_en = ?, published = ? WHERE id = ?")
                .bind(&form.title_tr)
                .bind(&form.title_en)
                .bind(&form.body_tr)
                .bind(&form.body_en)
                .bind(form.published)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            id
        }
        (Kind::Blog, None) => sqlx::query_scalar(
            "INSERT INTO blog_posts (slug, title_tr, title_en, description_tr, description_en, body_tr, body_en, published_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, CASE WHEN ? THEN strftime('%Y-%m-%dT%H:%M:%SZ', 'now') END) RETURNING id",
        )
        .bind(&form.slug)
        .bind(&form.title_tr)
        .bind(&form.title_en)
        .bind(&form.description_tr)
        .bind(&form.description_en)
        .bind(&form.body_tr)
        .bind(&form.body_en)
        .bind(form.published)
        .fetch_one(&mut *tx)
        .await?,
        (Kind::Blog, Some(id)) => {
            sqlx::query(
                "UPDATE blog_posts SET slug = ?, title_tr = ?, title_en = ?, description_tr = ?, description_en = ?,
                     body_tr = ?, body_en = ?,
                     published_at = CASE WHEN ? THEN COALESCE(published_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) END,
                     updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
                 WHERE id = ?",
            )
            .bind(&form.slug)
            .bind(&form.title_tr)
            .bind(&form.title_en)
            .bind(&form.description_tr)
            .bind(&form.description_en)
            .bind(&form.body_tr)
            .bind(&form.body_en)
            .bind(form.published)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            id
        }
    };
    let summary = |f: &ContentForm| {
        format!(
            "{} | {} | {}",
            f.title_tr,
            f.title_en,
            if f.published { "published" } else { "draft" }
        )
    };
    let subject = format!(
        "{}:{saved_id}",
        if kind == Kind::Faq { "faq" } else { "blog" }
    );
    audit::record(
        &mut tx,
        staff.id,
        "content.save",
        &subject,
        before.as_ref().map(summary).as_deref(),
        Some(&summary(&form)),
    )
    .await?;
    tx.commit().await?;
    ctx.set_flash(ortak_app::shell::Flash {
        kind: ortak_app::shell::FlashKind::Success,
        message_id: "dashboard-done".into(),
    })
    .await?;
    Ok(Redirect::to(kind.base()).into_response())
}

pub async fn faq_list(ctx: Ctx) -> Result<Response, AppError> {
    list(ctx, Kind::Faq).await
}
pub async fn faq_new(ctx: Ctx) -> Result<Response, AppError> {
    show(ctx, Kind::Faq, None).await
}
pub async fn faq_edit(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    show(ctx, Kind::Faq, Some(id)).await
}
pub async fn faq_create(ctx: Ctx, headers: HeaderMap, body: Bytes) -> Result<Response, AppError> {
    save(ctx, Kind::Faq, None, headers, body).await
}
pub async fn faq_update(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    save(ctx, Kind::Faq, Some(id), headers, body).await
}
pub async fn blog_list(ctx: Ctx) -> Result<Response, AppError> {
    list(ctx, Kind::Blog).await
}
pub async fn blog_new(ctx: Ctx) -> Result<Response, AppError> {
    show(ctx, Kind::Blog, None).await
}
pub async fn blog_edit(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    show(ctx, Kind::Blog, Some(id)).await
}
pub async fn blog_create(ctx: Ctx, headers: HeaderMap, body: Bytes) -> Result<Response, AppError> {
    save(ctx, Kind::Blog, None, headers, body).await
}
pub async fn blog_update(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    save(ctx, Kind::Blog, Some(id), headers, body).await
}

pub fn blog_routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/blogs", blog_list)
        .nav("dashboard-blogs")
        .get("/dashboard/blogs.json", blog_list)
        .get("/dashboard/blogs/new", blog_new)
        .post("/dashboard/blogs/new", blog_create)
        .get("/dashboard/blogs/{id}", blog_edit)
        .post("/dashboard/blogs/{id}", blog_update)
}

pub fn faq_routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/faq", faq_list)
        .nav("dashboard-faq")
        .get("/dashboard/faq.json", faq_list)
        .get("/dashboard/faq/new", faq_new)
        .post("/dashboard/faq/new", faq_create)
        .get("/dashboard/faq/{id}", faq_edit)
        .post("/dashboard/faq/{id}", faq_update)
}

//! `/dashboard/faq` and `/dashboard/blogs`: bilingual content with Markdown preview and a
//! publish switch. Both share one list, one editor and one save, told apart by [`Kind`]; every
//! save is audited. The SQL is in `staff/queries/content.rs`.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::dashboard::{ContentForm, content_editor_page};
use ortak_app::pages::staff_table::{Cell, StaffRow, StaffTable};
use serde::Deserialize;
use sqlx::SqliteConnection;
use time::OffsetDateTime;

use super::queries::content as queries;
use crate::db::{audit, unique_violation};
use crate::error::AppError;
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, Staff};

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

    /// Where the editor posts: the entry's address, or `…/new`.
    fn action(self, id: Option<i64>) -> String {
        match id {
            Some(id) => format!("{}/{id}", self.base()),
            None => format!("{}/new", self.base()),
        }
    }
}

/// What the editor posts.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ContentFields {
    slug: String,
    title_tr: String,
    title_en: String,
    description_tr: String,
    description_en: String,
    body_tr: String,
    body_en: String,
    published: Option<String>,
    /// `preview` renders the Markdown without saving.
    intent: String,
}

impl ContentFields {
    /// Titles, descriptions and the address trimmed; bodies with LF line breaks.
    fn into_form(self) -> ContentForm {
        ContentForm {
            slug: self.slug.trim().to_owned(),
            title_tr: self.title_tr.trim().to_owned(),
            title_en: self.title_en.trim().to_owned(),
            description_tr: self.description_tr.trim().to_owned(),
            description_en: self.description_en.trim().to_owned(),
            body_tr: self.body_tr.replace("\r\n", "\n"),
            body_en: self.body_en.replace("\r\n", "\n"),
            published: self.published.as_deref() == Some("on"),
        }
    }
}

async fn list(ctx: Ctx, kind: Kind) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let entries = match kind {
        Kind::Faq => queries::faqs(db).await?,
        Kind::Blog => queries::blog_posts(db).await?,
    };
    let rows = entries
        .into_iter()
        .map(|e| StaffRow {
            id: e.id,
            cells: vec![
                e.title_tr.into(),
                e.title_en.into(),
                Cell::Label(
                    if e.published {
                        "dashboard-published"
                    } else {
                        "dashboard-draft"
                    }
                    .to_owned(),
                ),
            ],
            link: Some((
                format!("{}/{}", kind.base(), e.id),
                "dashboard-edit".to_owned(),
            )),
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
    let db = ctx.state().db();
    let form = match kind {
        Kind::Faq => queries::faq(db, id).await?,
        Kind::Blog => queries::blog_post(db, id).await?,
    };
    form.ok_or(AppError::NotFound)
}

/// The editor with `form`: 422 when there are errors to show, else 200 (a `preview` renders
/// the Markdown too).
async fn render(
    ctx: &Ctx,
    kind: Kind,
    id: Option<i64>,
    form: &ContentForm,
    errors: &FieldErrors,
    preview: bool,
) -> Result<Response, AppError> {
    let action = kind.action(id);
    let with_slug = kind == Kind::Blog;
    let status = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let page = ctx.page_ctx(|pc| {
        content_editor_page(pc, kind.title(), &action, form, errors, with_slug, preview)
    });
    Ok(ctx.render(status, page).await)
}

async fn show(ctx: Ctx, kind: Kind, id: Option<i64>) -> Result<Response, AppError> {
    let form = match id {
        Some(id) => load(&ctx, kind, id).await?,
        None => ContentForm::default(),
    };
    render(&ctx, kind, id, &form, &FieldErrors::default(), false).await
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

/// Inserts or updates the entry; returns its id.
async fn write(
    conn: &mut SqliteConnection,
    kind: Kind,
    id: Option<i64>,
    form: &ContentForm,
    now: OffsetDateTime,
) -> sqlx::Result<i64> {
    match (kind, id) {
        (Kind::Faq, None) => queries::insert_faq(conn, form).await,
        (Kind::Faq, Some(id)) => queries::update_faq(conn, id, form).await.map(|()| id),
        (Kind::Blog, None) => queries::insert_blog_post(conn, form, now).await,
        (Kind::Blog, Some(id)) => queries::update_blog_post(conn, id, form, now)
            .await
            .map(|()| id),
    }
}

/// The audit log's one-line account of an entry.
fn summary(f: &ContentForm) -> String {
    format!(
        "{} | {} | {}",
        f.title_tr,
        f.title_en,
        if f.published { "published" } else { "draft" }
    )
}

async fn save(
    ctx: Ctx,
    actor: i64,
    kind: Kind,
    id: Option<i64>,
    fields: ContentFields,
) -> Result<Response, AppError> {
    let preview = fields.intent == "preview";
    let form = fields.into_form();
    let mut errors = check(kind, &form);
    if preview || !errors.is_empty() {
        // The address is looked up only to show its error with the others; a save relies on
        // the unique constraint.
        let db = ctx.state().db();
        if kind == Kind::Blog
            && errors.get("slug").is_none()
            && queries::blog_slug_taken(db, &form.slug, id).await?
        {
            errors.add("slug", "validation-slug-taken");
        }
        let preview = errors.is_empty();
        return render(&ctx, kind, id, &form, &errors, preview).await;
    }
    let before = match id {
        Some(id) => Some(load(&ctx, kind, id).await?),
        None => None,
    };
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let saved = match write(&mut tx, kind, id, &form, ctx.state().now()).await {
        Ok(saved) => saved,
        Err(e) if unique_violation(&e, "blog_posts.slug") => {
            drop(tx);
            errors.add("slug", "validation-slug-taken");
            return render(&ctx, kind, id, &form, &errors, false).await;
        }
        Err(e) => return Err(e.into()),
    };
    let subject = match kind {
        Kind::Faq => format!("faq:{saved}"),
        Kind::Blog => format!("blog:{saved}"),
    };
    let before = before.as_ref().map(summary);
    let after = summary(&form);
    audit::record(
        &mut tx,
        actor,
        "content.save",
        &subject,
        before.as_deref(),
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, kind.base()).await
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
pub async fn faq_create(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Form(fields): Form<ContentFields>,
) -> Result<Response, AppError> {
    save(ctx, user.id, Kind::Faq, None, fields).await
}
pub async fn faq_update(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
    Form(fields): Form<ContentFields>,
) -> Result<Response, AppError> {
    save(ctx, user.id, Kind::Faq, Some(id), fields).await
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
pub async fn blog_create(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Form(fields): Form<ContentFields>,
) -> Result<Response, AppError> {
    save(ctx, user.id, Kind::Blog, None, fields).await
}
pub async fn blog_update(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
    Form(fields): Form<ContentFields>,
) -> Result<Response, AppError> {
    save(ctx, user.id, Kind::Blog, Some(id), fields).await
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

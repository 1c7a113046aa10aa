//! `/dashboard/startups`: staff create and edit startups (every field, both languages of the
//! analysis sections with a Markdown preview, publish switch), add presentation pages and
//! quarterly reports, and turn an application into a startup draft. Every save is audited.

use axum::body::Bytes;
use axum::extract::{Multipart, Path};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::collation::sort_key;
use ortak_app::domain::startup_form::{StartupForm, StartupRecord, slugify, validate};
use ortak_app::domain::startups::SECTIONS;
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::Locale;
use ortak_app::pages::staff_table::{StaffRow, StaffTable};
use ortak_app::pages::startup_editor::{EditorExtras, ReportForm, startup_editor_page};
use sqlx::{FromRow, SqliteConnection};

use super::staff_post;
use super::table::render_table;
use crate::db::audit;
use crate::error::AppError;
use crate::web::flash::done;
use crate::web::form::{FormBody, read_multipart};
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes};

/// Presentation pages may be at most this large (they are shown inline).
pub const PAGE_MAX_BYTES: usize = 2 * 1024 * 1024;

pub async fn list(ctx: Ctx) -> Result<Response, AppError> {
    let rows: Vec<(i64, String, String, String, String, String, bool)> = sqlx::query_as(
        "SELECT s.id, s.name, f.name, s.sector, s.period_kind, s.period_ends_on, s.published
         FROM startups s JOIN funds f ON f.id = s.fund_id ORDER BY s.created_at DESC, s.id DESC",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(
            |(id, name, fund, sector, period, ends, published)| StaffRow {
                id,
                cells: vec![
                    name.into(),
                    fund.into(),
                    ctx.t(&format!("interest-{sector}")).into(),
                    ctx.t(if period == "pre_investment" {
                        "period-pre-investment"
                    } else {
                        "period-investment"
                    })
                    .into(),
                    ends.into(),
                    ctx.t(if published {
                        "dashboard-published"
                    } else {
                        "dashboard-draft"
                    })
                    .into(),
                ],
                link: Some((
                    format!("/dashboard/startups/{id}"),
                    "dashboard-edit".to_owned(),
                )),
                actions: Vec::new(),
            },
        )
        .collect();
    let table = StaffTable {
        title_id: "dashboard-startups",
        columns: vec![
            "dashboard-col-name",
            "dashboard-startup-fund",
            "dashboard-startup-sector",
            "dashboard-startup-period",
            "dashboard-startup-ends",
            "dashboard-col-handled",
        ],
        rows,
        search: None,
        csv: None,
        create: Some("/dashboard/startups/new"),
    };
    render_table(&ctx, table).await
}

#[derive(FromRow)]
struct Row {
    name: String,
    slug: String,
    sector: String,
    subcategory: String,
    fund_id: i64,
    country: String,
    city: String,
    description_tr: String,
    description_en: String,
    website: String,
    instagram: String,
    twitter: String,
    youtube: String,
    team_size: i64,
    established_on: Option<String>,
    stage: String,
    monthly_income_kurus: Option<i64>,
    monthly_expense_kurus: Option<i64>,
    valuation_usd: Option<i64>,
    amount_sought_usd: Option<i64>,
    funding_goal_kurus: i64,
    funded: bool,
    period_kind: String,
    period_starts_on: String,
    period_ends_on: String,
    vip_until: Option<String>,
    published: bool,
}

fn lira(kurus: Option<i64>) -> String {
    kurus.map(|k| (k / 100).to_string()).unwrap_or_default()
}

async fn load(conn: &mut SqliteConnection, id: i64) -> Result<StartupForm, AppError> {
    let r: Row = sqlx::query_as("SELECT * FROM startups WHERE id = ?")
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or(AppError::NotFound)?;
    let sections: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT section, body_tr, body_en FROM startup_sections WHERE startup_id = ?",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    let founders: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT name, title, linkedin FROM founders WHERE startup_id = ? ORDER BY position_order",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(StartupForm {
        name: r.name,
        slug: r.slug,
        sector: r.sector,
        subcategory: r.subcategory,
        fund: r.fund_id.to_string(),
        country: r.country,
        city: r.city,
        description_tr: r.description_tr,
        description_en: r.description_en,
        website: r.website,
        instagram: r.instagram,
        twitter: r.twitter,
        youtube: r.youtube,
        team_size: r.team_size.to_string(),
        established_on: r.established_on.unwrap_or_default(),
        stage: r.stage,
        monthly_income: lira(r.monthly_income_kurus),
        monthly_expense: lira(r.monthly_expense_kurus),
        valuation_usd: r.valuation_usd.map(|v| v.to_string()).unwrap_or_default(),
        amount_sought_usd: r
            .amount_sought_usd
            .map(|v| v.to_string())
            .unwrap_or_default(),
        goal: lira(Some(r.funding_goal_kurus)),
        funded: r.funded,
        period_kind: r.period_kind,
        starts_on: r.period_starts_on,
        ends_on: r.period_ends_on,
        vip_until: r.vip_until.unwrap_or_default(),
        published: r.published,
        founders: founders
            .into_iter()
            .map(|(n, t, l)| {
                if l.is_empty() {
                    format!("{n} | {t}")
                } else {
                    format!("{n} | {t} | {l}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        sections: sections
            .into_iter()
            .map(|(s, tr, en)| (s, (tr, en)))
            .collect(),
    })
}

fn read_form(f: &FormBody) -> StartupForm {
    let text = |k: &str| f.get(k).replace("\r\n", "\n");
    StartupForm {
        name: text("name"),
        slug: text("slug"),
        sector: text("sector"),
        subcategory: text("subcategory"),
        fund: text("fund"),
        country: text("country"),
        city: text("city"),
        description_tr: text("description_tr"),
        description_en: text("description_en"),
        website: text("website"),
        instagram: text("instagram"),
        twitter: text("twitter"),
        youtube: text("youtube"),
        team_size: text("team_size"),
        established_on: text("established_on"),
        stage: text("stage"),
        monthly_income: text("monthly_income"),
        monthly_expense: text("monthly_expense"),
        valuation_usd: text("valuation_usd"),
        amount_sought_usd: text("amount_sought_usd"),
        goal: text("goal"),
        funded: f.get("funded") == "on",
        period_kind: text("period_kind"),
        starts_on: text("starts_on"),
        ends_on: text("ends_on"),
        vip_until: text("vip_until"),
        published: f.get("published") == "on",
        founders: text("founders"),
        sections: SECTIONS
            .iter()
            .map(|s| {
                (
                    (*s).to_owned(),
                    (text(&format!("s_{s}_tr")), text(&format!("s_{s}_en"))),
                )
            })
            .collect(),
    }
}

async fn extras(
    ctx: &Ctx,
    id: Option<i64>,
    slug: &str,
    report: ReportForm,
    preview: bool,
) -> Result<EditorExtras, AppError> {
    let db = ctx.state().db();
    let funds = sqlx::query_as("SELECT id, name FROM funds ORDER BY name")
        .fetch_all(db)
        .await?;
    let (pages, reports) = match id {
        Some(id) => (
            sqlx::query_scalar(
                "SELECT position FROM startup_pages WHERE startup_id = ? ORDER BY position",
            )
            .bind(id)
            .fetch_all(db)
            .await?,
            sqlx::query_as(&format!(
                "SELECT quarter, title_{} FROM reports WHERE startup_id = ? ORDER BY published_at DESC",
                ctx.locale.code()
            ))
            .bind(id)
            .fetch_all(db)
            .await?,
        ),
        None => (Vec::new(), Vec::new()),
    };
    Ok(EditorExtras {
        funds,
        id,
        slug: slug.to_owned(),
        pages,
        reports,
        report,
        preview,
    })
}

async fn editor(
    ctx: &Ctx,
    status: StatusCode,
    id: Option<i64>,
    form: &StartupForm,
    errors: &FieldErrors,
    report: ReportForm,
    preview: bool,
) -> Result<Response, AppError> {
    // The pages link by the stored address, not the one being typed.
    let slug: String = match id {
        Some(id) => {
            sqlx::query_scalar("SELECT slug FROM startups WHERE id = ?")
                .bind(id)
                .fetch_one(ctx.state().db())
                .await?
        }
        None => String::new(),
    };
    let extras = extras(ctx, id, &slug, report, preview).await?;
    let page = ctx.page_ctx(|pc| startup_editor_page(pc, form, errors, extras));
    Ok(ctx.render(status, page).await)
}

pub async fn new(ctx: Ctx) -> Result<Response, AppError> {
    ctx.require(Role::Admin)?;
    let today = ctx.state().today();
    let form = StartupForm {
        country: "Türkiye".into(),
        period_kind: "investment".into(),
        starts_on: today.to_string(),
        ends_on: (today + time::Duration::days(30)).to_string(),
        ..StartupForm::default()
    };
    editor(
        &ctx,
        StatusCode::OK,
        None,
        &form,
        &FieldErrors::default(),
        ReportForm::default(),
        false,
    )
    .await
}

pub async fn edit(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    ctx.require(Role::Admin)?;
    let mut conn = ctx.state().db().acquire().await?;
    let form = load(&mut conn, id).await?;
    drop(conn);
    editor(
        &ctx,
        StatusCode::OK,
        Some(id),
        &form,
        &FieldErrors::default(),
        ReportForm::default(),
        false,
    )
    .await
}

pub async fn create(ctx: Ctx, headers: HeaderMap, body: Bytes) -> Result<Response, AppError> {
    save(ctx, None, headers, body).await
}

pub async fn update(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    save(ctx, Some(id), headers, body).await
}

fn summary(f: &StartupForm) -> String {
    format!(
        "{} | {} | goal {} | {} {}..{} | {}{}",
        f.name,
        f.slug,
        f.goal,
        f.period_kind,
        f.starts_on,
        f.ends_on,
        if f.published { "published" } else { "draft" },
        if f.funded { " | funded" } else { "" }
    )
}

async fn save(
    ctx: Ctx,
    id: Option<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, f) = staff_post(&ctx, &headers, &body)?;
    let form = read_form(&f);
    let funds: Vec<i64> = sqlx::query_scalar("SELECT id FROM funds")
        .fetch_all(ctx.state().db())
        .await?;
    let mut checked = validate(&form, &funds);
    if let Ok(record) = &checked {
        let taken: Option<i64> = sqlx::query_scalar("SELECT id FROM startups WHERE slug = ?")
            .bind(&record.slug)
            .fetch_optional(ctx.state().db())
            .await?;
        if taken.is_some_and(|t| Some(t) != id) {
            let mut errors = FieldErrors::default();
            errors.add("slug", "validation-slug-taken-startup");
            checked = Err(errors);
        }
    }
    let record = match checked {
        Ok(record) if f.get("intent") != "preview" => record,
        Ok(_) => {
            let (status, errors) = (StatusCode::OK, FieldErrors::default());
            return editor(
                &ctx,
                status,
                id,
                &form,
                &errors,
                ReportForm::default(),
                true,
            )
            .await;
        }
        Err(errors) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            return editor(
                &ctx,
                status,
                id,
                &form,
                &errors,
                ReportForm::default(),
                false,
            )
            .await;
        }
    };
    let mut tx = ctx.state().db().begin().await?;
    let before = match id {
        Some(id) => Some(load(&mut tx, id).await?),
        None => None,
    };
    let was_published = before.as_ref().is_some_and(|b| b.published);
    let saved = store(&mut tx, id, &record).await?;
    let after = load(&mut tx, saved).await?;
    audit::record(
        &mut tx,
        staff.id,
        if id.is_some() {
            "startup.update"
        } else {
            "startup.create"
        },
        &format!("startup:{saved}"),
        before.as_ref().map(summary).as_deref(),
        Some(&summary(&after)),
    )
    .await?;
    if record.published && !was_published {
        announce(&mut tx, &ctx.state().shared().public_url, saved, &record).await?;
    }
    tx.commit().await?;
    ctx.state().wake_mailer();
    done(&ctx, &format!("/dashboard/startups/{saved}")).await
}

/// Writes the startup, its sections and founders; returns its id.
async fn store(
    conn: &mut SqliteConnection,
    id: Option<i64>,
    r: &StartupRecord,
) -> Result<i64, AppError> {
    let id: i64 = match id {
        Some(id) => {
            sqlx::query("UPDATE startups SET slug = ?, name = ?, sort_key_tr = ?, sort_key_en = ? WHERE id = ?")
                .bind(&r.slug)
                .bind(&r.name)
                .bind(sort_key(&r.name, Locale::Tr))
                .bind(sort_key(&r.name, Locale::En))
                .bind(id)
                .execute(&mut *conn)
                .await?;
            id
        }
        None => sqlx::query_scalar(
            "INSERT INTO startups (slug, name, sort_key_tr, sort_key_en, sector, fund_id, city, description_tr,
                 description_en, stage, funding_goal_kurus, period_kind, period_starts_on, period_ends_on, published)
             VALUES (?, ?, ?, ?, '', ?, '', '', '', '', 1, 'investment', '', '', 0) RETURNING id",
        )
        .bind(&r.slug)
        .bind(&r.name)
        .bind(sort_key(&r.name, Locale::Tr))
        .bind(sort_key(&r.name, Locale::En))
        // The row is completed by the UPDATE below; the fund must exist already.
        .bind(r.fund_id)
        .fetch_one(&mut *conn)
        .await?,
    };
    sqlx::query(
        "UPDATE startups SET sector = ?, subcategory = ?, fund_id = ?, country = ?, city = ?, description_tr = ?,
             description_en = ?, website = ?, instagram = ?, twitter = ?, youtube = ?, team_size = ?,
             established_on = ?, stage = ?, monthly_income_kurus = ?, monthly_expense_kurus = ?, valuation_usd = ?,
             amount_sought_usd = ?, funding_goal_kurus = ?, completion_pct = raised_kurus * 100 / ?, funded = ?,
             period_kind = ?, period_starts_on = ?, period_ends_on = ?, vip_until = ?, published = ?
         WHERE id = ?",
    )
    .bind(&r.sector)
    .bind(&r.subcategory)
    .bind(r.fund_id)
    .bind(&r.country)
    .bind(&r.city)
    .bind(&r.description_tr)
    .bind(&r.description_en)
    .bind(&r.website)
    .bind(&r.instagram)
    .bind(&r.twitter)
    .bind(&r.youtube)
    .bind(r.team_size)
    .bind(r.established_on.map(|d| d.to_string()))
    .bind(&r.stage)
    .bind(r.monthly_income.map(|m| m.kurus()))
    .bind(r.monthly_expense.map(|m| m.kurus()))
    .bind(r.valuation_usd)
    .bind(r.amount_sought_usd)
    .bind(r.goal.kurus())
    .bind(r.goal.kurus())
    .bind(r.funded)
    .bind(r.period_kind.code())
    .bind(r.starts_on.to_string())
    .bind(r.ends_on.to_string())
    .bind(r.vip_until.map(|d| d.to_string()))
    .bind(r.published)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM startup_sections WHERE startup_id = ?")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    for (section, (tr, en)) in &r.sections {
        if tr.is_empty() && en.is_empty() {
            continue;
        }
        sqlx::query(
            "INSERT INTO startup_sections (startup_id, section, body_tr, body_en) VALUES (?, ?, ?, ?)",
        )
        .bind(id)
        .bind(section)
        .bind(tr)
        .bind(en)
        .execute(&mut *conn)
        .await?;
    }
    sqlx::query("DELETE FROM founders WHERE startup_id = ?")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    for (i, f) in r.founders.iter().enumerate() {
        sqlx::query(
            "INSERT INTO founders (startup_id, position_order, name, title, linkedin) VALUES (?, ?, ?, ?, ?)",
        )
        .bind(id)
        .bind(i as i64)
        .bind(&f.name)
        .bind(&f.title)
        .bind(&f.linkedin)
        .execute(&mut *conn)
        .await?;
    }
    Ok(id)
}

/// On first publication: tells investors whose interests include the sector, in their
/// language (the `startup-match` automatic mail). Once per startup, however often it is
/// unpublished and published again.
async fn announce(
    conn: &mut SqliteConnection,
    public_url: &str,
    id: i64,
    r: &StartupRecord,
) -> Result<(), AppError> {
    let first = sqlx::query(
        "UPDATE startups SET announced_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = ? AND announced_at IS NULL",
    )
    .bind(id)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    if first == 0 {
        return Ok(());
    }
    let investors: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT email, first_name, language FROM users
         WHERE role = 'investor' AND deactivated_at IS NULL AND email_verified_at IS NOT NULL
           AND (',' || interests || ',') LIKE '%,' || ? || ',%'",
    )
    .bind(&r.sector)
    .fetch_all(&mut *conn)
    .await?;
    let link = format!("{public_url}/startups/{}", r.slug);
    for (email, name, language) in investors {
        let locale = Locale::from_code(&language).unwrap_or_default();
        let mail = crate::mail::Mail::action(&email, locale, &name, "startup-match", &link);
        crate::mail::enqueue(conn, &mail).await?;
    }
    Ok(())
}

/// Re-renders the editor with an attachment form's errors.
async fn refuse(
    ctx: &Ctx,
    id: i64,
    errors: &FieldErrors,
    report: ReportForm,
) -> Result<Response, AppError> {
    let mut conn = ctx.state().db().acquire().await?;
    let form = load(&mut conn, id).await?;
    drop(conn);
    let status = StatusCode::UNPROCESSABLE_ENTITY;
    editor(ctx, status, Some(id), &form, errors, report, false).await
}

/// `POST /dashboard/startups/{id}/pages`: appends a presentation page (PNG, JPEG or WebP).
pub async fn add_page(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, AppError> {
    let staff = ctx.require(Role::Admin)?.clone();
    let (f, upload) = read_multipart(&mut multipart, "image").await?;
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    let mut errors = FieldErrors::default();
    let image = match upload.map(|u| u.bytes) {
        None => {
            errors.add("image", "validation-required");
            None
        }
        Some(Err(())) => {
            errors.add("image", "profile-image-too-large");
            None
        }
        Some(Ok(b)) if b.len() > PAGE_MAX_BYTES => {
            errors.add("image", "profile-image-too-large");
            None
        }
        Some(Ok(b)) => match crate::web::files::image_kind(&b) {
            Some(ext) => Some((b, ext)),
            None => {
                errors.add("image", "profile-image-invalid");
                None
            }
        },
    };
    let Some((bytes, ext)) = image else {
        return refuse(&ctx, id, &errors, ReportForm::default()).await;
    };
    let name = crate::web::files::random_name(ext);
    let content_type = match ext {
        "jpg" => "image/jpeg",
        "png" => "image/png",
        _ => "image/webp",
    };
    let mut tx = ctx.state().db().begin().await?;
    let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM startups WHERE id = ?")
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    exists.ok_or(AppError::NotFound)?;
    crate::web::files::write(
        &ctx.state().shared().data_dir,
        "presentations",
        &name,
        &bytes,
    )
    .await?;
    let position: i64 = sqlx::query_scalar(
        "INSERT INTO startup_pages (startup_id, position, file_name, content_type)
         VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM startup_pages WHERE startup_id = ?), ?, ?)
         RETURNING position",
    )
    .bind(id)
    .bind(id)
    .bind(&name)
    .bind(content_type)
    .fetch_one(&mut *tx)
    .await?;
    audit::record(
        &mut tx,
        staff.id,
        "startup.page.add",
        &format!("startup:{id}"),
        None,
        Some(&format!("page {position}")),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/startups/{id}")).await
}

/// `POST /dashboard/startups/{id}/pages/{n}/delete`.
pub async fn remove_page(
    ctx: Ctx,
    Path((id, position)): Path<(i64, i64)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, _) = staff_post(&ctx, &headers, &body)?;
    let mut tx = ctx.state().db().begin().await?;
    let file: Option<String> = sqlx::query_scalar(
        "DELETE FROM startup_pages WHERE startup_id = ? AND position = ? RETURNING file_name",
    )
    .bind(id)
    .bind(position)
    .fetch_optional(&mut *tx)
    .await?;
    let file = file.ok_or(AppError::NotFound)?;
    audit::record(
        &mut tx,
        staff.id,
        "startup.page.remove",
        &format!("startup:{id}"),
        Some(&format!("page {position}")),
        None,
    )
    .await?;
    tx.commit().await?;
    let _ = tokio::fs::remove_file(
        ctx.state()
            .shared()
            .data_dir
            .join("presentations")
            .join(file),
    )
    .await;
    done(&ctx, &format!("/dashboard/startups/{id}")).await
}

/// `POST /dashboard/startups/{id}/reports`: a quarterly report PDF with its summary.
pub async fn add_report(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, AppError> {
    let staff = ctx.require(Role::Admin)?.clone();
    let (f, checked) = crate::startups::reports::read_report(&mut multipart).await?;
    ctx.verify_csrf(&f.get("csrf"), &headers)?;
    match checked {
        Ok((form, bytes)) => {
            crate::startups::reports::store_report(&ctx, staff.id, id, &form, &bytes).await?;
            done(&ctx, &format!("/dashboard/startups/{id}")).await
        }
        Err((form, errors)) => refuse(&ctx, id, &errors, form).await,
    }
}

/// `POST /dashboard/applications/{id}/startup`: an unpublished startup prefilled from a
/// startup application, opened in the editor.
pub async fn from_application(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, _) = staff_post(&ctx, &headers, &body)?;
    let row: Option<(String, String, Option<i64>)> = sqlx::query_as(
        "SELECT a.answers, a.status, s.id FROM startup_applications a
         LEFT JOIN startups s ON s.id = a.startup_id WHERE a.id = ? AND a.status != 'draft'",
    )
    .bind(id)
    .fetch_optional(ctx.state().db())
    .await?;
    let (answers, status, made) = row.ok_or(AppError::NotFound)?;
    // One click makes one startup: a second opens the one already made.
    if let Some(startup) = made {
        return Ok(Redirect::to(&format!("/dashboard/startups/{startup}")).into_response());
    }
    let a: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&answers).unwrap_or_default();
    let get = |k: &str| a.get(k).cloned().unwrap_or_default().trim().to_owned();
    let name = get("name");
    let base = slugify(&name);
    let base = if base.is_empty() {
        format!("application-{id}")
    } else {
        base
    };
    let mut tx = ctx.state().db().begin().await?;
    // A free address: the name's, or the name's with a number.
    let mut slug = base.clone();
    let mut n = 2;
    while sqlx::query_scalar::<_, i64>("SELECT id FROM startups WHERE slug = ?")
        .bind(&slug)
        .fetch_optional(&mut *tx)
        .await?
        .is_some()
    {
        slug = format!("{base}-{n}");
        n += 1;
    }
    let fund: i64 = sqlx::query_scalar("SELECT id FROM funds ORDER BY id LIMIT 1")
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(AppError::BadRequest("dashboard-no-fund"))?;
    let today = ctx.state().today();
    let description = get("description");
    let startup: i64 = sqlx::query_scalar(
        "INSERT INTO startups (slug, name, sort_key_tr, sort_key_en, sector, subcategory, fund_id, country, city,
             description_tr, description_en, website, stage, funding_goal_kurus, period_kind, period_starts_on,
             period_ends_on, published)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'investment', ?, ?, 0) RETURNING id",
    )
    .bind(&slug)
    .bind(if name.is_empty() { &slug } else { &name })
    .bind(sort_key(&name, Locale::Tr))
    .bind(sort_key(&name, Locale::En))
    .bind(get("sector"))
    .bind(get("subcategory"))
    .bind(fund)
    .bind(if get("country").is_empty() { "Türkiye".to_owned() } else { get("country") })
    .bind(get("city"))
    .bind(&description)
    .bind(&description)
    .bind(get("website"))
    .bind(get("stage"))
    .bind(100_000_000_i64)
    .bind(today.to_string())
    .bind((today + time::Duration::days(30)).to_string())
    .fetch_one(&mut *tx)
    .await?;
    audit::record(
        &mut tx,
        staff.id,
        "startup.from_application",
        &format!("startup:{startup}"),
        Some(&format!("application:{id}")),
        Some(&format!("{name} | draft")),
    )
    .await?;
    // Making a startup of it accepts the application.
    sqlx::query(
        "UPDATE startup_applications SET startup_id = ?, status = 'accepted',
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
    )
    .bind(startup)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    if status != "accepted" {
        audit::record(
            &mut tx,
            staff.id,
            "application.status",
            &format!("application:{id}"),
            Some(&status),
            Some("accepted"),
        )
        .await?;
    }
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/startups/{startup}")).await
}

/// The startup editor posts twelve sections in two languages.
const EDITOR_BODY_LIMIT: usize = crate::web::input_screen::MAX_SCREENED_BODY;

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/startups", list)
        .nav("dashboard-startups")
        .get("/dashboard/startups.json", list)
        .get("/dashboard/startups/new", new)
        .post_limited("/dashboard/startups/new", create, EDITOR_BODY_LIMIT)
        .get("/dashboard/startups/{id}", edit)
        .post_limited("/dashboard/startups/{id}", update, EDITOR_BODY_LIMIT)
        .post_limited(
            "/dashboard/startups/{id}/pages",
            add_page,
            PAGE_MAX_BYTES + 64 * 1024,
        )
        .post("/dashboard/startups/{id}/pages/{n}/delete", remove_page)
        .post_limited(
            "/dashboard/startups/{id}/reports",
            add_report,
            crate::startups::reports::REPORT_MAX_BYTES + 64 * 1024,
        )
}

//! The startup editor page: empty for a new startup, or a stored one loaded into the form,
//! with the funds to choose from and the startup's presentation pages and reports.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::startup_form::StartupForm;
use ortak_app::domain::time_fmt::format_day;
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::Locale;
use ortak_app::pages::startup_editor::{EditorExtras, ReportForm, startup_editor_page};
use sqlx::SqliteConnection;

use crate::error::AppError;
use crate::staff::queries::startups as queries;
use crate::web::Ctx;

/// An optional stored value as the form's text: a missing one is an empty field.
fn field<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(String::new, |v| v.to_string())
}

/// Kuruş as whole lira, as staff type them.
fn lira(kurus: Option<i64>) -> String {
    field(kurus.map(|k| k / 100))
}

/// The stored startup `id` as the editor's form.
pub(super) async fn load(conn: &mut SqliteConnection, id: i64) -> Result<StartupForm, AppError> {
    let r = queries::startup(conn, id)
        .await?
        .ok_or(AppError::NotFound)?;
    let sections = queries::sections(conn, id).await?;
    let founders = queries::founders(conn, id).await?;
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
        established_on: field(r.established_on),
        stage: r.stage,
        monthly_income: lira(r.monthly_income_kurus),
        monthly_expense: lira(r.monthly_expense_kurus),
        valuation_usd: field(r.valuation_usd),
        amount_sought_usd: field(r.amount_sought_usd),
        goal: lira(Some(r.funding_goal_kurus)),
        period_kind: r.period_kind.code().to_owned(),
        starts_on: r.period_starts_on.to_string(),
        ends_on: r.period_ends_on.to_string(),
        vip_until: field(r.vip_until),
        published: r.published,
        founders: founders
            .into_iter()
            .map(|f| {
                if f.linkedin.is_empty() {
                    format!("{} | {}", f.name, f.title)
                } else {
                    format!("{} | {} | {}", f.name, f.title, f.linkedin)
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        sections: sections
            .into_iter()
            .map(|s| (s.section, (s.body_tr, s.body_en)))
            .collect(),
    })
}

async fn extras(
    ctx: &Ctx,
    id: Option<i64>,
    report: ReportForm,
    preview: bool,
) -> Result<EditorExtras, AppError> {
    let db = ctx.state().db();
    let funds = queries::funds(db).await?;
    // The pages link by the stored address, not the one being typed.
    let (slug, pages, reports, documents) = match id {
        Some(id) => (
            queries::slug(db, id).await?,
            queries::page_positions(db, id).await?,
            queries::reports(db, id).await?,
            crate::startups::documents::vault(db, id).await?,
        ),
        None => (String::new(), Vec::new(), Vec::new(), Vec::new()),
    };
    let (logo, cover, founders) = match id {
        Some(id) => {
            let (logo, cover) = crate::startups::stored_images(db, id).await?;
            let founders = crate::startups::founders(db, id).await?;
            (
                logo,
                cover,
                founders.into_iter().map(|f| (f.name, f.photo)).collect(),
            )
        }
        None => (None, None, Vec::new()),
    };
    let invited = match id {
        Some(id) => crate::staff::queries::founders::invited(db, id)
            .await?
            .into_iter()
            .map(|f| (f.email, f.joined))
            .collect(),
        None => Vec::new(),
    };
    Ok(EditorExtras {
        invited,
        founder_email: String::new(),
        funds: funds.into_iter().map(|f| (f.id, f.name)).collect(),
        id,
        logo,
        cover,
        founders,
        slug,
        pages,
        reports: reports
            .into_iter()
            .map(|r| {
                let title = match ctx.locale {
                    Locale::Tr => r.title_tr,
                    Locale::En => r.title_en,
                };
                (r.quarter, title)
            })
            .collect(),
        documents: documents
            .into_iter()
            .map(|d| {
                let at = format_day(d.uploaded_at, ctx.locale);
                (d.id, d.kind, at)
            })
            .collect(),
        report,
        preview,
        campaign_approved: match id {
            Some(id) => {
                let mut conn = db.acquire().await?;
                crate::campaigns::queries::startup(&mut conn, id)
                    .await?
                    .is_some_and(|s| s.approved_version_id.is_some())
            }
            None => false,
        },
    })
}

/// Renders the editor with `form` as typed (or loaded) and its errors.
pub(super) async fn render(
    ctx: &Ctx,
    status: StatusCode,
    id: Option<i64>,
    form: &StartupForm,
    errors: &FieldErrors,
    report: ReportForm,
    preview: bool,
) -> Result<Response, AppError> {
    let extras = extras(ctx, id, report, preview).await?;
    let page = ctx.page_ctx(|pc| startup_editor_page(pc, form, errors, extras));
    Ok(ctx.render(status, page).await)
}

/// Re-renders the stored startup's editor with an attachment form's errors.
pub(super) async fn refuse(
    ctx: &Ctx,
    id: i64,
    errors: &FieldErrors,
    report: ReportForm,
) -> Result<Response, AppError> {
    let mut conn = ctx.state().db().acquire().await?;
    let form = load(&mut conn, id).await?;
    drop(conn);
    let status = StatusCode::UNPROCESSABLE_ENTITY;
    render(ctx, status, Some(id), &form, errors, report, false).await
}

/// Re-renders the stored startup's page with the founder invitation's error and what was typed.
pub(super) async fn refuse_invite(
    ctx: &Ctx,
    id: i64,
    errors: &FieldErrors,
    typed: String,
) -> Result<Response, AppError> {
    let mut conn = ctx.state().db().acquire().await?;
    let form = load(&mut conn, id).await?;
    drop(conn);
    let mut extras = extras(ctx, Some(id), ReportForm::default(), false).await?;
    extras.founder_email = typed;
    let page = ctx.page_ctx(|pc| startup_editor_page(pc, &form, errors, extras));
    Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await)
}

/// `GET /dashboard/startups/new`: an empty editor, a 30-day investment round from today.
pub async fn new(ctx: Ctx) -> Result<Response, AppError> {
    let today = ctx.state().today();
    let form = StartupForm {
        country: "Türkiye".into(),
        period_kind: "investment".into(),
        starts_on: today.to_string(),
        ends_on: (today + time::Duration::days(30)).to_string(),
        ..StartupForm::default()
    };
    let errors = FieldErrors::default();
    render(
        &ctx,
        StatusCode::OK,
        None,
        &form,
        &errors,
        ReportForm::default(),
        false,
    )
    .await
}

/// `GET /dashboard/startups/{id}`.
pub async fn edit(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    let mut conn = ctx.state().db().acquire().await?;
    let form = load(&mut conn, id).await?;
    drop(conn);
    let errors = FieldErrors::default();
    render(
        &ctx,
        StatusCode::OK,
        Some(id),
        &form,
        &errors,
        ReportForm::default(),
        false,
    )
    .await
}

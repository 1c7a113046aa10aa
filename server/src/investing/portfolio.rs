//! The investor's overview (`/`, `/overview`) and quarterly reports (`/reports`).

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::i18n::Locale;
use ortak_app::pages::overview::{Overview, overview_page};
use ortak_app::pages::reports::{ReportItem, reports_page};
use sqlx::FromRow;

use crate::error::AppError;
use crate::web::Ctx;
use crate::web::session::{CurrentUser, Role};

/// The signed-in investor's home page.
pub async fn overview_for(ctx: &Ctx, user: &CurrentUser) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let (investments, portfolio): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), COALESCE(SUM(amount_kurus), 0) FROM investment_requests WHERE user_id = ? AND status = 'completed'",
    )
    .bind(user.id)
    .fetch_one(db)
    .await?;
    let (pending, pending_total): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), COALESCE(SUM(amount_kurus), 0) FROM investment_requests
         WHERE user_id = ? AND status IN ('submitted', 'under_review', 'approved', 'paid')",
    )
    .bind(user.id)
    .fetch_one(db)
    .await?;
    let today = ctx.state().today().to_string();
    let open_startups: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM startups WHERE published = 1 AND funded = 0 AND period_starts_on <= ?1 AND period_ends_on >= ?1",
    )
    .bind(&today)
    .fetch_one(db)
    .await?;
    let reports: i64 =
        sqlx::query_scalar(&format!("SELECT COUNT(*) FROM reports r WHERE {VISIBLE}"))
            .bind(user.id)
            .bind(user.id)
            .fetch_one(db)
            .await?;
    let by_sector: Vec<(String, i64)> = sqlx::query_as(
        "SELECT s.sector, SUM(r.amount_kurus) AS total FROM investment_requests r JOIN startups s ON s.id = r.startup_id
         WHERE r.user_id = ? AND r.status = 'completed' GROUP BY s.sector ORDER BY total DESC",
    )
    .bind(user.id)
    .fetch_all(db)
    .await?;
    let mkk_missing = crate::investing::mkk::status(db, user.id).await?.is_none();
    let overview = Overview {
        portfolio: Money::from_kurus(portfolio),
        investments,
        pending,
        pending_total: Money::from_kurus(pending_total),
        open_startups,
        reports,
        by_sector: by_sector
            .into_iter()
            .map(|(s, k)| (s, Money::from_kurus(k)))
            .collect(),
        mkk_missing,
    };
    let page = ctx.page_ctx(|pc| overview_page(pc, overview));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn overview(ctx: Ctx) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    overview_for(&ctx, &user).await
}

/// Reports the user may read: of startups they invested in (a request past review) or saved.
/// Binds the user id twice.
const VISIBLE: &str = "r.startup_id IN (
    SELECT startup_id FROM investment_requests WHERE user_id = ? AND status IN ('approved', 'paid', 'completed')
    UNION SELECT startup_id FROM favorites WHERE user_id = ?)";

#[derive(FromRow)]
struct Row {
    id: i64,
    name: String,
    slug: String,
    quarter: String,
    title_tr: String,
    title_en: String,
    summary_tr: String,
    summary_en: String,
    published_at: String,
}

pub async fn reports(ctx: Ctx) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "SELECT r.id, s.name, s.slug, r.quarter, r.title_tr, r.title_en, r.summary_tr, r.summary_en, r.published_at
         FROM reports r JOIN startups s ON s.id = r.startup_id WHERE {VISIBLE}
         ORDER BY r.published_at DESC, r.id DESC LIMIT 200"
    ))
    .bind(user.id)
    .bind(user.id)
    .fetch_all(ctx.state().db())
    .await?;
    let en = ctx.locale == Locale::En;
    let items = rows
        .into_iter()
        .map(|r| ReportItem {
            id: r.id,
            startup: r.name,
            startup_slug: r.slug,
            quarter: r.quarter,
            title: if en { r.title_en } else { r.title_tr },
            summary: if en { r.summary_en } else { r.summary_tr },
            published: crate::db::parse_utc(&r.published_at)
                .map(ortak_app::domain::time_fmt::istanbul_date)
                .unwrap_or(time::Date::MIN),
        })
        .collect();
    let page = ctx.page_ctx(|pc| reports_page(pc, items));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `GET /reports/{id}/file`: the PDF, to investors who may read the report.
pub async fn report_file(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let file: Option<String> = sqlx::query_scalar(&format!(
        "SELECT r.file_name FROM reports r WHERE r.id = ? AND {VISIBLE}"
    ))
    .bind(id)
    .bind(user.id)
    .bind(user.id)
    .fetch_optional(ctx.state().db())
    .await?;
    let file = file.ok_or(AppError::NotFound)?;
    crate::web::files::serve(
        &ctx.state().shared().data_dir.join("reports").join(file),
        "application/pdf",
    )
    .await
}

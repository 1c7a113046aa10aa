//! The investor's overview (`/`, `/overview`) and the quarterly reports they may read
//! (`/reports`): those of startups they invested in (the fee paid or further, see
//! `RequestStatus::INVESTED`) and of their fund team's startups; staff open every report's file.
//! Saving a startup as a favourite grants nothing.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::domain::time_fmt::istanbul_date;
use ortak_app::i18n::Locale;
use ortak_app::pages::overview::{Overview, overview_page};
use ortak_app::pages::portfolio::Holding;
use ortak_app::pages::reports::{ReportItem, reports_page};

use std::sync::{Arc, LazyLock};
use time::Date;

use super::queries::portfolio as queries;
use crate::db::snapshot::{RECORD_BYTES, Reads, Snapshot};
use crate::error::AppError;
use crate::web::session::CurrentUser;
use crate::web::{Ctx, Member, Staff};

/// An investor's figures and holdings on a day, kept between writes (`db::snapshot`): the
/// overview of a member who comes back to it reads nothing while nothing was written.
type Portfolio = Arc<(queries::Figures, Vec<Holding>)>;
static PORTFOLIOS: LazyLock<Snapshot<(i64, Date), Portfolio>> = LazyLock::new(|| {
    Snapshot::new(Reads::OneMember, 4 << 20, |_, p| {
        RECORD_BYTES * (1 + p.1.len())
    })
});

async fn portfolio(ctx: &Ctx, user: i64) -> Result<Portfolio, AppError> {
    let db = ctx.state().db();
    let key = (user, ctx.state().today());
    PORTFOLIOS
        .get_or_make(key, ctx.state().writes().of_member(user), || async {
            Ok(Arc::new((
                queries::figures(db, user, key.1).await?,
                super::lists::holdings(db, user).await?,
            )))
        })
        .await
}

/// The signed-in investor's home page (`content` shows it at `/` to members).
pub async fn overview_for(ctx: &Ctx, user: &CurrentUser) -> Result<Response, AppError> {
    let kept = portfolio(ctx, user.id).await?;
    let (figures, holdings) = &*kept;
    let overview = Overview {
        holdings: holdings.clone(),
        pending: figures.pending,
        pending_total: Money::from_kurus(figures.pending_kurus),
        escrow: Money::from_kurus(figures.escrow_kurus),
        open_startups: figures.open_startups,
        reports: figures.reports,
        mkk_missing: !figures.has_mkk,
        unverified: !user.verified,
        followed: crate::startups::followed(ctx, user.id, 6).await?,
    };
    let page = ctx.page_ctx(|pc| overview_page(pc, overview));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `GET /overview`.
pub async fn overview(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    overview_for(&ctx, &user).await
}

/// `GET /reports`.
pub async fn reports(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    let rows = queries::visible_reports(ctx.state().db(), user.id).await?;
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
            published: istanbul_date(r.published_at),
            readable: r.readable,
        })
        .collect();
    let today = ctx.state().today();
    let overdue = crate::startups::reports::overdue(ctx.state().db(), Some(user.id), today).await?;
    let page = ctx.page_ctx(|pc| reports_page(pc, items, &overdue));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `GET /reports/{id}/file`: the PDF, to those who may read the report (anyone else: 404).
pub async fn report_file(
    ctx: Ctx,
    Member(user): Member,
    staff: Option<Staff>,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let file = queries::visible_report_file(ctx.state().db(), user.id, staff.is_some(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    crate::web::files::serve(
        &ctx.state().shared().data_dir.join("reports").join(file),
        "application/pdf",
    )
    .await
}

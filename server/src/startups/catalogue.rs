//! `/startups`: the public catalogue, filtered, sorted in the page's language and paged.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::startups::ListQuery;
use ortak_app::pages::startups::{ListPage, startups_page};

use super::queries;
use crate::error::AppError;
use crate::web::Ctx;

pub const PER_PAGE: u32 = 12;

pub async fn list(ctx: Ctx, Query(q): Query<ListQuery>) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let page = q.page_number();
    let mut q = q.sanitized();
    q.page.clear();
    let facets = queries::facets(db, &q).await?;
    let viewer = ctx.user.as_ref().map(|u| u.id);
    let rows = queries::listed_cards(
        db,
        viewer,
        &q,
        ctx.locale,
        i64::from(PER_PAGE),
        i64::from((page - 1) * PER_PAGE),
    )
    .await?;
    let today = ctx.state().today();
    let cards = rows
        .iter()
        .map(|r| r.card(viewer.is_some(), today))
        .collect();
    let list = ListPage {
        cards,
        total: facets.total,
        page,
        per_page: PER_PAGE,
        query: q,
        funds: facets.funds,
        cities: facets.cities,
    };
    let page = ctx.page_ctx(|pc| startups_page(pc, list));
    Ok(ctx.render(StatusCode::OK, page).await)
}

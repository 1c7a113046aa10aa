//! `/startups`: the public catalogue, filtered, sorted in the page's language and paged.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::startups::ListQuery;
use ortak_app::pages::startups::{ListPage, startups_page};

use super::kept;
use crate::error::AppError;
use crate::web::Ctx;

pub const PER_PAGE: u32 = 12;

pub async fn list(ctx: Ctx, Query(q): Query<ListQuery>) -> Result<Response, AppError> {
    let page = q.page_number();
    let mut q = q.sanitized();
    q.page.clear();
    let kept = kept::catalogue_page(&ctx, &q, page, PER_PAGE).await?;
    let (facets, rows) = &*kept;
    let mine = match &ctx.user {
        Some(user) => Some(kept::mine(&ctx, user.id).await?),
        None => None,
    };
    let today = ctx.state().today();
    let cards = rows
        .iter()
        .map(|r| r.card(mine.as_ref().map(|m| m.saved(r.id)), today))
        .collect();
    let list = ListPage {
        cards,
        total: facets.total,
        page,
        per_page: PER_PAGE,
        query: q,
        funds: facets.funds.clone(),
        cities: facets.cities.clone(),
    };
    let page = ctx.page_ctx(|pc| startups_page(pc, list));
    Ok(ctx.render(StatusCode::OK, page).await)
}

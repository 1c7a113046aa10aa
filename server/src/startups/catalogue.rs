//! `/startups`: the public catalogue, filtered, sorted in the page's language and paged.

use axum::extract::Query;
use axum::response::Response;
use ortak_app::domain::startups::ListQuery;
use ortak_app::pages::startups::{ListPage, startups_page};
use ortak_app::shell::PageContext;

use super::kept;
use crate::error::AppError;
use crate::web::Ctx;

pub const PER_PAGE: u32 = 12;

pub async fn list(ctx: Ctx, Query(q): Query<ListQuery>) -> Result<Response, AppError> {
    let page = q.page_number();
    let mut q = q.sanitized();
    q.page.clear();
    let versions = ctx.state().writes();
    let kept = kept::catalogue_page(&ctx, &q, page, PER_PAGE).await?;
    let saved = |id| ctx.user.as_ref().map(|u| u.saved(id));
    // All the page shows of the member: which of its cards they saved.
    let marks = kept
        .1
        .iter()
        .map(|r| if saved(r.id) == Some(true) { '1' } else { '0' })
        .collect();
    ctx.render_shared(versions, marks, || async {
        let (facets, rows) = &*kept;
        let today = ctx.state().today();
        let list = ListPage {
            cards: rows.iter().map(|r| r.card(saved(r.id), today)).collect(),
            total: facets.total,
            page,
            per_page: PER_PAGE,
            query: q.clone(),
            funds: facets.funds.clone(),
            cities: facets.cities.clone(),
        };
        Ok(move |pc: &PageContext| startups_page(pc, list))
    })
    .await
}

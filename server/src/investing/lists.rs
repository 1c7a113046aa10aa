//! The investor's own requests: those under way (`/pendingInvestments`, where a request not
//! yet paid can be withdrawn) and completed investments (`/userInvestments`).

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::money::Money;
use ortak_app::domain::time_fmt::istanbul_date;
use ortak_app::pages::investing::{RequestRow, my_investments_page, pending_page};
use serde::de::IgnoredAny;

use super::{queries, transitions};
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::{Ctx, Member, flash};

async fn requests(ctx: &Ctx, user: i64, completed: bool) -> Result<Vec<RequestRow>, AppError> {
    let rows = queries::requests_of(ctx.state().db(), user, completed).await?;
    Ok(rows
        .into_iter()
        .map(|r| RequestRow {
            id: r.id,
            startup_slug: r.slug,
            startup_name: r.name,
            kind: r.kind.code().to_owned(),
            amount: Money::from_kurus(r.amount_kurus),
            total: Money::from_kurus(r.total_kurus),
            status: r.status,
            created: istanbul_date(r.created_at),
        })
        .collect())
}

/// `GET /pendingInvestments`.
pub async fn pending(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    let rows = requests(&ctx, user.id, false).await?;
    let page = ctx.page_ctx(|pc| pending_page(pc, rows));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `GET /userInvestments`.
pub async fn mine(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    let rows = requests(&ctx, user.id, true).await?;
    let page = ctx.page_ctx(|pc| my_investments_page(pc, rows));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `POST /pendingInvestments/{id}/cancel`: the investor withdraws a request not yet paid.
pub async fn cancel(
    ctx: Ctx,
    Member(user): Member,
    Path(id): Path<i64>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    let mut tx = ctx.state().db().begin().await?;
    // Someone else's request is as invisible as a missing one.
    let status = queries::own_status(&mut tx, id, user.id)
        .await?
        .ok_or(AppError::NotFound)?;
    if !status.cancellable() {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    queries::cancel(&mut tx, id, ctx.state().now()).await?;
    transitions::record_event(&mut tx, id, RequestStatus::Cancelled, "", Some(user.id)).await?;
    tx.commit().await?;
    flash::success(&ctx, "pending-cancelled").await?;
    Ok(Redirect::to("/pendingInvestments").into_response())
}

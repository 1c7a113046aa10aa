//! `/dashboard/rounds/{id}/close` (superadmins): what an early end would do, in figures, then
//! one of the two fair ways (`investing::early_close`): schedule an early close while escrow
//! holds the success threshold, or terminate the round with a written reason. Either asks for
//! the startup's name typed out, so nobody ends a round by a stray click.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::money::Money;
use ortak_app::domain::text::turkish_lowercase;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::dashboard::{RoundClose, round_close_page};
use serde::Deserialize;

use super::queries;
use crate::error::AppError;
use crate::investing::early_close;
use crate::web::form::Form;
use crate::web::{Ctx, SuperAdmin, flash};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ClosePost {
    /// `schedule` or `terminate`.
    intent: String,
    /// The startup's name, typed to confirm.
    name: String,
    /// Why the round is terminated.
    reason: String,
}

async fn show(
    ctx: &Ctx,
    id: i64,
    status: StatusCode,
    (errors, typed): (FieldErrors, ClosePost),
) -> Result<Response, AppError> {
    let round = queries::round(ctx.state().db(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    let p = early_close::preview(ctx.state(), id).await?;
    let scheduled = queries::scheduled_close(ctx.state().db(), id).await?;
    let page = RoundClose {
        id,
        name: round.name,
        goal: p.goal,
        received: p.received,
        may_schedule: p.may_schedule,
        earliest: p.earliest,
        open_requests: p.figures.open_requests,
        investors: p.figures.investors,
        escrow_requests: p.figures.escrow_requests,
        escrow: Money::from_kurus(p.figures.escrow_kurus),
        fees_paid: p.figures.fees_paid,
        fees: Money::from_kurus(p.figures.fees_kurus),
        scheduled,
        errors,
        typed_name: typed.name,
        typed_reason: typed.reason,
    };
    let page = ctx.page_ctx(|pc| round_close_page(pc, page));
    Ok(ctx.render(status, page).await)
}

/// `GET /dashboard/rounds/{id}/close`.
pub async fn page(ctx: Ctx, _: SuperAdmin, Path(id): Path<i64>) -> Result<Response, AppError> {
    let none = (FieldErrors::default(), ClosePost::default());
    show(&ctx, id, StatusCode::OK, none).await
}

/// `POST /dashboard/rounds/{id}/close`.
pub async fn act(
    ctx: Ctx,
    SuperAdmin(user): SuperAdmin,
    Path(id): Path<i64>,
    Form(post): Form<ClosePost>,
) -> Result<Response, AppError> {
    let round = queries::round(ctx.state().db(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    let name_field = match post.intent.as_str() {
        "schedule" => "name_schedule",
        "terminate" => "name_terminate",
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    let mut errors = FieldErrors::default();
    let same = |a: &str, b: &str| turkish_lowercase(a.trim()) == turkish_lowercase(b.trim());
    if !same(&post.name, &round.name) {
        errors.add(name_field, "round-close-name-mismatch");
    }
    let reason: String = post.reason.trim().chars().take(500).collect();
    if post.intent == "terminate" && reason.is_empty() {
        errors.add("reason", "dashboard-reason-required");
    }
    if !errors.is_empty() {
        return show(&ctx, id, StatusCode::UNPROCESSABLE_ENTITY, (errors, post)).await;
    }
    let message = if post.intent == "schedule" {
        early_close::schedule(ctx.state(), id, user.id).await?;
        "round-close-scheduled"
    } else {
        early_close::terminate(ctx.state(), id, user.id, &reason).await?;
        "round-terminated"
    };
    flash::success(&ctx, message).await?;
    Ok(Redirect::to(&format!("/dashboard/rounds/{id}")).into_response())
}

//! `/signin/terms`: a signed-in member who has not accepted the current membership agreement
//! and KVKK notice (a new version, or a sign-in by e-mailed link or provider, which has no box)
//! accepts them before any member area opens (`web::access::guard` sends them here), then
//! goes on to where they were going.

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::paths::{encode_query, local_path};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::auth::terms_update_page;
use serde::Deserialize;

use super::queries;
use crate::error::AppError;
use crate::web::Ctx;
use crate::web::form::Form;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NextQuery {
    next: String,
}

/// Sign-in first for a visitor; straight on for a member whose acceptance is current.
fn elsewhere(ctx: &Ctx, next: &str) -> Option<Response> {
    match &ctx.user {
        None => Some(Redirect::to(&format!("/signin?next={}", encode_query(next))).into_response()),
        Some(user) if user.terms_current => Some(Redirect::to(next).into_response()),
        Some(_) => None,
    }
}

/// `GET /signin/terms?next=…`.
pub async fn form(ctx: Ctx, Query(query): Query<NextQuery>) -> Result<Response, AppError> {
    let next = local_path(&query.next);
    if let Some(response) = elsewhere(&ctx, next) {
        return Ok(response);
    }
    let page = ctx.page_ctx(|pc| terms_update_page(pc, next, &FieldErrors::default()));
    Ok(ctx.render_private(StatusCode::OK, page).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TermsForm {
    terms: Option<String>,
    next: String,
}

/// `POST /signin/terms`: records the acceptance with its version and time, and goes on.
pub async fn accept(ctx: Ctx, Form(form): Form<TermsForm>) -> Result<Response, AppError> {
    let next = local_path(&form.next);
    if let Some(response) = elsewhere(&ctx, next) {
        return Ok(response);
    }
    let Some(user) = &ctx.user else {
        return Err(AppError::SignInRequired);
    };
    if form.terms.as_deref() != Some("on") {
        let mut errors = FieldErrors::default();
        errors.add("terms", "validation-terms");
        let page = ctx.page_ctx(|pc| terms_update_page(pc, next, &errors));
        return Ok(ctx
            .render_private(StatusCode::UNPROCESSABLE_ENTITY, page)
            .await);
    }
    let mut tx = crate::db::write(ctx.state().db()).await?;
    queries::terms::accept(&mut tx, user.id, ctx.state().now()).await?;
    tx.commit().await?;
    Ok(Redirect::to(next).into_response())
}

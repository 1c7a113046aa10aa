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
use crate::web::session::CurrentUser;

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NextQuery {
    next: String,
}

/// The member who is asked, or where anyone else goes: a visitor to sign in first, a member
/// whose acceptance is current straight on.
fn asked<'a>(ctx: &'a Ctx, next: &str) -> Result<&'a CurrentUser, Redirect> {
    match &ctx.user {
        None => Err(Redirect::to(&format!(
            "/signin?next={}",
            encode_query(next)
        ))),
        Some(user) if user.terms_current => Err(Redirect::to(next)),
        Some(user) => Ok(user),
    }
}

/// `GET /signin/terms?next=…`.
pub async fn form(ctx: Ctx, Query(query): Query<NextQuery>) -> Result<Response, AppError> {
    let next = local_path(&query.next);
    if let Err(elsewhere) = asked(&ctx, next) {
        return Ok(elsewhere.into_response());
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
    let user = match asked(&ctx, next) {
        Ok(user) => user,
        Err(elsewhere) => return Ok(elsewhere.into_response()),
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

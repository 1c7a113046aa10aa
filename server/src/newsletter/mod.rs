//! Newsletter subscription: the footer's plain form (`POST /newsletter`) and the island's JSON
//! endpoint (`POST /api/newsletter`), over one validation and one storage path; the forms of
//! `applications` record their consent box through [`subscribe`] too.

pub mod queries;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::components::NewsletterState;
use ortak_app::domain::email::normalize_email;
use ortak_app::domain::paths::local_path;
use ortak_app::i18n::Locale;
use ortak_app::pages::newsletter::newsletter_page;
use serde::Deserialize;
use serde_json::json;
use sqlx::SqliteConnection;
use time::OffsetDateTime;

use crate::error::AppError;
use crate::web::form::{Form, JsonBody};
use crate::web::{Access, Ctx, Routes, flash};

/// Version of the consent sentence shown beside the form (`newsletter-consent`); stored with
/// each subscription as the record of what the subscriber agreed to.
pub const CONSENT_TEXT_VERSION: &str = "newsletter-consent/2026-11-21";

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SubscribeForm {
    #[serde(rename = "return")]
    return_to: String,
    email: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SubscribeJson {
    email: String,
}

/// Records the subscription once, consented at `now`; subscribing again is not an error and
/// changes nothing, except that a former subscriber's new consent is recorded.
pub async fn subscribe(
    conn: &mut SqliteConnection,
    email: &str,
    locale: Locale,
    source: &str,
    now: OffsetDateTime,
) -> Result<(), AppError> {
    queries::subscribe(
        conn,
        email,
        locale.code(),
        CONSENT_TEXT_VERSION,
        source,
        now,
    )
    .await?;
    Ok(())
}

pub async fn page(ctx: Ctx) -> Response {
    let page = ctx.page_ctx(|pc| newsletter_page(pc, &NewsletterState::default()));
    ctx.render(StatusCode::OK, page).await
}

pub async fn subscribe_form(
    ctx: Ctx,
    Form(form): Form<SubscribeForm>,
) -> Result<Response, AppError> {
    match normalize_email(&form.email) {
        Err(error) => {
            let state = NewsletterState {
                email: form.email,
                error_id: Some(error.message_id()),
                return_to: Some(local_path(&form.return_to).to_owned()),
            };
            let page = ctx.page_ctx(|pc| newsletter_page(pc, &state));
            Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await)
        }
        Ok(email) => {
            subscribe(
                &mut *ctx.state().db().acquire().await?,
                &email,
                ctx.locale,
                "form",
                ctx.state().now(),
            )
            .await?;
            flash::success(&ctx, "newsletter-success").await?;
            Ok(Redirect::to(local_path(&form.return_to)).into_response())
        }
    }
}

pub async fn subscribe_json(
    ctx: Ctx,
    JsonBody(body): JsonBody<SubscribeJson>,
) -> Result<Response, AppError> {
    match normalize_email(&body.email) {
        Err(error) => Ok((
            StatusCode::UNPROCESSABLE_ENTITY,
            Json(json!({ "ok": false, "errors": { "email": ctx.t(error.message_id()) } })),
        )
            .into_response()),
        Ok(email) => {
            subscribe(
                &mut *ctx.state().db().acquire().await?,
                &email,
                ctx.locale,
                "island",
                ctx.state().now(),
            )
            .await?;
            Ok(Json(json!({ "ok": true, "message": ctx.t("newsletter-success") })).into_response())
        }
    }
}

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Public)
            .get("/newsletter", page)
            .post("/newsletter", subscribe_form)
            .post("/api/newsletter", subscribe_json),
    ]
}

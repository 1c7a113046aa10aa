//! Newsletter subscription: the footer's plain form (`POST /newsletter`) and the island's JSON
//! endpoint (`POST /api/newsletter`), over one validation and one storage path.

use crate::web::form::Form;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::components::NewsletterState;
use ortak_app::domain::email::normalize_email;
use ortak_app::domain::paths::local_path;
use ortak_app::i18n::Locale;
use ortak_app::pages::newsletter::newsletter_page;
use ortak_app::shell::{Flash, FlashKind};
use serde::Deserialize;
use serde_json::json;
use sqlx::SqliteConnection;

use crate::error::AppError;
use crate::web::form::JsonBody;
use crate::web::{Access, Ctx, Routes};

/// Version of the consent sentence shown beside the form (`newsletter-consent`); stored with
/// each subscription as the record of what the subscriber agreed to.
pub const CONSENT_TEXT_VERSION: &str = "newsletter-consent/2026-11-21";

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SubscribeForm {
    csrf: String,
    #[serde(rename = "return")]
    return_to: String,
    email: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct SubscribeJson {
    email: String,
}

/// Records the subscription once; subscribing again is not an error and changes nothing,
/// except that a former subscriber's new consent is recorded.
pub async fn subscribe(
    conn: &mut SqliteConnection,
    email: &str,
    locale: Locale,
    source: &str,
) -> Result<(), AppError> {
    sqlx::query(
        "INSERT INTO newsletter_subscribers (email, language, consent_text_version, source)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (email) DO UPDATE SET unsubscribed_at = NULL,
             consented_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now'),
             consent_text_version = excluded.consent_text_version, source = excluded.source
         WHERE unsubscribed_at IS NOT NULL",
    )
    .bind(email)
    .bind(locale.code())
    .bind(CONSENT_TEXT_VERSION)
    .bind(source)
    .execute(conn)
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
            )
            .await?;
            ctx.set_flash(Flash {
                kind: FlashKind::Success,
                message_id: "newsletter-success".into(),
            })
            .await?;
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

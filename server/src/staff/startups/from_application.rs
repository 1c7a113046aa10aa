//! `POST /dashboard/applications/{id}/startup`: one click makes an unpublished startup of a
//! submitted application (its answers prefill the editor) and accepts the application.

use std::collections::BTreeMap;

use axum::extract::Path;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::collation::sort_key;
use ortak_app::domain::startup_form::slugify;
use ortak_app::i18n::Locale;
use serde::de::IgnoredAny;
use sqlx::SqliteConnection;

use crate::db::{audit, unique_violation};
use crate::error::AppError;
use crate::staff::queries::startup_drafts::{self as queries, Draft};
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::{Ctx, Staff};
use ortak_app::domain::project::ApplicationStatus;

/// A new startup's funding goal until staff set one: 1,000,000 TL.
const DRAFT_GOAL_KURUS: i64 = 100_000_000;

/// An unpublished startup prefilled from a startup application, opened in the editor.
pub async fn from_application(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
    Form(_): Form<IgnoredAny>,
) -> Result<Response, AppError> {
    let application = queries::submitted_application(ctx.state().db(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    // One click makes one startup: a second opens the one already made.
    if let Some(startup) = application.startup_id {
        return Ok(Redirect::to(&format!("/dashboard/startups/{startup}")).into_response());
    }
    // Answers that are not an object of strings prefill nothing.
    let answers: BTreeMap<String, String> =
        serde_json::from_str(&application.answers).unwrap_or_default();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let fund = queries::first_fund(&mut tx)
        .await?
        .ok_or(AppError::BadRequest("dashboard-no-fund"))?;
    let (startup, name) = insert(&ctx, &mut tx, id, fund, &answers).await?;
    audit::record(
        &mut tx,
        user.id,
        "startup.from_application",
        &format!("startup:{startup}"),
        Some(&format!("application:{id}")),
        Some(&format!("{name} | draft")),
    )
    .await?;
    // Making a startup of it accepts the application.
    queries::accept_application(&mut tx, id, startup, ctx.state().now()).await?;
    if application.status != ApplicationStatus::Accepted {
        audit::record(
            &mut tx,
            user.id,
            "application.status",
            &format!("application:{id}"),
            Some(application.status.code()),
            Some("accepted"),
        )
        .await?;
    }
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/startups/{startup}")).await
}

/// Inserts the draft at a free address: the name's, or the name's with a number. Returns the
/// startup's id and the application's name.
async fn insert(
    ctx: &Ctx,
    conn: &mut SqliteConnection,
    application: i64,
    fund_id: i64,
    answers: &BTreeMap<String, String>,
) -> Result<(i64, String), AppError> {
    let get = |k: &str| answers.get(k).map_or("", |v| v.trim());
    let name = get("name");
    let base = match slugify(name) {
        base if base.is_empty() => format!("application-{application}"),
        base => base,
    };
    let today = ctx.state().today();
    let country = match get("country") {
        "" => "Türkiye",
        country => country,
    };
    let mut draft = Draft {
        slug: base.clone(),
        name: String::new(),
        sort_key_tr: sort_key(name, Locale::Tr),
        sort_key_en: sort_key(name, Locale::En),
        sector: get("sector"),
        subcategory: get("subcategory"),
        fund_id,
        country,
        city: get("city"),
        description: get("description"),
        website: get("website"),
        stage: get("stage"),
        goal_kurus: DRAFT_GOAL_KURUS,
        starts_on: today,
        ends_on: today + time::Duration::days(30),
    };
    let mut n = 2;
    loop {
        // Without a name, the startup is called by its address.
        draft.name = if name.is_empty() { &draft.slug } else { name }.to_owned();
        match queries::insert_draft(conn, &draft).await {
            Ok(startup) => return Ok((startup, name.to_owned())),
            Err(e) if unique_violation(&e, "startups.slug") => {
                draft.slug = format!("{base}-{n}");
                n += 1;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

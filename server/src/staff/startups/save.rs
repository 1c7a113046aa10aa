//! Saving the startup editor: the domain checks the form, a preview only renders it, and a
//! save stores the startup with its sections and founders, audits it and, on its first
//! publication, tells the investors interested in its sector.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::startup_form::{StartupForm, StartupRecord, validate};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::startup_editor::ReportForm;

use super::editor::{load, render};
use super::form::EditorFields;
use crate::db::{audit, unique_violation};
use crate::error::AppError;
use crate::investing::reconfirmation;
use crate::staff::queries::startups as queries;
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::{Ctx, Staff};

/// `POST /dashboard/startups/new`.
pub async fn create(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Form(fields): Form<EditorFields>,
) -> Result<Response, AppError> {
    save(ctx, user.id, None, fields).await
}

/// `POST /dashboard/startups/{id}`.
pub async fn update(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path(id): Path<i64>,
    Form(fields): Form<EditorFields>,
) -> Result<Response, AppError> {
    save(ctx, user.id, Some(id), fields).await
}

/// The audit log's one-line account of a startup.
fn summary(f: &StartupForm) -> String {
    format!(
        "{} | {} | goal {} | {} {}..{} | {}",
        f.name,
        f.slug,
        f.goal,
        f.period_kind,
        f.starts_on,
        f.ends_on,
        if f.published { "published" } else { "draft" },
    )
}

/// Whether the committee approved a version of startup `id`; if it did, the stored campaign
/// content replaces what was posted (it changes through a new version only).
async fn keep_approved_campaign(
    db: &sqlx::SqlitePool,
    id: Option<i64>,
    form: &mut StartupForm,
) -> Result<bool, AppError> {
    let Some(id) = id else {
        return Ok(false);
    };
    let mut conn = db.acquire().await?;
    let approved = crate::campaigns::queries::startup(&mut conn, id)
        .await?
        .is_some_and(|s| s.approved_version_id.is_some());
    if approved {
        campaign_fields_from(form, load(&mut conn, id).await?);
    }
    Ok(approved)
}

/// Keeps the stored campaign content (descriptions, goal, period, sections) in place of what
/// was posted.
fn campaign_fields_from(form: &mut StartupForm, stored: StartupForm) {
    form.description_tr = stored.description_tr;
    form.description_en = stored.description_en;
    form.goal = stored.goal;
    form.period_kind = stored.period_kind;
    form.starts_on = stored.starts_on;
    form.ends_on = stored.ends_on;
    form.sections = stored.sections;
}

/// The campaign rules the editor checks beside the form's own: the campaign length, and no
/// publication before the committee approved a version (the database refuses both as well).
fn campaign_rules(
    state: &crate::state::AppState,
    record: &StartupRecord,
    approved: bool,
) -> Result<(), FieldErrors> {
    let mut errors = FieldErrors::default();
    let max_days = state.shared().rounds.campaign_max_days;
    if ortak_app::domain::campaign::campaign_days(record.starts_on, record.ends_on) > max_days {
        errors.add("ends_on", "validation-campaign-too-long");
    }
    if record.published && !approved {
        errors.add("published", "startup-publish-needs-approval");
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn slug_taken() -> FieldErrors {
    let mut errors = FieldErrors::default();
    errors.add("slug", "validation-slug-taken-startup");
    errors
}

async fn save(
    ctx: Ctx,
    actor: i64,
    id: Option<i64>,
    fields: EditorFields,
) -> Result<Response, AppError> {
    let preview = fields.intent == "preview";
    let mut form = fields.into_form();
    let db = ctx.state().db();
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    let no_report = ReportForm::default;
    let approved = keep_approved_campaign(db, id, &mut form).await?;
    let checked = validate(&form, &queries::fund_ids(db).await?)
        .and_then(|record| campaign_rules(ctx.state(), &record, approved).map(|()| record));
    let record = match checked {
        Err(errors) => {
            return render(&ctx, unprocessable, id, &form, &errors, no_report(), false).await;
        }
        // A preview says the address is taken as a save would, and stores nothing.
        Ok(record) if preview => {
            let (status, errors, preview) = if queries::slug_taken(db, &record.slug, id).await? {
                (unprocessable, slug_taken(), false)
            } else {
                (StatusCode::OK, FieldErrors::default(), true)
            };
            return render(&ctx, status, id, &form, &errors, no_report(), preview).await;
        }
        Ok(record) => record,
    };
    let mut tx = crate::db::write(db).await?;
    let (before, terms) = match id {
        Some(id) => (
            Some(load(&mut tx, id).await?),
            reconfirmation::terms(&mut tx, id).await?,
        ),
        None => (None, None),
    };
    let saved = match queries::store(&mut tx, id, &record).await {
        Ok(saved) => saved,
        Err(e) if unique_violation(&e, "startups.slug") => {
            drop(tx);
            return render(
                &ctx,
                unprocessable,
                id,
                &form,
                &slug_taken(),
                no_report(),
                false,
            )
            .await;
        }
        Err(e) => return Err(e.into()),
    };
    let after = load(&mut tx, saved).await?;
    let action = if id.is_some() {
        "startup.update"
    } else {
        "startup.create"
    };
    let subject = format!("startup:{saved}");
    let before_text = before.as_ref().map(summary);
    audit::record(
        &mut tx,
        actor,
        action,
        &subject,
        before_text.as_deref(),
        Some(&summary(&after)),
    )
    .await?;
    if record.published && !before.is_some_and(|b| b.published) {
        let public_url = &ctx.state().shared().public_url;
        crate::notifications::announce(&mut tx, public_url, saved, ctx.state().now()).await?;
    }
    reconfirmation::after_change(&mut tx, ctx.state(), saved, terms, actor).await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    done(&ctx, &format!("/dashboard/startups/{saved}")).await
}

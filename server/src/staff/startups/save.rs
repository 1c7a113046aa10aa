//! Saving the startup editor: the domain checks the form, a preview only renders it, and a
//! save stores the startup with its sections and founders, audits it and, on its first
//! publication, tells the investors interested in its sector.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::startup_form::{StartupForm, StartupRecord, validate};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::startup_editor::ReportForm;
use sqlx::SqliteConnection;
use time::OffsetDateTime;

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
    let form = fields.into_form();
    let db = ctx.state().db();
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    let no_report = ReportForm::default;
    let record = match validate(&form, &queries::fund_ids(db).await?) {
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
        announce(&mut tx, public_url, saved, &record, ctx.state().now()).await?;
    }
    reconfirmation::after_change(&mut tx, ctx.state(), saved, terms, actor).await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    done(&ctx, &format!("/dashboard/startups/{saved}")).await
}

/// On first publication: tells investors whose interests include the sector and who get such
/// mails, in their language (the `startup-match` automatic mail). Once per startup, however
/// often it is unpublished and published again.
async fn announce(
    conn: &mut SqliteConnection,
    public_url: &str,
    id: i64,
    r: &StartupRecord,
    now: OffsetDateTime,
) -> Result<(), AppError> {
    if !queries::mark_announced(conn, id, now).await? {
        return Ok(());
    }
    crate::notifications::new_startup(conn, public_url, &r.slug, &r.sector).await
}

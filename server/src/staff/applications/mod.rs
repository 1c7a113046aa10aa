//! `/dashboard/applications`: the startup applications visitors and members submitted, their
//! status moves (in review, accepted, declined), the presentation download and, from
//! `page`, each application on its own page. Turning one into a startup lives with the
//! startup editor (`staff::startups`).

mod decline;
mod page;

use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use ortak_app::pages::staff_table::{Cell, RowAction, StaffRow, StaffTable};
use serde::Deserialize;

use super::queries::applications::{self as queries, ListedApplication};
use super::table::render_table;
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, Staff};
use ortak_app::domain::project::ApplicationStatus;

/// `/dashboard/applications`: startup applications, with the presentation and a status.
pub async fn applications(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    let rows = queries::list(ctx.state().db())
        .await?
        .into_iter()
        .map(application_row)
        .collect();
    let table = StaffTable {
        title_id: "dashboard-applications",
        columns: vec![
            "dashboard-col-name",
            "dashboard-col-email",
            "dashboard-col-handled",
            "dashboard-col-date",
        ],
        rows,
        search: None,
        csv: None,
        create: None,
    };
    render_table(&ctx, table).await
}

fn application_row(a: ListedApplication) -> StaffRow {
    let id = a.id;
    let answer = |k: &str| Cell::from(a.answers.get(k).cloned());
    StaffRow {
        id,
        cells: vec![
            answer("name"),
            answer("contact_email"),
            status_label(a.status),
            a.submitted_at.map(Cell::Date).into(),
        ],
        link: Some((
            format!("/dashboard/applications/{id}"),
            "dashboard-view".to_owned(),
        )),
        actions: application_actions(id, a.status, a.startup_id),
    }
}

/// An application's status as staff read it.
fn status_label(status: ApplicationStatus) -> Cell {
    Cell::Label(format!("dashboard-app-status-{}", status.code()))
}

/// An application's status moves, and "create startup" until one was made from it.
fn application_actions(id: i64, status: ApplicationStatus, startup: Option<i64>) -> Vec<RowAction> {
    // Declining is irreversible and mailed: it has its own page (`decline`).
    ApplicationStatus::MOVES
        .into_iter()
        .filter(|s| *s != status && *s != ApplicationStatus::Declined)
        .map(|s| RowAction {
            action: format!("/dashboard/applications/{id}/status"),
            name: "status",
            value: s.code().to_owned(),
            label_id: format!("dashboard-app-{}", s.code()),
            fields: &[],
        })
        .chain(startup.is_none().then(|| RowAction {
            action: format!("/dashboard/applications/{id}/startup"),
            name: "create",
            value: "1".into(),
            label_id: "dashboard-app-create-startup".into(),
            fields: &[],
        }))
        .collect()
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct StatusMove {
    /// `in_review`, `accepted` or `declined`.
    status: String,
}

/// `POST /dashboard/applications/{id}/status`.
pub async fn application_status(
    ctx: Ctx,
    Staff { user: staff, .. }: Staff,
    Path(id): Path<i64>,
    Form(form): Form<StatusMove>,
) -> Result<Response, AppError> {
    let status = ApplicationStatus::move_from_code(&form.status)
        .filter(|s| *s != ApplicationStatus::Declined)
        .ok_or(AppError::BadRequest("bad-request-text"))?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let before = queries::status(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    queries::set_status(&mut tx, id, status, ctx.state().now()).await?;
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "application.status",
        &format!("application:{id}"),
        Some(before.code()),
        Some(status.code()),
    )
    .await?;
    tx.commit().await?;
    crate::web::flash::done(&ctx, "/dashboard/applications").await
}

/// `/dashboard/applications/{id}/presentation`: the file, as an attachment under the name it
/// was sent with (reduced to safe characters).
pub async fn application_presentation(
    ctx: Ctx,
    _: Staff,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let stored = queries::presentation(ctx.state().db(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    let file = stored.file.ok_or(AppError::NotFound)?;
    let kind = match file.rsplit('.').next() {
        Some("pdf") => "application/pdf",
        Some("pptx") => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        _ => "application/vnd.ms-powerpoint",
    };
    let path = ctx
        .state()
        .shared()
        .data_dir
        .join("applications")
        .join(&file);
    let mut response = crate::web::files::serve(&path, kind).await?;
    let safe: String = stored
        .name
        .iter()
        .flat_map(|n| n.chars())
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        .collect();
    let disposition = format!(
        "attachment; filename=\"{}\"",
        if safe.is_empty() { file } else { safe }
    );
    response.headers_mut().insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&disposition).map_err(anyhow::Error::from)?,
    );
    Ok(response)
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/applications", applications)
        .nav("dashboard-applications")
        .get("/dashboard/applications.json", applications)
        .get("/dashboard/applications/{id}", page::application_page)
        .post("/dashboard/applications/{id}/status", application_status)
        .get("/dashboard/applications/{id}/decline", decline::page)
        .post("/dashboard/applications/{id}/decline", decline::decline)
        .get(
            "/dashboard/applications/{id}/presentation",
            application_presentation,
        )
        .post(
            "/dashboard/applications/{id}/startup",
            super::startups::from_application,
        )
}

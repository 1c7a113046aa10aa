//! `/dashboard/applications`: startup applications, each on its own page with every answer,
//! the presentation, its status and the startup made from it.

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use ortak_app::domain::project::{ANSWER_LABELS, FOUNDER_FIELDS};
use ortak_app::i18n::FluentArg;
use ortak_app::pages::staff_table::{RowAction, StaffRow, StaffTable};

use super::table::render_table;
use super::{staff, staff_post};
use crate::error::AppError;
use crate::web::{Access, Ctx, Routes};

/// `/dashboard/applications`: startup applications, with the presentation and a status.
pub async fn applications(ctx: Ctx) -> Result<Response, AppError> {
    staff(&ctx)?;
    type Row = (i64, String, String, Option<String>, Option<i64>);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT id, answers, status, submitted_at, startup_id FROM startup_applications
         WHERE status != 'draft' ORDER BY submitted_at DESC LIMIT 500",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, answers, status, submitted, startup)| {
            let a: std::collections::BTreeMap<String, String> =
                serde_json::from_str(&answers).unwrap_or_default();
            let get = |k: &str| a.get(k).cloned().unwrap_or_default();
            StaffRow {
                id,
                cells: vec![
                    get("name").into(),
                    get("contact_email").into(),
                    ctx.t(&format!("dashboard-app-status-{status}")).into(),
                    crate::db::stored_date_tr(&submitted.unwrap_or_default()).into(),
                ],
                link: Some((
                    format!("/dashboard/applications/{id}"),
                    "dashboard-view".to_owned(),
                )),
                actions: application_actions(id, &status, startup),
            }
        })
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

/// An application's status moves, and "create startup" until one was made from it.
fn application_actions(id: i64, status: &str, startup: Option<i64>) -> Vec<RowAction> {
    ["in_review", "accepted", "declined"]
        .iter()
        .filter(|s| **s != status)
        .map(|s| RowAction {
            action: format!("/dashboard/applications/{id}/status"),
            name: "status",
            value: (*s).to_owned(),
            label_id: format!("dashboard-app-{s}"),
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

/// `/dashboard/applications/{id}`: every answer of a submitted application, its status
/// actions, the presentation and the startup made from it.
pub async fn application_page(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    staff(&ctx)?;
    type Row = (
        String,
        String,
        Option<String>,
        Option<String>,
        Option<i64>,
        Option<String>,
    );
    let row: Option<Row> = sqlx::query_as(
        "SELECT a.answers, a.status, a.submitted_at, a.presentation_name, a.startup_id, s.name
         FROM startup_applications a LEFT JOIN startups s ON s.id = a.startup_id
         WHERE a.id = ? AND a.status != 'draft'",
    )
    .bind(id)
    .fetch_optional(ctx.state().db())
    .await?;
    let (answers, status, submitted, presentation, startup, startup_name) =
        row.ok_or(AppError::NotFound)?;
    let a: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&answers).unwrap_or_default();
    let answer = |k: &str| a.get(k).map(|v| v.trim().to_owned()).unwrap_or_default();
    let mut facts = vec![
        (
            ctx.t("dashboard-col-handled"),
            ctx.t(&format!("dashboard-app-status-{status}")),
        ),
        (
            ctx.t("dashboard-col-date"),
            crate::db::stored_date_tr(&submitted.unwrap_or_default()),
        ),
    ];
    facts.extend(
        ANSWER_LABELS
            .iter()
            .map(|(key, label)| (ctx.t(label), answer(key)))
            .filter(|(_, v)| !v.is_empty()),
    );
    for (n, fields) in FOUNDER_FIELDS.iter().enumerate() {
        let founder: Vec<String> = fields
            .iter()
            .map(|k| answer(k))
            .filter(|v| !v.is_empty())
            .collect();
        if !founder.is_empty() {
            let label = ctx
                .locale
                .t_args("project-founder", &[("n", FluentArg::Num(n as i64 + 1))]);
            facts.push((label, founder.join(" · ")));
        }
    }
    if let Some(name) = &presentation {
        facts.push((ctx.t("project-presentation"), name.clone()));
    }
    if let Some(name) = startup_name {
        facts.push((ctx.t("dashboard-app-startup-made"), name));
    }
    let link = match (&presentation, startup) {
        (Some(_), _) => Some((
            format!("/dashboard/applications/{id}/presentation"),
            "dashboard-download".to_owned(),
        )),
        (None, Some(startup)) => Some((
            format!("/dashboard/startups/{startup}"),
            "dashboard-app-open-startup".to_owned(),
        )),
        (None, None) => None,
    };
    // Its history: every staff action on it, from the audit log.
    let history: Vec<super::audit_log::AuditRow> = sqlx::query_as(
        "SELECT a.id, u.email, a.action, a.subject, a.before, a.after, a.created_at
         FROM audit_log a LEFT JOIN users u ON u.id = a.actor_user_id
         WHERE a.subject = ?1 OR a.before = ?1 ORDER BY a.id",
    )
    .bind(format!("application:{id}"))
    .fetch_all(ctx.state().db())
    .await?;
    let history = history
        .into_iter()
        .map(|(_, by, action, _, before, after, at)| {
            vec![
                crate::db::stored_date_time_tr(&at),
                by.unwrap_or_default(),
                action,
                before.unwrap_or_default(),
                after.unwrap_or_default(),
            ]
        })
        .collect();
    let title = match answer("name") {
        name if name.is_empty() => ctx.t("dashboard-applications"),
        name => name,
    };
    let actions = application_actions(id, &status, startup);
    let page = ctx.page_ctx(|pc| {
        ortak_app::pages::dashboard::staff_detail_page(
            pc,
            title,
            facts,
            (
                vec![
                    "dashboard-col-date",
                    "dashboard-col-by",
                    "dashboard-col-action",
                    "dashboard-audit-before",
                    "dashboard-audit-after",
                ],
                history,
            ),
            actions,
            link,
        )
    });
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn application_status(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, f) = staff_post(&ctx, &headers, &body)?;
    let status = f.get("status");
    if !["in_review", "accepted", "declined"].contains(&status.as_str()) {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    let mut tx = ctx.state().db().begin().await?;
    let before: Option<String> = sqlx::query_scalar(
        "SELECT status FROM startup_applications WHERE id = ? AND status != 'draft'",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let before = before.ok_or(AppError::NotFound)?;
    sqlx::query("UPDATE startup_applications SET status = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?")
        .bind(&status)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "application.status",
        &format!("application:{id}"),
        Some(&before),
        Some(&status),
    )
    .await?;
    tx.commit().await?;
    crate::web::flash::done(&ctx, "/dashboard/applications").await
}

pub async fn application_presentation(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    staff(&ctx)?;
    let file: Option<(Option<String>, Option<String>)> =
        sqlx::query_as("SELECT presentation_file, presentation_name FROM startup_applications WHERE id = ? AND status != 'draft'")
            .bind(id)
            .fetch_optional(ctx.state().db())
            .await?;
    let (Some(file), name) = file.ok_or(AppError::NotFound)? else {
        return Err(AppError::NotFound);
    };
    let kind = match file.rsplit('.').next() {
        Some("pdf") => "application/pdf",
        Some("pptx") => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        _ => "application/vnd.ms-powerpoint",
    };
    let mut response = crate::web::files::serve(
        &ctx.state()
            .shared()
            .data_dir
            .join("applications")
            .join(&file),
        kind,
    )
    .await?;
    let safe: String = name
        .unwrap_or_default()
        .chars()
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
        .get("/dashboard/applications/{id}", application_page)
        .post("/dashboard/applications/{id}/status", application_status)
        .get(
            "/dashboard/applications/{id}/presentation",
            application_presentation,
        )
        .post(
            "/dashboard/applications/{id}/startup",
            super::startups::from_application,
        )
}

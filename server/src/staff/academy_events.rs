//! `/dashboard/academy/events`: the academy events visitors apply to.

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ortak_app::pages::staff_table::RowAction;

use super::{staff, staff_post};
use crate::error::AppError;
use crate::web::{Access, Ctx, Routes};

/// Inputs for a new academy event.
const EVENT: &[(&str, &str, &str)] = &[
    ("title_tr", "dashboard-title-tr", "text"),
    ("title_en", "dashboard-title-en", "text"),
    ("date", "dashboard-col-date", "date"),
];

/// `/dashboard/academy/events`: the events visitors apply to, and a form for a new one.
pub async fn academy_events(ctx: Ctx) -> Result<Response, AppError> {
    staff(&ctx)?;
    let rows: Vec<(String, String, String, bool)> = sqlx::query_as(
        "SELECT title_tr, title_en, starts_at, published FROM academy_events ORDER BY starts_at DESC",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let history = rows
        .into_iter()
        .map(|(tr, en, at, published)| {
            vec![
                tr,
                en,
                crate::db::stored_date_tr(&at),
                ctx.t(if published {
                    "dashboard-published"
                } else {
                    "dashboard-draft"
                }),
            ]
        })
        .collect();
    let add = RowAction {
        action: "/dashboard/academy/events".into(),
        name: "add",
        value: "1".into(),
        label_id: "dashboard-new".into(),
        fields: EVENT,
    };
    let title = ctx.t("dashboard-academy-events");
    let page = ctx.page_ctx(|pc| {
        ortak_app::pages::dashboard::staff_detail_page(
            pc,
            title,
            Vec::new(),
            (
                vec![
                    "dashboard-title-tr",
                    "dashboard-title-en",
                    "dashboard-col-date",
                    "dashboard-col-handled",
                ],
                history,
            ),
            vec![add],
            None,
        )
    });
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `POST /dashboard/academy/events`: both titles and the day (10:00 in Istanbul).
pub async fn add_academy_event(
    ctx: Ctx,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, f) = staff_post(&ctx, &headers, &body)?;
    let (tr, en) = (
        f.get("title_tr").trim().to_owned(),
        f.get("title_en").trim().to_owned(),
    );
    if tr.is_empty() || en.is_empty() || tr.chars().count() > 200 || en.chars().count() > 200 {
        return Err(AppError::BadRequest("validation-required"));
    }
    let day = time::Date::parse(
        f.get("date").trim(),
        time::macros::format_description!("[year]-[month]-[day]"),
    )
    .map_err(|_| AppError::BadRequest("validation-date"))?;
    // 10:00 in Istanbul is 07:00 UTC.
    let starts = format!("{day}T07:00:00Z");
    let mut tx = ctx.state().db().begin().await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO academy_events (title_tr, title_en, starts_at) VALUES (?, ?, ?) RETURNING id",
    )
    .bind(&tr)
    .bind(&en)
    .bind(&starts)
    .fetch_one(&mut *tx)
    .await?;
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "academy.event",
        &format!("academy_event:{id}"),
        None,
        Some(&format!("{tr} | {en} | {day}")),
    )
    .await?;
    tx.commit().await?;
    crate::web::flash::done(&ctx, "/dashboard/academy/events").await
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/academy/events", academy_events)
        .post("/dashboard/academy/events", add_academy_event)
}

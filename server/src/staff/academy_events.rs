//! `/dashboard/academy/events`: the academy events visitors apply to (on `/academy`), and
//! adding a new one.

use axum::response::Response;
use ortak_app::pages::staff_table::{Cell, RowAction};
use serde::Deserialize;
use time::macros::{format_description, time};

use super::queries::academy_events as queries;
use super::table::render_detail;
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, Staff};
use ortak_app::pages::dashboard::StaffDetail;

/// Inputs for a new academy event.
const EVENT: &[(&str, &str, &str)] = &[
    ("title_tr", "dashboard-title-tr", "text"),
    ("title_en", "dashboard-title-en", "text"),
    ("date", "dashboard-col-date", "date"),
];

/// `/dashboard/academy/events`: the events visitors apply to, and a form for a new one.
pub async fn academy_events(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    let history = queries::list(ctx.state().db())
        .await?
        .into_iter()
        .map(|e| {
            vec![
                e.title_tr.into(),
                e.title_en.into(),
                Cell::Date(e.starts_at),
                Cell::Label(
                    if e.published {
                        "dashboard-published"
                    } else {
                        "dashboard-draft"
                    }
                    .into(),
                ),
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
    let detail = StaffDetail {
        title: ctx.t("dashboard-academy-events"),
        facts: Vec::new(),
        columns: vec![
            "dashboard-title-tr",
            "dashboard-title-en",
            "dashboard-col-date",
            "dashboard-col-handled",
        ],
        history,
        actions: vec![add],
        link: None,
        irreversible: Vec::new(),
    };
    Ok(render_detail(&ctx, detail).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct NewEvent {
    title_tr: String,
    title_en: String,
    /// `YYYY-MM-DD`.
    date: String,
}

/// `POST /dashboard/academy/events`: both titles and the day (10:00 in Istanbul).
pub async fn add_academy_event(
    ctx: Ctx,
    Staff { user: staff, .. }: Staff,
    Form(form): Form<NewEvent>,
) -> Result<Response, AppError> {
    let (tr, en) = (form.title_tr.trim(), form.title_en.trim());
    if tr.is_empty() || en.is_empty() || tr.chars().count() > 200 || en.chars().count() > 200 {
        return Err(AppError::BadRequest("validation-required"));
    }
    let day = time::Date::parse(
        form.date.trim(),
        format_description!("[year]-[month]-[day]"),
    )
    .ok()
    // Stored times are RFC 3339, which has four-digit years.
    .filter(|d| (0..=9999).contains(&d.year()))
    .ok_or(AppError::BadRequest("validation-date"))?;
    // 10:00 in Istanbul is 07:00 UTC.
    let starts = day.with_time(time!(07:00)).assume_utc();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let id = queries::add(&mut tx, tr, en, starts).await?;
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

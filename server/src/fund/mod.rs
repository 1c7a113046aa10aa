//! `/vc-dashboard`: for those who work for a startup: members of a fund team (set in
//! `/dashboard/vcGroups`), who see their fund's startups, and founders staff invited (with a
//! verified address), who see their own. Each sees favourites and requests by status (counts
//! and totals, never who), and posts quarterly reports and updates. Any other startup answers
//! 404, as if it did not exist. The route table admits them only (`Access::Fund`); all SQL is
//! in `queries`.

pub(crate) mod queries;

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::domain::time_fmt::format_day;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::startup_editor::ReportForm;
use ortak_app::pages::vc_dashboard::{UpdateForm, VcStartup, vc_home_page, vc_startup_page};
use serde::Deserialize;

use crate::db::audit;
use crate::error::AppError;
use crate::notifications;
use crate::startups::reports::{CheckedReport, ReportPost, check_report, store_report};
use crate::web::form::{Form, Upload};
use crate::web::{Access, Ctx, FundMember, Routes, flash};

/// The user's fund's startups (all of them, or the one `only`).
async fn startups(ctx: &Ctx, user: i64, only: Option<i64>) -> Result<Vec<VcStartup>, AppError> {
    let db = ctx.state().db();
    let mut out = Vec::new();
    for s in queries::fund_startups(db, user, only).await? {
        let requests = queries::requests_by_status(db, s.id)
            .await?
            .into_iter()
            .map(|r| {
                (
                    r.status.code().to_owned(),
                    r.count,
                    Money::from_kurus(r.total_kurus),
                )
            })
            .collect();
        let reports = queries::reports(db, s.id)
            .await?
            .into_iter()
            .map(|r| (r.quarter, r.title_tr, r.title_en))
            .collect();
        out.push(VcStartup {
            id: s.id,
            slug: s.slug,
            name: s.name,
            fund: s.fund,
            favorites: s.favorites,
            requests,
            reports,
        });
    }
    Ok(out)
}

pub async fn home(ctx: Ctx, FundMember(user): FundMember) -> Result<Response, AppError> {
    let list = startups(&ctx, user.id, None).await?;
    let (db, today) = (ctx.state().db(), ctx.state().today());
    let overdue = crate::startups::reports::overdue(db, Some(user.id), today).await?;
    let fund_team = queries::on_a_fund_team(db, user.id).await?;
    let page = ctx.page_ctx(|pc| vc_home_page(pc, fund_team, list, &overdue));
    Ok(ctx.render(StatusCode::OK, page).await)
}

async fn one(ctx: &Ctx, user: i64, id: i64) -> Result<VcStartup, AppError> {
    startups(ctx, user, Some(id))
        .await?
        .pop()
        .ok_or(AppError::NotFound)
}

async fn show(
    ctx: &Ctx,
    status: StatusCode,
    startup: VcStartup,
    update: &UpdateForm,
    report: &ReportForm,
    errors: &FieldErrors,
) -> Result<Response, AppError> {
    let updates = queries::updates(ctx.state().db(), startup.id)
        .await?
        .into_iter()
        .map(|u| {
            let day = format_day(u.created_at, ctx.locale);
            (day, u.body_tr, u.body_en)
        })
        .collect();
    let page = ctx.page_ctx(|pc| vc_startup_page(pc, startup, updates, update, report, errors));
    Ok(ctx.render(status, page).await)
}

pub async fn startup(
    ctx: Ctx,
    FundMember(user): FundMember,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let s = one(&ctx, user.id, id).await?;
    let none = FieldErrors::default();
    show(
        &ctx,
        StatusCode::OK,
        s,
        &UpdateForm::default(),
        &ReportForm::default(),
        &none,
    )
    .await
}

async fn saved(ctx: &Ctx, id: i64) -> Result<Response, AppError> {
    flash::done(ctx, &format!("/vc-dashboard/startups/{id}")).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct UpdatePost {
    body_tr: String,
    body_en: String,
}

/// `POST /vc-dashboard/startups/{id}/updates`: a short update in both languages.
pub async fn post_update(
    ctx: Ctx,
    FundMember(user): FundMember,
    Path(id): Path<i64>,
    Form(posted): Form<UpdatePost>,
) -> Result<Response, AppError> {
    let s = one(&ctx, user.id, id).await?;
    let form = UpdateForm {
        body_tr: posted.body_tr.replace("\r\n", "\n").trim().to_owned(),
        body_en: posted.body_en.replace("\r\n", "\n").trim().to_owned(),
    };
    let mut errors = FieldErrors::default();
    for (field, value) in [("body_tr", &form.body_tr), ("body_en", &form.body_en)] {
        if value.is_empty() {
            errors.add(field, "validation-required");
        } else if value.chars().count() > 2000 {
            errors.add(field, "validation-too-long");
        }
    }
    if !errors.is_empty() {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return show(&ctx, status, s, &form, &ReportForm::default(), &errors).await;
    }
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let bodies = (form.body_tr.as_str(), form.body_en.as_str());
    let posted = queries::insert_update(&mut tx, id, user.id, bodies, ctx.state().now()).await?;
    audit::record(
        &mut tx,
        user.id,
        "startup.update.post",
        &format!("startup:{id}"),
        None,
        Some(&format!("update:{}", posted.id)),
    )
    .await?;
    let update = notifications::Update {
        mail: "startup-update",
        startup: id,
        slug: &posted.slug,
        name: &s.name,
        body_tr: &form.body_tr,
        body_en: &form.body_en,
    };
    notifications::startup_update(&mut tx, &ctx.state().shared().public_url, &update).await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    saved(&ctx, id).await
}

/// `POST /vc-dashboard/startups/{id}/reports`: a quarterly report for the fund's startup.
pub async fn post_report(
    ctx: Ctx,
    FundMember(user): FundMember,
    Path(id): Path<i64>,
    upload: Upload<ReportPost>,
) -> Result<Response, AppError> {
    let s = one(&ctx, user.id, id).await?;
    match check_report(upload) {
        CheckedReport::Good(form, file) => {
            store_report(&ctx, user.id, id, &form, file).await?;
            saved(&ctx, id).await
        }
        CheckedReport::Refused(form, errors) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            show(&ctx, status, s, &UpdateForm::default(), &form, &errors).await
        }
    }
}

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Fund)
            .get("/vc-dashboard", home)
            .get("/vc-dashboard/startups/{id}", startup)
            .post("/vc-dashboard/startups/{id}/updates", post_update)
            .post_limited(
                "/vc-dashboard/startups/{id}/reports",
                post_report,
                crate::startups::reports::REPORT_MAX_BYTES + 64 * 1024,
            ),
    ]
}

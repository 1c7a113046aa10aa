//! `/vc-dashboard`: for members of a fund team (set in `/dashboard/vcGroups`). They see
//! their fund's startups only, with favourites and requests by status, and post quarterly
//! reports and updates. Anything of another fund answers 404, as if it did not exist.

use axum::body::Bytes;
use axum::extract::{Multipart, Path};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::money::Money;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::startup_editor::ReportForm;
use ortak_app::pages::vc_dashboard::{UpdateForm, VcStartup, vc_home_page, vc_startup_page};
use ortak_app::shell::{Flash, FlashKind};

use crate::db::audit;
use crate::error::AppError;
use crate::startups::reports::{read_report, store_report};
use crate::web::form::FormBody;
use crate::web::{Access, Ctx, FundMember, Routes};

/// The user's fund's startups (all of them, or the one `only`).
async fn startups(ctx: &Ctx, user: i64, only: Option<i64>) -> Result<Vec<VcStartup>, AppError> {
    let db = ctx.state().db();
    let rows: Vec<(i64, String, String, i64)> = sqlx::query_as(
        "SELECT s.id, s.name, f.name, (SELECT COUNT(*) FROM favorites v WHERE v.startup_id = s.id)
         FROM startups s JOIN funds f ON f.id = s.fund_id
         JOIN fund_members m ON m.fund_id = s.fund_id AND m.user_id = ?
         WHERE ? IS NULL OR s.id = ? ORDER BY s.name",
    )
    .bind(user)
    .bind(only)
    .bind(only)
    .fetch_all(db)
    .await?;
    let mut out = Vec::new();
    for (id, name, fund, favorites) in rows {
        let requests: Vec<(String, i64, i64)> = sqlx::query_as(
            "SELECT status, COUNT(*), SUM(amount_kurus) FROM investment_requests WHERE startup_id = ?
             GROUP BY status ORDER BY status",
        )
        .bind(id)
        .fetch_all(db)
        .await?;
        let reports: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT quarter, title_tr, title_en FROM reports WHERE startup_id = ?
             ORDER BY published_at DESC",
        )
        .bind(id)
        .fetch_all(db)
        .await?;
        out.push(VcStartup {
            id,
            name,
            fund,
            favorites,
            requests: requests
                .into_iter()
                .map(|(s, n, k)| (s, n, Money::from_kurus(k)))
                .collect(),
            reports,
        });
    }
    Ok(out)
}

pub async fn home(ctx: Ctx, FundMember(user): FundMember) -> Result<Response, AppError> {
    let list = startups(&ctx, user.id, None).await?;
    let page = ctx.page_ctx(|pc| vc_home_page(pc, list));
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
    let updates: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT created_at, body_tr, body_en FROM startup_updates WHERE startup_id = ? ORDER BY id DESC",
    )
    .bind(startup.id)
    .fetch_all(ctx.state().db())
    .await?;
    let updates = updates
        .into_iter()
        .map(|(at, tr, en)| (crate::db::stored_date_tr(&at), tr, en))
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
    ctx.set_flash(Flash {
        kind: FlashKind::Success,
        message_id: "dashboard-done".into(),
    })
    .await?;
    Ok(Redirect::to(&format!("/vc-dashboard/startups/{id}")).into_response())
}

/// `POST /vc-dashboard/startups/{id}/updates`: a short update in both languages.
pub async fn post_update(
    ctx: Ctx,
    FundMember(user): FundMember,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let f = FormBody::parse(&body);
    crate::web::form::verify_csrf(&ctx, &f, &headers)?;
    let s = one(&ctx, user.id, id).await?;
    let form = UpdateForm {
        body_tr: f.get("body_tr").replace("\r\n", "\n").trim().to_owned(),
        body_en: f.get("body_en").replace("\r\n", "\n").trim().to_owned(),
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
    let mut tx = ctx.state().db().begin().await?;
    let update: i64 = sqlx::query_scalar(
        "INSERT INTO startup_updates (startup_id, author_user_id, body_tr, body_en) VALUES (?, ?, ?, ?) RETURNING id",
    )
    .bind(id)
    .bind(user.id)
    .bind(&form.body_tr)
    .bind(&form.body_en)
    .fetch_one(&mut *tx)
    .await?;
    audit::record(
        &mut tx,
        user.id,
        "startup.update.post",
        &format!("startup:{id}"),
        None,
        Some(&format!("update:{update}")),
    )
    .await?;
    tx.commit().await?;
    saved(&ctx, id).await
}

/// `POST /vc-dashboard/startups/{id}/reports`: a quarterly report for the fund's startup.
pub async fn post_report(
    ctx: Ctx,
    FundMember(user): FundMember,
    Path(id): Path<i64>,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, AppError> {
    let (f, checked) = read_report(&mut multipart).await?;
    crate::web::form::verify_csrf(&ctx, &f, &headers)?;
    let s = one(&ctx, user.id, id).await?;
    match checked {
        Ok((form, bytes)) => {
            store_report(&ctx, user.id, id, &form, &bytes).await?;
            saved(&ctx, id).await
        }
        Err((form, errors)) => {
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

//! `/dashboard/investments` and `/dashboard/pre-investments` (superadmin): follow requests.

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::money::Money;
use ortak_app::pages::dashboard::{StaffRequest, investments_page};
use ortak_app::shell::{Flash, FlashKind};

use super::staff_transition;
use crate::accounts::session::Role;
use crate::context::Ctx;
use crate::error::AppError;
use crate::form_body::FormBody;

async fn list(ctx: Ctx, kind: &str) -> Result<Response, AppError> {
    ctx.require(Role::SuperAdmin)?;
    let rows: Vec<(i64, String, String, i64, String)> = sqlx::query_as(
        "SELECT r.id, u.email, s.name, r.amount_kurus, r.status
         FROM investment_requests r JOIN users u ON u.id = r.user_id JOIN startups s ON s.id = r.startup_id
         WHERE r.kind = ? ORDER BY r.created_at DESC, r.id DESC LIMIT 200",
    )
    .bind(kind)
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, investor, startup, amount, status)| StaffRequest {
            id,
            investor,
            startup,
            amount: Money::from_kurus(amount),
            status: RequestStatus::from_code(&status).unwrap_or(RequestStatus::Submitted),
        })
        .collect();
    let page = ctx.page_ctx(|pc| investments_page(pc, rows));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn investments(ctx: Ctx) -> Result<Response, AppError> {
    list(ctx, "investment").await
}

pub async fn pre_investments(ctx: Ctx) -> Result<Response, AppError> {
    list(ctx, "pre_investment").await
}

/// `POST /dashboard/investments/{id}/status`: `to` is the next status, `note` the reason.
pub async fn move_request(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let staff = ctx.require(Role::SuperAdmin)?.clone();
    let f = FormBody::parse(&body);
    let get = |k: &str| f.get(k);
    ctx.verify_csrf(&get("csrf"), &headers)?;
    let to =
        RequestStatus::from_code(&get("to")).ok_or(AppError::BadRequest("bad-request-text"))?;
    let note: String = get("note").trim().chars().take(500).collect();
    staff_transition(
        ctx.state().db(),
        &ctx.state().shared().public_url,
        id,
        to,
        staff.id,
        &note,
    )
    .await?;
    ctx.state().wake_mailer();
    ctx.set_flash(Flash {
        kind: FlashKind::Success,
        message_id: "dashboard-moved".into(),
    })
    .await?;
    let kind: String = sqlx::query_scalar("SELECT kind FROM investment_requests WHERE id = ?")
        .bind(id)
        .fetch_one(ctx.state().db())
        .await?;
    let back = if kind == "pre_investment" {
        "/dashboard/pre-investments"
    } else {
        "/dashboard/investments"
    };
    Ok(Redirect::to(back).into_response())
}

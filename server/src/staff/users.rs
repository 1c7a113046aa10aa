//! `/dashboard/users`: the member list, searched by Turkish case rules, and the review of
//! members' MKK details.

use axum::body::Bytes;
use axum::extract::{Path, Query};
use axum::http::HeaderMap;
use axum::response::Response;
use ortak_app::domain::text::contains_turkish_ci;
use ortak_app::pages::staff_table::{NOTE, RowAction, StaffRow, StaffTable};
use serde::Deserialize;

use super::table::render_table;
use super::{staff, staff_post};
use crate::error::AppError;
use crate::web::{Access, Ctx, Routes};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Search {
    q: String,
}

/// id, e-mail, name, role, joined, MKK status, deactivated.
type UserRow = (i64, String, String, String, String, Option<String>, bool);

/// `/dashboard/users`: search by Turkish case rules; review MKK data; open a member.
pub async fn users(ctx: Ctx, Query(search): Query<Search>) -> Result<Response, AppError> {
    staff(&ctx)?;
    let rows: Vec<UserRow> = sqlx::query_as(
        "SELECT u.id, u.email, u.first_name || ' ' || u.last_name, u.role, u.created_at, m.status,
             u.deactivated_at IS NOT NULL
         FROM users u LEFT JOIN mkk_profiles m ON m.user_id = u.id ORDER BY u.id DESC LIMIT 5000",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let q = search.q.trim();
    let rows = rows
        .into_iter()
        // Names follow Turkish case rules; e-mail addresses are ASCII and lower-case.
        .filter(|(_, email, name, ..)| {
            q.is_empty() || email.contains(&q.to_lowercase()) || contains_turkish_ci(name, q)
        })
        .map(|(id, email, name, role, created, mkk, deactivated)| {
            let actions = if mkk.as_deref() == Some("submitted") {
                mkk_actions(id)
            } else {
                Vec::new()
            };
            StaffRow {
                id,
                cells: vec![
                    email.into(),
                    name.into(),
                    ctx.t(&format!("role-{role}")).into(),
                    mkk.map(|m| ctx.t(&format!("dashboard-mkk-{m}")))
                        .unwrap_or_default()
                        .into(),
                    ctx.t(if deactivated {
                        "dashboard-deactivated"
                    } else {
                        "dashboard-active"
                    })
                    .into(),
                    crate::db::stored_date_tr(&created).into(),
                ],
                link: Some((
                    format!("/dashboard/users/{id}"),
                    "dashboard-view".to_owned(),
                )),
                actions,
            }
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-users",
        columns: vec![
            "dashboard-col-email",
            "dashboard-col-name",
            "dashboard-col-role",
            "dashboard-col-mkk",
            "dashboard-col-handled",
            "dashboard-col-date",
        ],
        rows,
        search: Some(search.q.clone()),
        csv: None,
        create: None,
    };
    render_table(&ctx, table).await
}

/// Verify or reject a member's submitted MKK details.
pub fn mkk_actions(id: i64) -> Vec<RowAction> {
    vec![
        RowAction {
            action: format!("/dashboard/users/{id}/mkk"),
            name: "decision",
            value: "verified".into(),
            label_id: "dashboard-mkk-verify".into(),
            fields: &[],
        },
        RowAction {
            action: format!("/dashboard/users/{id}/mkk"),
            name: "decision",
            value: "rejected".into(),
            label_id: "dashboard-mkk-reject".into(),
            fields: NOTE,
        },
    ]
}

/// `POST /dashboard/users/{id}/mkk`: verify, or reject with a reason the investor sees.
pub async fn review_mkk(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, f) = staff_post(&ctx, &headers, &body)?;
    let decision = f.get("decision");
    if !["verified", "rejected"].contains(&decision.as_str()) {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    let reason: String = f.get("note").trim().chars().take(500).collect();
    let mut tx = ctx.state().db().begin().await?;
    let before: Option<String> =
        sqlx::query_scalar("SELECT status FROM mkk_profiles WHERE user_id = ?")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let before = before.ok_or(AppError::NotFound)?;
    sqlx::query(
        "UPDATE mkk_profiles SET status = ?, rejection_reason = CASE WHEN ? = 'rejected' THEN ? END,
             verified_by = CASE WHEN ? = 'verified' THEN 'staff' END, reviewed_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE user_id = ?",
    )
    .bind(&decision)
    .bind(&decision)
    .bind(&reason)
    .bind(&decision)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "mkk.review",
        &format!("user:{id}"),
        Some(&before),
        Some(format!("{decision} {reason}").trim()),
    )
    .await?;
    tx.commit().await?;
    crate::web::flash::done(&ctx, "/dashboard/users").await
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/users", users)
        .nav("dashboard-users")
        .get("/dashboard/users.json", users)
        .post("/dashboard/users/{id}/mkk", review_mkk)
}

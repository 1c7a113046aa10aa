//! `/dashboard/users`: the member list, searched by Turkish case rules, and the review of
//! members' MKK details (verify, or reject with a reason the investor sees).

use axum::extract::{Path, Query};
use axum::response::Response;
use ortak_app::domain::mkk::MkkStatus;
use ortak_app::domain::text::contains_turkish_ci;
use ortak_app::pages::staff_table::{Cell, NOTE, RowAction, StaffRow, StaffTable};
use serde::Deserialize;

use super::queries::users::{self as queries, UserRow};
use super::table::render_table;
use crate::error::AppError;
use crate::mail::Mail;
use crate::web::form::Form;
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes, Staff};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Search {
    q: String,
}

/// `/dashboard/users`: search by Turkish case rules; review MKK data; open a member.
pub async fn users(ctx: Ctx, _: Staff, Query(search): Query<Search>) -> Result<Response, AppError> {
    let rows = queries::list(ctx.state().db()).await?;
    let q = search.q.trim();
    let rows = rows
        .into_iter()
        // Names follow Turkish case rules; e-mail addresses are ASCII and lower-case.
        .filter(|u| {
            q.is_empty() || u.email.contains(&q.to_lowercase()) || contains_turkish_ci(&u.name, q)
        })
        .map(user_row)
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

fn user_row(u: UserRow) -> StaffRow {
    let id = u.id;
    StaffRow {
        id,
        cells: vec![
            u.email.into(),
            u.name.into(),
            role_label(u.role),
            u.mkk
                .map(|m| Cell::Label(format!("dashboard-mkk-{}", m.code())))
                .into(),
            Cell::Label(active_label(u.deactivated).into()),
            Cell::Date(u.created_at),
        ],
        link: Some((
            format!("/dashboard/users/{id}"),
            "dashboard-view".to_owned(),
        )),
        actions: if u.mkk == Some(MkkStatus::Submitted) {
            mkk_actions(id)
        } else {
            Vec::new()
        },
    }
}

/// A role as `users.role` stores it and forms send it.
pub(super) fn role_code(role: Role) -> &'static str {
    match role {
        Role::Investor => "investor",
        Role::Admin => "admin",
        Role::SuperAdmin => "superadmin",
    }
}

/// A role's Fluent id.
pub(super) fn role_label(role: Role) -> Cell {
    Cell::Label(format!("role-{}", role_code(role)))
}

/// Whether an account is active, as a Fluent id.
pub(super) fn active_label(deactivated: bool) -> &'static str {
    if deactivated {
        "dashboard-deactivated"
    } else {
        "dashboard-active"
    }
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

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct MkkReview {
    /// `verified` or `rejected`.
    decision: String,
    /// Why the details were rejected.
    note: String,
}

/// `POST /dashboard/users/{id}/mkk`: verify, or reject with a reason the investor sees.
pub async fn review_mkk(
    ctx: Ctx,
    Staff { user: staff, .. }: Staff,
    Path(id): Path<i64>,
    Form(form): Form<MkkReview>,
) -> Result<Response, AppError> {
    let decision = match form.decision.as_str() {
        "verified" => MkkStatus::Verified,
        "rejected" => MkkStatus::Rejected,
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    let reason: String = form.note.trim().chars().take(500).collect();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let before = queries::mkk_status(&mut tx, id)
        .await?
        .ok_or(AppError::NotFound)?;
    if decision == MkkStatus::Rejected && reason.is_empty() {
        return Err(AppError::BadRequest("dashboard-reason-required"));
    }
    let rejection = (decision == MkkStatus::Rejected).then_some(reason.as_str());
    queries::review_mkk(&mut tx, id, decision, rejection, ctx.state().now()).await?;
    if decision == MkkStatus::Rejected {
        // The member's open requests are held until corrected data is verified: say so.
        let member = queries::mkk_addressee(&mut tx, id).await?;
        let held = (member.open_requests > 0).then(|| {
            let count = [("count", member.open_requests.into())];
            member.language.t_args("mail-mkk-rejected-held", &count)
        });
        let mail = Mail::automatic(
            &member.email,
            member.language,
            &member.first_name,
            "mkk-rejected",
            &format!("{}/mkk", ctx.state().shared().public_url),
            &reason,
            held,
        );
        crate::mail::enqueue(&mut tx, &mail).await?;
    }
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "mkk.review",
        &format!("user:{id}"),
        Some(before.code()),
        Some(format!("{} {reason}", decision.code()).trim()),
    )
    .await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    crate::web::flash::done(&ctx, "/dashboard/users").await
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/users", users)
        .nav("dashboard-users")
        .get("/dashboard/users.json", users)
        .post("/dashboard/users/{id}/mkk", review_mkk)
}

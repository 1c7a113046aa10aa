//! `/dashboard/users/{id}`: one member as staff see them, with role changes and
//! deactivation. Admins may make investors and admins; only superadmins grant or take away
//! the superadmin role, and nobody changes their own role or deactivates themselves.

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::pages::dashboard::staff_detail_page;
use ortak_app::pages::staff_table::RowAction;

use super::users::mkk_actions;
use super::{staff, staff_post};
use crate::db::audit;
use crate::db::stored_date_tr as date;
use crate::error::AppError;
use crate::web::flash::done;
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes};

type Member = (
    String,
    String,
    String,
    String,
    String,
    Option<String>,
    String,
    Option<String>,
    String,
);

pub async fn page(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    let (me, superadmin) = staff(&ctx)?;
    let db = ctx.state().db();
    let m: Member = sqlx::query_as(
        "SELECT email, first_name || ' ' || last_name, role, language, created_at, email_verified_at,
             interests, deactivated_at, company_name
         FROM users WHERE id = ?",
    )
    .bind(id)
    .fetch_optional(db)
    .await?
    .ok_or(AppError::NotFound)?;
    let (email, name, role, language, created, verified, interests, deactivated, company) = m;
    let mut facts = vec![
        (ctx.t("dashboard-col-email"), email),
        (ctx.t("dashboard-col-name"), name),
        (ctx.t("dashboard-col-role"), ctx.t(&format!("role-{role}"))),
        (ctx.t("field-language"), language.to_uppercase()),
        (ctx.t("dashboard-registered"), date(&created)),
        (
            ctx.t("dashboard-email-verified"),
            verified.map(|v| date(&v)).unwrap_or_else(|| "-".into()),
        ),
        (
            ctx.t("dashboard-col-handled"),
            ctx.t(if deactivated.is_some() {
                "dashboard-deactivated"
            } else {
                "dashboard-active"
            }),
        ),
    ];
    if !company.is_empty() {
        facts.push((ctx.t("dashboard-company"), company));
    }
    if !interests.is_empty() {
        let names: Vec<String> = interests
            .split(',')
            .map(|i| ctx.t(&format!("interest-{i}")))
            .collect();
        facts.push((ctx.t("dashboard-interests"), names.join(", ")));
    }
    let mkk: Option<(String, String, String, String, String, Option<String>)> = sqlx::query_as(
        "SELECT investor_type, id_type, identity_number, phone, status, rejection_reason FROM mkk_profiles WHERE user_id = ?",
    )
    .bind(id)
    .fetch_optional(db)
    .await?;
    let mut actions = Vec::new();
    if let Some((kind, id_type, number, phone, status, reason)) = mkk {
        facts.push((
            ctx.t("dashboard-col-mkk"),
            format!(
                "{} · {} {} · {} · {}{}",
                ctx.t(&format!("dashboard-investor-{kind}")),
                id_type.to_uppercase(),
                number,
                phone,
                ctx.t(&format!("dashboard-mkk-{status}")),
                reason.map(|r| format!(" ({r})")).unwrap_or_default()
            ),
        ));
        if status == "submitted" {
            actions.extend(mkk_actions(id));
        }
    }
    let qualified: Option<String> = sqlx::query_scalar(
        "SELECT status FROM qualified_declarations WHERE user_id = ? ORDER BY id DESC LIMIT 1",
    )
    .bind(id)
    .fetch_optional(db)
    .await?;
    if let Some(q) = qualified {
        facts.push((
            ctx.t("dashboard-qualified"),
            ctx.t(&format!("dashboard-mkk-{q}")),
        ));
    }
    let funds: Vec<String> = sqlx::query_scalar(
        "SELECT f.name FROM fund_members m JOIN funds f ON f.id = m.fund_id WHERE m.user_id = ?",
    )
    .bind(id)
    .fetch_all(db)
    .await?;
    if !funds.is_empty() {
        facts.push((ctx.t("dashboard-vc-groups"), funds.join(", ")));
    }
    if id != me.id && deactivated.is_none() {
        let grantable: &[&str] = if superadmin {
            &["investor", "admin", "superadmin"]
        } else if role == "superadmin" {
            &[]
        } else {
            &["investor", "admin"]
        };
        actions.extend(grantable.iter().filter(|r| **r != role).map(|r| RowAction {
            action: format!("/dashboard/users/{id}/role"),
            name: "role",
            value: (*r).to_owned(),
            label_id: format!("dashboard-make-{r}"),
            fields: &[],
        }));
    }
    if id != me.id && (superadmin || role != "superadmin") {
        actions.push(RowAction {
            action: format!("/dashboard/users/{id}/active"),
            name: "active",
            value: if deactivated.is_some() { "1" } else { "0" }.into(),
            label_id: if deactivated.is_some() {
                "dashboard-reactivate"
            } else {
                "dashboard-deactivate"
            }
            .into(),
            fields: &[],
        });
    }
    let requests: Vec<(String, String, i64, String)> = sqlx::query_as(
        "SELECT r.created_at, s.name, r.amount_kurus, r.status FROM investment_requests r
         JOIN startups s ON s.id = r.startup_id WHERE r.user_id = ? ORDER BY r.id DESC",
    )
    .bind(id)
    .fetch_all(db)
    .await?;
    let history = requests
        .into_iter()
        .map(|(at, startup, amount, status)| {
            vec![
                date(&at),
                startup,
                Money::from_kurus(amount).format(ctx.locale),
                ctx.t(&format!("request-status-{status}")),
            ]
        })
        .collect();
    let title = facts[1].1.clone();
    let page = ctx.page_ctx(|pc| {
        staff_detail_page(
            pc,
            title,
            facts,
            (
                vec![
                    "dashboard-col-date",
                    "dashboard-col-startup",
                    "dashboard-col-amount",
                    "dashboard-col-status",
                ],
                history,
            ),
            actions,
            None,
        )
    });
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// The target's role and whether they are deactivated; refuses staff acting on themselves,
/// and admins acting on superadmins.
async fn target(ctx: &Ctx, me: i64, superadmin: bool, id: i64) -> Result<String, AppError> {
    if id == me {
        return Err(AppError::Forbidden);
    }
    let role: String = sqlx::query_scalar("SELECT role FROM users WHERE id = ?")
        .bind(id)
        .fetch_optional(ctx.state().db())
        .await?
        .ok_or(AppError::NotFound)?;
    if role == "superadmin" && !superadmin {
        return Err(AppError::Forbidden);
    }
    Ok(role)
}

/// `POST /dashboard/users/{id}/role`.
pub async fn change_role(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (me, f) = staff_post(&ctx, &headers, &body)?;
    let superadmin = me.role >= Role::SuperAdmin;
    let role = f.get("role");
    let allowed: &[&str] = if superadmin {
        &["investor", "admin", "superadmin"]
    } else {
        &["investor", "admin"]
    };
    if !["investor", "admin", "superadmin"].contains(&role.as_str()) {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    if !allowed.contains(&role.as_str()) {
        return Err(AppError::Forbidden);
    }
    let before = target(&ctx, me.id, superadmin, id).await?;
    let mut tx = ctx.state().db().begin().await?;
    // A new role takes effect on the next request: sessions load the role each time.
    sqlx::query("UPDATE users SET role = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?")
        .bind(&role)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    audit::record(
        &mut tx,
        me.id,
        "user.role",
        &format!("user:{id}"),
        Some(&before),
        Some(&role),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/users/{id}")).await
}

/// `POST /dashboard/users/{id}/active`: `active=0` deactivates (and signs out), `1` restores.
pub async fn set_active(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (me, f) = staff_post(&ctx, &headers, &body)?;
    let active = match f.get("active").as_str() {
        "1" => true,
        "0" => false,
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    target(&ctx, me.id, me.role >= Role::SuperAdmin, id).await?;
    let mut tx = ctx.state().db().begin().await?;
    let changed = if active {
        sqlx::query("UPDATE users SET deactivated_at = NULL, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ? AND deactivated_at IS NOT NULL")
    } else {
        sqlx::query(
            "UPDATE users SET deactivated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), session_epoch = session_epoch + 1,
                 updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ? AND deactivated_at IS NULL",
        )
    }
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if changed > 0 {
        let (before, after) = if active {
            ("deactivated", "active")
        } else {
            ("active", "deactivated")
        };
        audit::record(
            &mut tx,
            me.id,
            "user.active",
            &format!("user:{id}"),
            Some(before),
            Some(after),
        )
        .await?;
    }
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/users/{id}")).await
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/users/{id}", page)
        .post("/dashboard/users/{id}/role", change_role)
        .post("/dashboard/users/{id}/active", set_active)
}

//! `/dashboard/users/{id}`: one member as staff see them (account, MKK details, qualified
//! declaration, fund teams, and for superadmins their requests), with role changes and deactivation. Admins may make
//! investors and admins; only superadmins grant or take away the superadmin role, and nobody
//! changes their own role or deactivates themselves. A superadmin may reset another member's
//! two-factor sign-in (a lost phone): audited, every session of the member ends, and staff
//! enrol again at their next password sign-in.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::pages::staff_table::{Cell, RowAction};
use serde::Deserialize;

use super::queries::member::{self as queries, Account, Archived};
use super::table::render_detail;
use super::users::{active_label, role_code, role_label};
use crate::accounts::{tokens, two_factor};
use crate::db::audit;
use crate::error::AppError;
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes, Staff, SuperAdmin};
use ortak_app::pages::dashboard::StaffDetail;

pub async fn page(
    ctx: Ctx,
    Staff {
        user: me,
        superadmin,
    }: Staff,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let account = queries::account(db, id).await?.ok_or(AppError::NotFound)?;
    let mut facts = account_facts(&ctx, &account);
    let mut actions = Vec::new();
    let (mkk_facts, mkk_actions) = super::member_mkk::section(&ctx, id, superadmin).await?;
    facts.extend(mkk_facts);
    actions.extend(mkk_actions);
    if let Some(status) = queries::latest_declaration(db, id).await? {
        facts.push((
            ctx.t("dashboard-qualified"),
            Cell::Label(format!("dashboard-mkk-{}", status.code())),
        ));
    }
    if superadmin && let Some(archived) = queries::archived(db, id).await? {
        facts.push((
            ctx.t("dashboard-kvkk-archive"),
            archive_fact(&ctx, &archived),
        ));
    }
    let funds = queries::fund_names(db, id).await?;
    if !funds.is_empty() {
        facts.push((ctx.t("dashboard-vc-groups"), funds.join(", ").into()));
    }
    if id != me.id {
        actions.extend(account_actions(id, superadmin, &account));
        if superadmin && account.role >= Role::Admin {
            actions.push(crate::campaigns::membership_action(
                id,
                account.committee_member,
            ));
        }
        if superadmin && account.has_totp {
            actions.push(RowAction {
                action: format!("/dashboard/users/{id}/2fa"),
                name: "reset",
                value: "1".into(),
                label_id: "dashboard-reset-2fa".into(),
                fields: &[],
            });
        }
    }
    // Investments are superadmins' business: admins see no amounts or states.
    let (columns, history) = if superadmin {
        (
            vec![
                "dashboard-col-date",
                "dashboard-col-startup",
                "dashboard-col-amount",
                "dashboard-col-status",
            ],
            request_history(&ctx, id).await?,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let detail = StaffDetail {
        title: account.name,
        facts,
        columns,
        history,
        actions,
        link: None,
    };
    Ok(render_detail(&ctx, detail).await)
}

/// The member's investment requests, newest first (for superadmins).
async fn request_history(ctx: &Ctx, id: i64) -> Result<Vec<Vec<Cell>>, AppError> {
    Ok(queries::requests(ctx.state().db(), id)
        .await?
        .into_iter()
        .map(|r| {
            vec![
                Cell::Date(r.created_at),
                r.startup.into(),
                Cell::Money(Money::from_kurus(r.amount_kurus)),
                Cell::Label(format!("request-status-{}", r.status.code())),
            ]
        })
        .collect())
}

/// The account's own facts: e-mail, name, role, language, dates, state, company, interests.
fn account_facts(ctx: &Ctx, a: &Account) -> Vec<(String, Cell)> {
    let mut facts = vec![
        (ctx.t("dashboard-col-email"), a.email.clone().into()),
        (ctx.t("dashboard-col-name"), a.name.clone().into()),
        (ctx.t("dashboard-col-role"), role_label(a.role)),
        (ctx.t("field-language"), a.language.to_uppercase().into()),
        (ctx.t("dashboard-registered"), Cell::Date(a.created_at)),
        (
            ctx.t("dashboard-email-verified"),
            a.email_verified_at.map_or_else(|| "-".into(), Cell::Date),
        ),
        (
            ctx.t("dashboard-col-handled"),
            Cell::Label(active_label(a.deactivated).into()),
        ),
    ];
    if !a.company_name.is_empty() {
        facts.push((ctx.t("dashboard-company"), a.company_name.clone().into()));
    }
    if !a.interests.is_empty() {
        let names: Vec<String> = a
            .interests
            .split(',')
            .map(|i| ctx.t(&format!("interest-{i}")))
            .collect();
        facts.push((ctx.t("dashboard-interests"), names.join(", ").into()));
    }
    facts.push((
        ctx.t("two-factor-section"),
        Cell::Label(
            if a.has_totp {
                "answer-yes"
            } else {
                "answer-no"
            }
            .into(),
        ),
    ));
    facts
}

/// A deleted member's archived identity in one line: the MKK identity (or the account's
/// address), and until when it is kept.
fn archive_fact(ctx: &Ctx, a: &Archived) -> Cell {
    let v: serde_json::Value = serde_json::from_str(&a.identity).unwrap_or_default();
    let text = |path: &[&str]| {
        path.iter()
            .fold(&v, |v, key| &v[*key])
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    let who = if v["mkk"].is_object() {
        format!(
            "{} {} · {} {} · {}",
            text(&["mkk", "id_type"]).to_uppercase(),
            text(&["mkk", "identity_number"]),
            text(&["mkk", "first_name"]),
            text(&["mkk", "last_name"]),
            text(&["mkk", "email"]),
        )
    } else {
        text(&["account", "email"])
    };
    let until = ortak_app::domain::time_fmt::format_date_short(
        ortak_app::domain::time_fmt::istanbul_date(a.retain_until),
        ctx.locale,
    );
    let until = ctx
        .locale
        .t_args("dashboard-kvkk-kept-until", &[("date", until.into())]);
    format!("{who} · {until}").into()
}

/// The roles `superadmin` (or an admin) may give, in the order the buttons show.
fn grantable(superadmin: bool) -> &'static [Role] {
    if superadmin {
        &[Role::Investor, Role::Admin, Role::SuperAdmin]
    } else {
        &[Role::Investor, Role::Admin]
    }
}

/// Role changes and (de)activation of another member's account, as far as the viewer may.
fn account_actions(id: i64, superadmin: bool, a: &Account) -> Vec<RowAction> {
    let mut actions = Vec::new();
    // Admins leave superadmins alone.
    if !superadmin && a.role == Role::SuperAdmin {
        return actions;
    }
    if !a.deactivated {
        actions.extend(
            grantable(superadmin)
                .iter()
                .filter(|r| **r != a.role)
                .map(|r| RowAction {
                    action: format!("/dashboard/users/{id}/role"),
                    name: "role",
                    value: role_code(*r).to_owned(),
                    label_id: format!("dashboard-make-{}", role_code(*r)),
                    fields: &[],
                }),
        );
    }
    actions.push(RowAction {
        action: format!("/dashboard/users/{id}/active"),
        name: "active",
        value: if a.deactivated { "1" } else { "0" }.into(),
        label_id: if a.deactivated {
            "dashboard-reactivate"
        } else {
            "dashboard-deactivate"
        }
        .into(),
        fields: &[],
    });
    actions
}

/// The target's role; refuses staff acting on themselves, and admins acting on superadmins.
async fn target(ctx: &Ctx, me: i64, superadmin: bool, id: i64) -> Result<Role, AppError> {
    if id == me {
        return Err(AppError::Forbidden);
    }
    let role = queries::role(ctx.state().db(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    if role == Role::SuperAdmin && !superadmin {
        return Err(AppError::Forbidden);
    }
    Ok(role)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RoleChange {
    /// `investor`, `admin` or `superadmin`.
    role: String,
}

/// `POST /dashboard/users/{id}/role`.
pub async fn change_role(
    ctx: Ctx,
    Staff {
        user: me,
        superadmin,
    }: Staff,
    Path(id): Path<i64>,
    Form(form): Form<RoleChange>,
) -> Result<Response, AppError> {
    let role = match form.role.as_str() {
        "investor" => Role::Investor,
        "admin" => Role::Admin,
        "superadmin" => Role::SuperAdmin,
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    if !grantable(superadmin).contains(&role) {
        return Err(AppError::Forbidden);
    }
    let before = target(&ctx, me.id, superadmin, id).await?;
    let now = ctx.state().now();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    queries::set_role(&mut tx, id, role, now).await?;
    // A credential change: links mailed under the old role no longer work.
    tokens::revoke_all(&mut tx, id, now).await?;
    audit::record(
        &mut tx,
        me.id,
        "user.role",
        &format!("user:{id}"),
        Some(role_code(before)),
        Some(&form.role),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/users/{id}")).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Activation {
    /// `0` deactivates, `1` restores.
    active: String,
}

/// `POST /dashboard/users/{id}/active`: `active=0` deactivates (and signs out), `1` restores.
pub async fn set_active(
    ctx: Ctx,
    Staff {
        user: me,
        superadmin,
    }: Staff,
    Path(id): Path<i64>,
    Form(form): Form<Activation>,
) -> Result<Response, AppError> {
    let active = match form.active.as_str() {
        "1" => true,
        "0" => false,
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    target(&ctx, me.id, superadmin, id).await?;
    let now = ctx.state().now();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let changed = if active {
        queries::reactivate(&mut tx, id, now).await?
    } else {
        queries::deactivate(&mut tx, id, now).await?
    };
    // Deactivating (or restoring) ends every mailed link: none may outlive the decision.
    tokens::revoke_all(&mut tx, id, now).await?;
    if changed {
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

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Reset {
    /// `1` resets.
    reset: String,
}

/// `POST /dashboard/users/{id}/2fa` (superadmins): removes the member's authenticator and
/// recovery codes.
pub async fn reset_two_factor(
    ctx: Ctx,
    SuperAdmin(me): SuperAdmin,
    Path(id): Path<i64>,
    Form(form): Form<Reset>,
) -> Result<Response, AppError> {
    if form.reset != "1" {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    target(&ctx, me.id, true, id).await?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    two_factor::remove(&mut tx, me.id, id, ctx.state().now()).await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/users/{id}")).await
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/users/{id}", page)
        .post("/dashboard/users/{id}/role", change_role)
        .post("/dashboard/users/{id}/active", set_active)
}

/// What only superadmins may do to a member.
pub fn superadmin_routes() -> Routes {
    Routes::new(Access::SuperAdmin).post("/dashboard/users/{id}/2fa", reset_two_factor)
}

//! What staff may do to another member's access, each on its own confirmation page (issue 28):
//! change their role, deactivate (or restore) the account, and reset their second factor. Each
//! page says what happens now, with the member's open requests in figures, and the member's
//! e-mail address is typed to confirm. Admins may make investors and admins; only superadmins
//! grant or take away the superadmin role or reset a second factor; nobody acts on themselves.

use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::investing::RequestStatus;
use ortak_app::domain::money::Money;
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::FluentArg;
use ortak_app::pages::dashboard::{Confirm, confirm_page};
use serde::Deserialize;

use super::queries::member::{self as queries, Account};
use super::users::role_code;
use crate::accounts::{tokens, two_factor};
use crate::db::audit;
use crate::error::AppError;
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes, Staff, SuperAdmin};

/// The roles `superadmin` (or an admin) may give.
fn grantable(superadmin: bool) -> &'static [Role] {
    if superadmin {
        &[Role::Investor, Role::Admin, Role::SuperAdmin]
    } else {
        &[Role::Investor, Role::Admin]
    }
}

/// The links to each access change the viewer may make on `a` (their own page shows none).
pub fn links(id: i64, superadmin: bool, a: &Account) -> Vec<(String, String)> {
    let mut links = Vec::new();
    if !superadmin && a.role == Role::SuperAdmin {
        return links;
    }
    if !a.deactivated {
        for r in grantable(superadmin).iter().filter(|r| **r != a.role) {
            let code = role_code(*r);
            links.push((
                format!("/dashboard/users/{id}/role?to={code}"),
                format!("dashboard-make-{code}"),
            ));
        }
    }
    let (to, label) = if a.deactivated {
        ("1", "dashboard-reactivate")
    } else {
        ("0", "dashboard-deactivate")
    };
    links.push((
        format!("/dashboard/users/{id}/active?to={to}"),
        label.into(),
    ));
    if superadmin && a.has_totp {
        links.push((
            format!("/dashboard/users/{id}/2fa"),
            "dashboard-reset-2fa".into(),
        ));
    }
    links
}

/// The member `id` the viewer may act on; refuses staff acting on themselves, and admins
/// acting on superadmins.
async fn target(ctx: &Ctx, me: i64, superadmin: bool, id: i64) -> Result<Account, AppError> {
    if id == me {
        return Err(AppError::Forbidden);
    }
    let account = queries::account(ctx.state().db(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    if account.role == Role::SuperAdmin && !superadmin {
        return Err(AppError::Forbidden);
    }
    Ok(account)
}

/// The member's open requests, as a sentence with their figures (or that there are none).
async fn open_requests(ctx: &Ctx, id: i64) -> Result<String, AppError> {
    let open: Vec<_> = queries::requests(ctx.state().db(), id)
        .await?
        .into_iter()
        .filter(|r| !r.status.is_end())
        .collect();
    if open.is_empty() {
        return Ok(ctx.t("confirm-no-open-requests"));
    }
    let escrow: i64 = open
        .iter()
        .filter(|r| r.status == RequestStatus::Funded)
        .map(|r| r.amount_kurus)
        .sum();
    let escrow = Money::from_kurus(escrow).format(ctx.locale);
    let args = [
        ("count", FluentArg::Num(open.len() as i64)),
        ("escrow", escrow.into()),
    ];
    Ok(ctx.locale.t_args("confirm-open-requests", &args))
}

/// The action a confirmation page is for.
enum Change {
    Role(Role),
    Active(bool),
    ResetTwoFactor,
}

impl Change {
    fn path(&self, id: i64) -> String {
        match self {
            Change::Role(_) => format!("/dashboard/users/{id}/role"),
            Change::Active(_) => format!("/dashboard/users/{id}/active"),
            Change::ResetTwoFactor => format!("/dashboard/users/{id}/2fa"),
        }
    }

    fn hidden(&self) -> Vec<(&'static str, String)> {
        match self {
            Change::Role(r) => vec![("role", role_code(*r).to_owned())],
            Change::Active(a) => vec![("active", if *a { "1" } else { "0" }.to_owned())],
            Change::ResetTwoFactor => vec![("reset", "1".to_owned())],
        }
    }

    /// The button's (and the page's) Fluent id, and what will happen, as ids.
    fn texts(&self) -> (String, &'static [&'static str]) {
        match self {
            Change::Role(r) => {
                let code = role_code(*r);
                let effects: &[&str] = match r {
                    Role::Investor => &["confirm-role-investor"],
                    Role::Admin => &["confirm-role-admin", "confirm-role-enrol"],
                    Role::SuperAdmin => &["confirm-role-superadmin", "confirm-role-enrol"],
                };
                (format!("dashboard-make-{code}"), effects)
            }
            Change::Active(false) => ("dashboard-deactivate".into(), &["confirm-deactivate"]),
            Change::Active(true) => ("dashboard-reactivate".into(), &["confirm-reactivate"]),
            Change::ResetTwoFactor => ("dashboard-reset-2fa".into(), &["confirm-reset-2fa"]),
        }
    }
}

async fn show(
    ctx: &Ctx,
    id: i64,
    a: &Account,
    change: Change,
    (status, typed, errors): (StatusCode, String, FieldErrors),
) -> Result<Response, AppError> {
    let (label, effect_ids) = change.texts();
    let who = [
        ("name", a.name.clone().into()),
        ("email", a.email.clone().into()),
    ];
    let mut effects: Vec<String> = effect_ids
        .iter()
        .map(|e| ctx.locale.t_args(e, &who))
        .collect();
    effects.push(ctx.t("confirm-links-end"));
    effects.push(open_requests(ctx, id).await?);
    let typed_label = ctx
        .locale
        .t_args("confirm-type-email", &[("email", a.email.clone().into())]);
    let page = Confirm {
        title: format!("{}: {}", ctx.t(&label), a.name),
        back: format!("/dashboard/users/{id}"),
        effects,
        action: change.path(id),
        hidden: change.hidden(),
        reason: None,
        typed: Some((typed_label, typed)),
        button: ctx.t(&label),
        errors,
    };
    let page = ctx.page_ctx(|pc| confirm_page(pc, page));
    Ok(ctx.render(status, page).await)
}

/// Whether `typed` is the member's address (case and spaces aside).
fn confirmed(typed: &str, a: &Account) -> bool {
    typed.trim().eq_ignore_ascii_case(a.email.trim())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct To {
    to: String,
}

fn role_of(code: &str) -> Option<Role> {
    match code {
        "investor" => Some(Role::Investor),
        "admin" => Some(Role::Admin),
        "superadmin" => Some(Role::SuperAdmin),
        _ => None,
    }
}

/// `GET /dashboard/users/{id}/role?to=…`.
pub async fn role_page(
    ctx: Ctx,
    staff: Staff,
    Path(id): Path<i64>,
    Query(q): Query<To>,
) -> Result<Response, AppError> {
    let role = role_of(&q.to).ok_or(AppError::BadRequest("bad-request-text"))?;
    if !grantable(staff.superadmin).contains(&role) {
        return Err(AppError::Forbidden);
    }
    let a = target(&ctx, staff.user.id, staff.superadmin, id).await?;
    let ok = (StatusCode::OK, String::new(), FieldErrors::default());
    show(&ctx, id, &a, Change::Role(role), ok).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct RoleChange {
    /// `investor`, `admin` or `superadmin`.
    role: String,
    /// The member's e-mail address, typed.
    confirm: String,
}

/// `POST /dashboard/users/{id}/role`.
pub async fn change_role(
    ctx: Ctx,
    staff: Staff,
    Path(id): Path<i64>,
    Form(form): Form<RoleChange>,
) -> Result<Response, AppError> {
    let role = role_of(&form.role).ok_or(AppError::BadRequest("bad-request-text"))?;
    if !grantable(staff.superadmin).contains(&role) {
        return Err(AppError::Forbidden);
    }
    let me = staff.user.id;
    let a = target(&ctx, me, staff.superadmin, id).await?;
    if !confirmed(&form.confirm, &a) {
        let refused = refused(form.confirm);
        return show(&ctx, id, &a, Change::Role(role), refused).await;
    }
    let now = ctx.state().now();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    queries::set_role(&mut tx, id, role, now).await?;
    // A credential change: links mailed under the old role no longer work.
    tokens::revoke_all(&mut tx, id, now).await?;
    let subject = format!("user:{id}");
    audit::record(
        &mut tx,
        me,
        "user.role",
        &subject,
        Some(role_code(a.role)),
        Some(&form.role),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/users/{id}")).await
}

fn refused(typed: String) -> (StatusCode, String, FieldErrors) {
    let mut errors = FieldErrors::default();
    errors.add("confirm", "confirm-email-mismatch");
    (StatusCode::UNPROCESSABLE_ENTITY, typed, errors)
}

/// `GET /dashboard/users/{id}/active?to=0|1`.
pub async fn active_page(
    ctx: Ctx,
    staff: Staff,
    Path(id): Path<i64>,
    Query(q): Query<To>,
) -> Result<Response, AppError> {
    let active = match q.to.as_str() {
        "1" => true,
        "0" => false,
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    let a = target(&ctx, staff.user.id, staff.superadmin, id).await?;
    let ok = (StatusCode::OK, String::new(), FieldErrors::default());
    show(&ctx, id, &a, Change::Active(active), ok).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Activation {
    /// `0` deactivates, `1` restores.
    active: String,
    confirm: String,
}

/// `POST /dashboard/users/{id}/active`: `active=0` deactivates (and signs out), `1` restores.
pub async fn set_active(
    ctx: Ctx,
    staff: Staff,
    Path(id): Path<i64>,
    Form(form): Form<Activation>,
) -> Result<Response, AppError> {
    let active = match form.active.as_str() {
        "1" => true,
        "0" => false,
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    let me = staff.user.id;
    let a = target(&ctx, me, staff.superadmin, id).await?;
    if !confirmed(&form.confirm, &a) {
        let refused = refused(form.confirm);
        return show(&ctx, id, &a, Change::Active(active), refused).await;
    }
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
        let subject = format!("user:{id}");
        audit::record(
            &mut tx,
            me,
            "user.active",
            &subject,
            Some(before),
            Some(after),
        )
        .await?;
    }
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/users/{id}")).await
}

/// `GET /dashboard/users/{id}/2fa` (superadmins).
pub async fn reset_page(
    ctx: Ctx,
    SuperAdmin(me): SuperAdmin,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let a = target(&ctx, me.id, true, id).await?;
    let ok = (StatusCode::OK, String::new(), FieldErrors::default());
    show(&ctx, id, &a, Change::ResetTwoFactor, ok).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Reset {
    /// `1` resets.
    reset: String,
    confirm: String,
}

/// `POST /dashboard/users/{id}/2fa` (superadmins): removes the member's authenticator and
/// recovery codes; every session of the member ends, and they enrol again at their next
/// password sign-in.
pub async fn reset_two_factor(
    ctx: Ctx,
    SuperAdmin(me): SuperAdmin,
    Path(id): Path<i64>,
    Form(form): Form<Reset>,
) -> Result<Response, AppError> {
    if form.reset != "1" {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    let a = target(&ctx, me.id, true, id).await?;
    if !confirmed(&form.confirm, &a) {
        let refused = refused(form.confirm);
        return show(&ctx, id, &a, Change::ResetTwoFactor, refused).await;
    }
    let mut tx = crate::db::write(ctx.state().db()).await?;
    two_factor::remove(&mut tx, me.id, id, ctx.state().now()).await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/users/{id}")).await
}

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Staff)
            .get("/dashboard/users/{id}/role", role_page)
            .post("/dashboard/users/{id}/role", change_role)
            .get("/dashboard/users/{id}/active", active_page)
            .post("/dashboard/users/{id}/active", set_active),
        Routes::new(Access::SuperAdmin)
            .get("/dashboard/users/{id}/2fa", reset_page)
            .post("/dashboard/users/{id}/2fa", reset_two_factor),
    ]
}

//! Superadmin sections for groups of members: `vcGroups` (fund teams, who then use
//! `/vc-dashboard`) and `vipgroups` (investors who may pre-invest early in chosen startups).

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ortak_app::domain::paths::is_web_url;
use ortak_app::domain::startup_form::slugify;
use ortak_app::pages::dashboard::staff_detail_page;
use ortak_app::pages::staff_table::{RowAction, StaffRow, StaffTable};

use super::table::render_table;
use crate::db::audit;
use crate::error::AppError;
use crate::web::flash::done;
use crate::web::form::FormBody;
use crate::web::session::{CurrentUser, Role};
use crate::web::{Access, Ctx, Routes};

const EMAIL: &[(&str, &str, &str)] = &[("email", "dashboard-col-email", "email")];
const STARTUP: &[(&str, &str, &str)] = &[("startup", "dashboard-startup-slug", "text")];
const NAME: &[(&str, &str, &str)] = &[("name", "dashboard-col-name", "text")];
const FUND: &[(&str, &str, &str)] = &[
    ("name", "dashboard-col-name", "text"),
    ("website", "dashboard-fund-website", "url"),
];

fn superadmin_post(
    ctx: &Ctx,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<(CurrentUser, FormBody), AppError> {
    let user = ctx.require(Role::SuperAdmin)?.clone();
    let form = FormBody::parse(body);
    ctx.verify_csrf(&form.get("csrf"), headers)?;
    Ok((user, form))
}

/// The member with this e-mail address, or a 400 naming the problem.
async fn member(ctx: &Ctx, email: &str) -> Result<i64, AppError> {
    let id: Option<i64> =
        sqlx::query_scalar("SELECT id FROM users WHERE email = ? AND deactivated_at IS NULL")
            .bind(email.trim().to_lowercase())
            .fetch_optional(ctx.state().db())
            .await?;
    id.ok_or(AppError::BadRequest("dashboard-no-such-member"))
}

/// `/dashboard/vcGroups`: each fund with its team.
pub async fn vc_groups(ctx: Ctx) -> Result<Response, AppError> {
    ctx.require(Role::SuperAdmin)?;
    let rows: Vec<(i64, String, Option<String>, i64)> = sqlx::query_as(
        "SELECT f.id, f.name, (SELECT GROUP_CONCAT(u.email, ', ') FROM fund_members m JOIN users u ON u.id = m.user_id WHERE m.fund_id = f.id),
             (SELECT COUNT(*) FROM startups s WHERE s.fund_id = f.id)
         FROM funds f ORDER BY f.name",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, name, members, startups)| StaffRow {
            id,
            cells: vec![
                name.into(),
                members.unwrap_or_default().into(),
                startups.to_string().into(),
            ],
            link: None,
            actions: vec![
                RowAction {
                    action: format!("/dashboard/vcGroups/{id}/members"),
                    name: "op",
                    value: "add".into(),
                    label_id: "dashboard-add-member".into(),
                    fields: EMAIL,
                },
                RowAction {
                    action: format!("/dashboard/vcGroups/{id}/members"),
                    name: "op",
                    value: "remove".into(),
                    label_id: "dashboard-remove-member".into(),
                    fields: EMAIL,
                },
            ],
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-vc-groups",
        columns: vec![
            "dashboard-startup-fund",
            "dashboard-members",
            "dashboard-startups",
        ],
        rows,
        search: None,
        csv: None,
        create: Some("/dashboard/vcGroups/new"),
    };
    render_table(&ctx, table).await
}

/// `/dashboard/vcGroups/new`: a fund, by name (and web site).
pub async fn fund_new(ctx: Ctx) -> Result<Response, AppError> {
    create_page(
        &ctx,
        "dashboard-vc-groups",
        "/dashboard/vcGroups",
        "dashboard-new-fund",
        FUND,
    )
    .await
}

/// A superadmin page with one form that creates a group.
async fn create_page(
    ctx: &Ctx,
    title_id: &str,
    action: &str,
    label_id: &str,
    fields: &'static [(&'static str, &'static str, &'static str)],
) -> Result<Response, AppError> {
    ctx.require(Role::SuperAdmin)?;
    let create = RowAction {
        action: action.into(),
        name: "create",
        value: "1".into(),
        label_id: label_id.into(),
        fields,
    };
    let title = ctx.t(title_id);
    let page = ctx.page_ctx(|pc| {
        staff_detail_page(
            pc,
            title,
            Vec::new(),
            (Vec::new(), Vec::new()),
            vec![create],
            None,
        )
    });
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `POST /dashboard/vcGroups`: creates a fund; startups and fund teams can then use it.
pub async fn fund_create(ctx: Ctx, headers: HeaderMap, body: Bytes) -> Result<Response, AppError> {
    let (me, f) = superadmin_post(&ctx, &headers, &body)?;
    let name = f.get("name").trim().to_owned();
    let website = f.get("website").trim().to_owned();
    let slug = slugify(&name);
    if slug.is_empty() || name.chars().count() > 100 {
        return Err(AppError::BadRequest("dashboard-fund-name"));
    }
    if !website.is_empty() && !is_web_url(&website) {
        return Err(AppError::BadRequest("validation-url"));
    }
    let mut tx = ctx.state().db().begin().await?;
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT OR IGNORE INTO funds (slug, name, website) VALUES (?, ?, ?) RETURNING id",
    )
    .bind(&slug)
    .bind(&name)
    .bind(&website)
    .fetch_optional(&mut *tx)
    .await?;
    let id = id.ok_or(AppError::BadRequest("dashboard-fund-exists"))?;
    audit::record(
        &mut tx,
        me.id,
        "fund.create",
        &format!("fund:{id}"),
        None,
        Some(&format!("{name} {website}")),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, "/dashboard/vcGroups").await
}

/// `POST /dashboard/vcGroups/{fund}/members`: `op` add or remove, `email` the member.
pub async fn vc_member(
    ctx: Ctx,
    Path(fund): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (me, f) = superadmin_post(&ctx, &headers, &body)?;
    let user = member(&ctx, &f.get("email")).await?;
    let mut tx = ctx.state().db().begin().await?;
    let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM funds WHERE id = ?")
        .bind(fund)
        .fetch_optional(&mut *tx)
        .await?;
    exists.ok_or(AppError::NotFound)?;
    let (sql, before, after) = match f.get("op").as_str() {
        "add" => (
            "INSERT OR IGNORE INTO fund_members (fund_id, user_id) VALUES (?, ?)",
            None,
            Some(format!("user:{user}")),
        ),
        "remove" => (
            "DELETE FROM fund_members WHERE fund_id = ? AND user_id = ?",
            Some(format!("user:{user}")),
            None,
        ),
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    sqlx::query(sql)
        .bind(fund)
        .bind(user)
        .execute(&mut *tx)
        .await?;
    audit::record(
        &mut tx,
        me.id,
        "fund.members",
        &format!("fund:{fund}"),
        before.as_deref(),
        after.as_deref(),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, "/dashboard/vcGroups").await
}

/// `/dashboard/vipgroups`: the groups, their members and startups.
pub async fn vip_groups(ctx: Ctx) -> Result<Response, AppError> {
    ctx.require(Role::SuperAdmin)?;
    let rows: Vec<(i64, String, i64, Option<String>)> = sqlx::query_as(
        "SELECT g.id, g.name, (SELECT COUNT(*) FROM vip_group_members m WHERE m.group_id = g.id),
             (SELECT GROUP_CONCAT(s.name, ', ') FROM vip_group_startups gs JOIN startups s ON s.id = gs.startup_id WHERE gs.group_id = g.id)
         FROM vip_groups g ORDER BY g.name",
    )
    .fetch_all(ctx.state().db())
    .await?;
    let rows = rows
        .into_iter()
        .map(|(id, name, members, startups)| StaffRow {
            id,
            cells: vec![
                name.into(),
                members.to_string().into(),
                startups.unwrap_or_default().into(),
            ],
            link: Some((
                format!("/dashboard/vipgroups/{id}"),
                "dashboard-edit".to_owned(),
            )),
            actions: Vec::new(),
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-vip-groups",
        columns: vec![
            "dashboard-col-name",
            "dashboard-members",
            "dashboard-startups",
        ],
        rows,
        search: None,
        csv: None,
        create: Some("/dashboard/vipgroups/new"),
    };
    render_table(&ctx, table).await
}

/// `/dashboard/vipgroups/new`: a name, and the group exists.
pub async fn vip_new(ctx: Ctx) -> Result<Response, AppError> {
    create_page(
        &ctx,
        "dashboard-vip-groups",
        "/dashboard/vipgroups",
        "dashboard-new",
        NAME,
    )
    .await
}

pub async fn vip_create(ctx: Ctx, headers: HeaderMap, body: Bytes) -> Result<Response, AppError> {
    let (me, f) = superadmin_post(&ctx, &headers, &body)?;
    let name: String = f.get("name").trim().chars().take(100).collect();
    if name.is_empty() {
        return Err(AppError::BadRequest("validation-required"));
    }
    let mut tx = ctx.state().db().begin().await?;
    let id: Option<i64> =
        sqlx::query_scalar("INSERT OR IGNORE INTO vip_groups (name) VALUES (?) RETURNING id")
            .bind(&name)
            .fetch_optional(&mut *tx)
            .await?;
    let id = id.ok_or(AppError::BadRequest("dashboard-group-exists"))?;
    audit::record(
        &mut tx,
        me.id,
        "vip.create",
        &format!("vip:{id}"),
        None,
        Some(&name),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/vipgroups/{id}")).await
}

/// `/dashboard/vipgroups/{id}`: members and startups, added and removed by e-mail and address.
pub async fn vip_page(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    ctx.require(Role::SuperAdmin)?;
    let db = ctx.state().db();
    let name: String = sqlx::query_scalar("SELECT name FROM vip_groups WHERE id = ?")
        .bind(id)
        .fetch_optional(db)
        .await?
        .ok_or(AppError::NotFound)?;
    let members: Vec<String> = sqlx::query_scalar(
        "SELECT u.email FROM vip_group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = ? ORDER BY u.email",
    )
    .bind(id)
    .fetch_all(db)
    .await?;
    let startups: Vec<(String, String, Option<String>)> = sqlx::query_as(
        "SELECT s.name, s.slug, s.vip_until FROM vip_group_startups gs JOIN startups s ON s.id = gs.startup_id
         WHERE gs.group_id = ? ORDER BY s.name",
    )
    .bind(id)
    .fetch_all(db)
    .await?;
    let facts = vec![
        (ctx.t("dashboard-members"), members.join(", ")),
        (
            ctx.t("dashboard-startups"),
            startups
                .iter()
                .map(|(n, s, _)| format!("{n} ({s})"))
                .collect::<Vec<_>>()
                .join(", "),
        ),
    ];
    let history = startups
        .into_iter()
        .map(|(n, s, until)| vec![n, s, until.unwrap_or_else(|| "-".into())])
        .collect();
    let action = format!("/dashboard/vipgroups/{id}");
    let act = |value: &str, label: &str, fields| RowAction {
        action: action.clone(),
        name: "op",
        value: value.to_owned(),
        label_id: label.to_owned(),
        fields,
    };
    let actions = vec![
        act("add-member", "dashboard-add-member", EMAIL),
        act("remove-member", "dashboard-remove-member", EMAIL),
        act("add-startup", "dashboard-add-startup", STARTUP),
        act("remove-startup", "dashboard-remove-startup", STARTUP),
    ];
    let page = ctx.page_ctx(|pc| {
        staff_detail_page(
            pc,
            name,
            facts,
            (
                vec![
                    "dashboard-col-startup",
                    "dashboard-startup-slug",
                    "dashboard-startup-vip-until",
                ],
                history,
            ),
            actions,
            None,
        )
    });
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `POST /dashboard/vipgroups/{id}`: `op` says what changes.
pub async fn vip_change(
    ctx: Ctx,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (me, f) = superadmin_post(&ctx, &headers, &body)?;
    let op = f.get("op");
    let (sql, other) = match op.as_str() {
        "add-member" | "remove-member" => (
            if op == "add-member" {
                "INSERT OR IGNORE INTO vip_group_members (group_id, user_id) VALUES (?, ?)"
            } else {
                "DELETE FROM vip_group_members WHERE group_id = ? AND user_id = ?"
            },
            format!("user:{}", member(&ctx, &f.get("email")).await?),
        ),
        "add-startup" | "remove-startup" => {
            let startup: Option<i64> = sqlx::query_scalar("SELECT id FROM startups WHERE slug = ?")
                .bind(f.get("startup").trim())
                .fetch_optional(ctx.state().db())
                .await?;
            let startup = startup.ok_or(AppError::BadRequest("dashboard-no-such-startup"))?;
            (
                if op == "add-startup" {
                    "INSERT OR IGNORE INTO vip_group_startups (group_id, startup_id) VALUES (?, ?)"
                } else {
                    "DELETE FROM vip_group_startups WHERE group_id = ? AND startup_id = ?"
                },
                format!("startup:{startup}"),
            )
        }
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    let other_id: i64 = other
        .split(':')
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_default();
    let mut tx = ctx.state().db().begin().await?;
    let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM vip_groups WHERE id = ?")
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    exists.ok_or(AppError::NotFound)?;
    sqlx::query(sql)
        .bind(id)
        .bind(other_id)
        .execute(&mut *tx)
        .await?;
    let adding = op.starts_with("add");
    audit::record(
        &mut tx,
        me.id,
        &format!("vip.{op}"),
        &format!("vip:{id}"),
        (!adding).then_some(other.as_str()),
        adding.then_some(other.as_str()),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/vipgroups/{id}")).await
}

pub fn vip_routes() -> Routes {
    Routes::new(Access::SuperAdmin)
        .get("/dashboard/vipgroups", vip_groups)
        .nav("dashboard-vip-groups")
        .post("/dashboard/vipgroups", vip_create)
        .get("/dashboard/vipgroups.json", vip_groups)
        .get("/dashboard/vipgroups/new", vip_new)
        .get("/dashboard/vipgroups/{id}", vip_page)
        .post("/dashboard/vipgroups/{id}", vip_change)
}

pub fn fund_routes() -> Routes {
    Routes::new(Access::SuperAdmin)
        .get("/dashboard/vcGroups", vc_groups)
        .nav("dashboard-vc-groups")
        .post("/dashboard/vcGroups", fund_create)
        .get("/dashboard/vcGroups/new", fund_new)
        .get("/dashboard/vcGroups.json", vc_groups)
        .post("/dashboard/vcGroups/{id}/members", vc_member)
}

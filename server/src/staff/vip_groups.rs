//! `/dashboard/vipgroups` (superadmins): groups of investors who may pre-invest early in the
//! group's startups (until a startup's `vip_until` day), created by name, with members added
//! by e-mail and startups by address. The SQL is in `staff/queries/vip_groups.rs`.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::pages::dashboard::StaffDetail;
use ortak_app::pages::staff_table::Cell;

use super::table::render_detail;
use ortak_app::pages::staff_table::{RowAction, StaffRow, StaffTable};
use serde::Deserialize;

use super::funds::{EMAIL, Fields, create_page, member};
use super::queries::vip_groups as queries;
use super::table::render_table;
use crate::db::{audit, unique_violation};
use crate::error::AppError;
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, SuperAdmin};

const STARTUP: Fields = &[("startup", "dashboard-startup-slug", "text")];
const NAME: Fields = &[("name", "dashboard-col-name", "text")];

/// `/dashboard/vipgroups`: the groups, their members and startups.
pub async fn list(ctx: Ctx) -> Result<Response, AppError> {
    let rows = queries::groups(ctx.state().db())
        .await?
        .into_iter()
        .map(|g| StaffRow {
            id: g.id,
            cells: vec![
                g.name.into(),
                g.members.to_string().into(),
                g.startups.into(),
            ],
            link: Some((
                format!("/dashboard/vipgroups/{}", g.id),
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
pub async fn new(ctx: Ctx) -> Result<Response, AppError> {
    create_page(
        &ctx,
        "dashboard-vip-groups",
        "/dashboard/vipgroups",
        "dashboard-new",
        NAME,
    )
    .await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct GroupFields {
    name: String,
}

/// `POST /dashboard/vipgroups`.
pub async fn create(
    ctx: Ctx,
    SuperAdmin(me): SuperAdmin,
    Form(f): Form<GroupFields>,
) -> Result<Response, AppError> {
    let name: String = f.name.trim().chars().take(100).collect();
    if name.is_empty() {
        return Err(AppError::BadRequest("validation-required"));
    }
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let id = match queries::insert_group(&mut tx, &name).await {
        Ok(id) => id,
        Err(e) if unique_violation(&e, "vip_groups.name") => {
            return Err(AppError::BadRequest("dashboard-group-exists"));
        }
        Err(e) => return Err(e.into()),
    };
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
pub async fn page(ctx: Ctx, Path(id): Path<i64>) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let name = queries::group_name(db, id)
        .await?
        .ok_or(AppError::NotFound)?;
    let members = queries::member_emails(db, id).await?;
    let startups = queries::startups(db, id).await?;
    let facts = vec![
        (ctx.t("dashboard-members"), members.join(", ").into()),
        (
            ctx.t("dashboard-startups"),
            startups
                .iter()
                .map(|s| format!("{} ({})", s.name, s.slug))
                .collect::<Vec<_>>()
                .join(", ")
                .into(),
        ),
    ];
    // "-" when the group's head start is not limited.
    let history = startups
        .into_iter()
        .map(|s| {
            let until = s.vip_until.map_or_else(|| "-".into(), Cell::Day);
            vec![s.name.into(), s.slug.into(), until]
        })
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
    let columns = vec![
        "dashboard-col-startup",
        "dashboard-startup-slug",
        "dashboard-startup-vip-until",
    ];
    let detail = StaffDetail {
        title: name,
        facts,
        columns,
        history,
        actions,
        link: None,
        irreversible: Vec::new(),
    };
    Ok(render_detail(&ctx, detail).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct GroupChange {
    /// `add-member`, `remove-member`, `add-startup` or `remove-startup`.
    op: String,
    email: String,
    /// The startup's address.
    startup: String,
}

/// What a change adds or removes.
enum Change {
    Member(i64),
    Startup(i64),
}

impl Change {
    /// How the audit log names it.
    fn subject(&self) -> String {
        match self {
            Change::Member(user) => format!("user:{user}"),
            Change::Startup(startup) => format!("startup:{startup}"),
        }
    }
}

/// `POST /dashboard/vipgroups/{id}`: `op` says what changes.
pub async fn change(
    ctx: Ctx,
    SuperAdmin(me): SuperAdmin,
    Path(id): Path<i64>,
    Form(f): Form<GroupChange>,
) -> Result<Response, AppError> {
    let (adding, change) = match f.op.as_str() {
        "add-member" | "remove-member" => (
            f.op == "add-member",
            Change::Member(member(&ctx, &f.email).await?),
        ),
        "add-startup" | "remove-startup" => {
            let startup = queries::startup_by_slug(ctx.state().db(), f.startup.trim())
                .await?
                .ok_or(AppError::BadRequest("dashboard-no-such-startup"))?;
            (f.op == "add-startup", Change::Startup(startup))
        }
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if !queries::group_exists(&mut tx, id).await? {
        return Err(AppError::NotFound);
    }
    match (&change, adding) {
        (Change::Member(user), true) => queries::add_member(&mut tx, id, *user).await?,
        (Change::Member(user), false) => queries::remove_member(&mut tx, id, *user).await?,
        (Change::Startup(s), true) => queries::add_startup(&mut tx, id, *s).await?,
        (Change::Startup(s), false) => queries::remove_startup(&mut tx, id, *s).await?,
    }
    let subject = change.subject();
    let (before, after) = if adding {
        (None, Some(subject.as_str()))
    } else {
        (Some(subject.as_str()), None)
    };
    let action = format!("vip.{}", f.op);
    audit::record(&mut tx, me.id, &action, &format!("vip:{id}"), before, after).await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/vipgroups/{id}")).await
}

pub fn routes() -> Routes {
    Routes::new(Access::SuperAdmin)
        .get("/dashboard/vipgroups", list)
        .nav("dashboard-vip-groups")
        .post("/dashboard/vipgroups", create)
        .get("/dashboard/vipgroups.json", list)
        .get("/dashboard/vipgroups/new", new)
        .get("/dashboard/vipgroups/{id}", page)
        .post("/dashboard/vipgroups/{id}", change)
}

//! `/dashboard/vcGroups` (superadmins): the funds, created by name and web site, and their
//! teams, who then use `/vc-dashboard`. Also the one-form "create" page and the member lookup
//! that the VIP groups section shares. The SQL is in `staff/queries/funds.rs`.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::domain::paths::is_web_url;
use ortak_app::domain::startup_form::slugify;
use ortak_app::pages::dashboard::StaffDetail;

use super::table::render_detail;
use ortak_app::pages::staff_table::{RowAction, StaffRow, StaffTable};
use serde::Deserialize;

use super::queries::funds as queries;
use super::table::render_table;
use crate::db::{audit, unique_violation};
use crate::error::AppError;
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, SuperAdmin};

/// A row action's inputs: `(name, label id, input type)`.
pub(super) type Fields = &'static [(&'static str, &'static str, &'static str)];

pub(super) const EMAIL: Fields = &[("email", "dashboard-col-email", "email")];
const FUND: Fields = &[
    ("name", "dashboard-col-name", "text"),
    ("website", "dashboard-fund-website", "url"),
];

/// The active member with this e-mail address, or a 400 naming the problem.
pub(super) async fn member(ctx: &Ctx, email: &str) -> Result<i64, AppError> {
    let email = email.trim().to_lowercase();
    queries::active_member(ctx.state().db(), &email)
        .await?
        .ok_or(AppError::BadRequest("dashboard-no-such-member"))
}

/// A superadmin page with one form that creates a group.
pub(super) async fn create_page(
    ctx: &Ctx,
    title_id: &str,
    action: &str,
    label_id: &str,
    fields: Fields,
) -> Result<Response, AppError> {
    let create = RowAction {
        action: action.into(),
        name: "create",
        value: "1".into(),
        label_id: label_id.into(),
        fields,
    };
    let detail = StaffDetail {
        title: ctx.t(title_id),
        facts: Vec::new(),
        columns: Vec::new(),
        history: Vec::new(),
        actions: vec![create],
        link: None,
        irreversible: Vec::new(),
    };
    Ok(render_detail(ctx, detail).await)
}

/// `/dashboard/vcGroups`: each fund with its team.
pub async fn list(ctx: Ctx) -> Result<Response, AppError> {
    let member_action = |id: i64, op: &str, label: &str| RowAction {
        action: format!("/dashboard/vcGroups/{id}/members"),
        name: "op",
        value: op.into(),
        label_id: label.into(),
        fields: EMAIL,
    };
    let rows = queries::funds(ctx.state().db())
        .await?
        .into_iter()
        .map(|f| StaffRow {
            id: f.id,
            cells: vec![
                f.name.into(),
                f.members.into(),
                f.startups.to_string().into(),
            ],
            link: None,
            actions: vec![
                member_action(f.id, "add", "dashboard-add-member"),
                member_action(f.id, "remove", "dashboard-remove-member"),
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
pub async fn new(ctx: Ctx) -> Result<Response, AppError> {
    create_page(
        &ctx,
        "dashboard-vc-groups",
        "/dashboard/vcGroups",
        "dashboard-new-fund",
        FUND,
    )
    .await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FundFields {
    name: String,
    website: String,
}

/// `POST /dashboard/vcGroups`: creates a fund; startups and fund teams can then use it.
pub async fn create(
    ctx: Ctx,
    SuperAdmin(me): SuperAdmin,
    Form(f): Form<FundFields>,
) -> Result<Response, AppError> {
    let name = f.name.trim();
    let website = f.website.trim();
    let slug = slugify(name);
    if slug.is_empty() || name.chars().count() > 100 {
        return Err(AppError::BadRequest("dashboard-fund-name"));
    }
    if !website.is_empty() && !is_web_url(website) {
        return Err(AppError::BadRequest("validation-url"));
    }
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let id = match queries::insert_fund(&mut tx, &slug, name, website).await {
        Ok(id) => id,
        Err(e) if unique_violation(&e, "funds.slug") => {
            return Err(AppError::BadRequest("dashboard-fund-exists"));
        }
        Err(e) => return Err(e.into()),
    };
    let after = format!("{name} {website}");
    audit::record(
        &mut tx,
        me.id,
        "fund.create",
        &format!("fund:{id}"),
        None,
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, "/dashboard/vcGroups").await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct MemberChange {
    /// `add` or `remove`.
    op: String,
    email: String,
}

/// `POST /dashboard/vcGroups/{fund}/members`: `op` add or remove, `email` the member.
pub async fn change_member(
    ctx: Ctx,
    SuperAdmin(me): SuperAdmin,
    Path(fund): Path<i64>,
    Form(f): Form<MemberChange>,
) -> Result<Response, AppError> {
    let user = member(&ctx, &f.email).await?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if !queries::fund_exists(&mut tx, fund).await? {
        return Err(AppError::NotFound);
    }
    let member = format!("user:{user}");
    let (before, after) = match f.op.as_str() {
        "add" => {
            queries::add_member(&mut tx, fund, user).await?;
            (None, Some(member.as_str()))
        }
        "remove" => {
            queries::remove_member(&mut tx, fund, user).await?;
            (Some(member.as_str()), None)
        }
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    let subject = format!("fund:{fund}");
    audit::record(&mut tx, me.id, "fund.members", &subject, before, after).await?;
    tx.commit().await?;
    done(&ctx, "/dashboard/vcGroups").await
}

pub fn routes() -> Routes {
    Routes::new(Access::SuperAdmin)
        .get("/dashboard/vcGroups", list)
        .nav("dashboard-vc-groups")
        .post("/dashboard/vcGroups", create)
        .get("/dashboard/vcGroups/new", new)
        .get("/dashboard/vcGroups.json", list)
        .post("/dashboard/vcGroups/{id}/members", change_member)
}

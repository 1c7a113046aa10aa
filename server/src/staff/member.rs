//! `/dashboard/users/{id}`: one member as staff see them (account, MKK details, qualified
//! declaration, fund teams, and for superadmins their requests). Role changes, deactivation and
//! a second-factor reset are set apart, each behind its confirmation page (`member_access`).

use axum::extract::Path;
use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::pages::staff_table::Cell;

use super::queries::member::{self as queries, Account, Archived};
use super::table::render_detail;
use super::users::{active_label, role_label};
use crate::error::AppError;
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes, Staff};
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
    let mut irreversible = Vec::new();
    if id != me.id {
        irreversible = super::member_access::links(id, superadmin, &account);
        if superadmin && account.role >= Role::Admin {
            actions.push(crate::campaigns::membership_action(
                id,
                account.committee_member,
            ));
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
        irreversible,
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

pub fn routes() -> Routes {
    Routes::new(Access::Staff).get("/dashboard/users/{id}", page)
}

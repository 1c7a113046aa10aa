//! The MKK part of a member's staff page: the record as sent and as verified, every identity
//! the account held, and what staff may do: verify or reject sent data (`users::review_mkk`),
//! and, for superadmins, unlock one correction of an identity locked since the member's first
//! request (with a reason, audited).

use axum::extract::Path;
use axum::response::Response;
use ortak_app::domain::mkk::MkkStatus;
use ortak_app::domain::money::Money;
use ortak_app::domain::time_fmt::format_date_short;
use ortak_app::domain::timeline::format_moment;
use ortak_app::pages::staff_table::{Cell, NOTE, RowAction};
use serde::Deserialize;

use super::queries::member::{self as queries, Mkk};
use super::users::mkk_actions;
use crate::error::AppError;
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, SuperAdmin};

/// The MKK details in one line: kind, identity number, phone, state and any reason.
fn mkk_fact(ctx: &Ctx, m: &Mkk) -> Cell {
    let reason = m
        .rejection_reason
        .as_ref()
        .map_or(String::new(), |r| format!(" ({r})"));
    format!(
        "{} · {} {} · {} · {}{reason}",
        ctx.t(&format!("dashboard-investor-{}", m.investor_type.code())),
        m.id_type.code().to_uppercase(),
        m.identity_number,
        ortak_app::domain::phone::format_phone(&m.phone),
        ctx.t(&format!("dashboard-mkk-{}", m.status.code())),
    )
    .into()
}

/// The member's MKK facts and the actions on them, for the member's page.
pub async fn section(
    ctx: &Ctx,
    id: i64,
    superadmin: bool,
) -> Result<(Vec<(String, Cell)>, Vec<RowAction>), AppError> {
    let db = ctx.state().db();
    let (mut facts, mut actions) = (Vec::new(), Vec::new());
    let Some(mkk) = queries::mkk(db, id).await? else {
        return Ok((facts, actions));
    };
    facts.push((ctx.t("dashboard-col-mkk"), mkk_fact(ctx, &mkk)));
    // What staff verify beside the identity: the income the limit follows, and the birth date.
    let income = Money::from_kurus(mkk.annual_income_kurus).format(ctx.locale);
    facts.push((ctx.t("field-annual-income"), income.into()));
    let iso = time::macros::format_description!("[year]-[month]-[day]");
    let born = time::Date::parse(&mkk.birth_date, iso).map_or_else(
        |_| mkk.birth_date.clone(),
        |d| format_date_short(d, ctx.locale),
    );
    facts.push((ctx.t("field-birth-date"), born.into()));
    let verified = match (mkk.verified_type, &mkk.verified_identity) {
        (Some(kind), Some(identity)) => {
            let kind = ctx.t(&format!("dashboard-investor-{}", kind.code()));
            Cell::from(format!("{kind} · {identity}"))
        }
        _ => Cell::Label("dashboard-request-unverified".into()),
    };
    facts.push((ctx.t("dashboard-mkk-verified-identity"), verified));
    let history: Vec<String> = queries::identity_history(db, id)
        .await?
        .into_iter()
        .map(|h| {
            let when = format_moment(h.recorded_at, ctx.locale);
            match h.unlocked_by {
                Some(by) => format!("{} ({when}, {by})", h.identity),
                None => format!("{} ({when})", h.identity),
            }
        })
        .collect();
    facts.push((
        ctx.t("dashboard-identity-history"),
        history.join(" → ").into(),
    ));
    if mkk.status == MkkStatus::Submitted {
        actions.extend(mkk_actions(id));
    }
    if superadmin && mkk.identity_locked {
        actions.push(RowAction {
            action: format!("/dashboard/users/{id}/identity-unlock"),
            name: "unlock",
            value: "1".into(),
            label_id: "dashboard-identity-unlock".into(),
            fields: NOTE,
        });
    }
    Ok((facts, actions))
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Unlock {
    /// Why the identity may change (a typo the member reported, say).
    note: String,
}

/// `POST /dashboard/users/{id}/identity-unlock`: the member may send one corrected identity;
/// it goes to review like any change, and the history keeps who allowed it.
pub async fn unlock(
    ctx: Ctx,
    SuperAdmin(staff): SuperAdmin,
    Path(id): Path<i64>,
    Form(form): Form<Unlock>,
) -> Result<Response, AppError> {
    let reason: String = form.note.trim().chars().take(500).collect();
    if reason.is_empty() {
        return Err(AppError::BadRequest("dashboard-reason-required"));
    }
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if !queries::unlock_identity(&mut tx, id, staff.id).await? {
        return Err(AppError::NotFound);
    }
    crate::db::audit::record(
        &mut tx,
        staff.id,
        "mkk.identity_unlock",
        &format!("user:{id}"),
        Some("locked"),
        Some(&format!("unlocked {reason}")),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, &format!("/dashboard/users/{id}")).await
}

pub fn routes() -> Routes {
    Routes::new(Access::SuperAdmin).post("/dashboard/users/{id}/identity-unlock", unlock)
}

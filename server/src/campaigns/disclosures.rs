//! Disclosures after funding (SPK III-35/A.2): a funded startup's founders and fund team post
//! material events and fund-use reports against the plan in the information form
//! (`/vc-dashboard/startups/{id}/disclosures`; another startup answers 404); staff approve or
//! return each (`/dashboard/disclosures`). An approved one is published as the startup's update
//! and mailed to those who follow it (their preferences hold); a returned one goes back to its
//! team with staff's note. Fund-use reports owed and not posted are chased by
//! `fund_use::remind`, as overdue quarterly reports are.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::campaign::FundUse;
use ortak_app::domain::disclosures::{DisclosureForm, Spending, spent_field, validate};
use ortak_app::domain::money::Money;
use ortak_app::domain::time_fmt::istanbul_date;
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::Locale;
use ortak_app::pages::campaign::{
    DisclosureItem, FounderDisclosures, StaffDisclosures, founder_disclosures_page,
    staff_disclosures_page,
};
use serde::Deserialize;
use std::collections::HashMap;

use super::queries::{self, disclosures as q};
use crate::db::audit;
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::notifications;
use crate::state::AppState;
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::{Ctx, FundMember, Staff};

fn item(row: q::DisclosureRow) -> DisclosureItem {
    DisclosureItem {
        id: row.id,
        startup: row.startup,
        kind: row.kind,
        title_tr: row.title_tr,
        title_en: row.title_en,
        body_tr: row.body_tr,
        body_en: row.body_en,
        spending: serde_json::from_str(&row.spending).unwrap_or_default(),
        posted_on: istanbul_date(row.posted_at),
        status: row.status,
        note: row.review_note,
    }
}

async fn founder_page(
    ctx: &Ctx,
    user: i64,
    id: i64,
    status: StatusCode,
    form: DisclosureForm,
    errors: FieldErrors,
) -> Result<Response, AppError> {
    let state = ctx.state();
    let mut conn = state.db().acquire().await?;
    if !queries::works_for(&mut conn, user, id).await? {
        return Err(AppError::NotFound);
    }
    let funding = q::funding(&mut conn, id).await?.ok_or(AppError::NotFound)?;
    drop(conn);
    let plan: Vec<FundUse> = serde_json::from_str(&funding.use_of_funds).unwrap_or_default();
    let due = super::fund_use::due(state, id)
        .await?
        .map(|d| (d.overdue, d.next));
    let posted = q::of_startup(state.db(), id)
        .await?
        .into_iter()
        .map(item)
        .collect();
    let page = FounderDisclosures {
        id,
        startup: funding.name,
        funded: funding.closed_at.is_some(),
        plan,
        due,
        posted,
        form,
        errors,
    };
    let page = ctx.page_ctx(|pc| founder_disclosures_page(pc, page));
    Ok(ctx.render(status, page).await)
}

/// `GET /vc-dashboard/startups/{id}/disclosures`.
pub async fn team_page(
    ctx: Ctx,
    FundMember(user): FundMember,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let form = DisclosureForm::default();
    founder_page(
        &ctx,
        user.id,
        id,
        StatusCode::OK,
        form,
        FieldErrors::default(),
    )
    .await
}

/// The disclosure form's fields; `spent_{i}` are read from the whole form.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct DisclosurePost {
    kind: String,
    title_tr: String,
    title_en: String,
    body_tr: String,
    body_en: String,
    #[serde(flatten)]
    rest: HashMap<String, String>,
}

/// `POST /vc-dashboard/startups/{id}/disclosures`: a disclosure for staff to review; only for a
/// funded round.
pub async fn team_post(
    ctx: Ctx,
    FundMember(user): FundMember,
    Path(id): Path<i64>,
    Form(p): Form<DisclosurePost>,
) -> Result<Response, AppError> {
    let state = ctx.state();
    let mut conn = state.db().acquire().await?;
    if !queries::works_for(&mut conn, user.id, id).await? {
        return Err(AppError::NotFound);
    }
    let funding = q::funding(&mut conn, id).await?.ok_or(AppError::NotFound)?;
    drop(conn);
    let plan: Vec<FundUse> = serde_json::from_str(&funding.use_of_funds).unwrap_or_default();
    let form = DisclosureForm {
        spent: (0..plan.len())
            .map(|i| p.rest.get(spent_field(i)).cloned().unwrap_or_default())
            .collect(),
        kind: p.kind,
        title_tr: p.title_tr,
        title_en: p.title_en,
        body_tr: p.body_tr,
        body_en: p.body_en,
    };
    let checked = match validate(&form, &plan) {
        _ if funding.closed_at.is_none() => {
            let mut errors = FieldErrors::default();
            errors.add("kind", "disclosure-after-funding");
            Err(errors)
        }
        checked => checked,
    };
    let disclosure = match checked {
        Ok(d) => d,
        Err(errors) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            return founder_page(&ctx, user.id, id, status, form, errors).await;
        }
    };
    let mut tx = crate::db::write(state.db()).await?;
    let posted = q::insert(&mut tx, id, user.id, &disclosure, state.now()).await?;
    let after = format!("disclosure:{posted} {}", disclosure.kind.code());
    audit::record(
        &mut tx,
        user.id,
        "disclosure.post",
        &format!("startup:{id}"),
        None,
        Some(&after),
    )
    .await?;
    let subject = format!("Açıklama incelemede: {}", funding.name);
    let link = format!("{}/dashboard/disclosures", state.shared().public_url);
    let lines = [("Girişim", funding.name.as_str()), ("Sayfa", link.as_str())];
    enqueue(
        &mut tx,
        &Mail::staff_notice(&state.shared().staff_email, &subject, &lines),
    )
    .await?;
    tx.commit().await?;
    state.wake_mailer();
    done(&ctx, &format!("/vc-dashboard/startups/{id}/disclosures")).await
}

async fn staff_page(
    ctx: &Ctx,
    status: StatusCode,
    refused: Option<(i64, String, FieldErrors)>,
) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let pending = q::by_status(db, "submitted", 200)
        .await?
        .into_iter()
        .map(item)
        .collect();
    let reviewed = q::by_status(db, "reviewed", 30)
        .await?
        .into_iter()
        .map(item)
        .collect();
    let page = StaffDisclosures {
        pending,
        reviewed,
        refused,
    };
    let page = ctx.page_ctx(|pc| staff_disclosures_page(pc, page));
    Ok(ctx.render(status, page).await)
}

/// `GET /dashboard/disclosures`.
pub async fn staff_list(ctx: Ctx, _: Staff) -> Result<Response, AppError> {
    staff_page(&ctx, StatusCode::OK, None).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ReviewPost {
    /// `approve` or `return`.
    decision: String,
    note: String,
}

/// The disclosure as its update says it, in `locale`: the title, the text and, for a fund-use
/// report, each line's spending against the plan.
fn update_text(d: &q::DisclosureRow, spending: &[Spending], locale: Locale) -> String {
    let (title, body) = match locale {
        Locale::Tr => (&d.title_tr, &d.body_tr),
        Locale::En => (&d.title_en, &d.body_en),
    };
    let mut text = format!("{title}\n\n{body}");
    for l in spending {
        let args = [
            (
                "line",
                if locale == Locale::En { &l.en } else { &l.tr }
                    .clone()
                    .into(),
            ),
            ("spent", Money::from_kurus(l.spent).format(locale).into()),
            (
                "planned",
                Money::from_kurus(l.planned).format(locale).into(),
            ),
        ];
        text.push('\n');
        text.push_str(&locale.t_args("disclosure-spending-line", &args));
    }
    text
}

/// `POST /dashboard/disclosures/{id}`: approves a submitted disclosure (published as the
/// startup's update and mailed to its followers) or returns it to its team with a note (a note
/// is required). A disclosure already decided answers 409.
pub async fn review(
    ctx: Ctx,
    Staff { user: staff, .. }: Staff,
    Path(id): Path<i64>,
    Form(f): Form<ReviewPost>,
) -> Result<Response, AppError> {
    let note: String = f.note.trim().chars().take(1000).collect();
    let approve = match f.decision.as_str() {
        "approve" => true,
        "return" => false,
        _ => return Err(AppError::BadRequest("bad-request-text")),
    };
    if !approve && note.is_empty() {
        let mut errors = FieldErrors::default();
        errors.add("note", "disclosure-note-required");
        return staff_page(
            &ctx,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some((id, note, errors)),
        )
        .await;
    }
    let state = ctx.state();
    let now = state.now();
    let mut tx = crate::db::write(state.db()).await?;
    let d = q::one(&mut tx, id).await?.ok_or(AppError::NotFound)?;
    let conflict = AppError::Refused(StatusCode::CONFLICT, "disclosure-decided");
    if d.status != "submitted" {
        return Err(conflict);
    }
    let spending: Vec<Spending> = serde_json::from_str(&d.spending).unwrap_or_default();
    let update = if approve {
        let (tr, en) = (
            update_text(&d, &spending, Locale::Tr),
            update_text(&d, &spending, Locale::En),
        );
        let author = d.posted_by.unwrap_or(staff.id);
        let posted =
            crate::fund::queries::insert_update(&mut tx, d.startup_id, author, (&tr, &en), now)
                .await?;
        let update = notifications::Update {
            mail: "startup-update",
            startup: d.startup_id,
            slug: &posted.slug,
            name: &d.startup,
            body_tr: &tr,
            body_en: &en,
        };
        notifications::startup_update(&mut tx, &state.shared().public_url, &update).await?;
        Some(posted.id)
    } else {
        tell_returned(&mut tx, state, &d, &note).await?;
        None
    };
    let status = if approve { "approved" } else { "returned" };
    if !q::decide(&mut tx, id, status, staff.id, &note, update, now).await? {
        return Err(conflict);
    }
    let after = format!("{status} {note}");
    audit::record(
        &mut tx,
        staff.id,
        "disclosure.review",
        &format!("disclosure:{id}"),
        None,
        Some(after.trim()),
    )
    .await?;
    tx.commit().await?;
    state.wake_mailer();
    done(&ctx, "/dashboard/disclosures").await
}

/// The disclosure's team hears it was returned, with staff's note.
async fn tell_returned(
    conn: &mut sqlx::SqliteConnection,
    state: &AppState,
    d: &q::DisclosureRow,
    note: &str,
) -> Result<(), AppError> {
    let link = format!(
        "{}/vc-dashboard/startups/{}/disclosures",
        state.shared().public_url,
        d.startup_id
    );
    for member in queries::team(conn, d.startup_id).await? {
        let title = if member.language == Locale::En {
            &d.title_en
        } else {
            &d.title_tr
        };
        let details = Some(format!("{title}\n\n{note}"));
        let mail = Mail::automatic(
            &member.email,
            member.language,
            &member.first_name,
            "disclosure-returned",
            &link,
            "",
            details,
        );
        enqueue(conn, &mail).await?;
    }
    Ok(())
}

//! What staff record beside a round's ledger: the lead fund's commitment, amounts raised
//! outside the platform (with where from), the round's valuation and later valuations. Never
//! the raised amount, which comes from the ledger.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::domain::money::Money;
use ortak_app::domain::profile::parse_lira;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::dashboard::{RoundFiguresForm, ValuationForm};
use serde::Deserialize;
use time::macros::format_description;

use super::show;
use crate::error::AppError;
use crate::investing::reconfirmation;
use crate::staff::queries::rounds::{self as queries, Figures};
use crate::web::form::Form;
use crate::web::{Ctx, Staff, flash};

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct FiguresPost {
    lead_commitment: String,
    outside_raised: String,
    outside_note: String,
    round_valuation: String,
}

/// Whole lira, or zero when left empty.
fn lira_or_zero(errors: &mut FieldErrors, field: &'static str, value: &str) -> i64 {
    if value.trim().is_empty() {
        return 0;
    }
    parse_lira(value).map_or_else(
        || {
            errors.add(field, "validation-number");
            0
        },
        Money::kurus,
    )
}

/// `POST /dashboard/rounds/{id}/figures`: the lead fund's commitment, amounts raised outside
/// the platform (with where from) and the round's valuation; never the raised amount.
pub async fn save_figures(
    ctx: Ctx,
    staff: Staff,
    Path(id): Path<i64>,
    Form(f): Form<FiguresPost>,
) -> Result<Response, AppError> {
    let mut errors = FieldErrors::default();
    let note: String = f.outside_note.trim().chars().take(200).collect();
    if note.chars().any(char::is_control) {
        errors.add("outside_note", "validation-too-long");
    }
    let figures = Figures {
        lead_commitment_kurus: lira_or_zero(&mut errors, "lead_commitment", &f.lead_commitment),
        outside_raised_kurus: lira_or_zero(&mut errors, "outside_raised", &f.outside_raised),
        outside_raised_note: note,
        round_valuation_kurus: Some(lira_or_zero(
            &mut errors,
            "round_valuation",
            &f.round_valuation,
        ))
        .filter(|v| *v > 0),
    };
    if !errors.is_empty() {
        let typed = RoundFiguresForm {
            lead_commitment: f.lead_commitment,
            outside_raised: f.outside_raised,
            outside_note: f.outside_note,
            round_valuation: f.round_valuation,
        };
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return show(
            &ctx,
            &staff,
            id,
            status,
            (typed, ValuationForm::default()),
            errors,
        )
        .await;
    }
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let terms = reconfirmation::terms(&mut tx, id).await?;
    let before = queries::save_figures(&mut tx, id, &figures)
        .await?
        .ok_or(AppError::NotFound)?;
    let describe = |f: &Figures| {
        format!(
            "lead {} outside {} ({}) valuation {:?}",
            f.lead_commitment_kurus,
            f.outside_raised_kurus,
            f.outside_raised_note,
            f.round_valuation_kurus
        )
    };
    crate::db::audit::record(
        &mut tx,
        staff.user.id,
        "round.figures",
        &format!("startup:{id}"),
        Some(&describe(&before)),
        Some(&describe(&figures)),
    )
    .await?;
    reconfirmation::after_change(&mut tx, ctx.state(), id, terms, staff.user.id).await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    flash::done(&ctx, &format!("/dashboard/rounds/{id}")).await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ValuationPost {
    valuation: String,
    valued_on: String,
    source: String,
}

/// `POST /dashboard/rounds/{id}/valuations`: a later valuation of the company, with its source.
pub async fn add_valuation(
    ctx: Ctx,
    staff: Staff,
    Path(id): Path<i64>,
    Form(v): Form<ValuationPost>,
) -> Result<Response, AppError> {
    let mut errors = FieldErrors::default();
    let amount = parse_lira(&v.valuation).filter(|m| m.kurus() > 0);
    if amount.is_none() {
        errors.add("valuation", "validation-number");
    }
    let day = time::Date::parse(
        v.valued_on.trim(),
        format_description!("[year]-[month]-[day]"),
    )
    .ok();
    if day.is_none_or(|d| d > ctx.state().today()) {
        errors.add("valued_on", "validation-date");
    }
    let source = v.source.trim();
    if source.is_empty() {
        errors.add("source", "validation-required");
    } else if source.chars().count() > 200 || source.chars().any(char::is_control) {
        errors.add("source", "validation-too-long");
    }
    let (Some(amount), Some(day), true) = (amount, day, errors.is_empty()) else {
        let typed = ValuationForm {
            valuation: v.valuation.clone(),
            valued_on: v.valued_on.clone(),
            source: v.source.clone(),
        };
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return show(
            &ctx,
            &staff,
            id,
            status,
            (RoundFiguresForm::default(), typed),
            errors,
        )
        .await;
    };
    queries::round(ctx.state().db(), id)
        .await?
        .ok_or(AppError::NotFound)?;
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let now = ctx.state().now();
    queries::insert_valuation(&mut tx, id, amount.kurus(), day, source, staff.user.id, now).await?;
    let after = format!("{} on {day} ({source})", amount.kurus());
    crate::db::audit::record(
        &mut tx,
        staff.user.id,
        "round.valuation",
        &format!("startup:{id}"),
        None,
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    flash::done(&ctx, &format!("/dashboard/rounds/{id}")).await
}

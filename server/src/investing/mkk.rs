//! `/mkk`: the investor-registry membership form.

use crate::web::form::Form;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::identity::IdType;
use ortak_app::domain::mkk::{MkkForm, MkkStatus, validate_mkk};
use ortak_app::domain::money::Money;
use ortak_app::forms::{FieldErrors, Notice};
use ortak_app::pages::investing::{MkkState, mkk_page};
use ortak_app::shell::{Flash, FlashKind};
use serde::Deserialize;
use sqlx::FromRow;

use crate::error::AppError;
use crate::web::Ctx;
use crate::web::session::Role;

#[derive(FromRow)]
struct Row {
    investor_type: String,
    turkish_citizen: bool,
    id_type: String,
    first_name: String,
    last_name: String,
    email: String,
    phone: String,
    annual_income_kurus: i64,
    identity_number: String,
    organisation: String,
    birth_date: String,
}

/// The user's MKK status, if they submitted the form.
pub async fn status(db: &sqlx::SqlitePool, user_id: i64) -> Result<Option<MkkStatus>, AppError> {
    let status: Option<String> =
        sqlx::query_scalar("SELECT status FROM mkk_profiles WHERE user_id = ?")
            .bind(user_id)
            .fetch_optional(db)
            .await?;
    Ok(status.map(|s| MkkStatus::from_code(&s)))
}

async fn show(
    ctx: &Ctx,
    status: StatusCode,
    form: &MkkForm,
    errors: &FieldErrors,
    notice: Option<Notice>,
    user_id: i64,
) -> Result<Response, AppError> {
    let saved: Option<(String, Option<String>)> =
        sqlx::query_as("SELECT status, rejection_reason FROM mkk_profiles WHERE user_id = ?")
            .bind(user_id)
            .fetch_optional(ctx.state().db())
            .await?;
    let state = MkkState {
        status: saved.as_ref().map(|(s, _)| MkkStatus::from_code(s)),
        rejection_reason: saved.and_then(|(_, r)| r),
        edevlet: ctx.state().shared().identity_check.is_some(),
        notice,
    };
    let page = ctx.page_ctx(|pc| mkk_page(pc, form, errors, state));
    Ok(ctx.render(status, page).await)
}

pub async fn page(ctx: Ctx) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let row: Option<Row> = sqlx::query_as(
        "SELECT investor_type, turkish_citizen, id_type, first_name, last_name, email, phone, annual_income_kurus,
                identity_number, organisation, birth_date
         FROM mkk_profiles WHERE user_id = ?",
    )
    .bind(user.id)
    .fetch_optional(ctx.state().db())
    .await?;
    let form = match row {
        Some(r) => MkkForm {
            investor_type: r.investor_type,
            citizen: if r.turkish_citizen { "yes" } else { "no" }.into(),
            id_type: r.id_type,
            first_name: r.first_name,
            last_name: r.last_name,
            email: r.email,
            phone: r.phone,
            annual_income: Money::from_kurus(r.annual_income_kurus)
                .format(ctx.locale)
                .trim_end_matches(" TL")
                .to_owned(),
            identity_number: r.identity_number,
            organisation: r.organisation,
            birth_date: r.birth_date,
        },
        // Start from what the profile already knows.
        None => {
            let (first_name, last_name, phone, investor_type): (
                String,
                String,
                String,
                Option<String>,
            ) = sqlx::query_as(
                "SELECT first_name, last_name, phone, investor_type FROM users WHERE id = ?",
            )
            .bind(user.id)
            .fetch_one(ctx.state().db())
            .await?;
            MkkForm {
                first_name,
                last_name,
                phone,
                email: user.email.clone(),
                investor_type: investor_type.unwrap_or_default(),
                ..MkkForm::default()
            }
        }
    };
    show(
        &ctx,
        StatusCode::OK,
        &form,
        &FieldErrors::default(),
        None,
        user.id,
    )
    .await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct Posted {
    csrf: String,
    #[serde(flatten)]
    form: MkkForm,
}

pub async fn save(ctx: Ctx, Form(posted): Form<Posted>) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let today = ctx.state().today();
    let mkk = match validate_mkk(&posted.form, today) {
        Ok(mkk) => mkk,
        Err(errors) => {
            return show(
                &ctx,
                StatusCode::UNPROCESSABLE_ENTITY,
                &posted.form,
                &errors,
                None,
                user.id,
            )
            .await;
        }
    };
    // The e-government check, when switched on, for citizens' TCKNs.
    let mut verified_by = None;
    let mut notice = None;
    if let (Some(check), IdType::Tckn) = (&ctx.state().shared().identity_check, mkk.id_type) {
        match check
            .verify(
                &mkk.identity_number,
                &mkk.first_name,
                &mkk.last_name,
                mkk.birth_date.year(),
            )
            .await
        {
            Ok(true) => verified_by = Some("edevlet"),
            Ok(false) => {
                let notice = Some(Notice::Error(ctx.t("mkk-edevlet-failed")));
                return show(
                    &ctx,
                    StatusCode::UNPROCESSABLE_ENTITY,
                    &posted.form,
                    &FieldErrors::default(),
                    notice,
                    user.id,
                )
                .await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "identity service unavailable");
                notice = Some("mkk-edevlet-unavailable");
            }
        }
    }
    let status = if verified_by.is_some() {
        MkkStatus::Verified
    } else {
        MkkStatus::Submitted
    };
    sqlx::query(
        "INSERT INTO mkk_profiles (user_id, investor_type, turkish_citizen, id_type, first_name, last_name, email, phone,
             annual_income_kurus, identity_number, organisation, birth_date, status, verified_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET investor_type = excluded.investor_type,
             turkish_citizen = excluded.turkish_citizen, id_type = excluded.id_type, first_name = excluded.first_name,
             last_name = excluded.last_name, email = excluded.email, phone = excluded.phone,
             annual_income_kurus = excluded.annual_income_kurus, identity_number = excluded.identity_number,
             organisation = excluded.organisation, birth_date = excluded.birth_date, status = excluded.status,
             verified_by = excluded.verified_by, rejection_reason = NULL,
             submitted_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), reviewed_at = NULL",
    )
    .bind(user.id)
    .bind(mkk.investor_type.code())
    .bind(mkk.citizen)
    .bind(mkk.id_type.code())
    .bind(&mkk.first_name)
    .bind(&mkk.last_name)
    .bind(&mkk.email)
    .bind(&mkk.phone)
    .bind(mkk.annual_income.kurus())
    .bind(&mkk.identity_number)
    .bind(&mkk.organisation)
    .bind(mkk.birth_date.to_string())
    .bind(status.code())
    .bind(verified_by)
    .execute(ctx.state().db())
    .await?;
    let message = match (verified_by, notice) {
        (Some(_), _) => "mkk-edevlet-ok",
        (None, Some(n)) => n,
        _ => "mkk-saved",
    };
    ctx.set_flash(Flash {
        kind: FlashKind::Success,
        message_id: message.into(),
    })
    .await?;
    Ok(Redirect::to("/mkk").into_response())
}

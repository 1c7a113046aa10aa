//! `/profile`: the member's own data in tabs (info, security, preferences, investor
//! information, notifications, deletion). This file holds the page and the three data tabs'
//! forms; the password ([`password`]), the photo ([`photo`]), the mails chosen
//! ([`notifications`]), the KVKK export ([`export`]) and deleting the membership
//! ([`deletion`]) have their own files.

pub mod deletion;
pub mod export;
pub mod notifications;
pub mod password;
pub mod photo;

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::identity::IdType;
use ortak_app::domain::money::Money;
use ortak_app::domain::profile::{
    MkkSent, Profile, validate_info, validate_investor, validate_preferences,
};
use ortak_app::domain::time_fmt::format_date_short;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::profile::{TABS, TwoFactorStatus, profile_page};
use serde::Deserialize;

use super::queries::profile::{self as queries, Investor};
use crate::error::AppError;
use crate::web::form::Form;
use crate::web::session::Role;
use crate::web::{Ctx, Member, flash};

/// The user's profile as the forms show it.
pub(crate) async fn load(ctx: &Ctx, user_id: i64) -> Result<Profile, AppError> {
    let r = queries::profile(ctx.state().db(), user_id).await?;
    Ok(Profile {
        email: r.email,
        first_name: r.first_name,
        last_name: r.last_name,
        position: r.position,
        phone: r.phone,
        country: r.country,
        city: r.city,
        language: r.language,
        purpose: r.purpose,
        budget: r.budget,
        interests: r
            .interests
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        investor_type: r.investor_type,
        citizen: r.citizen,
        id_type: r.id_type,
        identity_number: r.identity_number,
        company_name: r.company_name,
        tax_office: r.tax_office,
        // Whole lira as the field takes it (`1.250.000`).
        annual_income: r.annual_income_kurus.map_or_else(String::new, |k| {
            Money::from_kurus(k)
                .format(ctx.locale)
                .trim_end_matches(" TL")
                .to_owned()
        }),
        birth_date: r.birth_date.map_or_else(String::new, |d| d.to_string()),
        has_image: r.has_image,
        mails: crate::notifications::queries::enabled(ctx.state().db(), user_id)
            .await?
            .into_iter()
            .map(|kind| kind.code().to_owned())
            .collect(),
        mkk: queries::mkk(ctx.state().db(), user_id)
            .await?
            .map(|m| MkkSent {
                status: m.status,
                investor_type: m.investor_type,
                citizen: m.turkish_citizen,
                id_type: m.id_type,
                identity_number: m.identity_number,
                name: format!("{} {}", m.first_name, m.last_name),
                organisation: m.organisation,
                annual_income: Money::from_kurus(m.annual_income_kurus).format(ctx.locale),
                birth_date: format_date_short(m.birth_date, ctx.locale),
            }),
    })
}

/// The profile page on `tab`, showing `profile` (as stored, or as just posted) and `errors`.
pub(crate) async fn show(
    ctx: &Ctx,
    user_id: i64,
    status: StatusCode,
    tab: &str,
    profile: &Profile,
    errors: &FieldErrors,
) -> Result<Response, AppError> {
    let image = queries::profile_image(ctx.state().db(), user_id).await?;
    let avatar = image.map_or_else(|| "/avatar.svg".to_owned(), |f| format!("/api/file/{f}"));
    let two_factor = TwoFactorStatus {
        codes_left: super::two_factor::status(ctx, user_id).await?,
        required: ctx.user.as_ref().is_some_and(|u| u.role >= Role::Admin),
    };
    let page = ctx.page_ctx(|pc| profile_page(pc, tab, profile, errors, &avatar, two_factor));
    Ok(ctx.render(status, page).await)
}

/// The stored profile again on `tab`, with `errors` (a refused security or photo form).
pub(crate) async fn refuse(
    ctx: &Ctx,
    user_id: i64,
    tab: &str,
    errors: &FieldErrors,
) -> Result<Response, AppError> {
    let profile = load(ctx, user_id).await?;
    show(
        ctx,
        user_id,
        StatusCode::UNPROCESSABLE_ENTITY,
        tab,
        &profile,
        errors,
    )
    .await
}

/// Says `message_id` and goes back to `tab`.
pub(crate) async fn saved(ctx: &Ctx, message_id: &str, tab: &str) -> Result<Response, AppError> {
    flash::success(ctx, message_id).await?;
    Ok(Redirect::to(&format!("/profile?tab={tab}")).into_response())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TabQuery {
    tab: String,
}

/// `GET /profile?tab=…`.
pub async fn page(
    ctx: Ctx,
    Member(user): Member,
    Query(query): Query<TabQuery>,
) -> Result<Response, AppError> {
    let tab = if TABS.contains(&query.tab.as_str()) {
        query.tab.as_str()
    } else {
        "info"
    };
    let profile = load(&ctx, user.id).await?;
    show(
        &ctx,
        user.id,
        StatusCode::OK,
        tab,
        &profile,
        &FieldErrors::default(),
    )
    .await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct InfoForm {
    first_name: String,
    last_name: String,
    position: String,
    phone: String,
    country: String,
    city: String,
    language: String,
}

/// `POST /profile/info`.
pub async fn save_info(
    ctx: Ctx,
    Member(user): Member,
    Form(f): Form<InfoForm>,
) -> Result<Response, AppError> {
    let mut p = load(&ctx, user.id).await?;
    p.first_name = f.first_name.trim().to_owned();
    p.last_name = f.last_name.trim().to_owned();
    p.position = f.position.trim().to_owned();
    p.phone = f.phone;
    p.country = f.country.trim().to_owned();
    p.city = f.city.trim().to_owned();
    p.language = f.language;
    if let Err(errors) = validate_info(&mut p) {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return show(&ctx, user.id, status, "info", &p, &errors).await;
    }
    queries::save_info(ctx.state().db(), user.id, &p, ctx.state().now()).await?;
    saved(&ctx, "profile-saved", "info").await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct PreferencesForm {
    purpose: String,
    budget: String,
    interests: Vec<String>,
}

/// `POST /profile/preferences`.
pub async fn save_preferences(
    ctx: Ctx,
    Member(user): Member,
    Form(f): Form<PreferencesForm>,
) -> Result<Response, AppError> {
    let mut p = load(&ctx, user.id).await?;
    p.purpose = f.purpose;
    p.budget = f.budget;
    p.interests = f.interests;
    if let Err(errors) = validate_preferences(&mut p) {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return show(&ctx, user.id, status, "preferences", &p, &errors).await;
    }
    queries::save_preferences(ctx.state().db(), user.id, &p, ctx.state().now()).await?;
    saved(&ctx, "profile-saved", "preferences").await
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct InvestorForm {
    investor_type: String,
    citizen: String,
    id_type: String,
    identity_number: String,
    company_name: String,
    tax_office: String,
    annual_income: String,
    birth_date: String,
}

/// `POST /profile/investor`.
pub async fn save_investor(
    ctx: Ctx,
    Member(user): Member,
    Form(f): Form<InvestorForm>,
) -> Result<Response, AppError> {
    let mut p = load(&ctx, user.id).await?;
    if p.mkk.is_some() {
        // Once the MKK data is sent, it is the one record of this: it changes on its form.
        return Ok(Redirect::to("/mkk").into_response());
    }
    p.investor_type = f.investor_type.trim().to_owned();
    p.citizen = f.citizen.trim().to_owned();
    p.id_type = f.id_type.trim().to_owned();
    p.identity_number = f.identity_number.trim().to_owned();
    p.company_name = f.company_name.trim().to_owned();
    p.tax_office = f.tax_office.trim().to_owned();
    p.annual_income = f.annual_income.trim().to_owned();
    p.birth_date = f.birth_date.trim().to_owned();
    let (income, birth) = match validate_investor(&mut p, ctx.state().today()) {
        Ok(valid) => valid,
        Err(errors) => {
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            return show(&ctx, user.id, status, "investor", &p, &errors).await;
        }
    };
    // Only a corporate investor has a company.
    let corporate = p.investor_type == "corporate";
    let investor = Investor {
        investor_type: &p.investor_type,
        turkish_citizen: p.citizen == "yes",
        id_type: IdType::from_code(&p.id_type).map(IdType::code),
        identity_number: &p.identity_number,
        company_name: if corporate { &p.company_name } else { "" },
        tax_office: if corporate { &p.tax_office } else { "" },
        annual_income_kurus: income.map(|m| m.kurus()),
        birth_date: birth,
    };
    queries::save_investor(ctx.state().db(), user.id, &investor, ctx.state().now()).await?;
    saved(&ctx, "profile-investor-saved", "investor").await
}

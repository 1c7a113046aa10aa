//! Onboarding after the first sign-in: five steps, each saved on its own, resumable.

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::onboarding::{Answers, STEPS, validate_step};
use ortak_app::pages::onboarding::{onboarding_done_page, onboarding_page};
use sqlx::FromRow;

use crate::error::AppError;
use crate::web::Ctx;
use crate::web::form::FormBody;
use crate::web::session::Role;

#[derive(FromRow)]
struct Row {
    phone: String,
    country: String,
    city: String,
    investor_type: Option<String>,
    company_name: String,
    tax_office: String,
    position: String,
    registration_purpose: Option<String>,
    budget_range: Option<String>,
    interests: String,
    how_heard: Option<String>,
    prior_experience: Option<bool>,
    specific_investment: Option<bool>,
    specific_startup: String,
    onboarding_step: i64,
}

fn yes_no(value: Option<bool>) -> String {
    value
        .map(|v| if v { "yes" } else { "no" })
        .unwrap_or_default()
        .to_owned()
}

async fn load(ctx: &Ctx, user_id: i64) -> Result<(Answers, u8), AppError> {
    let r: Row = sqlx::query_as(
        "SELECT phone, country, city, investor_type, company_name, tax_office, position, registration_purpose,
                budget_range, interests, how_heard, prior_experience, specific_investment, specific_startup,
                onboarding_step
         FROM users WHERE id = ?",
    )
    .bind(user_id)
    .fetch_one(ctx.state().db())
    .await?;
    let answers = Answers {
        phone: r.phone,
        country: r.country,
        city: r.city,
        investor_type: r.investor_type.unwrap_or_default(),
        company_name: r.company_name,
        tax_office: r.tax_office,
        position: r.position,
        purpose: r.registration_purpose.unwrap_or_default(),
        budget: r.budget_range.unwrap_or_default(),
        interests: r
            .interests
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        how_heard: r.how_heard.unwrap_or_default(),
        experience: yes_no(r.prior_experience),
        specific: yes_no(r.specific_investment),
        specific_startup: r.specific_startup,
    };
    Ok((
        answers,
        r.onboarding_step.clamp(1, i64::from(STEPS) + 1) as u8,
    ))
}

fn step_path(step: u8) -> String {
    if step > STEPS {
        "/boardingFlow/success".to_owned()
    } else {
        format!("/boardingFlow/{step}")
    }
}

/// The step number of the path, or `None` for anything but 1-5.
fn parse_step(step: &str) -> Option<u8> {
    step.parse::<u8>().ok().filter(|s| (1..=STEPS).contains(s))
}

pub async fn step_form(ctx: Ctx, Path(step): Path<String>) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let step = parse_step(&step).ok_or(AppError::NotFound)?;
    let (answers, next) = load(&ctx, user.id).await?;
    if step > next {
        // Steps are taken in order; resume where the user left.
        return Ok(Redirect::to(&step_path(next)).into_response());
    }
    let page = ctx.page_ctx(|pc| onboarding_page(pc, step, &answers, &Default::default()));
    Ok(ctx.render(StatusCode::OK, page).await)
}

pub async fn save_step(
    ctx: Ctx,
    Path(step): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let step = parse_step(&step).ok_or(AppError::NotFound)?;
    let f = FormBody::parse(&body);
    let get = |name: &str| f.get(name);
    ctx.verify_csrf(&get("csrf"), &headers)?;
    let (mut answers, next) = load(&ctx, user.id).await?;
    if step > next {
        return Ok(Redirect::to(&step_path(next)).into_response());
    }
    match step {
        1 => {
            (answers.phone, answers.country, answers.city) =
                (get("phone"), get("country"), get("city"))
        }
        2 => {
            answers.investor_type = get("investor_type");
            answers.company_name = get("company_name");
            answers.tax_office = get("tax_office");
            answers.position = get("position");
        }
        3 => (answers.purpose, answers.budget) = (get("purpose"), get("budget")),
        4 => {
            answers.interests = f.all("interests");
            answers.how_heard = get("how_heard");
        }
        _ => {
            answers.experience = get("experience");
            answers.specific = get("specific");
            answers.specific_startup = get("specific_startup");
        }
    }
    if let Err(errors) = validate_step(step, &mut answers) {
        let page = ctx.page_ctx(|pc| onboarding_page(pc, step, &answers, &errors));
        return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
    }
    let a = &answers;
    let mut tx = ctx.state().db().begin().await?;
    let was_complete: bool =
        sqlx::query_scalar("SELECT onboarding_completed_at IS NOT NULL FROM users WHERE id = ?")
            .bind(user.id)
            .fetch_one(&mut *tx)
            .await?;
    sqlx::query(
        "UPDATE users SET phone = ?, country = ?, city = ?, investor_type = NULLIF(?, ''), company_name = ?,
             tax_office = ?, position = ?, registration_purpose = NULLIF(?, ''), budget_range = NULLIF(?, ''),
             interests = ?, how_heard = NULLIF(?, ''),
             prior_experience = CASE ? WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END,
             specific_investment = CASE ? WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END, specific_startup = ?,
             onboarding_step = MAX(onboarding_step, ?),
             onboarding_completed_at = CASE WHEN ? > ? THEN COALESCE(onboarding_completed_at, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) END,
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
         WHERE id = ?",
    )
    .bind(&a.phone)
    .bind(&a.country)
    .bind(&a.city)
    .bind(&a.investor_type)
    .bind(&a.company_name)
    .bind(&a.tax_office)
    .bind(&a.position)
    .bind(&a.purpose)
    .bind(&a.budget)
    .bind(a.interests.join(","))
    .bind(&a.how_heard)
    .bind(&a.experience)
    .bind(&a.specific)
    .bind(&a.specific_startup)
    .bind(i64::from(step) + 1)
    .bind(i64::from(step.max(next - 1)) + 1)
    .bind(i64::from(STEPS))
    .bind(user.id)
    .execute(&mut *tx)
    .await?;
    if step == STEPS && !was_complete {
        let locale = ortak_app::i18n::Locale::from_code(&user.language).unwrap_or_default();
        let link = format!("{}/startups", ctx.state().shared().public_url);
        let mail =
            crate::mail::Mail::action(&user.email, locale, &user.first_name, "welcome", &link);
        crate::mail::enqueue(&mut tx, &mail).await?;
    }
    tx.commit().await?;
    ctx.state().wake_mailer();
    Ok(Redirect::to(&step_path(step + 1)).into_response())
}

pub async fn done(ctx: Ctx) -> Result<Response, AppError> {
    let user = ctx.require(Role::Investor)?.clone();
    let (_, next) = load(&ctx, user.id).await?;
    if next <= STEPS {
        return Ok(Redirect::to(&step_path(next)).into_response());
    }
    let page = ctx.page_ctx(onboarding_done_page);
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// Where a newly verified investor goes: the onboarding step they are on.
pub async fn resume_path(db: &sqlx::SqlitePool, user_id: i64) -> Result<String, AppError> {
    let step: i64 = sqlx::query_scalar("SELECT onboarding_step FROM users WHERE id = ?")
        .bind(user_id)
        .fetch_one(db)
        .await?;
    Ok(if step > i64::from(STEPS) {
        "/".to_owned()
    } else {
        step_path(step as u8)
    })
}

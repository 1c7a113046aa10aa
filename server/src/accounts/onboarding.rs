//! Onboarding after the first sign-in (`/boardingFlow/1` to `5`): five steps, each saved on its
//! own, taken in order and resumable; finishing the last one mails a welcome.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::onboarding::{Answers, STEPS, validate_step};
use ortak_app::pages::onboarding::{onboarding_done_page, onboarding_page};
use serde::Deserialize;

use super::queries::onboarding::{self as queries, Progress};
use crate::error::AppError;
use crate::mail::{Mail, enqueue};
use crate::web::form::Form;
use crate::web::session::CurrentUser;
use crate::web::{Ctx, Member};

/// The user's answers so far, and the first step not yet saved (6 once all are).
async fn load(ctx: &Ctx, user_id: i64) -> Result<(Answers, u8), AppError> {
    let r = queries::answers(ctx.state().db(), user_id).await?;
    let answers = Answers {
        phone: r.phone,
        country: r.country,
        city: r.city,
        investor_type: r.investor_type,
        company_name: r.company_name,
        tax_office: r.tax_office,
        position: r.position,
        purpose: r.purpose,
        budget: r.budget,
        interests: r
            .interests
            .split(',')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        how_heard: r.how_heard,
        experience: r.experience,
        specific: r.specific,
        specific_startup: r.specific_startup,
    };
    Ok((answers, r.step.clamp(1, i64::from(STEPS) + 1) as u8))
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

/// `GET /boardingFlow/{step}`.
pub async fn step_form(
    ctx: Ctx,
    Member(user): Member,
    Path(step): Path<String>,
) -> Result<Response, AppError> {
    let step = parse_step(&step).ok_or(AppError::NotFound)?;
    let (answers, next) = load(&ctx, user.id).await?;
    if step > next {
        // Steps are taken in order; resume where the user left.
        return Ok(Redirect::to(&step_path(next)).into_response());
    }
    let page = ctx.page_ctx(|pc| onboarding_page(pc, step, &answers, &Default::default()));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// Every field of every step; a step reads only its own.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct StepForm {
    phone: String,
    country: String,
    city: String,
    investor_type: String,
    company_name: String,
    tax_office: String,
    position: String,
    purpose: String,
    budget: String,
    interests: Vec<String>,
    how_heard: String,
    experience: String,
    specific: String,
    specific_startup: String,
}

impl StepForm {
    /// Puts this step's fields into the answers.
    fn apply(self, step: u8, answers: &mut Answers) {
        match step {
            1 => {
                (answers.phone, answers.country, answers.city) =
                    (self.phone, self.country, self.city)
            }
            2 => {
                answers.investor_type = self.investor_type;
                answers.company_name = self.company_name;
                answers.tax_office = self.tax_office;
                answers.position = self.position;
            }
            3 => (answers.purpose, answers.budget) = (self.purpose, self.budget),
            4 => (answers.interests, answers.how_heard) = (self.interests, self.how_heard),
            _ => {
                answers.experience = self.experience;
                answers.specific = self.specific;
                answers.specific_startup = self.specific_startup;
            }
        }
    }
}

/// `POST /boardingFlow/{step}`: validates and saves the step, then goes to the next.
pub async fn save_step(
    ctx: Ctx,
    Member(user): Member,
    Path(step): Path<String>,
    Form(form): Form<StepForm>,
) -> Result<Response, AppError> {
    let step = parse_step(&step).ok_or(AppError::NotFound)?;
    let (mut answers, next) = load(&ctx, user.id).await?;
    if step > next {
        return Ok(Redirect::to(&step_path(next)).into_response());
    }
    form.apply(step, &mut answers);
    if let Err(errors) = validate_step(step, &mut answers) {
        let page = ctx.page_ctx(|pc| onboarding_page(pc, step, &answers, &errors));
        return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
    }
    store(&ctx, &user, step, next, &answers).await?;
    Ok(Redirect::to(&step_path(step + 1)).into_response())
}

/// Saves a valid step; finishing onboarding for the first time queues the welcome mail.
async fn store(
    ctx: &Ctx,
    user: &CurrentUser,
    step: u8,
    next: u8,
    answers: &Answers,
) -> Result<(), AppError> {
    let progress = Progress {
        saved: i64::from(step),
        furthest: i64::from(step.max(next - 1)),
        steps: i64::from(STEPS),
    };
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let was_complete = queries::completed(&mut tx, user.id).await?;
    queries::save(&mut tx, user.id, answers, progress, ctx.state().now()).await?;
    if step == STEPS && !was_complete {
        let link = format!("{}/startups", ctx.state().shared().public_url);
        let mail = Mail::action(&user.email, user.locale, &user.first_name, "welcome", &link);
        enqueue(&mut tx, &mail).await?;
    }
    tx.commit().await?;
    ctx.state().wake_mailer();
    Ok(())
}

/// `GET /boardingFlow/success` (until every step is saved, the step to take).
pub async fn done(ctx: Ctx, Member(user): Member) -> Result<Response, AppError> {
    let (_, next) = load(&ctx, user.id).await?;
    if next <= STEPS {
        return Ok(Redirect::to(&step_path(next)).into_response());
    }
    let page = ctx.page_ctx(onboarding_done_page);
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// Where a newly verified investor goes: the onboarding step they are on.
pub async fn resume_path(db: &sqlx::SqlitePool, user_id: i64) -> Result<String, AppError> {
    let step = queries::step(db, user_id).await?;
    Ok(if step > i64::from(STEPS) {
        "/".to_owned()
    } else {
        step_path(step as u8)
    })
}

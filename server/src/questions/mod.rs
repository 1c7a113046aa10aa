//! Questions to founders (issue 17): members ask on a startup's questions page, the startup's
//! founders (accounts staff invited by address, on the staff's startup page) or its fund's team
//! answer once, signed with their name and role, every member reads the thread, and staff hide
//! a question with a recorded reason. The asker and the members who saved the startup are told
//! of an answer (an optional mail, `answers`).

mod queries;

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::time_fmt::format_day;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::questions::{Answerer, QuestionItem, QuestionsView, Typed, questions_page};
use serde::Deserialize;

use crate::db::audit;
use crate::db::rate_limits::{self, Limit};
use crate::error::AppError;
use crate::notifications;
use crate::startups::{CardRow, published_card};
use crate::web::form::Form;
use crate::web::{Access, Ctx, Member, Routes, Staff, flash};

/// Questions one member may ask in an hour, over every startup.
const QUESTIONS_PER_HOUR: Limit = Limit {
    max: 5,
    window: 60 * 60,
};

pub fn routes() -> Vec<Routes> {
    let member = Routes::new(Access::Member)
        .get("/startups/{slug}/questions", page)
        .post("/startups/{slug}/questions", ask)
        .post("/startups/{slug}/questions/{id}/answer", answer);
    let staff = Routes::new(Access::Staff).post("/dashboard/questions/{id}/hide", hide);
    vec![member, staff]
}

/// The questions page of `card`, with what came back from a refused form.
async fn show(
    ctx: &Ctx,
    user: i64,
    staff: bool,
    card: CardRow,
    (status, typed, errors): (StatusCode, Typed, FieldErrors),
) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let thread = queries::thread(db, card.id, user, staff).await?;
    let items = thread
        .into_iter()
        .map(|q| QuestionItem {
            id: q.id,
            body: q.body,
            asked: format_day(q.asked_at, ctx.locale),
            answerer: match (&q.answer, q.answerer) {
                (Some(_), Some(name)) => Some(Answerer {
                    name,
                    founder: q.by_founder,
                    fund: q.fund,
                }),
                _ => None,
            },
            answer: q
                .answer
                .zip(q.answered_at.map(|at| format_day(at, ctx.locale))),
            hidden_reason: q.hidden_reason,
            mine: q.mine,
        })
        .collect();
    let team = queries::answers_for(db, user, card.id).await?;
    let view = QuestionsView {
        id: card.id,
        slug: card.slug,
        name: card.name,
        items,
        team,
        staff,
        typed,
        errors,
    };
    let page = ctx.page_ctx(|pc| questions_page(pc, &view));
    Ok(ctx.render(status, page).await)
}

/// `GET /startups/{slug}/questions`.
async fn page(
    ctx: Ctx,
    Member(user): Member,
    staff: Option<Staff>,
    Path(slug): Path<String>,
) -> Result<Response, AppError> {
    let card = published_card(&ctx, &slug).await?;
    let refused = (StatusCode::OK, Typed::Nothing, FieldErrors::default());
    show(&ctx, user.id, staff.is_some(), card, refused).await
}

/// Trims `text` and checks it against `max` characters; the message id when refused.
fn checked(text: &str, max: usize) -> Result<String, &'static str> {
    let text = text.replace("\r\n", "\n").trim().to_owned();
    if text.is_empty() {
        Err("validation-required")
    } else if text.chars().count() > max {
        Err("validation-too-long")
    } else {
        Ok(text)
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AskForm {
    question: String,
}

/// `POST /startups/{slug}/questions`.
async fn ask(
    ctx: Ctx,
    Member(user): Member,
    staff: Option<Staff>,
    Path(slug): Path<String>,
    Form(f): Form<AskForm>,
) -> Result<Response, AppError> {
    let card = published_card(&ctx, &slug).await?;
    let refuse = |status, message| {
        let mut errors = FieldErrors::default();
        errors.add("question", message);
        (status, Typed::Question(f.question.clone()), errors)
    };
    let body = match checked(&f.question, 1000) {
        Ok(body) => body,
        Err(message) => {
            let refused = refuse(StatusCode::UNPROCESSABLE_ENTITY, message);
            return show(&ctx, user.id, staff.is_some(), card, refused).await;
        }
    };
    let (db, now) = (ctx.state().db(), ctx.state().now());
    let key = format!("questions:user:{}", user.id);
    if rate_limits::attempt(db, now, &[(key, QUESTIONS_PER_HOUR)])
        .await?
        .is_some()
    {
        let refused = refuse(StatusCode::TOO_MANY_REQUESTS, "questions-too-many");
        return show(&ctx, user.id, staff.is_some(), card, refused).await;
    }
    let mut tx = crate::db::write(db).await?;
    queries::insert(&mut tx, card.id, user.id, &body, now).await?;
    tx.commit().await?;
    flash::success(&ctx, "questions-asked").await?;
    Ok(Redirect::to(&format!("/startups/{slug}/questions")).into_response())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AnswerForm {
    answer: String,
}

/// `POST /startups/{slug}/questions/{id}/answer`: only the startup's founders and fund team.
async fn answer(
    ctx: Ctx,
    Member(user): Member,
    staff: Option<Staff>,
    Path((slug, id)): Path<(String, i64)>,
    Form(f): Form<AnswerForm>,
) -> Result<Response, AppError> {
    let card = published_card(&ctx, &slug).await?;
    let db = ctx.state().db();
    if !queries::answers_for(db, user.id, card.id).await? {
        return Err(AppError::Forbidden);
    }
    let text = match checked(&f.answer, 2000) {
        Ok(text) => text,
        Err(message) => {
            let mut errors = FieldErrors::default();
            errors.add("answer", message);
            let refused = (
                StatusCode::UNPROCESSABLE_ENTITY,
                Typed::Answer(id, f.answer),
                errors,
            );
            return show(&ctx, user.id, staff.is_some(), card, refused).await;
        }
    };
    let now = ctx.state().now();
    let mut tx = crate::db::write(db).await?;
    let Some(open) = queries::answer(&mut tx, card.id, id, &text, user.id, now).await? else {
        tx.rollback().await?;
        let mut errors = FieldErrors::default();
        errors.add("answer", "questions-already");
        let refused = (StatusCode::CONFLICT, Typed::Answer(id, f.answer), errors);
        return show(&ctx, user.id, staff.is_some(), card, refused).await;
    };
    let (answerer, founder, fund) = queries::answerer(&mut tx, card.id, user.id).await?;
    let by = Answerer {
        name: answerer,
        founder,
        fund,
    };
    let public_url = &ctx.state().shared().public_url;
    let link = format!("{public_url}/startups/{slug}/questions#question-{id}");
    let answered = notifications::Answer {
        by: &by,
        startup: card.id,
        name: &card.name,
        link: &link,
        question: &open.body,
        text: &text,
        asker: open.asker,
        answerer: user.id,
    };
    notifications::question_answered(&mut tx, &answered).await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    flash::success(&ctx, "questions-answered").await?;
    Ok(Redirect::to(&format!("/startups/{slug}/questions#question-{id}")).into_response())
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct HideForm {
    reason: String,
}

/// `POST /dashboard/questions/{id}/hide`: staff hide a question with a reason (audited).
async fn hide(
    ctx: Ctx,
    staff: Staff,
    Path(id): Path<i64>,
    Form(f): Form<HideForm>,
) -> Result<Response, AppError> {
    let db = ctx.state().db();
    let slug = queries::slug_of_question(db, id)
        .await?
        .ok_or(AppError::NotFound)?;
    let reason = match checked(&f.reason, 200) {
        Ok(reason) => reason,
        Err(message) => {
            let card = published_card(&ctx, &slug).await?;
            let mut errors = FieldErrors::default();
            errors.add("reason", message);
            let refused = (
                StatusCode::UNPROCESSABLE_ENTITY,
                Typed::Hide(id, f.reason),
                errors,
            );
            return show(&ctx, staff.user.id, true, card, refused).await;
        }
    };
    let mut tx = crate::db::write(db).await?;
    if queries::hide(&mut tx, id, &reason, staff.user.id, ctx.state().now())
        .await?
        .is_some()
    {
        let subject = format!("question:{id}");
        audit::record(
            &mut tx,
            staff.user.id,
            "question.hide",
            &subject,
            None,
            Some(&reason),
        )
        .await?;
    }
    tx.commit().await?;
    flash::success(&ctx, "questions-hidden-done").await?;
    Ok(Redirect::to(&format!("/startups/{slug}/questions#question-{id}")).into_response())
}

//! `/projectFlow/1-4`: the startup application. The draft is kept step by step (see
//! [`super::draft`]), so the applicant can go back, leave and resume; the last step checks
//! every step again and sends the application to staff.

use std::collections::HashMap;

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::project::{STEPS, answer_shown, step_fields, validate_step};
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::Locale;
use ortak_app::pages::project::{Draft, project_done_page, project_page};
use serde::Deserialize;

use super::draft;
use super::intake::{Sender, acknowledge, screen};
use super::queries::{self, Answers};
use crate::error::AppError;
use crate::web::Ctx;
use crate::web::form::{Form, Upload, UploadedFile};
use crate::web::upload::Kept;

/// The first step's body: the 5 MB presentation and the form around it. A larger file is read
/// to the end and refused with a clear message; a body over this is cut off while reading.
pub const UPLOAD_BODY_LIMIT: usize = 6 * 1024 * 1024;

/// What a step posts: the honeypot, and its answers by field name. The domain's
/// `step_fields(step)` names the answers a step keeps; any other field is ignored.
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct StepPost {
    /// The honeypot: people never see it, so anything in it is a bot's.
    fax: String,
    #[serde(flatten)]
    fields: HashMap<String, String>,
}

impl StepPost {
    fn get(&self, key: &str) -> &str {
        self.fields.get(key).map_or("", String::as_str)
    }
}

/// An answer, or "" when the applicant has not given it.
fn answer<'a>(answers: &'a Answers, key: &str) -> &'a str {
    answers.get(key).map_or("", String::as_str)
}

fn step_path(step: i64) -> String {
    if step > i64::from(STEPS) {
        "/projectFlow/4".to_owned()
    } else {
        format!("/projectFlow/{step}")
    }
}

fn parse_step(step: &str) -> Result<u8, AppError> {
    step.parse::<u8>()
        .ok()
        .filter(|s| (1..=STEPS).contains(s))
        .ok_or(AppError::NotFound)
}

pub async fn first_form(ctx: Ctx) -> Result<Response, AppError> {
    show(ctx, 1).await
}

pub async fn step_form(ctx: Ctx, Path(step): Path<String>) -> Result<Response, AppError> {
    show(ctx, parse_step(&step)?).await
}

/// A step of the form; a step not yet reached sends the applicant to the first open one.
async fn show(ctx: Ctx, step: u8) -> Result<Response, AppError> {
    let row = draft::find(&ctx).await?;
    let next = row.as_ref().map_or(1, |r| r.next_step);
    if i64::from(step) > next {
        return Ok(Redirect::to(&step_path(next)).into_response());
    }
    let draft = draft::draft_of(row.as_ref())?;
    let page = ctx.page_ctx(|pc| project_page(pc, step, &draft, &FieldErrors::default(), None));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `POST /projectFlow/1`: the company step, with the presentation file.
pub async fn save_first(
    ctx: Ctx,
    Upload { fields, file }: Upload<StepPost>,
) -> Result<Response, AppError> {
    save(ctx, 1, fields, file).await
}

/// `POST /projectFlow/{2,3,4}`.
pub async fn save_step(
    ctx: Ctx,
    Path(step): Path<String>,
    Form(post): Form<StepPost>,
) -> Result<Response, AppError> {
    let step = parse_step(&step)?;
    if step == 1 {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    save(ctx, step, post, None).await
}

/// The last step is screened like every other form; on earlier ones a filled honeypot just
/// goes home.
async fn screen_step(
    ctx: &Ctx,
    step: u8,
    fax: &str,
    email: &str,
) -> Result<Option<Response>, AppError> {
    if step == STEPS {
        screen(ctx, fax, "application", email, "/projectFlow/4").await
    } else if !fax.is_empty() {
        Ok(Some(Redirect::to("/").into_response()))
    } else {
        Ok(None)
    }
}

/// The step again, with what needs correcting.
async fn refuse(ctx: &Ctx, step: u8, draft: &Draft, errors: &FieldErrors) -> Response {
    let page = ctx.page_ctx(|pc| project_page(pc, step, draft, errors, None));
    ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await
}

/// Saves `step`: its answers (and, on the first step, the presentation) go on the draft,
/// started now if there is none, and the next step opens. A refused step keeps nothing: no
/// draft is started, no file stored.
async fn save(
    ctx: Ctx,
    step: u8,
    post: StepPost,
    upload: Option<UploadedFile>,
) -> Result<Response, AppError> {
    let row = draft::find(&ctx).await?;
    let next = row.as_ref().map_or(1, |r| r.next_step);
    if i64::from(step) > next {
        return Ok(Redirect::to(&step_path(next)).into_response());
    }
    let mut draft = draft::draft_of(row.as_ref())?;
    // Browsers send line breaks as CRLF; keep LF so a line break counts as one character.
    for key in step_fields(step) {
        let value = post.get(&key).replace("\r\n", "\n");
        draft.answers.insert(key, value);
    }
    let email = answer(&draft.answers, "contact_email").to_owned();
    if let Some(stop) = screen_step(&ctx, step, &post.fax, &email).await? {
        return Ok(stop);
    }

    let mut errors = FieldErrors::default();
    let presentation = draft::check_presentation(upload, &mut errors).await?;
    let has_presentation = presentation.is_some() || draft.presentation.is_some();
    if errors.is_empty()
        && let Err(e) = validate_step(step, &mut draft.answers, has_presentation)
    {
        errors = e;
    }
    if !errors.is_empty() {
        return Ok(refuse(&ctx, step, &draft, &errors).await);
    }
    if row.is_none()
        && let Some(limited) = draft::new_draft_limited(&ctx).await?
    {
        return Ok(limited);
    }
    if let Some(p) = &presentation
        && let Some(limited) = draft::presentation_quota(&ctx, p).await?
    {
        return Ok(limited);
    }

    let locale = ctx.locale.code();
    let now = ctx.state().now();
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let (id, token) = match &row {
        Some(r) => (r.id, r.draft_token.clone()),
        None => {
            let token = draft::new_token();
            let user_id = ctx.user.as_ref().map(|u| u.id);
            let id = queries::start_draft(&mut tx, &token, user_id, locale, now).await?;
            (id, token)
        }
    };
    let mut kept = None;
    if let Some(presentation) = presentation {
        draft.presentation = Some(presentation.shown());
        kept = Some(draft::keep_presentation(&ctx, &mut tx, id, presentation).await?);
    }
    queries::save_answers(&mut tx, id, &draft.answers, step, locale, now).await?;
    if step < STEPS {
        tx.commit().await?;
        if let Some(kept) = kept {
            kept.committed();
        }
        let mut response = Redirect::to(&format!("/projectFlow/{}", step + 1)).into_response();
        draft::remember(&ctx, &mut response, &token);
        return Ok(response);
    }
    submit(&ctx, (tx, kept), id, draft, &email).await
}

/// The last step: every step must still hold (a draft could be older than a rule), then the
/// application goes to staff and the applicant is told by mail.
async fn submit(
    ctx: &Ctx,
    (mut tx, kept): (crate::db::WriteTx, Option<Kept>),
    id: i64,
    mut draft: Draft,
    email: &str,
) -> Result<Response, AppError> {
    for earlier in 1..STEPS {
        if let Err(errors) =
            validate_step(earlier, &mut draft.answers, draft.presentation.is_some())
        {
            tx.rollback().await?;
            return Ok(refuse(ctx, earlier, &draft, &errors).await);
        }
    }
    queries::submit(&mut tx, id, ctx.state().now()).await?;
    let a = &draft.answers;
    let founder = answer(a, "founder_1_name");
    let sought = answer_shown(
        "amount_sought_tl",
        answer(a, "amount_sought_tl"),
        Locale::Tr,
    );
    let lines = [
        ("Girişim", answer(a, "name")),
        ("Sektör", answer(a, "sector")),
        ("Şehir", answer(a, "city")),
        ("Kurucu", founder),
        ("E-posta", email),
        ("Aranan yatırım", sought.as_str()),
    ];
    let sender = Sender {
        kind: "application",
        email,
        name: founder,
        newsletter: false,
        lines: &lines,
    };
    acknowledge(ctx, &mut tx, sender).await?;
    tx.commit().await?;
    if let Some(kept) = kept {
        kept.committed();
    }
    ctx.state().wake_mailer();
    let mut response = Redirect::to("/projectFlow/done").into_response();
    draft::forget(ctx, &mut response);
    Ok(response)
}

/// `GET /projectFlow/done`: the thanks after sending, for the browser that just sent an
/// application; anyone else is sent to the form's first step.
pub async fn done(ctx: Ctx) -> Response {
    if !draft::just_sent(&ctx) {
        return Redirect::to("/projectFlow/1").into_response();
    }
    let page = ctx.page_ctx(project_done_page);
    ctx.render_private(StatusCode::OK, page).await
}

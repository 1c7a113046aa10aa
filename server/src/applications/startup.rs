//! `/projectFlow/1-4`: the startup application. The draft is kept step by step, on the account
//! for members and under a cookie for visitors, so the applicant can go back, leave and resume.

use axum::body::Bytes;
use axum::extract::{Multipart, Path};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use ortak_app::domain::project::{
    PRESENTATION_MAX_BYTES, STEPS, presentation_kind, step_fields, validate_step,
};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::project::{Draft, project_done_page, project_page};
use rand::RngCore;
use sqlx::FromRow;

use super::{Common, acknowledge, guard};
use crate::error::AppError;
use crate::web::Ctx;
use crate::web::form::{FormBody, Upload, read_multipart};

const COOKIE: &str = "ortak_draft";
/// Uploads up to this size are read whole and then refused with a clear message when over
/// the 5 MB limit; anything larger is cut off while reading.
pub const UPLOAD_BODY_LIMIT: usize = 16 * 1024 * 1024;

#[derive(FromRow)]
struct Row {
    id: i64,
    draft_token: String,
    answers: String,
    next_step: i64,
    presentation_name: Option<String>,
    presentation_size: Option<i64>,
}

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            pair.trim()
                .strip_prefix(&format!("{COOKIE}="))
                .map(str::to_owned)
        })
}

/// This applicant's open draft: the member's, or the one the browser's cookie names.
async fn find(ctx: &Ctx, headers: &HeaderMap) -> Result<Option<Row>, AppError> {
    let columns = "id, draft_token, answers, next_step, presentation_name, presentation_size";
    let db = ctx.state().db();
    let row = match (&ctx.user, cookie_token(headers)) {
        (Some(user), _) => {
            sqlx::query_as(&format!("SELECT {columns} FROM startup_applications WHERE user_id = ? AND status = 'draft' ORDER BY id DESC LIMIT 1"))
                .bind(user.id)
                .fetch_optional(db)
                .await?
        }
        (None, Some(token)) => {
            sqlx::query_as(&format!("SELECT {columns} FROM startup_applications WHERE draft_token = ? AND user_id IS NULL AND status = 'draft'"))
                .bind(token)
                .fetch_optional(db)
                .await?
        }
        (None, None) => None,
    };
    Ok(row)
}

fn draft_of(row: Option<&Row>) -> Draft {
    Draft {
        answers: row
            .and_then(|r| serde_json::from_str(&r.answers).ok())
            .unwrap_or_default(),
        presentation: row.and_then(|r| {
            Some((
                r.presentation_name.clone()?,
                r.presentation_size.unwrap_or(0),
            ))
        }),
    }
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

pub async fn first_form(ctx: Ctx, headers: HeaderMap) -> Result<Response, AppError> {
    show(ctx, 1, headers).await
}

pub async fn step_form(
    ctx: Ctx,
    Path(step): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    show(ctx, parse_step(&step)?, headers).await
}

async fn show(ctx: Ctx, step: u8, headers: HeaderMap) -> Result<Response, AppError> {
    let row = find(&ctx, &headers).await?;
    let next = row.as_ref().map(|r| r.next_step).unwrap_or(1);
    if i64::from(step) > next {
        return Ok(Redirect::to(&step_path(next)).into_response());
    }
    let draft = draft_of(row.as_ref());
    let page = ctx.page_ctx(|pc| project_page(pc, step, &draft, &FieldErrors::default(), None));
    Ok(ctx.render(StatusCode::OK, page).await)
}

/// `POST /projectFlow/1`: the company step, with the presentation file.
pub async fn save_first(
    ctx: Ctx,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, AppError> {
    let (fields, upload) = read_multipart(&mut multipart, "presentation").await?;
    save(ctx, headers, 1, fields, upload).await
}

/// `POST /projectFlow/{2,3,4}`.
pub async fn save_step(
    ctx: Ctx,
    Path(step): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let step = parse_step(&step)?;
    if step == 1 {
        return Err(AppError::BadRequest("bad-request-text"));
    }
    save(ctx, headers, step, FormBody::parse(&body), None).await
}

fn random_token() -> String {
    let mut bytes = [0u8; 24];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

async fn save(
    ctx: Ctx,
    headers: HeaderMap,
    step: u8,
    posted: FormBody,
    upload: Option<Upload>,
) -> Result<Response, AppError> {
    let get = |k: &str| posted.get(k);
    let common = Common {
        csrf: get("csrf"),
        fax: get("fax"),
        newsletter: None,
    };
    let row = find(&ctx, &headers).await?;
    let next = row.as_ref().map(|r| r.next_step).unwrap_or(1);
    if i64::from(step) > next {
        return Ok(Redirect::to(&step_path(next)).into_response());
    }
    let mut draft = draft_of(row.as_ref());
    // Browsers send line breaks as CRLF; keep LF so a line break counts as one character.
    for key in step_fields(step) {
        draft
            .answers
            .insert(key.clone(), get(&key).replace("\r\n", "\n"));
    }
    let email = draft
        .answers
        .get("contact_email")
        .cloned()
        .unwrap_or_default();
    if step == STEPS {
        if let Some(stop) = guard(
            &ctx,
            &headers,
            &common,
            "application",
            &email,
            "/projectFlow/4",
        )
        .await?
        {
            return Ok(stop);
        }
    } else {
        ctx.verify_csrf(&common.csrf, &headers)?;
        if !common.fax.is_empty() {
            return Ok(Redirect::to("/").into_response());
        }
    }

    // A presentation is checked by its bytes and size before anything is kept.
    let mut errors = FieldErrors::default();
    let mut stored_file = None;
    if let Some(upload) = upload {
        match upload.bytes {
            Err(()) => errors.add("presentation", "validation-presentation-size"),
            Ok(bytes) if bytes.len() > PRESENTATION_MAX_BYTES => {
                errors.add("presentation", "validation-presentation-size")
            }
            Ok(bytes) => match presentation_kind(&bytes) {
                None => errors.add("presentation", "validation-presentation-type"),
                Some(ext) => {
                    let dir = ctx.state().shared().data_dir.join("applications");
                    tokio::fs::create_dir_all(&dir)
                        .await
                        .map_err(anyhow::Error::from)?;
                    let file = format!("{}.{ext}", random_token());
                    tokio::fs::write(dir.join(&file), &bytes)
                        .await
                        .map_err(anyhow::Error::from)?;
                    let name: String = upload
                        .name
                        .chars()
                        .filter(|c| !c.is_control())
                        .take(200)
                        .collect();
                    let name = if name.is_empty() {
                        format!("presentation.{ext}")
                    } else {
                        name
                    };
                    draft.presentation = Some((name.clone(), bytes.len() as i64));
                    stored_file = Some((file, name, bytes.len() as i64));
                }
            },
        }
    }
    if errors.is_empty()
        && let Err(e) = validate_step(step, &mut draft.answers, draft.presentation.is_some())
    {
        errors = e;
    }

    if !errors.is_empty() && row.is_none() && stored_file.is_none() {
        // Nothing worth keeping: a refused first step starts no draft.
        let page = ctx.page_ctx(|pc| project_page(pc, step, &draft, &errors, None));
        return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
    }
    let db = ctx.state().db();
    let mut tx = db.begin().await?;
    let (id, token) = match &row {
        Some(r) => (r.id, r.draft_token.clone()),
        None => {
            let token = random_token();
            let id: i64 = sqlx::query_scalar("INSERT INTO startup_applications (draft_token, user_id, language) VALUES (?, ?, ?) RETURNING id")
                .bind(&token)
                .bind(ctx.user.as_ref().map(|u| u.id))
                .bind(ctx.locale.code())
                .fetch_one(&mut *tx)
                .await?;
            (id, token)
        }
    };
    // A good presentation is kept even when other fields need correcting.
    if let Some((file, name, size)) = &stored_file {
        let old: Option<String> =
            sqlx::query_scalar("SELECT presentation_file FROM startup_applications WHERE id = ?")
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
        sqlx::query("UPDATE startup_applications SET presentation_file = ?, presentation_name = ?, presentation_size = ? WHERE id = ?")
            .bind(file)
            .bind(name)
            .bind(size)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if let Some(old) = old {
            let _ = tokio::fs::remove_file(
                ctx.state().shared().data_dir.join("applications").join(old),
            )
            .await;
        }
    }
    if !errors.is_empty() {
        tx.commit().await?;
        let page = ctx.page_ctx(|pc| project_page(pc, step, &draft, &errors, None));
        let mut response = ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await;
        set_cookie(&ctx, &mut response, &token);
        return Ok(response);
    }
    sqlx::query(
        "UPDATE startup_applications SET answers = ?, next_step = MAX(next_step, ?), language = ?,
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
    )
    .bind(serde_json::to_string(&draft.answers).map_err(anyhow::Error::from)?)
    .bind(i64::from(step) + 1)
    .bind(ctx.locale.code())
    .bind(id)
    .execute(&mut *tx)
    .await?;
    if step < STEPS {
        tx.commit().await?;
        let mut response = Redirect::to(&format!("/projectFlow/{}", step + 1)).into_response();
        set_cookie(&ctx, &mut response, &token);
        return Ok(response);
    }
    // The last step: every step must still hold (a draft could be older than a rule).
    for earlier in 1..STEPS {
        if let Err(errors) =
            validate_step(earlier, &mut draft.answers, draft.presentation.is_some())
        {
            tx.rollback().await?;
            let page = ctx.page_ctx(|pc| project_page(pc, earlier, &draft, &errors, None));
            return Ok(ctx.render(StatusCode::UNPROCESSABLE_ENTITY, page).await);
        }
    }
    sqlx::query("UPDATE startup_applications SET status = 'new', submitted_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let a = &draft.answers;
    let name = a.get("name").cloned().unwrap_or_default();
    let founder = a.get("founder_1_name").cloned().unwrap_or_default();
    let lines = [
        ("Girişim", name.as_str()),
        ("Sektör", a.get("sector").map(String::as_str).unwrap_or("")),
        ("Şehir", a.get("city").map(String::as_str).unwrap_or("")),
        ("Kurucu", &founder),
        ("E-posta", &email),
        (
            "Aranan yatırım (USD)",
            a.get("amount_sought_usd").map(String::as_str).unwrap_or(""),
        ),
    ];
    acknowledge(
        &ctx,
        &mut tx,
        "application",
        &email,
        &founder,
        false,
        &lines,
    )
    .await?;
    tx.commit().await?;
    ctx.state().wake_mailer();
    let mut response = Redirect::to("/projectFlow/done").into_response();
    response.headers_mut().append(
        header::SET_COOKIE,
        HeaderValue::from_str(&format!(
            "{COOKIE}=; Path=/projectFlow; Max-Age=0; HttpOnly; SameSite=Lax"
        ))
        .unwrap(),
    );
    Ok(response)
}

/// Visitors' drafts are found again by this cookie for 30 days.
fn set_cookie(ctx: &Ctx, response: &mut Response, token: &str) {
    if ctx.user.is_none() {
        let secure = if ctx.state().shared().secure_cookies {
            "; Secure"
        } else {
            ""
        };
        let value = format!(
            "{COOKIE}={token}; Path=/projectFlow; Max-Age=2592000; HttpOnly; SameSite=Lax{secure}"
        );
        response
            .headers_mut()
            .append(header::SET_COOKIE, HeaderValue::from_str(&value).unwrap());
    }
}

pub async fn done(ctx: Ctx) -> Response {
    let page = ctx.page_ctx(project_done_page);
    ctx.render(StatusCode::OK, page).await
}

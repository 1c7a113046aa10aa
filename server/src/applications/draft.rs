//! The startup application's draft between requests: found again on the member's account or,
//! for visitors, by the random token in the `ortak_draft` cookie (30 days, only sent to
//! `/projectFlow`); and the presentation file kept with it, checked by its bytes and size
//! before anything is stored.

use axum::http::HeaderMap;
use axum::response::Response;
use axum_extra::extract::cookie::Cookie;
use ortak_app::domain::project::{PRESENTATION_MAX_BYTES, presentation_kind};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::project::Draft;
use rand::RngCore;
use sqlx::SqliteConnection;

use super::queries::{self, StoredDraft};
use crate::error::AppError;
use crate::web::form::Upload;
use crate::web::{Ctx, cookies, files};

const COOKIE: &str = "ortak_draft";
const COOKIE_PATH: &str = "/projectFlow";
const COOKIE_MAX_AGE: time::Duration = time::Duration::days(30);
/// Where presentations are kept, under the data folder.
const FOLDER: &str = "applications";

/// This applicant's open draft: the member's, or the one the browser's cookie names.
pub async fn find(ctx: &Ctx, headers: &HeaderMap) -> Result<Option<StoredDraft>, AppError> {
    let db = ctx.state().db();
    let row = match (&ctx.user, cookies::get(headers, COOKIE)) {
        (Some(user), _) => queries::member_draft(db, user.id).await?,
        (None, Some(token)) => queries::visitor_draft(db, &token).await?,
        (None, None) => None,
    };
    Ok(row)
}

/// The draft as the form shows it (empty before the first save).
pub fn draft_of(row: Option<&StoredDraft>) -> Result<Draft, AppError> {
    Ok(match row {
        Some(row) => Draft {
            answers: row.answers()?,
            presentation: row.presentation(),
        },
        None => Draft {
            answers: queries::Answers::new(),
            presentation: None,
        },
    })
}

/// A new draft's token: 24 random bytes in hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 24];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn cookie(value: String, max_age: time::Duration, ctx: &Ctx) -> Cookie<'static> {
    let secure = ctx.state().shared().secure_cookies;
    let mut cookie = cookies::build(COOKIE, value, Some(max_age), secure);
    cookie.set_path(COOKIE_PATH);
    cookie
}

/// Lets a visitor's browser find the draft `token` again (members' drafts are on the account).
pub fn remember(ctx: &Ctx, response: &mut Response, token: &str) {
    if ctx.user.is_none() {
        cookies::set(
            response.headers_mut(),
            cookie(token.to_owned(), COOKIE_MAX_AGE, ctx),
        );
    }
}

/// Drops the cookie of a draft that was sent.
pub fn forget(ctx: &Ctx, response: &mut Response) {
    cookies::set(
        response.headers_mut(),
        cookie(String::new(), time::Duration::ZERO, ctx),
    );
}

/// A presentation stored under its random file name, not yet recorded on the draft.
pub struct StoredFile {
    file: String,
    name: String,
    size: i64,
}

/// Checks an uploaded presentation and stores it when good; a refusal is added to `errors`.
/// A good one shows on the draft at once, even when other fields need correcting.
pub async fn take_presentation(
    ctx: &Ctx,
    upload: Option<Upload>,
    draft: &mut Draft,
    errors: &mut FieldErrors,
) -> Result<Option<StoredFile>, AppError> {
    let Some(upload) = upload else {
        return Ok(None);
    };
    let bytes = match upload.bytes {
        Ok(bytes) if bytes.len() <= PRESENTATION_MAX_BYTES => bytes,
        // Over the limit, or cut off while reading because it was far over.
        _ => {
            errors.add("presentation", "validation-presentation-size");
            return Ok(None);
        }
    };
    let Some(ext) = presentation_kind(&bytes) else {
        errors.add("presentation", "validation-presentation-type");
        return Ok(None);
    };
    let file = files::random_name(ext);
    files::write(&ctx.state().shared().data_dir, FOLDER, &file, &bytes).await?;
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
    let size = bytes.len() as i64;
    draft.presentation = Some((name.clone(), size));
    Ok(Some(StoredFile { file, name, size }))
}

/// Records `stored` on draft `id` and deletes the file it replaces.
pub async fn keep_presentation(
    ctx: &Ctx,
    conn: &mut SqliteConnection,
    id: i64,
    stored: &StoredFile,
) -> Result<(), AppError> {
    let old =
        queries::replace_presentation(conn, id, &stored.file, &stored.name, stored.size).await?;
    if let Some(old) = old {
        let folder = ctx.state().shared().data_dir.join(FOLDER);
        // A file left behind is harmless: nothing names it any more.
        let _ = tokio::fs::remove_file(folder.join(old)).await;
    }
    Ok(())
}

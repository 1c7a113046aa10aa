//! The startup application's draft between requests: found again on the member's account or,
//! for visitors, by the random token in the `ortak_draft` cookie (30 days, only sent to
//! `/projectFlow`); and the presentation file kept with it, checked by its bytes and size,
//! stored only once its step passes, one per draft. Drafts untouched for 30 days are purged
//! with their files by a job.

use axum::response::Response;
use axum_extra::extract::cookie::Cookie;
use ortak_app::domain::project::{PRESENTATION_MAX_BYTES, presentation_kind};
use ortak_app::forms::FieldErrors;
use ortak_app::pages::project::Draft;
use rand::RngCore;
use sqlx::SqliteConnection;

use super::queries::{self, StoredDraft};
use crate::db::rate_limits::{self as rate_limit, Limit};
use crate::error::AppError;
use crate::state::AppState;
use crate::web::form::{UploadForm, UploadedFile};
use crate::web::upload::Kept;
use crate::web::{Ctx, cookies, files};

const COOKIE: &str = "ortak_draft";
const COOKIE_PATH: &str = "/projectFlow";
const COOKIE_MAX_AGE: time::Duration = time::Duration::days(30);
/// Set when an application is sent: `/projectFlow/done` thanks only the browser that sent one.
const SENT: &str = "ortak_sent";
const SENT_MAX_AGE: time::Duration = time::Duration::minutes(30);
/// A draft nobody saved for this long is deleted with its file (as long as the cookie lives).
pub const STALE_AFTER: time::Duration = time::Duration::days(30);
/// Where presentations are kept, under the data folder.
const FOLDER: &str = "applications";

/// This applicant's open draft: the member's, or the one the browser's cookie names.
pub async fn find(ctx: &Ctx) -> Result<Option<StoredDraft>, AppError> {
    let db = ctx.state().db();
    let row = match (&ctx.user, cookies::get(&ctx.cookies, COOKIE)) {
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

/// Drops the cookie of a draft that was sent, and marks the browser as having just sent one,
/// for `/projectFlow/done` (which shows nothing to anyone else).
pub fn forget(ctx: &Ctx, response: &mut Response) {
    cookies::set(
        response.headers_mut(),
        cookie(String::new(), time::Duration::ZERO, ctx),
    );
    let secure = ctx.state().shared().secure_cookies;
    let mut sent = cookies::build(SENT, "1".into(), Some(SENT_MAX_AGE), secure);
    sent.set_path(COOKIE_PATH);
    cookies::set(response.headers_mut(), sent);
}

/// Whether this browser sent an application in the last minutes.
pub fn just_sent(ctx: &Ctx) -> bool {
    cookies::get(&ctx.cookies, SENT).is_some_and(|v| v == "1")
}

/// The startup application's first step: its answers by field name (the domain's
/// `step_fields(1)` names those it keeps) and the presentation file.
impl UploadForm for super::startup::StepPost {
    const FILE_FIELD: &'static str = "presentation";
    const MAX_FILE_BYTES: u64 = PRESENTATION_MAX_BYTES as u64;
}

/// A PPTX is a ZIP with a `ppt/` entry among its first megabyte.
const PPTX_SCAN_BYTES: u64 = 1 << 20;

/// A presentation that passed its checks, not yet stored.
pub struct Presentation {
    file: UploadedFile,
    ext: &'static str,
}

impl Presentation {
    /// The name and size the draft shows.
    pub fn shown(&self) -> (String, i64) {
        let name = if self.file.name.is_empty() {
            format!("presentation.{}", self.ext)
        } else {
            self.file.name.clone()
        };
        (name, self.file.size as i64)
    }
}

/// Checks an uploaded presentation by its size and first bytes; a refusal is added to
/// `errors`. Nothing is stored here: only a step that passes keeps its file.
pub async fn check_presentation(
    file: Option<UploadedFile>,
    errors: &mut FieldErrors,
) -> Result<Option<Presentation>, AppError> {
    let Some(file) = file else {
        return Ok(None);
    };
    if file.too_large() {
        // Over the limit, or cut off while reading because it was far over.
        errors.add("presentation", "validation-presentation-size");
        return Ok(None);
    }
    let ext = match presentation_kind(&file.head) {
        Some(ext) => Some(ext),
        None if file.head.starts_with(b"PK\x03\x04")
            && file.contains_within(b"ppt/", PPTX_SCAN_BYTES).await? =>
        {
            Some("pptx")
        }
        None => None,
    };
    let Some(ext) = ext else {
        errors.add("presentation", "validation-presentation-type");
        return Ok(None);
    };
    Ok(Some(Presentation { file, ext }))
}

/// Stores `presentation` on draft `id` (one file per draft: the one it replaces is deleted);
/// the file goes again unless the caller's transaction commits (`Kept::committed`).
pub async fn keep_presentation(
    ctx: &Ctx,
    conn: &mut SqliteConnection,
    id: i64,
    presentation: Presentation,
) -> Result<Kept, AppError> {
    let (name, size) = presentation.shown();
    let file = files::random_name(presentation.ext);
    let data_dir = &ctx.state().shared().data_dir;
    let kept = presentation.file.keep(data_dir, FOLDER, &file).await?;
    let now = ctx.state().now();
    let old = queries::replace_presentation(conn, id, &file, &name, size, now).await?;
    if let Some(old) = old {
        // A file left behind is harmless: nothing names it any more.
        let _ = tokio::fs::remove_file(data_dir.join(FOLDER).join(old)).await;
    }
    Ok(kept)
}

/// Presentation bytes kept per client address a day: ten presentations of the largest size.
const PRESENTATION_BYTES_PER_IP: Limit = Limit {
    max: 50 * 1024 * 1024,
    window: 24 * 60 * 60,
};
/// Presentation bytes kept from everyone a day: what the site as a whole takes in.
const PRESENTATION_BYTES_ALL: Limit = Limit {
    max: 1024 * 1024 * 1024,
    window: 24 * 60 * 60,
};

/// Counts a presentation's bytes against the client's and everyone's daily quotas (before
/// anything is kept); the 429 page when either is used up. Before the quotas, one address
/// could keep about 1.2 GB a day of drafts' files (issue 26, item 10).
pub async fn presentation_quota(
    ctx: &Ctx,
    presentation: &Presentation,
) -> Result<Option<Response>, AppError> {
    let bytes = presentation.file.size as i64;
    let now = ctx.state().now();
    let db = ctx.state().db();
    let keys = [
        (
            format!("presentation-bytes:ip:{}", ctx.ip),
            PRESENTATION_BYTES_PER_IP,
        ),
        ("presentation-bytes:all".to_owned(), PRESENTATION_BYTES_ALL),
    ];
    for (key, quota) in keys {
        if let Err(minutes) = rate_limit::spend(db, now, &key, quota, bytes).await? {
            tracing::warn!(ip = %ctx.ip, key, "presentation quota used up");
            return Ok(Some(super::intake::too_many(ctx, minutes).await));
        }
    }
    Ok(None)
}

/// Ten new drafts an hour per client address: each may carry a 5 MB file.
const NEW_DRAFTS_PER_IP: Limit = Limit {
    max: 10,
    window: 60 * 60,
};

/// Counts a new draft for the client's address; the 429 page when over the limit.
pub async fn new_draft_limited(ctx: &Ctx) -> Result<Option<Response>, AppError> {
    let key = format!("application-draft:ip:{}", ctx.ip);
    let now = ctx.state().now();
    match rate_limit::hit(ctx.state().db(), now, &key, NEW_DRAFTS_PER_IP).await? {
        Ok(()) => Ok(None),
        Err(minutes) => {
            tracing::warn!(ip = %ctx.ip, "new application drafts rate limited");
            Ok(Some(super::intake::too_many(ctx, minutes).await))
        }
    }
}

/// Deletes drafts untouched for [`STALE_AFTER`] with their presentation files (the daily
/// `application-drafts` job; each run finds its work again, so a crash loses nothing).
pub async fn purge_stale(state: &AppState) -> anyhow::Result<()> {
    let cutoff = state.now() - STALE_AFTER;
    let files = queries::delete_stale_drafts(state.db(), cutoff).await?;
    let folder = state.shared().data_dir.join(FOLDER);
    for file in files.iter().flatten() {
        let _ = tokio::fs::remove_file(folder.join(file)).await;
    }
    if !files.is_empty() {
        tracing::info!(drafts = files.len(), "stale application drafts purged");
    }
    Ok(())
}

//! Round documents as members open them (`/startups/{slug}/documents/{id}`): PDFs staff attach
//! to the round. Opening one is recorded: a request needs the current information form opened
//! (`investing::requests`), and the member's documents list what they opened.

use axum::extract::Path;
use axum::response::Response;

use super::cards::find_card;
use super::queries::documents as queries;
use crate::error::AppError;
use crate::web::{Ctx, Member, Staff};

pub use queries::{information_form, insert, vault};

/// Round documents (PDF) may be at most this large.
pub const DOCUMENT_MAX_BYTES: usize = 10 * 1024 * 1024;

/// Where round documents are stored, under the data folder.
pub const FOLDER: &str = "round-documents";

/// `GET /startups/{slug}/documents/{id}`: any version of the startup's documents, for members.
pub async fn open(
    ctx: Ctx,
    Member(user): Member,
    staff: Option<Staff>,
    Path((slug, id)): Path<(String, i64)>,
) -> Result<Response, AppError> {
    let row = find_card(&ctx, staff.as_ref(), &slug).await?;
    let db = ctx.state().db();
    let document = queries::one(db, row.id, id, staff.is_some())
        .await?
        .ok_or(AppError::NotFound)?;
    queries::opened(db, user.id, document.id, ctx.state().now()).await?;
    let path = ctx
        .state()
        .shared()
        .data_dir
        .join(FOLDER)
        .join(&document.file_name);
    crate::web::files::serve(&path, "application/pdf").await
}

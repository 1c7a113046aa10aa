//! `POST /dashboard/startups/{id}/documents/{kind}`: staff attach a round document (a PDF): the
//! information form, the shareholder agreement or a side letter. Each upload is a new version;
//! a refused one shows the editor again with its error under that kind's form. An information
//! form (the signed copy of the one the committee's approval generated) belongs to the approved
//! campaign version, so a campaign without one takes none.

use axum::extract::Path;
use axum::response::Response;
use ortak_app::domain::round_documents::DocumentKind;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::startup_editor::ReportForm;
use serde::Deserialize;

use super::editor::refuse;
use crate::db::audit;
use crate::error::AppError;
use crate::investing::reconfirmation;
use crate::staff::queries::startup_pages::startup_exists;
use crate::startups::documents::{DOCUMENT_MAX_BYTES, FOLDER};
use crate::web::flash::done;
use crate::web::form::{Upload, UploadForm, UploadedFile};
use crate::web::{Ctx, Staff};

#[derive(Deserialize, Default)]
pub struct DocumentForm {}

impl UploadForm for DocumentForm {
    const FILE_FIELD: &'static str = "document";
    const MAX_FILE_BYTES: u64 = DOCUMENT_MAX_BYTES as u64;
}

fn checked(file: Option<UploadedFile>) -> Result<UploadedFile, &'static str> {
    match file {
        None => Err("validation-required"),
        Some(f) if f.too_large() => Err("validation-document-size"),
        Some(f) if f.head.starts_with(b"%PDF-") => Ok(f),
        Some(_) => Err("validation-document-pdf"),
    }
}

pub async fn upload(
    ctx: Ctx,
    Staff { user, .. }: Staff,
    Path((id, kind)): Path<(i64, String)>,
    Upload { file, .. }: Upload<DocumentForm>,
) -> Result<Response, AppError> {
    let kind = DocumentKind::from_code(&kind).ok_or(AppError::NotFound)?;
    let file = match checked(file) {
        Ok(file) => file,
        Err(message) => {
            let mut errors = FieldErrors::default();
            errors.add(kind.field(), message);
            return refuse(&ctx, id, &errors, ReportForm::default()).await;
        }
    };
    let name = crate::web::files::random_name("pdf");
    let mut tx = crate::db::write(ctx.state().db()).await?;
    if !startup_exists(&mut tx, id).await? {
        return Err(AppError::NotFound);
    }
    // A signed information form replaces the approved campaign's: there must be one.
    let approved = crate::campaigns::queries::startup(&mut tx, id)
        .await?
        .and_then(|s| s.approved_version_id);
    if kind == DocumentKind::InformationForm && approved.is_none() {
        drop(tx);
        let mut errors = FieldErrors::default();
        errors.add(kind.field(), "round-document-needs-approval");
        return refuse(&ctx, id, &errors, ReportForm::default()).await;
    }
    let terms = reconfirmation::terms(&mut tx, id).await?;
    let kept = file
        .keep(&ctx.state().shared().data_dir, FOLDER, &name)
        .await?;
    let now = ctx.state().now();
    let document =
        crate::startups::documents::insert(&mut tx, id, kind.code(), &name, user.id, now).await?;
    let after = format!("{} #{document}", kind.code());
    let subject = format!("startup:{id}");
    audit::record(
        &mut tx,
        user.id,
        "round.document.add",
        &subject,
        None,
        Some(&after),
    )
    .await?;
    // A new information form is a material change to a live round.
    reconfirmation::after_change(&mut tx, ctx.state(), id, terms, user.id).await?;
    tx.commit().await?;
    kept.committed();
    ctx.state().wake_mailer();
    done(&ctx, &format!("/dashboard/startups/{id}")).await
}

//! Quarterly reports: checked uploads (PDF, at most 10 MB) that staff and fund teams attach to
//! a startup, stored under random names. Both upload forms (`staff::startups` and `fund`) use
//! these, so the rules live once, with the startup they belong to.

use axum::body::Bytes;
use axum::extract::Multipart;
use ortak_app::forms::FieldErrors;
use ortak_app::pages::startup_editor::ReportForm;

use super::queries;
use crate::db::audit;
use crate::error::AppError;
use crate::web::Ctx;
use crate::web::form::{FormBody, read_multipart};

/// Quarterly report PDFs.
pub const REPORT_MAX_BYTES: usize = 10 * 1024 * 1024;

/// A checked report upload, or the form back with its errors.
pub async fn read_report(multipart: &mut Multipart) -> Result<CheckedReport, AppError> {
    let (f, upload) = read_multipart(multipart, "file").await?;
    let form = ReportForm {
        quarter: f.get("quarter").trim().to_owned(),
        title_tr: f.get("report_title_tr").trim().to_owned(),
        title_en: f.get("report_title_en").trim().to_owned(),
        summary_tr: f.get("report_summary_tr").trim().to_owned(),
        summary_en: f.get("report_summary_en").trim().to_owned(),
    };
    let mut errors = FieldErrors::default();
    for (field, value) in [
        ("quarter", &form.quarter),
        ("report_title_tr", &form.title_tr),
        ("report_title_en", &form.title_en),
        ("report_summary_tr", &form.summary_tr),
        ("report_summary_en", &form.summary_en),
    ] {
        if value.is_empty() {
            errors.add(field, "validation-required");
        } else if value.chars().count() > 1000 {
            errors.add(field, "validation-too-long");
        }
    }
    let bytes = match upload.map(|u| u.bytes) {
        None => {
            errors.add("file", "validation-required");
            None
        }
        Some(Ok(b)) if b.len() <= REPORT_MAX_BYTES && b.starts_with(b"%PDF-") => Some(b),
        Some(Ok(b)) if b.len() <= REPORT_MAX_BYTES => {
            errors.add("file", "validation-report-pdf");
            None
        }
        Some(_) => {
            errors.add("file", "validation-report-size");
            None
        }
    };
    Ok(match bytes {
        Some(b) if errors.is_empty() => (f, Ok((form, b))),
        _ => (f, Err((form, errors))),
    })
}

/// The report form's fields, and the report ready to store or the form back with its errors.
pub type CheckedReport = (
    FormBody,
    Result<(ReportForm, Bytes), (ReportForm, FieldErrors)>,
);

/// Stores a checked report for `startup` and audits it.
pub async fn store_report(
    ctx: &Ctx,
    actor: i64,
    startup: i64,
    form: &ReportForm,
    bytes: &[u8],
) -> Result<(), AppError> {
    let name = crate::web::files::random_name("pdf");
    let mut tx = ctx.state().db().begin().await?;
    if !queries::startup_exists(&mut tx, startup).await? {
        return Err(AppError::NotFound);
    }
    crate::web::files::write(&ctx.state().shared().data_dir, "reports", &name, bytes).await?;
    let id = queries::insert_report(&mut tx, startup, form, &name).await?;
    audit::record(
        &mut tx,
        actor,
        "report.add",
        &format!("startup:{startup}"),
        None,
        Some(&format!("report:{id} {} {}", form.quarter, form.title_tr)),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

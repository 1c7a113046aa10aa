//! Quarterly reports: checked uploads (PDF, at most 10 MB) that staff and fund teams attach to
//! a startup, stored under random names, and the reports funded startups owe ([`overdue`]).
//! Both upload forms (`staff::startups` and `fund`) use these, so the rules live once, with the
//! startup they belong to.

use ortak_app::domain::quarters::{self, Quarter};
use ortak_app::domain::time_fmt::istanbul_date;
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::Locale;
use ortak_app::pages::reports::Overdue;
use ortak_app::pages::startup_editor::ReportForm;
use serde::Deserialize;

use super::queries;
use crate::db::audit;
use crate::error::AppError;
use crate::web::Ctx;
use crate::web::form::{Upload, UploadForm, UploadedFile};

/// Quarterly report PDFs.
pub const REPORT_MAX_BYTES: usize = 10 * 1024 * 1024;

/// The report form's text fields (the PDF is its `file`).
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct ReportPost {
    quarter: String,
    report_title_tr: String,
    report_title_en: String,
    report_summary_tr: String,
    report_summary_en: String,
}

impl UploadForm for ReportPost {
    const FILE_FIELD: &'static str = "file";
    const MAX_FILE_BYTES: u64 = REPORT_MAX_BYTES as u64;
}

/// A posted report after its checks.
pub enum CheckedReport {
    /// Ready to store.
    Good(ReportForm, UploadedFile),
    /// The form back with its errors.
    Refused(ReportForm, FieldErrors),
}

/// Checks a posted report: every field, and the file a PDF within the limit.
pub fn check_report(upload: Upload<ReportPost>) -> CheckedReport {
    let f = upload.fields;
    let form = ReportForm {
        quarter: f.quarter.trim().to_owned(),
        title_tr: f.report_title_tr.trim().to_owned(),
        title_en: f.report_title_en.trim().to_owned(),
        summary_tr: f.report_summary_tr.trim().to_owned(),
        summary_en: f.report_summary_en.trim().to_owned(),
    };
    let mut errors = FieldErrors::default();
    let quarter = Quarter::parse(&form.quarter);
    if quarter.is_none() && !form.quarter.is_empty() {
        errors.add("quarter", "validation-quarter");
    }
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
    let file = match upload.file {
        None => {
            errors.add("file", "validation-required");
            None
        }
        Some(f) if f.too_large() => {
            errors.add("file", "validation-report-size");
            None
        }
        Some(f) if f.head.starts_with(b"%PDF-") => Some(f),
        Some(_) => {
            errors.add("file", "validation-report-pdf");
            None
        }
    };
    match (file, quarter) {
        // Stored as `2026-Q3`, whatever was typed, so due reports can be matched.
        (Some(file), Some(quarter)) if errors.is_empty() => {
            let quarter = quarter.code();
            CheckedReport::Good(ReportForm { quarter, ..form }, file)
        }
        _ => CheckedReport::Refused(form, errors),
    }
}

/// The reports funded startups owe on `today`: all of them for staff (`viewer` `None`), or
/// those of the startups `viewer` works for or invested in. A startup owes one for every full
/// quarter after its round closed, by the end of the month after the quarter.
pub async fn overdue(
    db: &sqlx::SqlitePool,
    viewer: Option<i64>,
    today: time::Date,
) -> Result<Vec<Overdue>, AppError> {
    let mut late = Vec::new();
    for s in queries::reports::funded(db, viewer).await? {
        for quarter in late_quarters(&s, today) {
            late.push(Overdue {
                startup: s.name.clone(),
                quarter,
                due: quarter.due(),
            });
        }
    }
    Ok(late)
}

fn late_quarters(s: &queries::reports::Reporting, today: time::Date) -> Vec<Quarter> {
    let typed: Vec<String> = serde_json::from_str(&s.quarters).unwrap_or_default();
    let reported: Vec<Quarter> = typed.iter().filter_map(|q| Quarter::parse(q)).collect();
    quarters::overdue(istanbul_date(s.closed_at), &reported, today)
}

/// The overdue-reports job: each funded startup's newest overdue report is told once to its
/// team, its investors and staff (the pages list the older ones too).
pub async fn remind_overdue(state: &crate::state::AppState) -> anyhow::Result<()> {
    let mut told = false;
    for s in queries::reports::funded(state.db(), None).await? {
        let Some(quarter) = late_quarters(&s, state.today()).into_iter().max() else {
            continue;
        };
        let mut tx = crate::db::write(state.db()).await?;
        if crate::notifications::report_overdue(&mut tx, state, s.id, &s.name, quarter).await? {
            tracing::info!(
                startup = s.id,
                quarter = quarter.code(),
                "overdue report told"
            );
            told = true;
        }
        tx.commit().await?;
    }
    if told {
        state.wake_mailer();
    }
    Ok(())
}

/// Stores a checked report for `startup` and audits it.
pub async fn store_report(
    ctx: &Ctx,
    actor: i64,
    startup: i64,
    form: &ReportForm,
    file: UploadedFile,
) -> Result<(), AppError> {
    let file_name = crate::web::files::random_name("pdf");
    let mut tx = crate::db::write(ctx.state().db()).await?;
    let (slug, name) = queries::slug_and_name(&mut *tx, startup)
        .await?
        .ok_or(AppError::NotFound)?;
    let kept = file
        .keep(&ctx.state().shared().data_dir, "reports", &file_name)
        .await?;
    let id = queries::insert_report(&mut tx, startup, form, &file_name).await?;
    audit::record(
        &mut tx,
        actor,
        "report.add",
        &format!("startup:{startup}"),
        None,
        Some(&format!("report:{id} {} {}", form.quarter, form.title_tr)),
    )
    .await?;
    let label = |locale| quarters::label_of(&form.quarter, locale);
    let (title_tr, title_en) = (
        format!(
            "{} ({})\n{}",
            form.title_tr,
            label(Locale::Tr),
            form.summary_tr
        ),
        format!(
            "{} ({})\n{}",
            form.title_en,
            label(Locale::En),
            form.summary_en
        ),
    );
    let report = crate::notifications::Update {
        mail: "startup-report",
        startup,
        slug: &slug,
        name: &name,
        body_tr: &title_tr,
        body_en: &title_en,
    };
    let public_url = &ctx.state().shared().public_url;
    crate::notifications::startup_update(&mut tx, public_url, &report).await?;
    tx.commit().await?;
    kept.committed();
    ctx.state().wake_mailer();
    Ok(())
}

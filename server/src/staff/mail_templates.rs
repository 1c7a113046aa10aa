//! `/dashboard/autoMail`: staff rewrite the automatic e-mails in both languages, preview
//! them as sent, and switch them off (except those accounts need). A stored row overrides
//! the Fluent texts; "reset" deletes it. The mails about investments (anything not in
//! [`ADMIN_EDITABLE`], so a new money mail is protected by default) are superadmins' alone, as
//! investments are; the audit log records each save with a SHA-256 of both bodies before and
//! after, so a change to a body alone shows.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::response::Response;
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::Locale;
use ortak_app::pages::dashboard::{MailTemplateForm, mail_template_page};
use ortak_app::pages::staff_table::{Cell, StaffRow, StaffTable};
use serde::Deserialize;

use super::queries::mail_templates::{self as queries, StoredTemplate};
use super::table::render_table;
use crate::db::audit;
use crate::error::AppError;
use crate::mail::{AUTOMATIC, ESSENTIAL, Mail};
use crate::web::flash::done;
use crate::web::form::Form;
use crate::web::{Access, Ctx, Routes, Staff};

/// The texts in use: the stored ones, or the built-in Fluent messages.
fn current(kind: &str, stored: Option<&StoredTemplate>) -> MailTemplateForm {
    match stored {
        Some(t) => MailTemplateForm {
            subject_tr: t.subject_tr.clone(),
            subject_en: t.subject_en.clone(),
            body_tr: t.body_tr.clone(),
            body_en: t.body_en.clone(),
            enabled: t.enabled,
        },
        None => MailTemplateForm {
            subject_tr: Locale::Tr.t(&format!("mail-{kind}-subject")),
            subject_en: Locale::En.t(&format!("mail-{kind}-subject")),
            body_tr: Locale::Tr.t(&format!("mail-{kind}-body")),
            body_en: Locale::En.t(&format!("mail-{kind}-body")),
            enabled: true,
        },
    }
}

fn known(kind: &str) -> Result<&'static str, AppError> {
    AUTOMATIC
        .iter()
        .find(|k| **k == kind)
        .copied()
        .ok_or(AppError::NotFound)
}

/// The mails admins may rewrite: accounts', announcements' and the visitors' forms'. Every
/// other (requests, fees, payments) only superadmins.
pub const ADMIN_EDITABLE: [&str; 17] = [
    "verify",
    "signin",
    "reset",
    "exists",
    "welcome",
    "startup-match",
    "startup-update",
    "startup-report",
    "closing-soon",
    "weekly-digest",
    "question-answered",
    "founder-invite",
    "application",
    "contact",
    "gsyf",
    "academy",
    "newsletter-confirm",
];

/// `kind` if this staff member may edit it (403 otherwise).
fn editable(kind: &str, superadmin: bool) -> Result<&'static str, AppError> {
    let kind = known(kind)?;
    if superadmin || ADMIN_EDITABLE.contains(&kind) {
        Ok(kind)
    } else {
        Err(AppError::Forbidden)
    }
}

fn sha256(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What the audit log records of a mail's texts: on or off, the Turkish subject, and a
/// SHA-256 of each body.
fn audit_summary(form: &MailTemplateForm) -> String {
    format!(
        "{} | {} | body_tr sha256:{} | body_en sha256:{}",
        if form.enabled { "on" } else { "off" },
        form.subject_tr,
        sha256(&form.body_tr),
        sha256(&form.body_en)
    )
}

/// `/dashboard/autoMail`: every automatic mail, its subject, whether it is sent and edited.
pub async fn list(ctx: Ctx, Staff { superadmin, .. }: Staff) -> Result<Response, AppError> {
    let stored = queries::all(ctx.state().db()).await?;
    let rows = AUTOMATIC
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let row = stored.iter().find(|t| t.kind == *kind);
            let form = current(kind, row);
            let on = form.enabled || ESSENTIAL.contains(kind);
            StaffRow {
                id: i as i64 + 1,
                cells: vec![
                    (*kind).into(),
                    if ctx.locale == Locale::En {
                        form.subject_en
                    } else {
                        form.subject_tr
                    }
                    .into(),
                    Cell::Label(
                        if on {
                            "dashboard-mail-on"
                        } else {
                            "dashboard-mail-off"
                        }
                        .into(),
                    ),
                    Cell::Label(
                        if row.is_some() {
                            "dashboard-mail-edited"
                        } else {
                            "dashboard-mail-default"
                        }
                        .into(),
                    ),
                ],
                link: (superadmin || ADMIN_EDITABLE.contains(kind)).then(|| {
                    (
                        format!("/dashboard/autoMail/{kind}"),
                        "dashboard-edit".to_owned(),
                    )
                }),
                actions: Vec::new(),
            }
        })
        .collect();
    let table = StaffTable {
        title_id: "dashboard-auto-mail",
        columns: vec![
            "dashboard-mail-kind",
            "dashboard-col-subject",
            "dashboard-col-status",
            "dashboard-col-handled",
        ],
        rows,
        search: None,
        csv: None,
        create: None,
    };
    render_table(&ctx, table).await
}

fn editor(
    ctx: &Ctx,
    status: StatusCode,
    kind: &str,
    form: &MailTemplateForm,
    errors: &FieldErrors,
    preview: bool,
) -> impl Future<Output = Response> {
    let previews = preview.then(|| {
        let sample = |locale: Locale, subject: &str, body: &str| {
            let name = if locale == Locale::En {
                "Alex"
            } else {
                "Ayşe"
            };
            let link = format!("{}/…", ctx.state().shared().public_url);
            let mail = Mail::compose("", locale, name, kind, &link, subject.to_owned(), body);
            format!("{}\n\n{}", mail.subject, mail.text)
        };
        (
            sample(Locale::Tr, &form.subject_tr, &form.body_tr),
            sample(Locale::En, &form.subject_en, &form.body_en),
        )
    });
    let essential = ESSENTIAL.contains(&kind);
    let page = ctx.page_ctx(|pc| mail_template_page(pc, kind, form, errors, essential, previews));
    ctx.render(status, page)
}

pub async fn edit(
    ctx: Ctx,
    Staff { superadmin, .. }: Staff,
    Path(kind): Path<String>,
) -> Result<Response, AppError> {
    let kind = editable(&kind, superadmin)?;
    let stored = queries::stored(ctx.state().db(), kind).await?;
    let form = current(kind, stored.as_ref());
    let errors = FieldErrors::default();
    Ok(editor(&ctx, StatusCode::OK, kind, &form, &errors, false).await)
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub struct TemplatePost {
    subject_tr: String,
    subject_en: String,
    body_tr: String,
    body_en: String,
    /// The checkbox: `on` when ticked.
    enabled: Option<String>,
    /// `save`, `preview` or `reset`.
    intent: String,
}

/// Both languages' subject and body, required and bounded.
fn check(form: &MailTemplateForm) -> FieldErrors {
    let mut errors = FieldErrors::default();
    for (field, value, max) in [
        ("subject_tr", &form.subject_tr, 200),
        ("subject_en", &form.subject_en, 200),
        ("body_tr", &form.body_tr, 5000),
        ("body_en", &form.body_en, 5000),
    ] {
        if value.is_empty() {
            errors.add(field, "validation-required");
        } else if value.chars().count() > max {
            errors.add(field, "validation-too-long");
        }
    }
    errors
}

/// `POST /dashboard/autoMail/{kind}`: save, preview, or reset to the built-in texts.
pub async fn save(
    ctx: Ctx,
    Staff {
        user: staff,
        superadmin,
    }: Staff,
    Path(kind): Path<String>,
    Form(post): Form<TemplatePost>,
) -> Result<Response, AppError> {
    let kind = editable(&kind, superadmin)?;
    let back = format!("/dashboard/autoMail/{kind}");
    let stored = queries::stored(ctx.state().db(), kind).await?;
    let before = audit_summary(&current(kind, stored.as_ref()));
    if post.intent == "reset" {
        let mut tx = crate::db::write(ctx.state().db()).await?;
        queries::reset(&mut tx, kind).await?;
        let subject = format!("mail:{kind}");
        audit::record(
            &mut tx,
            staff.id,
            "mail.reset",
            &subject,
            Some(&before),
            Some("default"),
        )
        .await?;
        tx.commit().await?;
        return done(&ctx, &back).await;
    }
    let form = MailTemplateForm {
        subject_tr: post.subject_tr.trim().to_owned(),
        subject_en: post.subject_en.trim().to_owned(),
        body_tr: post.body_tr.replace("\r\n", "\n").trim().to_owned(),
        body_en: post.body_en.replace("\r\n", "\n").trim().to_owned(),
        enabled: ESSENTIAL.contains(&kind) || post.enabled.as_deref() == Some("on"),
    };
    let errors = check(&form);
    if !errors.is_empty() {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return Ok(editor(&ctx, status, kind, &form, &errors, false).await);
    }
    if post.intent == "preview" {
        return Ok(editor(&ctx, StatusCode::OK, kind, &form, &errors, true).await);
    }
    let after = audit_summary(&form);
    let stored = StoredTemplate {
        kind: kind.to_owned(),
        enabled: form.enabled,
        subject_tr: form.subject_tr,
        subject_en: form.subject_en,
        body_tr: form.body_tr,
        body_en: form.body_en,
    };
    let mut tx = crate::db::write(ctx.state().db()).await?;
    queries::save(&mut tx, &stored, ctx.state().now()).await?;
    let subject = format!("mail:{kind}");
    audit::record(
        &mut tx,
        staff.id,
        "mail.save",
        &subject,
        Some(&before),
        Some(&after),
    )
    .await?;
    tx.commit().await?;
    done(&ctx, &back).await
}

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/autoMail", list)
        .nav("dashboard-auto-mail")
        .get("/dashboard/autoMail.json", list)
        .get("/dashboard/autoMail/{kind}", edit)
        .post("/dashboard/autoMail/{kind}", save)
}

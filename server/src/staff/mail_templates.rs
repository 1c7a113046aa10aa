//! `/dashboard/autoMail`: staff rewrite the automatic e-mails in both languages, preview
//! them as sent, and switch them off (except those accounts need). A stored row overrides
//! the Fluent texts; "reset" deletes it.

use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use ortak_app::forms::FieldErrors;
use ortak_app::i18n::Locale;
use ortak_app::pages::dashboard::{MailTemplateForm, mail_template_page};
use ortak_app::pages::staff_table::{StaffRow, StaffTable};

use super::staff_post;
use super::table::render_table;
use crate::db::audit;
use crate::error::AppError;
use crate::mail::{AUTOMATIC, ESSENTIAL, Mail};
use crate::web::flash::done;
use crate::web::session::Role;
use crate::web::{Access, Ctx, Routes};

type Row = (bool, String, String, String, String);

async fn stored(ctx: &Ctx, kind: &str) -> Result<Option<Row>, AppError> {
    Ok(sqlx::query_as(
        "SELECT enabled, subject_tr, subject_en, body_tr, body_en FROM mail_templates WHERE kind = ?",
    )
    .bind(kind)
    .fetch_optional(ctx.state().db())
    .await?)
}

/// The texts in use: the stored ones, or the built-in Fluent messages.
async fn current(ctx: &Ctx, kind: &str) -> Result<MailTemplateForm, AppError> {
    Ok(match stored(ctx, kind).await? {
        Some((enabled, subject_tr, subject_en, body_tr, body_en)) => MailTemplateForm {
            subject_tr,
            subject_en,
            body_tr,
            body_en,
            enabled,
        },
        None => MailTemplateForm {
            subject_tr: Locale::Tr.t(&format!("mail-{kind}-subject")),
            subject_en: Locale::En.t(&format!("mail-{kind}-subject")),
            body_tr: Locale::Tr.t(&format!("mail-{kind}-body")),
            body_en: Locale::En.t(&format!("mail-{kind}-body")),
            enabled: true,
        },
    })
}

fn known(kind: &str) -> Result<&'static str, AppError> {
    AUTOMATIC
        .iter()
        .find(|k| **k == kind)
        .copied()
        .ok_or(AppError::NotFound)
}

pub async fn list(ctx: Ctx) -> Result<Response, AppError> {
    let mut rows = Vec::new();
    for (i, kind) in AUTOMATIC.iter().enumerate() {
        let row = stored(&ctx, kind).await?;
        let form = current(&ctx, kind).await?;
        rows.push(StaffRow {
            id: i as i64 + 1,
            cells: vec![
                (*kind).to_owned().into(),
                if ctx.locale == Locale::En {
                    form.subject_en
                } else {
                    form.subject_tr
                }
                .into(),
                ctx.t(if form.enabled || ESSENTIAL.contains(kind) {
                    "dashboard-mail-on"
                } else {
                    "dashboard-mail-off"
                })
                .into(),
                ctx.t(if row.is_some() {
                    "dashboard-mail-edited"
                } else {
                    "dashboard-mail-default"
                })
                .into(),
            ],
            link: Some((
                format!("/dashboard/autoMail/{kind}"),
                "dashboard-edit".to_owned(),
            )),
            actions: Vec::new(),
        });
    }
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

pub async fn edit(ctx: Ctx, Path(kind): Path<String>) -> Result<Response, AppError> {
    ctx.require(Role::Admin)?;
    let kind = known(&kind)?;
    let form = current(&ctx, kind).await?;
    Ok(editor(
        &ctx,
        StatusCode::OK,
        kind,
        &form,
        &FieldErrors::default(),
        false,
    )
    .await)
}

pub async fn save(
    ctx: Ctx,
    Path(kind): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let (staff, f) = staff_post(&ctx, &headers, &body)?;
    let kind = known(&kind)?;
    let back = format!("/dashboard/autoMail/{kind}");
    let before = stored(&ctx, kind)
        .await?
        .map(|(on, s, ..)| format!("{} | {s}", if on { "on" } else { "off" }));
    if f.get("intent") == "reset" {
        let mut tx = ctx.state().db().begin().await?;
        sqlx::query("DELETE FROM mail_templates WHERE kind = ?")
            .bind(kind)
            .execute(&mut *tx)
            .await?;
        audit::record(
            &mut tx,
            staff.id,
            "mail.reset",
            &format!("mail:{kind}"),
            before.as_deref(),
            Some("default"),
        )
        .await?;
        tx.commit().await?;
        return done(&ctx, &back).await;
    }
    let form = MailTemplateForm {
        subject_tr: f.get("subject_tr").trim().to_owned(),
        subject_en: f.get("subject_en").trim().to_owned(),
        body_tr: f.get("body_tr").replace("\r\n", "\n").trim().to_owned(),
        body_en: f.get("body_en").replace("\r\n", "\n").trim().to_owned(),
        enabled: ESSENTIAL.contains(&kind) || f.get("enabled") == "on",
    };
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
    if !errors.is_empty() {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        return Ok(editor(&ctx, status, kind, &form, &errors, false).await);
    }
    if f.get("intent") == "preview" {
        return Ok(editor(&ctx, StatusCode::OK, kind, &form, &errors, true).await);
    }
    let mut tx = ctx.state().db().begin().await?;
    sqlx::query(
        "INSERT INTO mail_templates (kind, enabled, subject_tr, subject_en, body_tr, body_en) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (kind) DO UPDATE SET enabled = excluded.enabled, subject_tr = excluded.subject_tr,
             subject_en = excluded.subject_en, body_tr = excluded.body_tr, body_en = excluded.body_en,
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
    )
    .bind(kind)
    .bind(form.enabled)
    .bind(&form.subject_tr)
    .bind(&form.subject_en)
    .bind(&form.body_tr)
    .bind(&form.body_en)
    .execute(&mut *tx)
    .await?;
    let after = format!(
        "{} | {}",
        if form.enabled { "on" } else { "off" },
        form.subject_tr
    );
    audit::record(
        &mut tx,
        staff.id,
        "mail.save",
        &format!("mail:{kind}"),
        before.as_deref(),
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

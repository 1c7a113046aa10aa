//! `/dashboard/startups/{id}`: the staff startup editor, with its presentation pages and
//! quarterly reports.

use leptos::prelude::*;

use super::dashboard::staff_layout;
use crate::domain::startup_form::StartupForm;
use crate::domain::startups::{SECTIONS, SECTORS, STAGES};
use crate::forms::{
    FieldErrors, checkbox, csrf_field, error_summary, error_view, input, textarea_text,
};
use crate::shell::{Page, PageContext};

/// What the editor shows besides the form: the funds to choose from and, for a saved
/// startup, its pages and reports.
pub struct EditorExtras {
    pub funds: Vec<(i64, String)>,
    /// `None` while creating.
    pub id: Option<i64>,
    pub slug: String,
    /// Presentation page positions.
    pub pages: Vec<i64>,
    /// `(quarter, title)`, newest first.
    pub reports: Vec<(String, String)>,
    /// The report upload form as typed (its errors share the page's `errors`).
    pub report: ReportForm,
    pub preview: bool,
}

/// A quarterly report as typed into its upload form.
#[derive(Clone, Debug, Default)]
pub struct ReportForm {
    pub quarter: String,
    pub title_tr: String,
    pub title_en: String,
    pub summary_tr: String,
    pub summary_en: String,
}

fn area(
    ctx: &PageContext,
    errors: &FieldErrors,
    name: String,
    label: String,
    value: &str,
    rows: u8,
    lang: &'static str,
) -> impl IntoView + use<> {
    let error = errors.get(&name);
    let id = name.clone();
    view! {
        <div class="field">
            <label class="field__label" for=id.clone()>{label}</label>
            <textarea class="input" id=id name=name.clone() rows=rows.to_string() lang=lang aria-invalid=error.map(|_| "true") aria-describedby=error.map(|_| format!("{name}-error"))>{textarea_text(value)}</textarea>
            {error_view(ctx, &name, error)}
        </div>
    }
}

fn options(
    ctx: &PageContext,
    name: &'static str,
    label_id: &str,
    choices: Vec<(String, String)>,
    selected: &str,
    errors: &FieldErrors,
) -> impl IntoView + use<> {
    let error = errors.get(name);
    let items = choices
        .into_iter()
        .map(|(value, label)| {
            let chosen = value == selected;
            view! { <option value=value selected=chosen>{label}</option> }
        })
        .collect_view();
    view! {
        <div class="field">
            <label class="field__label" for=name>{ctx.t(label_id)}</label>
            <select class="input" id=name name=name aria-invalid=error.map(|_| "true") aria-describedby=error.map(|_| format!("{name}-error"))>
                <option value="">{ctx.t("form-choose")}</option>
                {items}
            </select>
            {error_view(ctx, name, error)}
        </div>
    }
}

pub fn startup_editor_page(
    ctx: &PageContext,
    form: &StartupForm,
    errors: &FieldErrors,
    extras: EditorExtras,
) -> Page {
    let action = match extras.id {
        Some(id) => format!("/dashboard/startups/{id}"),
        None => "/dashboard/startups/new".to_owned(),
    };
    let text = |name: &'static str, label: &str, value: &str| {
        input(ctx, errors, name, label, "text", value, "off")
    };
    let date = |name: &'static str, label: &str, value: &str| {
        input(ctx, errors, name, label, "date", value, "off")
    };
    let sectors = SECTORS
        .iter()
        .map(|s| ((*s).to_owned(), ctx.t(&format!("interest-{s}"))))
        .collect();
    let stages = STAGES
        .iter()
        .map(|s| ((*s).to_owned(), ctx.t(&format!("stage-{s}"))))
        .collect();
    let periods = vec![
        ("investment".to_owned(), ctx.t("period-investment")),
        ("pre_investment".to_owned(), ctx.t("period-pre-investment")),
    ];
    let funds = extras
        .funds
        .iter()
        .map(|(id, name)| (id.to_string(), name.clone()))
        .collect();
    let sections = SECTIONS
        .iter()
        .map(|s| {
            let (tr, en) = form.sections.get(*s).cloned().unwrap_or_default();
            let title = ctx.t(&format!("section-{s}"));
            let preview = extras.preview.then(|| {
                let tr_html = crate::markdown::render(&tr);
                let en_html = crate::markdown::render(&en);
                view! {
                    <div class="form__row editor-preview">
                        <div class="prose" lang="tr" inner_html=tr_html></div>
                        <div class="prose" lang="en" inner_html=en_html></div>
                    </div>
                }
            });
            view! {
                <fieldset class="fieldset">
                    <legend>{title.clone()}</legend>
                    {preview}
                    <div class="form__row">
                        {area(ctx, errors, format!("s_{s}_tr"), format!("{title} (TR)"), &tr, 5, "tr")}
                        {area(ctx, errors, format!("s_{s}_en"), format!("{title} (EN)"), &en, 5, "en")}
                    </div>
                </fieldset>
            }
        })
        .collect_view();
    let view_link = extras.id.map(|_| {
        let href = format!("/startups/{}", extras.slug);
        view! { <p><a href=href>{ctx.t("dashboard-startup-view")}</a></p> }
    });
    let attachments = extras.id.map(|id| attachments(ctx, id, &extras, errors));
    let content = view! {
        {view_link}
        {error_summary(ctx, errors)}
        <form class="form editor" method="post" action=action novalidate>
            {csrf_field(ctx)}
            <h2>{ctx.t("dashboard-startup-basics")}</h2>
            <div class="form__row">
                {text("name", "dashboard-col-name", &form.name)}
                {text("slug", "dashboard-slug", &form.slug)}
            </div>
            <div class="form__row">
                {options(ctx, "sector", "dashboard-startup-sector", sectors, &form.sector, errors)}
                {text("subcategory", "dashboard-startup-subcategory", &form.subcategory)}
                {options(ctx, "fund", "dashboard-startup-fund", funds, &form.fund, errors)}
            </div>
            <div class="form__row">
                {text("country", "field-country", &form.country)}
                {text("city", "field-city", &form.city)}
                {options(ctx, "stage", "startup-stage", stages, &form.stage, errors)}
            </div>
            <div class="form__row">
                {area(ctx, errors, "description_tr".into(), ctx.t("dashboard-description-tr"), &form.description_tr, 4, "tr")}
                {area(ctx, errors, "description_en".into(), ctx.t("dashboard-description-en"), &form.description_en, 4, "en")}
            </div>
            <h2>{ctx.t("dashboard-startup-funding")}</h2>
            <div class="form__row">
                {text("goal", "dashboard-startup-goal", &form.goal)}
                {options(ctx, "period_kind", "dashboard-startup-period", periods, &form.period_kind, errors)}
            </div>
            <div class="form__row">
                {date("starts_on", "dashboard-startup-starts", &form.starts_on)}
                {date("ends_on", "dashboard-startup-ends", &form.ends_on)}
                {date("vip_until", "dashboard-startup-vip-until", &form.vip_until)}
            </div>
            {checkbox(ctx, errors, "funded", view! { {ctx.t("dashboard-startup-funded")} }.into_any(), form.funded)}
            <h2>{ctx.t("dashboard-startup-company")}</h2>
            <div class="form__row">
                {text("team_size", "startup-team-size", &form.team_size)}
                {date("established_on", "dashboard-startup-established", &form.established_on)}
            </div>
            <div class="form__row">
                {text("monthly_income", "dashboard-startup-income", &form.monthly_income)}
                {text("monthly_expense", "dashboard-startup-expense", &form.monthly_expense)}
            </div>
            <div class="form__row">
                {text("valuation_usd", "dashboard-startup-valuation", &form.valuation_usd)}
                {text("amount_sought_usd", "dashboard-startup-sought", &form.amount_sought_usd)}
            </div>
            <div class="form__row">
                {text("website", "startup-website", &form.website)}
                {text("instagram", "dashboard-startup-instagram", &form.instagram)}
            </div>
            <div class="form__row">
                {text("twitter", "dashboard-startup-twitter", &form.twitter)}
                {text("youtube", "dashboard-startup-youtube", &form.youtube)}
            </div>
            {area(ctx, errors, "founders".into(), ctx.t("dashboard-startup-founders"), &form.founders, 4, "tr")}
            <p class="muted">{ctx.t("dashboard-startup-founders-hint")}</p>
            <h2>{ctx.t("dashboard-startup-sections")}</h2>
            {sections}
            {checkbox(ctx, errors, "published", view! { {ctx.t("dashboard-published")} }.into_any(), form.published)}
            <div class="form__actions">
                <button class="button button--primary" type="submit" name="intent" value="save">{ctx.t("profile-save")}</button>
                <button class="button button--ghost" type="submit" name="intent" value="preview">{ctx.t("dashboard-preview")}</button>
            </div>
        </form>
        {attachments}
    }
    .into_any();
    let title = if form.name.is_empty() {
        ctx.t("dashboard-startup-new")
    } else {
        form.name.clone()
    };
    staff_layout(ctx, title, content)
}

/// Presentation pages (images) and quarterly reports (PDF), each its own upload form.
fn attachments(
    ctx: &PageContext,
    id: i64,
    extras: &EditorExtras,
    errors: &FieldErrors,
) -> impl IntoView + use<> {
    let page_items = extras
        .pages
        .iter()
        .map(|p| {
            let src = format!("/startups/{}/pages/{p}", extras.slug);
            let remove = format!("/dashboard/startups/{id}/pages/{p}/delete");
            view! {
                <li class="editor-page">
                    <img src=src alt=format!("{p}") width="160" loading="lazy" />
                    <form class="inline-form" method="post" action=remove>
                        {csrf_field(ctx)}
                        <button class="button button--ghost" type="submit">{ctx.t("dashboard-remove")}</button>
                    </form>
                </li>
            }
        })
        .collect_view();
    let report_items = extras
        .reports
        .iter()
        .map(|(quarter, title)| view! { <li>{format!("{quarter} · {title}")}</li> })
        .collect_view();
    view! {
        <section class="stack" aria-labelledby="pages-title">
            <h2 id="pages-title">{ctx.t("startup-presentation")}</h2>
            <ul class="editor-pages">{page_items}</ul>
            <form class="form" method="post" action=format!("/dashboard/startups/{id}/pages") enctype="multipart/form-data">
                {csrf_field(ctx)}
                <div class="field">
                    <label class="field__label" for="image">{ctx.t("dashboard-startup-page-upload")}</label>
                    <input class="input" id="image" type="file" name="image" accept="image/png,image/jpeg,image/webp" aria-invalid=errors.get("image").map(|_| "true") aria-describedby=errors.get("image").map(|_| "image-error") />
                    {error_view(ctx, "image", errors.get("image"))}
                </div>
                <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("dashboard-upload")}</button></div>
            </form>
        </section>
        <section class="stack" aria-labelledby="reports-title">
            <h2 id="reports-title">{ctx.t("dashboard-startup-reports")}</h2>
            <ul>{report_items}</ul>
            {report_form(ctx, &format!("/dashboard/startups/{id}/reports"), &extras.report, errors)}
        </section>
    }
}

/// The quarterly report upload form, shared with `/vc-dashboard`.
pub fn report_form(
    ctx: &PageContext,
    action: &str,
    form: &ReportForm,
    errors: &FieldErrors,
) -> impl IntoView + use<> {
    let file_error = errors.get("file");
    view! {
        <form class="form" method="post" action=action.to_owned() enctype="multipart/form-data" novalidate>
            {csrf_field(ctx)}
            {input(ctx, errors, "quarter", "dashboard-report-quarter", "text", &form.quarter, "off")}
            <div class="form__row">
                {input(ctx, errors, "report_title_tr", "dashboard-title-tr", "text", &form.title_tr, "off")}
                {input(ctx, errors, "report_title_en", "dashboard-title-en", "text", &form.title_en, "off")}
            </div>
            <div class="form__row">
                {input(ctx, errors, "report_summary_tr", "dashboard-description-tr", "text", &form.summary_tr, "off")}
                {input(ctx, errors, "report_summary_en", "dashboard-description-en", "text", &form.summary_en, "off")}
            </div>
            <div class="field">
                <label class="field__label" for="file">{ctx.t("dashboard-report-file")}</label>
                <input class="input" id="file" type="file" name="file" accept="application/pdf" aria-invalid=file_error.map(|_| "true") aria-describedby=file_error.map(|_| "file-error") />
                {error_view(ctx, "file", file_error)}
            </div>
            <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("dashboard-upload")}</button></div>
        </form>
    }
}

//! `/dashboard/startups/{id}`: the staff startup editor, with its presentation pages and
//! quarterly reports.

mod campaign;
mod founders;
mod uploads;

use leptos::prelude::*;

use super::dashboard::staff_layout;
use crate::domain::startup_form::StartupForm;
use crate::domain::startups::{SECTIONS, SECTORS, STAGES};
use crate::forms::{FieldErrors, csrf_field, error_summary, error_view, input, textarea_text};
use crate::shell::{Page, PageContext};

/// What the editor shows besides the form: the funds to choose from and, for a saved
/// startup, its pages and reports.
pub struct EditorExtras {
    /// The founders invited: `(address, whose account is verified)`.
    pub invited: Vec<(String, bool)>,
    /// The invitation form's address as typed (its errors share the page's `errors`).
    pub founder_email: String,
    pub funds: Vec<(i64, String)>,
    /// `None` while creating.
    pub id: Option<i64>,
    pub slug: String,
    /// The uploaded logo's and cover's stored names.
    pub logo: Option<String>,
    pub cover: Option<String>,
    /// The saved founders' names, each with their photo's stored name.
    pub founders: Vec<(String, Option<String>)>,
    /// Presentation page positions.
    pub pages: Vec<i64>,
    /// `(quarter, title)`, newest first.
    pub reports: Vec<(String, String)>,
    /// The report upload form as typed (its errors share the page's `errors`).
    pub report: ReportForm,
    /// The round's current documents: `(id, kind code, upload date)`.
    pub documents: Vec<(i64, String, String)>,
    pub preview: bool,
    /// The committee approved a version: the campaign's story, goal and period change only
    /// through a new version (`/dashboard/startups/{id}/campaign`), and it may be published.
    pub campaign_approved: bool,
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

/// A one-line text field (`kind` "text" or "date") without autocomplete.
fn field(
    ctx: &PageContext,
    errors: &FieldErrors,
    name: &'static str,
    label_id: &str,
    kind: &'static str,
    value: &str,
) -> impl IntoView + use<> {
    input(ctx, errors, name, label_id, kind, value, "off")
}

/// `(code, label)` choices whose labels are `{prefix}-{code}`.
fn labelled(ctx: &PageContext, prefix: &str, codes: &[&str]) -> Vec<(String, String)> {
    codes
        .iter()
        .map(|c| ((*c).to_owned(), ctx.t(&format!("{prefix}-{c}"))))
        .collect()
}

/// Name, address, sector, fund, place, stage and the two descriptions.
fn basics(
    ctx: &PageContext,
    form: &StartupForm,
    errors: &FieldErrors,
    funds: &[(i64, String)],
) -> impl IntoView + use<> {
    let funds = funds
        .iter()
        .map(|(id, name)| (id.to_string(), name.clone()))
        .collect();
    view! {
        <h2>{ctx.t("dashboard-startup-basics")}</h2>
        <div class="form__row">
            {field(ctx, errors, "name", "dashboard-col-name", "text", &form.name)}
            {field(ctx, errors, "slug", "dashboard-slug", "text", &form.slug)}
        </div>
        <div class="form__row">
            {options(ctx, "sector", "dashboard-startup-sector", labelled(ctx, "interest", &SECTORS), &form.sector, errors)}
            {field(ctx, errors, "subcategory", "dashboard-startup-subcategory", "text", &form.subcategory)}
            {options(ctx, "fund", "dashboard-startup-fund", funds, &form.fund, errors)}
        </div>
        <div class="form__row">
            {field(ctx, errors, "country", "field-country", "text", &form.country)}
            {field(ctx, errors, "city", "field-city", "text", &form.city)}
            {options(ctx, "stage", "startup-stage", labelled(ctx, "stage", &STAGES), &form.stage, errors)}
        </div>
    }
}

/// The campaign's descriptions, in both languages.
fn descriptions(
    ctx: &PageContext,
    form: &StartupForm,
    errors: &FieldErrors,
) -> impl IntoView + use<> {
    view! {
        <div class="form__row">
            {area(ctx, errors, "description_tr".into(), ctx.t("dashboard-description-tr"), &form.description_tr, 4, "tr")}
            {area(ctx, errors, "description_en".into(), ctx.t("dashboard-description-en"), &form.description_en, 4, "en")}
        </div>
    }
}

/// The round: goal, period kind and dates. Whether it is funded is decided by its close, and
/// what it raised comes from the ledger (`/dashboard/rounds`), so neither is typed here.
fn funding(ctx: &PageContext, form: &StartupForm, errors: &FieldErrors) -> impl IntoView + use<> {
    let periods = vec![
        ("investment".to_owned(), ctx.t("period-investment")),
        ("pre_investment".to_owned(), ctx.t("period-pre-investment")),
    ];
    view! {
        <h2>{ctx.t("dashboard-startup-funding")}</h2>
        <div class="form__row">
            {field(ctx, errors, "goal", "dashboard-startup-goal", "text", &form.goal)}
            {options(ctx, "period_kind", "dashboard-startup-period", periods, &form.period_kind, errors)}
        </div>
        <div class="form__row">
            {field(ctx, errors, "starts_on", "dashboard-startup-starts", "date", &form.starts_on)}
            {field(ctx, errors, "ends_on", "dashboard-startup-ends", "date", &form.ends_on)}
            {field(ctx, errors, "vip_until", "dashboard-startup-vip-until", "date", &form.vip_until)}
        </div>
        <p class="muted">{ctx.t("dashboard-startup-round-hint")}</p>
    }
}

/// The company: team, founding date, money, links and founders.
fn company(ctx: &PageContext, form: &StartupForm, errors: &FieldErrors) -> impl IntoView + use<> {
    view! {
        <h2>{ctx.t("dashboard-startup-company")}</h2>
        <div class="form__row">
            {field(ctx, errors, "team_size", "startup-team-size", "text", &form.team_size)}
            {field(ctx, errors, "established_on", "dashboard-startup-established", "date", &form.established_on)}
        </div>
        <div class="form__row">
            {field(ctx, errors, "monthly_income", "dashboard-startup-income", "text", &form.monthly_income)}
            {field(ctx, errors, "monthly_expense", "dashboard-startup-expense", "text", &form.monthly_expense)}
        </div>
        <div class="form__row">
            {field(ctx, errors, "valuation_usd", "dashboard-startup-valuation", "text", &form.valuation_usd)}
            {field(ctx, errors, "amount_sought_usd", "dashboard-startup-sought", "text", &form.amount_sought_usd)}
        </div>
        <div class="form__row">
            {field(ctx, errors, "website", "startup-website", "text", &form.website)}
            {field(ctx, errors, "instagram", "dashboard-startup-instagram", "text", &form.instagram)}
        </div>
        <div class="form__row">
            {field(ctx, errors, "twitter", "dashboard-startup-twitter", "text", &form.twitter)}
            {field(ctx, errors, "youtube", "dashboard-startup-youtube", "text", &form.youtube)}
        </div>
        {area(ctx, errors, "founders".into(), ctx.t("dashboard-startup-founders"), &form.founders, 4, "tr")}
        <p class="muted">{ctx.t("dashboard-startup-founders-hint")}</p>
    }
}

/// Each analysis section in both languages, with its rendered Markdown when previewing.
fn sections(
    ctx: &PageContext,
    form: &StartupForm,
    errors: &FieldErrors,
    preview: bool,
) -> impl IntoView + use<> {
    SECTIONS
        .iter()
        .map(|s| {
            let (tr, en) = form.sections.get(*s).cloned().unwrap_or_default();
            let title = ctx.t(&format!("section-{s}"));
            let preview = preview.then(|| {
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
        .collect_view()
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
    let view_link = extras.id.map(|_| {
        let href = format!("/startups/{}", extras.slug);
        view! { <p><a href=href>{ctx.t("dashboard-startup-view")}</a></p> }
    });
    let attachments = extras.id.map(|id| attachments(ctx, id, &extras, errors));
    let founders = extras
        .id
        .map(|id| founders::founders_panel(ctx, id, &extras, errors));
    let campaign = campaign::campaign_note(ctx, &extras);
    let publish = campaign::publish_control(ctx, &extras, form.published, errors);
    let content = view! {
        {view_link}
        {campaign}
        {error_summary(ctx, errors)}
        <form class="form editor" method="post" action=action novalidate>
            {csrf_field(ctx)}
            {basics(ctx, form, errors, &extras.funds)}
            <fieldset class="fieldset" disabled=extras.campaign_approved>
                <legend>{ctx.t("startup-editor-campaign")}</legend>
                {descriptions(ctx, form, errors)}
                {funding(ctx, form, errors)}
            </fieldset>
            {company(ctx, form, errors)}
            <fieldset class="fieldset" disabled=extras.campaign_approved>
                <legend class="editor__legend">{ctx.t("dashboard-startup-sections")}</legend>
                {sections(ctx, form, errors, extras.preview)}
            </fieldset>
            {publish}
            <div class="form__actions">
                <button class="button button--primary" type="submit" name="intent" value="save">{ctx.t("profile-save")}</button>
                <button class="button button--ghost" type="submit" name="intent" value="preview">{ctx.t("dashboard-preview")}</button>
            </div>
        </form>
        {founders}
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
        .map(|(quarter, title)| {
            let quarter = crate::domain::quarters::label_of(quarter, ctx.locale);
            view! { <li>{format!("{quarter} · {title}")}</li> }
        })
        .collect_view();
    view! {
        {uploads::pictures(ctx, id, extras, errors)}
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
        {uploads::round_documents(ctx, id, extras, errors)}
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

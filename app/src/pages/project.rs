//! `/projectFlow/1` to `/projectFlow/4`: the startup application, and its confirmation.

use std::collections::BTreeMap;

use leptos::prelude::*;
use serde_json::json;

use crate::domain::phone::format_phone;
use crate::domain::project::{
    DESCRIPTION_MAX_CHARS, FOUNDER_FIELDS, PRESENTATION_MAX_BYTES, STEPS,
};
use crate::domain::startups::{SECTORS, STAGES};
use crate::forms::{
    FieldErrors, Notice, choice_group, csrf_field, error_summary, input, notice_view, textarea_text,
};
use crate::i18n::FluentArg;
use crate::shell::{Page, PageContext};

/// The draft as a step page shows it.
pub struct Draft {
    pub answers: BTreeMap<String, String>,
    /// The uploaded presentation's file name and size in bytes.
    pub presentation: Option<(String, i64)>,
}

fn v<'a>(d: &'a Draft, k: &str) -> &'a str {
    d.answers.get(k).map(String::as_str).unwrap_or("")
}

fn yes_no() -> Vec<(&'static str, String)> {
    vec![
        ("yes", "answer-yes".to_owned()),
        ("no", "answer-no".to_owned()),
    ]
}

fn labelled_select(
    ctx: &PageContext,
    errors: &FieldErrors,
    name: &'static str,
    label: &str,
    options: Vec<(String, String)>,
    selected: &str,
) -> impl IntoView + use<> {
    let error = errors.get(name);
    let options = options
        .into_iter()
        .map(|(value, text)| {
            let is = value == selected;
            view! { <option value=value selected=is>{text}</option> }
        })
        .collect_view();
    view! {
        <div class="field">
            <label class="field__label" for=name>{ctx.t(label)}</label>
            <select class="input" id=name name=name aria-invalid=error.map(|_| "true") aria-describedby=error.map(|_| format!("{name}-error"))>
                <option value="">{ctx.t("form-choose")}</option>
                {options}
            </select>
            {error.map(|e| view! { <p class="field__error" id=format!("{name}-error")>{ctx.t(e)}</p> })}
        </div>
    }
}

fn step_one(ctx: &PageContext, d: &Draft, errors: &FieldErrors) -> AnyView {
    let sectors = SECTORS
        .iter()
        .map(|s| ((*s).to_owned(), ctx.t(&format!("interest-{s}"))))
        .collect();
    let description_error = errors.get("description");
    let current = d.presentation.as_ref().map(|(name, size)| {
        let kb = (size + 1023) / 1024;
        view! { <p class="field__hint" id="presentation-current">{ctx.t("project-presentation-current")} ": " <strong>{name.clone()}</strong> " (" {kb} " KB)"</p> }
    });
    let presentation_error = errors.get("presentation");
    // The island writes "{count} / {max} {unit}".
    let counter = json!({ "target": "description", "max": DESCRIPTION_MAX_CHARS, "unit": ctx.t("project-description-unit") }).to_string();
    let upload = json!({ "form": "project-step-1", "labels": { "uploading": ctx.t("project-uploading"), "failed": ctx.t("newsletter-failed") } }).to_string();
    view! {
        {input(ctx, errors, "name", "project-name", "text", v(d, "name"), "organization")}
        <div class="form__row">
            {labelled_select(ctx, errors, "sector", "filter-sector", sectors, v(d, "sector"))}
            {input(ctx, errors, "subcategory", "project-subcategory", "text", v(d, "subcategory"), "off")}
        </div>
        <div class="form__row">
            {input(ctx, errors, "country", "field-country", "text", v(d, "country"), "country-name")}
            {input(ctx, errors, "city", "field-city", "text", v(d, "city"), "address-level2")}
        </div>
        <div class="field">
            <label class="field__label" for="description">{ctx.t("project-description")}</label>
            <textarea class="input" id="description" name="description" rows="6"
                aria-invalid=description_error.map(|_| "true") aria-describedby="description-hint">
                {textarea_text(v(d, "description"))}
            </textarea>
            <div data-island="char-counter" data-props=counter>
                <p class="field__hint" id="description-hint">{ctx.locale.t_args("project-description-hint", &[("max", FluentArg::Num(DESCRIPTION_MAX_CHARS as i64))])}</p>
            </div>
            {description_error.map(|e| view! { <p class="field__error" id="description-error">{ctx.t(e)}</p> })}
        </div>
        {input(ctx, errors, "website", "project-website", "url", v(d, "website"), "url")}
        <div class="form__row">
            {input(ctx, errors, "instagram", "project-instagram", "url", v(d, "instagram"), "off")}
            {input(ctx, errors, "twitter", "project-twitter", "url", v(d, "twitter"), "off")}
            {input(ctx, errors, "youtube", "project-youtube", "url", v(d, "youtube"), "off")}
        </div>
        <div class="field">
            <label class="field__label" for="presentation">{ctx.t("project-presentation")}</label>
            <input id="presentation" name="presentation" type="file"
                accept=".pdf,.pptx,.ppt,application/pdf,application/vnd.openxmlformats-officedocument.presentationml.presentation,application/vnd.ms-powerpoint"
                aria-describedby="presentation-hint" aria-invalid=presentation_error.map(|_| "true") />
            <p class="field__hint" id="presentation-hint">{ctx.locale.t_args("project-presentation-hint", &[("mb", FluentArg::Num((PRESENTATION_MAX_BYTES / 1024 / 1024) as i64))])}</p>
            {current}
            {presentation_error.map(|e| view! { <p class="field__error" id="presentation-error" role="alert">{ctx.t(e)}</p> })}
            <div data-island="upload-progress" data-props=upload></div>
        </div>
    }
    .into_any()
}

fn step_two(ctx: &PageContext, d: &Draft, errors: &FieldErrors) -> AnyView {
    let stages = STAGES
        .iter()
        .map(|s| ((*s).to_owned(), ctx.t(&format!("stage-{s}"))))
        .collect();
    view! {
        {input(ctx, errors, "team_size", "project-team-size", "text", v(d, "team_size"), "off")}
        {choice_group(ctx, errors, "established", "project-established", "radio", &yes_no(), &[v(d, "established")])}
        {input(ctx, errors, "established_on", "project-established-on", "date", v(d, "established_on"), "off")}
        {labelled_select(ctx, errors, "stage", "startup-stage", stages, v(d, "stage"))}
        {choice_group(ctx, errors, "has_income", "project-has-income", "radio", &yes_no(), &[v(d, "has_income")])}
        <div class="form__row">
            {input(ctx, errors, "monthly_income", "project-monthly-income", "text", v(d, "monthly_income"), "off")}
            {input(ctx, errors, "monthly_expense", "project-monthly-expense", "text", v(d, "monthly_expense"), "off")}
        </div>
        <div class="form__row">
            {input(ctx, errors, "valuation_tl", "project-valuation-tl", "text", v(d, "valuation_tl"), "off")}
            {input(ctx, errors, "amount_sought_tl", "project-amount-sought-tl", "text", v(d, "amount_sought_tl"), "off")}
        </div>
    }
    .into_any()
}

fn step_three(ctx: &PageContext, d: &Draft, errors: &FieldErrors) -> AnyView {
    view! {
        {choice_group(ctx, errors, "accelerator", "project-accelerator", "radio", &yes_no(), &[v(d, "accelerator")])}
        <div class="form__row">
            {input(ctx, errors, "accelerator_date", "project-date", "date", v(d, "accelerator_date"), "off")}
            {input(ctx, errors, "accelerator_program", "project-program", "text", v(d, "accelerator_program"), "off")}
            {input(ctx, errors, "accelerator_country", "field-country", "text", v(d, "accelerator_country"), "off")}
        </div>
        {choice_group(ctx, errors, "prior_investment", "project-prior", "radio", &yes_no(), &[v(d, "prior_investment")])}
        <div class="form__row">
            {input(ctx, errors, "prior_date", "project-date", "date", v(d, "prior_date"), "off")}
            {input(ctx, errors, "prior_investors", "project-investors", "text", v(d, "prior_investors"), "off")}
            {input(ctx, errors, "prior_amount_tl", "project-amount-tl", "text", v(d, "prior_amount_tl"), "off")}
        </div>
    }
    .into_any()
}

fn step_four(ctx: &PageContext, d: &Draft, errors: &FieldErrors) -> AnyView {
    let founders = FOUNDER_FIELDS
        .iter()
        .enumerate()
        .map(|(i, [name, position, phone, linkedin])| {
            view! {
                <fieldset class="fieldset">
                    <legend>{ctx.locale.t_args("project-founder", &[("n", FluentArg::Num(i as i64 + 1))])}</legend>
                    <div class="form__row">
                        {input(ctx, errors, name, "field-name-surname", "text", v(d, name), "off")}
                        {input(ctx, errors, position, "project-founder-position", "text", v(d, position), "off")}
                    </div>
                    <div class="form__row">
                        {input(ctx, errors, phone, "field-phone", "tel", &format_phone(v(d, phone)), "off")}
                        {input(ctx, errors, linkedin, "field-linkedin", "url", v(d, linkedin), "off")}
                    </div>
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <p class="field__hint">
            {ctx.t("project-founders-notice")} " "
            <a href="/politikalar/kvkk-genel-aydinlatma-metni">{ctx.t("policy-kvkk-genel-aydinlatma-metni")}</a>
        </p>
        {founders}
        {input(ctx, errors, "contact_email", "project-contact-email", "email", v(d, "contact_email"), "email")}
        {input(ctx, errors, "how_heard", "field-how-heard", "text", v(d, "how_heard"), "off")}
        <div class="field">
            <label class="field__label" for="note">{ctx.t("field-note")}</label>
            <textarea class="input" id="note" name="note" rows="4">{textarea_text(v(d, "note"))}</textarea>
        </div>
    }
    .into_any()
}

pub fn project_page(
    ctx: &PageContext,
    step: u8,
    draft: &Draft,
    errors: &FieldErrors,
    notice: Option<Notice>,
) -> Page {
    let title = ctx.t(&format!("project-step-{step}"));
    let progress = ctx.locale.t_args(
        "onboarding-step",
        &[
            ("step", FluentArg::Num(step.into())),
            ("total", FluentArg::Num(STEPS.into())),
        ],
    );
    let back = (step > 1).then(|| view! { <a class="button button--ghost" href=format!("/projectFlow/{}", step - 1)>{ctx.t("onboarding-back")}</a> });
    let submit = if step == STEPS {
        ctx.t("project-submit")
    } else {
        ctx.t("onboarding-next")
    };
    let fields = match step {
        1 => step_one(ctx, draft, errors),
        2 => step_two(ctx, draft, errors),
        3 => step_three(ctx, draft, errors),
        _ => step_four(ctx, draft, errors),
    };
    let enctype = (step == 1).then_some("multipart/form-data");
    let body = view! {
        <div class="bare-card auth-card project-card">
            <p class="muted">{ctx.t("project-title")}</p>
            <progress class="progress" max=STEPS.to_string() value=step.to_string() aria-label=progress.clone()>{progress.clone()}</progress>
            <p class="meta">{progress}</p>
            <h1>{title.clone()}</h1>
            {notice_view(notice)}
            {error_summary(ctx, errors)}
            <form class="form" id=format!("project-step-{step}") method="post" action=format!("/projectFlow/{step}") enctype=enctype novalidate>
                {csrf_field(ctx)}
                {crate::pages::applications::honeypot()}
                {fields}
                <div class="form__actions">
                    <button class="button button--primary" type="submit">{submit}</button>
                    {back}
                </div>
            </form>
        </div>
    }
    .into_any();
    let mut page = Page::new(title, ctx.t("project-lead"), body);
    page.indexable = step == 1 && errors.is_empty();
    if step == 1 {
        page.islands.extend(["char-counter", "upload-progress"]);
    }
    page
}

pub fn project_done_page(ctx: &PageContext) -> Page {
    let body = view! {
        <div class="bare-card auth-card">
            <h1>{ctx.t("project-done-title")}</h1>
            <p>{ctx.t("project-done-text")}</p>
            <p><a class="button button--primary" href="/">{ctx.t("not-found-home")}</a></p>
        </div>
    }
    .into_any();
    let mut page = Page::new(
        ctx.t("project-done-title"),
        ctx.t("project-done-text"),
        body,
    );
    page.indexable = false;
    page
}

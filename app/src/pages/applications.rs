//! `/contactUs`, `/gsyf` and `/academy`.

use leptos::prelude::*;

use crate::domain::applications::{
    ACADEMY_BUDGETS, ACADEMY_HEARD_FROM, AcademyForm, ContactForm, FUND_TYPES, GSYF_RANGES,
    GsyfForm,
};
use crate::forms::{
    FieldErrors, Notice, checkbox, choice_group, csrf_field, error_summary, input, notice_view,
    select, textarea_text,
};
use crate::shell::{Page, PageContext};

/// A field people do not see and bots fill in: a filled one marks the submission as spam.
/// Named `fax` so it never clashes with a real field.
pub fn honeypot() -> impl IntoView {
    view! {
        <div class="visually-hidden" aria-hidden="true">
            <label for="fax">"Fax"</label>
            <input id="fax" name="fax" type="text" tabindex="-1" autocomplete="off" value="" />
        </div>
    }
}

/// The optional, separate marketing consent (the newsletter), recorded with its text version.
fn newsletter_consent(
    ctx: &PageContext,
    errors: &FieldErrors,
    checked: bool,
) -> impl IntoView + use<> {
    checkbox(
        ctx,
        errors,
        "newsletter",
        view! { {ctx.t("form-newsletter-consent")} }.into_any(),
        checked,
    )
}

fn textarea(
    ctx: &PageContext,
    errors: &FieldErrors,
    name: &'static str,
    label_id: &str,
    value: &str,
) -> impl IntoView + use<> {
    let error = errors.get(name);
    let described = error.map(|_| format!("{name}-error"));
    let message =
        error.map(|e| view! { <p class="field__error" id=format!("{name}-error")>{ctx.t(e)}</p> });
    view! {
        <div class="field">
            <label class="field__label" for=name>{ctx.t(label_id)}</label>
            <textarea class="input" id=name name=name rows="6" aria-invalid=error.map(|_| "true") aria-describedby=described>
                {textarea_text(value)}
            </textarea>
            {message}
        </div>
    }
}

fn form_page(
    ctx: &PageContext,
    title_id: &str,
    lead_id: &str,
    notice: Option<Notice>,
    errors: &FieldErrors,
    form: AnyView,
) -> Page {
    let body = view! {
        <header class="prose__header">
            <h1>{ctx.t(title_id)}</h1>
            <p class="lead">{ctx.t(lead_id)}</p>
        </header>
        {notice_view(notice)}
        {error_summary(ctx, errors)}
        {form}
    }
    .into_any();
    let mut page = Page::new(ctx.t(title_id), ctx.t(lead_id), body);
    page.indexable = errors.is_empty();
    page
}

pub fn contact_page(
    ctx: &PageContext,
    f: &ContactForm,
    errors: &FieldErrors,
    notice: Option<Notice>,
) -> Page {
    let form = view! {
        <form class="form" method="post" action="/contactUs" novalidate>
            {csrf_field(ctx)}
            {honeypot()}
            {input(ctx, errors, "name", "field-name-surname", "text", &f.name, "name")}
            <div class="form__row">
                {input(ctx, errors, "email", "field-email", "email", &f.email, "email")}
                {input(ctx, errors, "phone", "field-phone", "tel", &f.phone, "tel")}
            </div>
            {input(ctx, errors, "subject", "field-subject", "text", &f.subject, "off")}
            {textarea(ctx, errors, "message", "field-message", &f.message)}
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("form-send")}</button>
            </div>
        </form>
    }
    .into_any();
    form_page(ctx, "contact-title", "contact-lead", notice, errors, form)
}

pub fn gsyf_page(
    ctx: &PageContext,
    f: &GsyfForm,
    newsletter: bool,
    errors: &FieldErrors,
    notice: Option<Notice>,
) -> Page {
    const FUND_TYPE_LABELS: [(&str, &str); 4] = [
        ("technology", "fund-type-technology"),
        ("impact", "fund-type-impact"),
        ("healthcare", "fund-type-healthcare"),
        ("any", "fund-type-any"),
    ];
    debug_assert!(FUND_TYPE_LABELS.iter().map(|(t, _)| *t).eq(FUND_TYPES));
    let ranges: Vec<(&'static str, String)> = GSYF_RANGES
        .iter()
        .map(|r| (*r, format!("gsyf-range-{r}")))
        .collect();
    let form = view! {
        <form class="form" method="post" action="/gsyf" novalidate>
            {csrf_field(ctx)}
            {honeypot()}
            <div class="form__row">
                {input(ctx, errors, "first_name", "field-first-name", "text", &f.first_name, "given-name")}
                {input(ctx, errors, "last_name", "field-last-name", "text", &f.last_name, "family-name")}
            </div>
            <div class="form__row">
                {input(ctx, errors, "email", "field-email", "email", &f.email, "email")}
                {input(ctx, errors, "phone", "field-phone", "tel", &f.phone, "tel")}
            </div>
            {select(ctx, errors, "fund_type", "field-fund-type", &FUND_TYPE_LABELS, &f.fund_type)}
            {choice_group(ctx, errors, "range", "field-gsyf-range", "radio", &ranges, &[f.range.as_str()])}
            {newsletter_consent(ctx, errors, newsletter)}
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("form-apply")}</button>
            </div>
        </form>
    }
    .into_any();
    form_page(ctx, "gsyf-title", "gsyf-lead", notice, errors, form)
}

pub fn academy_page(
    ctx: &PageContext,
    f: &AcademyForm,
    newsletter: bool,
    events: &[(String, String)],
    errors: &FieldErrors,
    notice: Option<Notice>,
) -> Page {
    let event_error = errors.get("event");
    let events_view = events
        .iter()
        .map(|(id, title)| {
            let dom_id = format!("event-{id}");
            let checked = f.event == *id;
            view! {
                <label class="choice">
                    <input type="radio" id=dom_id name="event" value=id.clone() checked=checked />
                    <span>{title.clone()}</span>
                </label>
            }
        })
        .collect_view();
    let budgets: Vec<(&'static str, String)> = ACADEMY_BUDGETS
        .iter()
        .map(|b| (*b, format!("budget-{b}")))
        .collect();
    let heard: Vec<(&'static str, String)> = ACADEMY_HEARD_FROM
        .iter()
        .map(|h| (*h, format!("heard-{h}")))
        .collect();
    let form = view! {
        <form class="form" method="post" action="/academy" novalidate>
            {csrf_field(ctx)}
            {honeypot()}
            <fieldset class="fieldset" aria-invalid=event_error.map(|_| "true") aria-describedby=event_error.map(|_| "event-error")>
                <legend>{ctx.t("field-event")}</legend>
                <div class="choices">{events_view}</div>
                {event_error.map(|e| view! { <p class="field__error" id="event-error">{ctx.t(e)}</p> })}
            </fieldset>
            {input(ctx, errors, "name", "field-name-surname", "text", &f.name, "name")}
            <div class="form__row">
                {input(ctx, errors, "email", "field-email", "email", &f.email, "email")}
                {input(ctx, errors, "phone", "field-phone", "tel", &f.phone, "tel")}
            </div>
            {input(ctx, errors, "institution", "field-institution", "text", &f.institution, "organization")}
            <div class="form__row">
                {input(ctx, errors, "city", "field-city", "text", &f.city, "address-level2")}
                {input(ctx, errors, "linkedin", "field-linkedin", "url", &f.linkedin, "url")}
            </div>
            {choice_group(ctx, errors, "invested_before", "field-experience", "radio",
                &[("yes", "answer-yes".to_owned()), ("no", "answer-no".to_owned())], &[f.invested_before.as_str()])}
            {choice_group(ctx, errors, "budget", "field-budget-usd", "radio", &budgets, &[f.budget.as_str()])}
            {choice_group(ctx, errors, "heard_from", "field-how-heard", "radio", &heard, &[f.heard_from.as_str()])}
            {textarea(ctx, errors, "note", "field-note", &f.note)}
            {newsletter_consent(ctx, errors, newsletter)}
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("form-apply")}</button>
            </div>
        </form>
    }
    .into_any();
    form_page(ctx, "academy-title", "academy-lead", notice, errors, form)
}

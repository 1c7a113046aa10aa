//! `/boardingFlow/1` to `/boardingFlow/5` and `/boardingFlow/success`.

use leptos::prelude::*;

use crate::domain::onboarding::{
    Answers, BUDGETS, HEARD_FROM, INTERESTS, PURPOSES, STEPS, budget_label,
};
use crate::domain::phone::format_phone;
use crate::forms::{FieldErrors, choice_group, csrf_field, error_summary, input, select};
use crate::i18n::FluentArg;
use crate::shell::{Page, PageContext};

fn options(codes: &[&'static str], prefix: &str) -> Vec<(&'static str, String)> {
    codes
        .iter()
        .map(|c| (*c, format!("{prefix}-{c}")))
        .collect()
}

fn yes_no() -> Vec<(&'static str, String)> {
    vec![
        ("yes", "answer-yes".to_owned()),
        ("no", "answer-no".to_owned()),
    ]
}

/// Step 1: the phone, country and city. Sign-up asked them already, so what is known is shown
/// (the phone as people read it) and only changed on request; anything missing (a sign-up
/// through the professional network) or refused is asked.
fn contact_step(ctx: &PageContext, a: &Answers, errors: &FieldErrors) -> AnyView {
    let phone = format_phone(&a.phone);
    let fields = view! {
        {input(ctx, errors, "phone", "field-phone", "tel", &phone, "tel")}
        {input(ctx, errors, "country", "field-country", "text", &a.country, "country-name")}
        {input(ctx, errors, "city", "field-city", "text", &a.city, "address-level2")}
    };
    let known = !(a.phone.is_empty() || a.country.is_empty() || a.city.is_empty());
    if !known || !errors.is_empty() {
        return fields.into_any();
    }
    view! {
        <p>{ctx.t("onboarding-contact-known")}</p>
        <dl class="facts">
            <dt>{ctx.t("field-phone")}</dt><dd>{phone.clone()}</dd>
            <dt>{ctx.t("field-country")}</dt><dd>{a.country.clone()}</dd>
            <dt>{ctx.t("field-city")}</dt><dd>{a.city.clone()}</dd>
        </dl>
        <details class="disclosure">
            <summary>{ctx.t("onboarding-contact-change")}</summary>
            <div class="stack">{fields}</div>
        </details>
    }
    .into_any()
}

fn step_fields(ctx: &PageContext, step: u8, a: &Answers, errors: &FieldErrors) -> AnyView {
    match step {
        1 => contact_step(ctx, a, errors),
        2 => view! {
            {select(ctx, errors, "investor_type", "field-investor-type",
                &[("individual", "investor-type-individual"), ("corporate", "investor-type-corporate")],
                &a.investor_type)}
            // Shown only while "corporate" is chosen (CSS `:has`, no script needed).
            <div class="corporate-only stack">
                <p class="field__hint">{ctx.t("onboarding-corporate-hint")}</p>
                {input(ctx, errors, "company_name", "field-company-name", "text", &a.company_name, "organization")}
                {input(ctx, errors, "tax_office", "field-tax-office", "text", &a.tax_office, "off")}
            </div>
            {input(ctx, errors, "position", "field-position", "text", &a.position, "organization-title")}
        }
        .into_any(),
        3 => view! {
            {choice_group(ctx, errors, "purpose", "field-purpose", "radio", &options(&PURPOSES, "purpose"), &[a.purpose.as_str()])}
            {budget_choice(ctx, errors, &a.budget)}
        }
        .into_any(),
        4 => {
            let selected: Vec<&str> = a.interests.iter().map(String::as_str).collect();
            view! {
                {choice_group(ctx, errors, "interests", "field-interests", "checkbox", &options(&INTERESTS, "interest"), &selected)}
                {choice_group(ctx, errors, "how_heard", "field-how-heard", "radio", &options(&HEARD_FROM, "heard"), &[a.how_heard.as_str()])}
            }
            .into_any()
        }
        _ => view! {
            {choice_group(ctx, errors, "experience", "field-experience", "radio", &yes_no(), &[a.experience.as_str()])}
            {choice_group(ctx, errors, "specific", "field-specific", "radio", &yes_no(), &[a.specific.as_str()])}
            {input(ctx, errors, "specific_startup", "field-specific-startup", "text", &a.specific_startup, "off")}
        }
        .into_any(),
    }
}

/// The budget question in lira, with the minimum ticket beside it, and an answer given
/// earlier in dollars shown for what it was (it is not one of the choices any more).
pub fn budget_choice(ctx: &PageContext, errors: &FieldErrors, stored: &str) -> AnyView {
    let earlier = stored.strip_prefix("usd:").and_then(|_| {
        let band = ctx.t(&budget_label(stored)?);
        Some(view! { <p class="field__hint">{ctx.locale.t_args("budget-earlier", &[("band", band.into())])}</p> })
    });
    view! {
        {choice_group(ctx, errors, "budget", "field-budget", "radio", &options(&BUDGETS, "budget"), &[stored])}
        <p class="field__hint">{ctx.t("budget-hint")}</p>
        {earlier}
    }
    .into_any()
}

pub fn onboarding_page(
    ctx: &PageContext,
    step: u8,
    answers: &Answers,
    errors: &FieldErrors,
) -> Page {
    let title = ctx.t(&format!("onboarding-{step}-title"));
    let progress = ctx.locale.t_args(
        "onboarding-step",
        &[
            ("step", FluentArg::Num(step.into())),
            ("total", FluentArg::Num(STEPS.into())),
        ],
    );
    let back = (step > 1).then(|| {
        let href = format!("/boardingFlow/{}", step - 1);
        view! { <a class="button button--ghost" href=href>{ctx.t("onboarding-back")}</a> }
    });
    let submit = if step == STEPS {
        ctx.t("onboarding-finish")
    } else {
        ctx.t("onboarding-next")
    };
    let body = view! {
        <div class="bare-card auth-card">
            <p class="muted">{ctx.t("onboarding-title")}</p>
            <progress class="progress" max=STEPS.to_string() value=step.to_string() aria-label=progress.clone()>
                {progress.clone()}
            </progress>
            <p class="meta">{progress}</p>
            <h1>{title.clone()}</h1>
            {error_summary(ctx, errors)}
            <form class="form" method="post" action=format!("/boardingFlow/{step}") novalidate>
                {csrf_field(ctx)}
                {step_fields(ctx, step, answers, errors)}
                <div class="form__actions">
                    <button class="button button--primary" type="submit">{submit}</button>
                    {back}
                </div>
            </form>
        </div>
    }
    .into_any();
    let mut page = Page::new(title, ctx.t("onboarding-title"), body);
    page.indexable = false;
    page
}

pub fn onboarding_done_page(ctx: &PageContext) -> Page {
    let body = view! {
        <div class="bare-card auth-card">
            <h1>{ctx.t("onboarding-success-title")}</h1>
            <p>{ctx.t("onboarding-success-text")}</p>
            <div class="form__actions">
                <a class="button button--primary" href="/startups">{ctx.t("home-hero-primary")}</a>
                <a class="button button--ghost" href="/mkk">{ctx.t("onboarding-success-mkk")}</a>
            </div>
        </div>
    }
    .into_any();
    let mut page = Page::new(
        ctx.t("onboarding-success-title"),
        ctx.t("onboarding-success-text"),
        body,
    );
    page.indexable = false;
    page
}

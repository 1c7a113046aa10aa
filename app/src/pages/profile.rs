//! `/profile`: six tabs, each a plain form (links switch tabs, so no JavaScript is needed).

use leptos::prelude::*;

use crate::domain::notifications::MailKind;
use crate::domain::onboarding::{INTERESTS, PURPOSES};
use crate::domain::profile::{MkkSent, Profile};
use crate::forms::{FieldErrors, checkbox, choice_group, csrf_field, error_summary, input, select};
use crate::shell::{Page, PageContext};

pub const TABS: [&str; 6] = [
    "info",
    "security",
    "preferences",
    "investor",
    "notifications",
    "delete",
];

fn options(codes: &[&'static str], prefix: &str) -> Vec<(&'static str, String)> {
    codes
        .iter()
        .map(|c| (*c, format!("{prefix}-{c}")))
        .collect()
}

fn tab_form(
    ctx: &PageContext,
    action: &'static str,
    submit_id: &str,
    fields: AnyView,
) -> impl IntoView + use<> {
    view! {
        <form class="form" method="post" action=action novalidate>
            {csrf_field(ctx)}
            {fields}
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t(submit_id)}</button>
            </div>
        </form>
    }
}

fn info_tab(ctx: &PageContext, p: &Profile, errors: &FieldErrors, avatar: &str) -> AnyView {
    let image_error = errors
        .get("image")
        .map(|e| view! { <p class="field__error" id="image-error">{ctx.t(e)}</p> });
    let fields = view! {
        <p class="muted">{ctx.t("field-email")} ": " <strong>{p.email.clone()}</strong></p>
        <div class="form__row">
            {input(ctx, errors, "first_name", "field-first-name", "text", &p.first_name, "given-name")}
            {input(ctx, errors, "last_name", "field-last-name", "text", &p.last_name, "family-name")}
        </div>
        {input(ctx, errors, "position", "field-position", "text", &p.position, "organization-title")}
        {input(ctx, errors, "phone", "field-phone", "tel", &p.phone, "tel")}
        <div class="form__row">
            {input(ctx, errors, "country", "field-country", "text", &p.country, "country-name")}
            {input(ctx, errors, "city", "field-city", "text", &p.city, "address-level2")}
        </div>
        {select(ctx, errors, "language", "field-language", &[("tr", "language-tr"), ("en", "language-en")], &p.language)}
    }
    .into_any();
    view! {
        <section class="profile-image stack" aria-labelledby="profile-image-title">
            <h2 id="profile-image-title">{ctx.t("profile-image-title")}</h2>
            <img class="avatar avatar--large" src=avatar.to_owned() alt="" width="96" height="96" />
            <form class="form" method="post" action="/profile/image" enctype="multipart/form-data">
                {csrf_field(ctx)}
                <div class="field">
                    <label class="field__label" for="image">{ctx.t("profile-image-label")}</label>
                    <input id="image" name="image" type="file" accept="image/jpeg,image/png,image/webp"
                        aria-describedby="image-hint" aria-invalid=errors.get("image").map(|_| "true") />
                    <p class="field__hint" id="image-hint">{ctx.t("profile-image-hint")}</p>
                    {image_error}
                </div>
                <div class="form__actions">
                    <button class="button button--ghost" type="submit">{ctx.t("profile-image-submit")}</button>
                </div>
            </form>
        </section>
        {tab_form(ctx, "/profile/info", "profile-save", fields)}
    }
    .into_any()
}

/// Two-factor sign-in as the security tab shows it.
#[derive(Clone, Copy, Default)]
pub struct TwoFactorStatus {
    /// Enrolled, with this many recovery codes left.
    pub codes_left: Option<i64>,
    /// Staff: required, so it cannot be turned off.
    pub required: bool,
}

fn two_factor_section(ctx: &PageContext, tf: TwoFactorStatus, errors: &FieldErrors) -> AnyView {
    let Some(left) = tf.codes_left else {
        return view! {
            <h2>{ctx.t("two-factor-section")}</h2>
            <p>{ctx.t("two-factor-off")}</p>
            <p><a class="button button--ghost" href="/profile/2fa">{ctx.t("two-factor-turn-on")}</a></p>
        }
        .into_any();
    };
    let code = |ctx: &PageContext| {
        view! { {input(ctx, errors, "code", "two-factor-code", "text", "", "one-time-code")} }
            .into_any()
    };
    let disable = (!tf.required).then(|| {
        view! {
            <h3>{ctx.t("two-factor-turn-off")}</h3>
            {tab_form(ctx, "/profile/2fa/disable", "two-factor-turn-off", code(ctx))}
        }
    });
    view! {
        <h2>{ctx.t("two-factor-section")}</h2>
        <p>{ctx.t("two-factor-on")} " "
            {ctx.locale.t_args("two-factor-codes-left", &[("count", left.into())])}</p>
        <h3>{ctx.t("two-factor-renew")}</h3>
        {tab_form(ctx, "/profile/2fa/recovery", "two-factor-renew", code(ctx))}
        {disable}
    }
    .into_any()
}

fn security_tab(ctx: &PageContext, errors: &FieldErrors, tf: TwoFactorStatus) -> AnyView {
    let fields = view! {
        {input(ctx, errors, "current_password", "field-current-password", "password", "", "current-password")}
        {input(ctx, errors, "password", "field-new-password", "password", "", "new-password")}
        {input(ctx, errors, "password_confirm", "field-password-confirm", "password", "", "new-password")}
    }
    .into_any();
    view! {
        <h2>{ctx.t("profile-password-title")}</h2>
        {tab_form(ctx, "/profile/password", "profile-password-submit", fields)}
        {two_factor_section(ctx, tf, errors)}
        <h2>{ctx.t("profile-email-title")}</h2>
        <p>{ctx.t("profile-email-text")} " " <a href="/contactUs">{ctx.t("menu-contact")}</a></p>
    }
    .into_any()
}

fn preferences_tab(ctx: &PageContext, p: &Profile, errors: &FieldErrors) -> AnyView {
    let interests: Vec<&str> = p.interests.iter().map(String::as_str).collect();
    let fields = view! {
        {choice_group(ctx, errors, "purpose", "field-purpose", "radio", &options(&PURPOSES, "purpose"), &[p.purpose.as_str()])}
        {super::onboarding::budget_choice(ctx, errors, &p.budget)}
        {choice_group(ctx, errors, "interests", "field-interests", "checkbox", &options(&INTERESTS, "interest"), &interests)}
    }
    .into_any();
    tab_form(ctx, "/profile/preferences", "profile-save", fields).into_any()
}

/// The MKK membership data as sent, read-only: the one record investing goes by, changed on
/// its own form.
fn mkk_summary(ctx: &PageContext, m: &MkkSent) -> AnyView {
    let row = |label: &str, value: String| {
        view! { <dt>{ctx.t(label)}</dt><dd>{value}</dd> }
    };
    let citizen = ctx.t(if m.citizen { "answer-yes" } else { "answer-no" });
    let organisation =
        (!m.organisation.is_empty()).then(|| row("field-organisation", m.organisation.clone()));
    view! {
        <p>{ctx.t("profile-mkk-intro")}</p>
        <dl class="facts">
            {row("mkk-status", ctx.t(&format!("mkk-status-{}", m.status)))}
            {row("field-investor-type", ctx.t(&format!("investor-type-{}", m.investor_type)))}
            {row("field-name-surname", m.name.clone())}
            {organisation}
            {row("field-citizen", citizen)}
            {row("field-id-type", ctx.t(&format!("id-type-{}", m.id_type)))}
            {row("field-identity-number", m.identity_number.clone())}
            {row("field-annual-income", m.annual_income.clone())}
            {row("field-birth-date", m.birth_date.clone())}
        </dl>
        <p><a class="button button--ghost" href="/mkk?next=/profile%3Ftab%3Dinvestor">{ctx.t("profile-mkk-change")}</a></p>
    }
    .into_any()
}

fn investor_tab(ctx: &PageContext, p: &Profile, errors: &FieldErrors) -> AnyView {
    if let Some(mkk) = &p.mkk {
        return mkk_summary(ctx, mkk);
    }
    let fields = view! {
        <p class="muted">{ctx.t("profile-mkk-not-sent")} " " <a href="/mkk">{ctx.t("investment-needs-mkk-link")}</a></p>
        <div class="form__row">
            {select(ctx, errors, "investor_type", "field-investor-type",
                &[("individual", "investor-type-individual"), ("corporate", "investor-type-corporate")], &p.investor_type)}
            {select(ctx, errors, "id_type", "field-id-type",
                &[("tckn", "id-type-tckn"), ("ykn", "id-type-ykn"), ("vkn", "id-type-vkn")], &p.id_type)}
        </div>
        {choice_group(ctx, errors, "citizen", "field-citizen", "radio",
            &[("yes", "answer-yes".to_owned()), ("no", "answer-no".to_owned())], &[p.citizen.as_str()])}
        {input(ctx, errors, "identity_number", "field-identity-number", "text", &p.identity_number, "off")}
        <div class="form__row">
            {input(ctx, errors, "company_name", "field-company-name", "text", &p.company_name, "organization")}
            {input(ctx, errors, "tax_office", "field-tax-office", "text", &p.tax_office, "off")}
        </div>
        <div class="form__row">
            {input(ctx, errors, "annual_income", "field-annual-income", "text", &p.annual_income, "off")}
            {input(ctx, errors, "birth_date", "field-birth-date", "date", &p.birth_date, "bday")}
        </div>
    }
    .into_any();
    tab_form(ctx, "/profile/investor", "profile-save", fields).into_any()
}

fn notifications_tab(ctx: &PageContext, p: &Profile, errors: &FieldErrors) -> AnyView {
    let kinds: Vec<(&'static str, String)> = MailKind::ALL
        .iter()
        .map(|k| (k.code(), format!("mail-kind-{}", k.code())))
        .collect();
    let on: Vec<&str> = p.mails.iter().map(String::as_str).collect();
    let fields = view! {
        <p>{ctx.t("notifications-intro")}</p>
        {choice_group(ctx, errors, "mails", "field-mails", "checkbox", &kinds, &on)}
    }
    .into_any();
    tab_form(ctx, "/profile/notifications", "profile-save", fields).into_any()
}

fn delete_tab(ctx: &PageContext, errors: &FieldErrors) -> AnyView {
    let fields = view! {
        {input(ctx, errors, "current_password", "field-current-password", "password", "", "current-password")}
        {checkbox(ctx, errors, "confirm", view! { {ctx.t("profile-delete-confirm")} }.into_any(), false)}
    }
    .into_any();
    view! {
        <h2>{ctx.t("profile-export-title")}</h2>
        <p>{ctx.t("profile-export-text")}</p>
        <p><a class="button button--ghost" href="/profile/export" download="ortak-kisisel-veriler.json">{ctx.t("profile-export-button")}</a></p>
        <h2>{ctx.t("profile-delete-title")}</h2>
        <p>{ctx.t("profile-delete-erased")}</p>
        <p>{ctx.t("profile-delete-kept")}</p>
        <form class="form" method="post" action="/profile/delete" novalidate>
            {csrf_field(ctx)}
            {fields}
            <div class="form__actions">
                <button class="button button--danger" type="submit">{ctx.t("profile-delete-submit")}</button>
            </div>
        </form>
    }
    .into_any()
}

pub fn profile_page(
    ctx: &PageContext,
    tab: &str,
    p: &Profile,
    errors: &FieldErrors,
    avatar: &str,
    two_factor: TwoFactorStatus,
) -> Page {
    let tabs = TABS
        .iter()
        .map(|t| {
            let href = format!("/profile?tab={t}");
            let current = (*t == tab).then_some("page");
            view! { <li><a href=href aria-current=current>{ctx.t(&format!("profile-tab-{t}"))}</a></li> }
        })
        .collect_view();
    let content = match tab {
        "security" => security_tab(ctx, errors, two_factor),
        "preferences" => preferences_tab(ctx, p, errors),
        "investor" => investor_tab(ctx, p, errors),
        "notifications" => notifications_tab(ctx, p, errors),
        "delete" => delete_tab(ctx, errors),
        _ => info_tab(ctx, p, errors, avatar),
    };
    let title = ctx.t("profile-title");
    let body = view! {
        <header class="prose__header">
            <h1>{title.clone()}</h1>
        </header>
        <div class="with-sidebar">
            <nav class="policy-nav" aria-label=ctx.t("profile-tabs-label")>
                <ul>{tabs}</ul>
            </nav>
            <section class="profile-tab stack" aria-label=ctx.t(&format!("profile-tab-{tab}"))>
                {error_summary(ctx, errors)}
                {content}
            </section>
        </div>
    }
    .into_any();
    let mut page = Page::new(title, ctx.t("profile-description"), body);
    page.indexable = false;
    page
}

//! Sign-up, sign-in, verification and password recovery pages. They have no site header
//! (spec layout rules), so each card carries the brand link home.

use leptos::prelude::*;

use crate::domain::accounts::{SignupForm, founder_signup};
use crate::forms::{
    FieldErrors, Notice, checkbox, csrf_field, error_summary, input, notice_view, select,
};
use crate::shell::{Page, PageContext};

fn card(ctx: &PageContext, title: String, lead: String, content: AnyView) -> AnyView {
    view! {
        <div class="bare-card auth-card">
            <a class="brand" href="/">
                {crate::brand::logo(ctx.t("site-name"))}
            </a>
            <h1>{title}</h1>
            {(!lead.is_empty()).then(|| view! { <p class="muted">{lead}</p> })}
            {content}
        </div>
    }
    .into_any()
}

/// A page of the sign-in family: the brand, a title, a lead and `content` in one card, not
/// indexed.
pub fn auth_page(ctx: &PageContext, title_id: &str, lead: String, content: AnyView) -> Page {
    let title = ctx.t(title_id);
    let body = card(ctx, title.clone(), lead.clone(), content);
    let mut page = Page::new(title, lead, body);
    page.indexable = false;
    page
}

/// The terms box's label: the texts a member accepts, each linked.
fn terms_label(ctx: &PageContext) -> AnyView {
    view! {
        {ctx.t("signup-terms")} " "
        <a href="/politikalar/uyelik-sozlesmesi">{ctx.t("policy-uyelik-sozlesmesi")}</a>
        " · "
        <a href="/politikalar/kvkk-genel-aydinlatma-metni">{ctx.t("policy-kvkk-genel-aydinlatma-metni")}</a>
    }
    .into_any()
}

pub fn signup_page(ctx: &PageContext, form: &SignupForm, errors: &FieldErrors) -> Page {
    let language = if form.language.is_empty() {
        ctx.locale.code()
    } else {
        form.language.as_str()
    };
    // A founder staff invited joins to work for their startup: no investor type is asked.
    let founder = founder_signup(&form.next);
    let note = founder.then(
        || view! { <p class="flash flash--info" role="status">{ctx.t("signup-founder-note")}</p> },
    );
    let content = view! {
        {note}
        {error_summary(ctx, errors)}
        <form class="form" method="post" action=ctx.path.to_owned() novalidate>
            {csrf_field(ctx)}
            {next_field(&form.next)}
            <div class="form__row">
                {input(ctx, errors, "first_name", "field-first-name", "text", &form.first_name, "given-name")}
                {input(ctx, errors, "last_name", "field-last-name", "text", &form.last_name, "family-name")}
            </div>
            {input(ctx, errors, "email", "field-email", "email", &form.email, "email")}
            {input(ctx, errors, "phone", "field-phone", "tel", &form.phone, "tel")}
            <div class="form__row">
                {input(ctx, errors, "country", "field-country", "text", &form.country, "country-name")}
                {input(ctx, errors, "city", "field-city", "text", &form.city, "address-level2")}
            </div>
            <div class="form__row">
                {(!founder).then(|| select(ctx, errors, "investor_type", "field-investor-type",
                    &[("individual", "investor-type-individual"), ("corporate", "investor-type-corporate")],
                    &form.investor_type))}
                {select(ctx, errors, "language", "field-language",
                    &[("tr", "language-tr"), ("en", "language-en")], language)}
            </div>
            {input(ctx, errors, "password", "field-password", "password", "", "new-password")}
            {input(ctx, errors, "password_confirm", "field-password-confirm", "password", "", "new-password")}
            {checkbox(ctx, errors, "terms", terms_label(ctx), form.terms.is_some())}
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("signup-submit")}</button>
            </div>
        </form>
        <p>{ctx.t("signup-have-account")} " " <a href=with_next("/signin", &form.next)>{ctx.t("sign-in")}</a></p>
    }
    .into_any();
    auth_page(ctx, "signup-title", ctx.t("signup-description"), content)
}

/// `path` with `?next=` when there is somewhere to go on to.
pub fn with_next(path: &str, next: &str) -> String {
    if next.is_empty() || next == "/" {
        path.to_owned()
    } else {
        format!("{path}?next={}", crate::domain::paths::encode_query(next))
    }
}

/// The hidden `next` field of a form that keeps where the visitor goes on to.
fn next_field(next: &str) -> Option<impl IntoView + use<>> {
    (!next.is_empty()).then(|| view! { <input type="hidden" name="next" value=next.to_owned() /> })
}

/// What the sign-in page shows.
#[derive(Default)]
pub struct SigninState {
    pub email: String,
    pub link_email: String,
    /// Whether the terms box was ticked (kept when the form comes back).
    pub terms: bool,
    pub notice: Option<Notice>,
    pub errors: FieldErrors,
    /// Where to go after signing in (a local path), kept across the form.
    pub next: String,
    /// Whether the professional-network (OpenID Connect) sign-in is configured.
    pub oidc: bool,
}

pub fn signin_page(ctx: &PageContext, state: &SigninState) -> Page {
    let errors = &state.errors;
    let oidc_href = if state.next.is_empty() || state.next == "/" {
        "/signin/oidc".to_owned()
    } else {
        format!(
            "/signin/oidc?next={}",
            crate::domain::paths::encode_query(&state.next)
        )
    };
    let oidc = state.oidc.then(|| {
        view! {
            <p class="auth-card__or">{ctx.t("signin-or")}</p>
            <a class="button button--ghost button--block" href=oidc_href.clone()>{ctx.t("signin-with-linkedin")}</a>
        }
    });
    // A visitor who opened a startup is told why they were asked to sign in.
    let why = state.next.starts_with("/startups/").then(|| {
        view! {
            <p class="flash flash--info" role="status">
                {ctx.t("signin-startup-why")} " " <a href=with_next("/signup", &state.next)>{ctx.t("signin-startup-join")}</a>
            </p>
        }
    });
    let content = view! {
        {why}
        {notice_view(state.notice.clone())}
        <form class="form" method="post" action="/signin" novalidate>
            {csrf_field(ctx)}
            <input type="hidden" name="next" value=state.next.clone() />
            {input(ctx, errors, "email", "field-email", "email", &state.email, "username")}
            {input(ctx, errors, "password", "field-password", "password", "", "current-password")}
            {checkbox(ctx, errors, "terms", terms_label(ctx), state.terms)}
            <p class="field__hint">{ctx.t("signin-terms-hint")}</p>
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("signin-submit")}</button>
                <a href="/forgotpassword">{ctx.t("signin-forgot")}</a>
            </div>
        </form>
        {oidc}
        <section class="auth-card__section" aria-labelledby="signin-link-title">
            <h2 id="signin-link-title">{ctx.t("signin-link-title")}</h2>
            <p class="muted">{ctx.t("signin-link-text")}</p>
            <form class="form" method="post" action="/signin/link" novalidate>
                {csrf_field(ctx)}
                <input type="hidden" name="next" value=state.next.clone() />
                {input(ctx, errors, "link_email", "field-email", "email", &state.link_email, "email")}
                <div class="form__actions">
                    <button class="button button--ghost" type="submit">{ctx.t("signin-link-submit")}</button>
                </div>
            </form>
        </section>
        <p>{ctx.t("signin-no-account")} " " <a href=with_next("/signup", &state.next)>{ctx.t("sign-up")}</a></p>
    }
    .into_any();
    auth_page(ctx, "signin-title", ctx.t("signin-description"), content)
}

/// What `/verification` shows.
#[derive(Default)]
pub struct VerificationState {
    /// A signed-in member whose address is not verified: one button resends to it.
    pub signed_in: bool,
    /// The address a visitor typed, kept when the form comes back.
    pub email: String,
    pub errors: FieldErrors,
    pub notice: Option<Notice>,
    /// Where the verification link goes on to, kept from sign-up.
    pub next: String,
}

/// The resend form: one button for a signed-in member, the address for anyone else.
fn resend_form(ctx: &PageContext, state: &VerificationState) -> AnyView {
    let address = (!state.signed_in).then(|| {
        view! {
            {input(ctx, &state.errors, "email", "field-email", "email", &state.email, "email")}
            <p class="field__hint">{ctx.t("verification-resend-hint")}</p>
        }
    });
    view! {
        <form class="form" method="post" action="/verification" novalidate>
            {csrf_field(ctx)}
            {next_field(&state.next)}
            {address}
            <div class="form__actions">
                <button class="button button--ghost" type="submit">{ctx.t("verification-resend")}</button>
            </div>
        </form>
    }
    .into_any()
}

pub fn verification_page(ctx: &PageContext, state: &VerificationState) -> Page {
    let content = view! {
        {notice_view(state.notice.clone())}
        {resend_form(ctx, state)}
        <p><a href="/">{ctx.t("not-found-home")}</a></p>
    }
    .into_any();
    auth_page(
        ctx,
        "verification-title",
        ctx.t("verification-text"),
        content,
    )
}

/// The page a mailed verification link opens: the address it verifies and one button, so that
/// opening the link signs nobody in. `link` is `(token, address)`; `None` when the link is no
/// longer valid: then a new one can be asked for here, or the member signs in.
pub fn verification_confirm_page(
    ctx: &PageContext,
    link: Option<(&str, &str)>,
    next: &str,
) -> Page {
    let (lead, content) = match link {
        Some((token, email)) => (
            ctx.locale.t_args("verification-confirm-text", &[("email", email.to_owned().into())]),
            view! {
                <form class="form" method="post" action="/verificationtoken">
                    {csrf_field(ctx)}
                    <input type="hidden" name="token" value=token.to_owned() />
                    {next_field(next)}
                    <button class="button button--primary" type="submit">{ctx.t("verification-confirm-submit")}</button>
                </form>
            }
            .into_any(),
        ),
        None => {
            let state = VerificationState {
                next: next.to_owned(),
                ..VerificationState::default()
            };
            (
                String::new(),
                view! {
                    <div class="flash flash--error" role="alert">{ctx.t("verification-invalid")}</div>
                    <section class="auth-card__section" aria-labelledby="resend-title">
                        <h2 id="resend-title">{ctx.t("verification-resend-title")}</h2>
                        {resend_form(ctx, &state)}
                    </section>
                    <p>{ctx.t("verification-or-signin")} " " <a href=with_next("/signin", next)>{ctx.t("signin-title")}</a></p>
                }
                .into_any(),
            )
        }
    };
    auth_page(ctx, "verification-confirm-title", lead, content)
}

pub fn forgot_page(
    ctx: &PageContext,
    email: &str,
    errors: &FieldErrors,
    notice: Option<Notice>,
) -> Page {
    let content = view! {
        {notice_view(notice)}
        <form class="form" method="post" action=ctx.path.to_owned() novalidate>
            {csrf_field(ctx)}
            {input(ctx, errors, "email", "field-email", "email", email, "email")}
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("forgot-submit")}</button>
                <a href="/signin">{ctx.t("sign-in")}</a>
            </div>
        </form>
    }
    .into_any();
    auth_page(ctx, "forgot-title", ctx.t("forgot-text"), content)
}

/// The reset form; `token` is `None` when the link is no longer valid.
pub fn reset_page(ctx: &PageContext, token: Option<&str>, errors: &FieldErrors) -> Page {
    let content = match token {
        Some(token) => view! {
            {error_summary(ctx, errors)}
            <form class="form" method="post" action="/resetpassword" novalidate>
                {csrf_field(ctx)}
                <input type="hidden" name="token" value=token.to_owned() />
                {input(ctx, errors, "password", "field-new-password", "password", "", "new-password")}
                {input(ctx, errors, "password_confirm", "field-password-confirm", "password", "", "new-password")}
                <div class="form__actions">
                    <button class="button button--primary" type="submit">{ctx.t("reset-submit")}</button>
                </div>
            </form>
        }
        .into_any(),
        None => view! {
            <div class="flash flash--error" role="alert">
                <strong>{ctx.t("reset-failed")}</strong> " " {ctx.t("reset-expired")}
            </div>
            <p><a class="button button--primary" href="/forgotpassword">{ctx.t("forgot-submit")}</a></p>
        }
        .into_any(),
    };
    auth_page(ctx, "reset-title", String::new(), content)
}

/// The page an e-mailed sign-in link opens: one button that signs in, so that mail scanners
/// following the link do not use it up. `token` is `None` when the link is no longer valid.
pub fn signin_link_page(ctx: &PageContext, token: Option<&str>, next: &str) -> Page {
    let content = match token {
        Some(token) => view! {
            <form class="form" method="post" action="/signin/link/use">
                {csrf_field(ctx)}
                <input type="hidden" name="token" value=token.to_owned() />
                <input type="hidden" name="next" value=next.to_owned() />
                <button class="button button--primary" type="submit">{ctx.t("signin-submit")}</button>
            </form>
        }
        .into_any(),
        None => view! {
            <div class="flash flash--error" role="alert">{ctx.t("signin-link-invalid")}</div>
            <p><a class="button button--primary" href="/signin">{ctx.t("signin-title")}</a></p>
        }
        .into_any(),
    };
    auth_page(ctx, "signin-title", ctx.t("signin-link-text"), content)
}

/// A new member coming from the professional network accepts the terms before joining.
/// `/signin/terms`: a member accepts the current membership agreement and KVKK notice before
/// a member area opens, then goes on to `next`.
pub fn terms_update_page(ctx: &PageContext, next: &str, errors: &FieldErrors) -> Page {
    let text = ctx.locale.t_args(
        "terms-update-text",
        &[("version", crate::domain::terms::VERSION.into())],
    );
    let content = view! {
        <form class="form" method="post" action="/signin/terms" novalidate>
            {csrf_field(ctx)}
            <input type="hidden" name="next" value=next.to_owned()/>
            {checkbox(ctx, errors, "terms", terms_label(ctx), false)}
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("terms-update-submit")}</button>
            </div>
        </form>
    }
    .into_any();
    auth_page(ctx, "terms-update-title", text, content)
}

pub fn oidc_terms_page(ctx: &PageContext, email: &str, errors: &FieldErrors) -> Page {
    let content = view! {
        <p>{ctx.t("field-email")} ": " <strong>{email.to_owned()}</strong></p>
        <form class="form" method="post" action="/signin/oidc/terms" novalidate>
            {csrf_field(ctx)}
            {checkbox(ctx, errors, "terms", terms_label(ctx), false)}
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("signup-submit")}</button>
            </div>
        </form>
    }
    .into_any();
    auth_page(ctx, "signup-title", ctx.t("oidc-terms-text"), content)
}

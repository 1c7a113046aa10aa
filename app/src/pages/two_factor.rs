//! Two-factor sign-in pages: the code asked after the first factor, enrolling an authenticator
//! app (QR code and the secret to type), and the recovery codes shown once.

use leptos::prelude::*;

use super::auth::auth_page;
use crate::forms::{FieldErrors, Notice, csrf_field, error_summary, input, notice_view};
use crate::shell::{Page, PageContext};

/// `/signin/2fa`: the authenticator's code (or a recovery code).
pub fn code_page(ctx: &PageContext, errors: &FieldErrors, notice: Option<Notice>) -> Page {
    let content = view! {
        {notice_view(notice)}
        {error_summary(ctx, errors)}
        <form class="form" method="post" action="/signin/2fa" novalidate>
            {csrf_field(ctx)}
            {input(ctx, errors, "code", "two-factor-code", "text", "", "one-time-code")}
            <p class="field__hint">{ctx.t("two-factor-recovery-hint")}</p>
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("two-factor-submit")}</button>
                <a href="/signin">{ctx.t("two-factor-cancel")}</a>
            </div>
        </form>
    }
    .into_any();
    auth_page(ctx, "two-factor-title", ctx.t("two-factor-text"), content)
}

/// What the enrolment page shows.
pub struct Enrolment<'a> {
    /// Where the confirming code is posted.
    pub action: &'static str,
    /// The QR code, an SVG element rendered by the server.
    pub qr_svg: &'a str,
    /// The secret in base32, for typing in by hand.
    pub secret: &'a str,
    /// Staff must enrol; others chose to.
    pub required: bool,
}

/// Enrolling an authenticator app: scan the QR code (or type the secret), then confirm with a
/// code.
pub fn enrol_page(
    ctx: &PageContext,
    enrolment: &Enrolment,
    errors: &FieldErrors,
    notice: Option<Notice>,
) -> Page {
    let lead = if enrolment.required {
        ctx.t("two-factor-enrol-required")
    } else {
        ctx.t("two-factor-enrol-text")
    };
    // Groups of four letters, as authenticator apps show secrets.
    let grouped: String = enrolment
        .secret
        .as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let content = view! {
        {notice_view(notice)}
        {error_summary(ctx, errors)}
        <ol class="stack">
            <li>{ctx.t("two-factor-enrol-step-app")}</li>
            <li>
                {ctx.t("two-factor-enrol-step-scan")}
                <div class="qr-code" inner_html=enrolment.qr_svg.to_owned()></div>
                <p>
                    {ctx.t("two-factor-enrol-secret")} " "
                    <code class="totp-secret" data-secret=enrolment.secret.to_owned()>{grouped}</code>
                </p>
            </li>
            <li>{ctx.t("two-factor-enrol-step-code")}</li>
        </ol>
        <form class="form" method="post" action=enrolment.action novalidate>
            {csrf_field(ctx)}
            {input(ctx, errors, "code", "two-factor-code", "text", "", "one-time-code")}
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("two-factor-enrol-submit")}</button>
            </div>
        </form>
    }
    .into_any();
    auth_page(ctx, "two-factor-enrol-title", lead, content)
}

/// The recovery codes, shown once, under the message `message_id`, and the way on.
pub fn recovery_codes_page(
    ctx: &PageContext,
    codes: &[String],
    next: &str,
    message_id: &str,
) -> Page {
    let items = codes
        .iter()
        .map(|c| view! { <li><code>{c.clone()}</code></li> })
        .collect_view();
    let content = view! {
        <div class="flash flash--success" role="status">{ctx.t(message_id)}</div>
        <p>{ctx.t("two-factor-codes-text")}</p>
        <ul class="recovery-codes">{items}</ul>
        <p><a class="button button--primary" href=next.to_owned()>{ctx.t("two-factor-continue")}</a></p>
    }
    .into_any();
    auth_page(ctx, "two-factor-codes-title", String::new(), content)
}

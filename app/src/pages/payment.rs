//! `/invFlow`: the service fee by card (with the sandbox 3-D Secure step), then the escrow
//! transfer details; `/paymentSuccess` and `/paymentFail`.

use leptos::prelude::*;
use serde_json::json;

use crate::domain::card::CardInput;
use crate::domain::money::Money;
use crate::forms::{FieldErrors, Notice, checkbox, csrf_field, error_summary, input, notice_view};
use crate::pages::journey::{Step, journey};
use crate::shell::{Page, PageContext};

fn private(title: String, body: AnyView) -> Page {
    let mut page = Page::new(title.clone(), title, body);
    page.indexable = false;
    page
}

/// The request being paid, as the payment pages show it.
pub struct PaymentSummary {
    pub request_id: i64,
    pub startup: String,
    pub fee: Money,
    pub investment: Money,
}

fn summary(ctx: &PageContext, s: &PaymentSummary) -> impl IntoView + use<> {
    view! {
        <dl class="figures investment-summary">
            <div><dt>{ctx.t("dashboard-col-startup")}</dt><dd>{s.startup.clone()}</dd></div>
            <div><dt>{ctx.t("investment-summary-fee")}</dt><dd>{s.fee.format(ctx.locale)}</dd></div>
            <div><dt>{ctx.t("investment-summary-payment")}</dt><dd>{s.investment.format(ctx.locale)}</dd></div>
        </dl>
    }
}

/// Says that payments here are the sandbox's: no money moves, test cards only.
fn sandbox_banner(ctx: &PageContext) -> impl IntoView + use<> {
    view! {
        <div class="flash flash--info sandbox-banner" role="note">
            <strong>{ctx.t("payment-sandbox-banner-title")}</strong>" "{ctx.t("payment-sandbox-banner")}
        </div>
    }
}

/// The card step; `sandbox` shows the sandbox's banner.
pub fn card_step_page(
    ctx: &PageContext,
    s: &PaymentSummary,
    card: &CardInput,
    errors: &FieldErrors,
    sandbox: bool,
) -> Page {
    let field_errors: serde_json::Map<String, serde_json::Value> =
        ["holder", "number", "month", "year", "cvv"]
            .iter()
            .filter_map(|f| {
                errors
                    .get(f)
                    .map(|m| ((*f).to_owned(), serde_json::Value::from(ctx.t(m))))
            })
            .collect();
    // The button says what is paid.
    let pay = ctx.locale.t_args(
        "card-submit-amount",
        &[("amount", s.fee.format(ctx.locale).into())],
    );
    let props = json!({
        "labels": {
            "holder": ctx.t("card-holder"), "number": ctx.t("card-number"), "month": ctx.t("card-month"),
            "year": ctx.t("card-year"), "cvv": ctx.t("card-cvv"), "submit": pay,
        },
        "messages": {
            "required": ctx.t("validation-required"), "number": ctx.t("validation-card-number"),
            "month": ctx.t("validation-card-month"), "year": ctx.t("validation-card-year"),
            "cvv": ctx.t("validation-card-cvv"), "holder": ctx.t("validation-card-holder"),
        },
        // The card number, like the CVV, is never sent back to the browser.
        "values": { "holder": card.holder, "month": card.month, "year": card.year },
        "errors": field_errors,
        "csrf": ctx.csrf,
        "action": "/invFlow/card",
        "requestId": s.request_id,
    })
    .to_string();
    let body = view! {
        <section class="bare-card auth-card">
            {journey(ctx, Step::Fee)}
            <p class="muted">{ctx.t("payment-step-card")}</p>
            <h1>{ctx.t("payment-card-title")}</h1>
            {sandbox.then(|| sandbox_banner(ctx))}
            <p>{ctx.t("payment-card-text")}</p>
            {summary(ctx, s)}
            <p class="flash flash--info fee-refund" role="note">{ctx.t("payment-fee-refunded")}</p>
            {error_summary(ctx, errors)}
            <div data-island="card-payment" data-props=props>
                <form class="form" method="post" action="/invFlow/card" novalidate autocomplete="on">
                    {csrf_field(ctx)}
                    <input type="hidden" name="request" value=s.request_id.to_string() />
                    {input(ctx, errors, "holder", "card-holder", "text", &card.holder, "cc-name")}
                    {input(ctx, errors, "number", "card-number", "text", "", "cc-number")}
                    <div class="form__row">
                        {input(ctx, errors, "month", "card-month", "text", &card.month, "cc-exp-month")}
                        {input(ctx, errors, "year", "card-year", "text", &card.year, "cc-exp-year")}
                        {input(ctx, errors, "cvv", "card-cvv", "text", "", "cc-csc")}
                    </div>
                    <div class="form__actions">
                        <button class="button button--primary" type="submit">{pay.clone()}</button>
                    </div>
                </form>
            </div>
            <p class="field__hint">{ctx.t("payment-card-safe")}</p>
        </section>
    }
    .into_any();
    let mut page = private(ctx.t("payment-card-title"), body);
    page.islands.push("card-payment");
    page
}

/// The sandbox bank's 3-D Secure page.
pub fn sandbox_challenge_page(
    ctx: &PageContext,
    public_id: &str,
    amount: Money,
    brand: &str,
    last4: &str,
    wrong_code: bool,
) -> Page {
    let error = wrong_code.then(|| view! { <div class="flash flash--error" role="alert">{ctx.t("sandbox-wrong-code")}</div> });
    let body = view! {
        <section class="bare-card auth-card sandbox-bank">
            <p class="muted">{ctx.t("sandbox-bank")}</p>
            <h1>{ctx.t("sandbox-title")}</h1>
            {sandbox_banner(ctx)}
            <p>{ctx.locale.t_args("sandbox-text", &[("amount", amount.format(ctx.locale).into()), ("card", crate::domain::card::masked(brand, last4).into())])}</p>
            {error}
            <form class="form" method="post" action=format!("/sandbox/3ds/{public_id}")>
                {csrf_field(ctx)}
                <div class="field">
                    <label class="field__label" for="code">{ctx.t("sandbox-code")}</label>
                    <input class="input" id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" />
                    <p class="field__hint">{ctx.t("sandbox-hint")}</p>
                </div>
                <div class="form__actions">
                    <button class="button button--primary" type="submit" name="action" value="approve">{ctx.t("sandbox-approve")}</button>
                    <button class="button button--ghost" type="submit" name="action" value="cancel">{ctx.t("sandbox-cancel")}</button>
                </div>
            </form>
        </section>
    }
    .into_any();
    private(ctx.t("sandbox-title"), body)
}

/// The payer's details for the escrow transfer.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct BankForm {
    /// The investor's name as verified in their MKK data: the only payer escrow accepts.
    pub payer_name: String,
    pub address: String,
    pub country: String,
    pub city: String,
    pub post_code: String,
    pub phone: String,
    /// The account the payer transfers from: a refund goes back to it.
    pub iban: String,
    /// The payer declared the IBAN is in their own name.
    pub iban_own: bool,
}

pub fn bank_step_page(
    ctx: &PageContext,
    s: &PaymentSummary,
    form: &BankForm,
    errors: &FieldErrors,
    notice: Option<Notice>,
) -> Page {
    let body = view! {
        <section class="bare-card auth-card">
            {journey(ctx, Step::Transfer)}
            <p class="muted">{ctx.t("payment-step-bank")}</p>
            <h1>{ctx.t("payment-bank-title")}</h1>
            <p>{ctx.t("payment-bank-text")}</p>
            {summary(ctx, s)}
            {notice_view(notice)}
            {error_summary(ctx, errors)}
            <form class="form" method="post" action="/invFlow/bank" novalidate>
                {csrf_field(ctx)}
                <input type="hidden" name="request" value=s.request_id.to_string() />
                <p class="field">
                    <strong>{ctx.t("bank-payer-name")} ": "</strong>{form.payer_name.clone()}
                    <span class="field__hint">{ctx.t("bank-payer-verified")}</span>
                </p>
                {input(ctx, errors, "address", "bank-address", "text", &form.address, "address-line1")}
                <div class="form__row">
                    {input(ctx, errors, "country", "field-country", "text", &form.country, "country-name")}
                    {input(ctx, errors, "city", "field-city", "text", &form.city, "address-level2")}
                </div>
                <div class="form__row">
                    {input(ctx, errors, "post_code", "bank-post-code", "text", &form.post_code, "postal-code")}
                    {input(ctx, errors, "phone", "field-phone", "tel", &form.phone, "tel")}
                </div>
                {input(ctx, errors, "iban", "payment-iban", "text", &form.iban, "off")}
                <p class="field__hint">{ctx.t("payment-iban-hint")}</p>
                {checkbox(ctx, errors, "iban_own", view! { {ctx.t("bank-iban-own")} }.into_any(), form.iban_own)}
                <div class="form__actions">
                    <button class="button button--primary" type="submit">{ctx.t("bank-submit")}</button>
                </div>
            </form>
        </section>
    }
    .into_any();
    private(ctx.t("payment-bank-title"), body)
}

/// What the investor must transfer to escrow.
pub struct TransferInstructions {
    pub bank: String,
    pub account_name: String,
    pub iban: String,
    pub reference: String,
    pub amount: Money,
    /// When the amount must reach escrow.
    pub deadline: Option<time::OffsetDateTime>,
}

/// A copy button for `value`: rendered hidden, so without JavaScript there is no button that
/// does nothing (the value stays selectable text); the `copy-buttons` script shows it.
fn copy_button(ctx: &PageContext, label_id: &str, value: &str) -> impl IntoView + use<> {
    view! {
        <button type="button" class="link-button copy-button" data-copy=value.to_owned()
            data-copied=ctx.t("copy-done") hidden>{ctx.t(label_id)}</button>
    }
}

pub fn payment_success_page(ctx: &PageContext, t: Option<TransferInstructions>) -> Page {
    let with_transfer = t.is_some();
    let instructions = t.map(|t| {
        let deadline = t.deadline.map(|at| {
            view! {
                <div><dt>{ctx.t("payment-transfer-deadline")}</dt>
                    <dd>{crate::domain::timeline::format_moment(at, ctx.locale)}</dd></div>
            }
        });
        view! {
            <h2>{ctx.t("payment-transfer-title")}</h2>
            <p>{ctx.t("payment-transfer-text")}</p>
            <dl class="figures transfer" data-island="copy-buttons">
                <div><dt>{ctx.t("payment-transfer-bank")}</dt><dd>{t.bank}</dd></div>
                <div><dt>{ctx.t("payment-transfer-name")}</dt><dd>{t.account_name}</dd></div>
                <div><dt>"IBAN"</dt><dd>
                    <span class="iban">{crate::domain::iban::group_iban(&t.iban)}</span>
                    {copy_button(ctx, "copy-iban", &t.iban)}
                </dd></div>
                <div><dt>{ctx.t("payment-transfer-reference")}</dt><dd>
                    <span class="reference">{t.reference.clone()}</span>
                    {copy_button(ctx, "copy-reference", &t.reference)}
                </dd></div>
                <div><dt>{ctx.t("investment-summary-payment")}</dt><dd>{t.amount.format(ctx.locale)}</dd></div>
                {deadline}
            </dl>
        }
    });
    // With the transfer to make, the page is about that: the investment has not been sent yet.
    let (title, lead) = if instructions.is_some() {
        ("payment-transfer-page-title", "payment-transfer-page-text")
    } else {
        ("payment-success-title", "payment-success-text")
    };
    let body = view! {
        <section class="bare-card auth-card">
            {journey(ctx, Step::Transfer)}
            <p class="muted">{ctx.t("payment-step-bank")}</p>
            <h1>{ctx.t(title)}</h1>
            <p>{ctx.t(lead)}</p>
            {instructions}
            <p><a class="button button--primary" href="/pendingInvestments">{ctx.t("investment-created-link")}</a></p>
        </section>
    }
    .into_any();
    let mut page = private(ctx.t(title), body);
    if with_transfer {
        page.islands.push("copy-buttons");
    }
    page
}

/// Why a payment failed, as `/paymentFail?reason=` says it; each has its message
/// `payment-fail-reason-{code}`.
pub const FAIL_REASONS: [&str; 9] = [
    "declined",
    "insufficient_funds",
    "expired_card",
    "invalid_cvc",
    "three_ds",
    "timeout",
    "provider",
    "pending",
    "not_payable",
];

/// The known reason `code`, or `None`.
pub fn fail_reason(code: &str) -> Option<&'static str> {
    FAIL_REASONS.into_iter().find(|r| *r == code)
}

/// The fail page: the reason (one of [`FAIL_REASONS`]) and, while the fee is unpaid, another
/// try. A pending payment may still go through, so it does not say that nothing was charged.
pub fn payment_fail_page(ctx: &PageContext, retry: Option<i64>, reason: Option<&str>) -> Page {
    let pending = reason == Some("pending");
    let reason = reason.map(|code| view! { <div class="flash flash--error" role="alert">{ctx.t(&format!("payment-fail-reason-{code}"))}</div> });
    let retry = retry
        .filter(|_| !pending)
        .map(|id| view! { <a class="button button--primary" href=format!("/invFlow?request={id}")>{ctx.t("payment-retry")}</a> });
    let text = (!pending).then(|| view! { <p>{ctx.t("payment-fail-text")}</p> });
    let body = view! {
        <section class="bare-card auth-card">
            <h1>{ctx.t("payment-fail-title")}</h1>
            {reason}
            {text}
            <div class="form__actions">
                {retry}
                <a class="button button--ghost" href="/pendingInvestments">{ctx.t("investment-created-link")}</a>
            </div>
        </section>
    }
    .into_any();
    private(ctx.t("payment-fail-title"), body)
}

//! `/mkk` and `/investmentFlow` (the investor's lists are in `requests` and `portfolio`).

use crate::pages::journey::{Step, journey};
use leptos::prelude::*;
use serde_json::json;

use crate::domain::investing::{Breakdown, QUICK_AMOUNTS};
use crate::domain::limits::LimitStatus;
use crate::domain::mkk::{MkkForm, MkkStatus};
use crate::domain::money::Money;
use crate::domain::startups::PeriodKind;
use crate::forms::{
    FieldErrors, Notice, checkbox, choice_group, csrf_field, error_summary, input, notice_view,
    select,
};
use crate::shell::{Page, PageContext};

mod refused;
pub use refused::{Fix, investment_blocked_page, investment_refused_page};

fn private_page(title: String, description: String, body: AnyView) -> Page {
    let mut page = Page::new(title, description, body);
    page.indexable = false;
    page
}

/// What `/mkk` shows above the form.
pub struct MkkState {
    pub status: Option<MkkStatus>,
    /// Corrected after a rejection, waiting for staff again.
    pub resubmitted: bool,
    /// A verified record changed: the change waits for review and the verified data applies.
    pub change_pending: bool,
    /// The member sent a request: the identity can no longer be changed here.
    pub identity_locked: bool,
    pub rejection_reason: Option<String>,
    /// Whether the e-government identity check is switched on.
    pub edevlet: bool,
    pub notice: Option<Notice>,
}

/// Where the member's MKK data stands, with staff's reason after a rejection.
fn mkk_status(ctx: &PageContext, state: &MkkState) -> Option<impl IntoView + use<>> {
    state.status.map(|s| {
        let reason = state
            .rejection_reason
            .clone()
            .filter(|_| s == MkkStatus::Rejected)
            .map(|r| {
                view! { <p><strong>{ctx.t("mkk-rejection-reason")} ": "</strong> {r}</p> }
            });
        view! {
            <div class=format!("flash mkk-status mkk-status--{}", s.code()) role="status">
                <strong>{ctx.t("mkk-status")} ": "</strong>
                {if state.resubmitted {
                    ctx.t("mkk-status-resubmitted")
                } else if state.change_pending {
                    ctx.t("mkk-status-change-pending")
                } else {
                    ctx.t(&format!("mkk-status-{}", s.code()))
                }}
                {reason}
            </div>
        }
    })
}

pub fn mkk_page(ctx: &PageContext, form: &MkkForm, errors: &FieldErrors, state: MkkState) -> Page {
    let status = mkk_status(ctx, &state);
    let edevlet =
        (!state.edevlet).then(|| view! { <p class="field__hint">{ctx.t("mkk-edevlet-off")}</p> });
    let locked = state
        .identity_locked
        .then(|| view! { <p class="field__hint">{ctx.t("mkk-identity-locked-hint")}</p> });
    // The way back: to the investment that sent the member here, else to their overview.
    let (back_href, back_label) = if form.next.is_empty() {
        ("/overview".to_owned(), "mkk-back-overview")
    } else {
        (
            crate::domain::paths::local_path(&form.next).to_owned(),
            "mkk-back-investment",
        )
    };
    let next = (!form.next.is_empty())
        .then(|| view! { <input type="hidden" name="next" value=form.next.clone() /> });
    let body = view! {
        <p class="page-back"><a href=back_href>{ctx.t(back_label)}</a></p>
        <header class="prose__header">
            <h1>{ctx.t("mkk-title")}</h1>
            <p class="lead">{ctx.t("mkk-description")}</p>
        </header>
        {notice_view(state.notice)}
        {status}
        {edevlet}
        {locked}
        {error_summary(ctx, errors)}
        <form class="form" method="post" action="/mkk" novalidate>
            {csrf_field(ctx)}
            {next}
            <div class="form__row">
                {select(ctx, errors, "investor_type", "field-investor-type",
                    &[("individual", "investor-type-individual"), ("corporate", "investor-type-corporate")], &form.investor_type)}
                {select(ctx, errors, "id_type", "field-id-type",
                    &[("tckn", "id-type-tckn"), ("ykn", "id-type-ykn"), ("vkn", "id-type-vkn")], &form.id_type)}
            </div>
            {choice_group(ctx, errors, "citizen", "field-citizen", "radio",
                &[("yes", "answer-yes".to_owned()), ("no", "answer-no".to_owned())], &[form.citizen.as_str()])}
            <div class="form__row">
                {input(ctx, errors, "first_name", "field-first-name", "text", &form.first_name, "given-name")}
                {input(ctx, errors, "last_name", "field-last-name", "text", &form.last_name, "family-name")}
            </div>
            <div class="form__row">
                {input(ctx, errors, "email", "field-email", "email", &form.email, "email")}
                {input(ctx, errors, "phone", "field-phone", "tel", &form.phone, "tel")}
            </div>
            {input(ctx, errors, "identity_number", "field-identity-number", "text", &form.identity_number, "off")}
            {input(ctx, errors, "organisation", "field-organisation", "text", &form.organisation, "organization")}
            <div class="form__row">
                {input(ctx, errors, "annual_income", "field-annual-income", "text", &form.annual_income, "off")}
                {input(ctx, errors, "birth_date", "field-birth-date", "date", &form.birth_date, "bday")}
            </div>
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t("mkk-submit")}</button>
            </div>
        </form>
    }
    .into_any();
    private_page(ctx.t("mkk-title"), ctx.t("mkk-description"), body)
}

/// The amount page's state.
pub struct InvestmentForm {
    pub startup_slug: String,
    pub startup_name: String,
    pub kind: PeriodKind,
    pub amount: String,
    pub fee_added: bool,
    pub risk: bool,
    pub fee_rate_bp: i64,
    /// Shown when the amount is valid.
    pub breakdown: Option<Breakdown>,
    /// Makes a double submit create one request.
    pub idempotency_key: String,
    /// The investor's annual limit, when they are capped.
    pub limit: Option<LimitStatus>,
    /// The round's current information form (a round document's id), when it has one.
    pub information_form: Option<i64>,
}

/// The annual limit as the amount page shows it, before the investor starts.
fn limit_view(ctx: &PageContext, limit: Option<LimitStatus>) -> Option<impl IntoView + use<>> {
    let l = limit?;
    let args = [
        ("limit", l.limit.format(ctx.locale).into()),
        ("used", l.used.format(ctx.locale).into()),
        ("remaining", l.remaining.format(ctx.locale).into()),
    ];
    Some(view! {
        <aside class="flash flash--info limit" aria-labelledby="limit-title">
            <h2 id="limit-title">{ctx.t("limit-title")}</h2>
            <p>{ctx.locale.t_args("limit-figures", &args)}</p>
            <p>{ctx.t("limit-qualified")} " " <a href="/qualifiedInvestor">{ctx.t("limit-qualified-link")}</a></p>
        </aside>
    })
}

fn summary(ctx: &PageContext, b: Option<Breakdown>) -> impl IntoView + use<> {
    let f = |m: Option<Money>| {
        m.map(|m| m.format(ctx.locale))
            .unwrap_or_else(|| "—".to_owned())
    };
    view! {
        <section class="investment-summary" aria-labelledby="investment-summary-title">
            <h2 id="investment-summary-title">{ctx.t("investment-summary")}</h2>
            <dl class="figures">
                <div><dt>{ctx.t("investment-summary-amount")}</dt><dd data-field="amount">{f(b.map(|b| b.amount))}</dd></div>
                <div><dt>{ctx.t("investment-summary-fee")}</dt><dd data-field="fee">{f(b.map(|b| b.fee))}</dd></div>
                <div><dt>{ctx.t("investment-summary-payment")}</dt><dd data-field="investment">{f(b.map(|b| b.investment))}</dd></div>
                <div><dt>{ctx.t("investment-summary-total")}</dt><dd data-field="total">{f(b.map(|b| b.total))}</dd></div>
            </dl>
        </section>
    }
}

/// The service fee rate as the hint shows it: `2,50` in Turkish, `2.50` in English.
fn fee_rate(ctx: &PageContext, fee_rate_bp: i64) -> String {
    let rate = format!("{},{:02}", fee_rate_bp / 100, fee_rate_bp % 100);
    if ctx.locale == crate::i18n::Locale::En {
        rate.replace(',', ".")
    } else {
        rate
    }
}

/// The quick amounts the investor may send (none above their remaining limit), whole lira.
fn picks(limit: Option<LimitStatus>) -> Vec<i64> {
    QUICK_AMOUNTS
        .into_iter()
        .filter(|lira| limit.is_none_or(|l| Money::from_lira(*lira) <= l.remaining))
        .collect()
}

/// The quick amounts, as radio buttons; the one matching the typed amount is checked.
fn quick_amounts(
    ctx: &PageContext,
    amount: &str,
    limit: Option<LimitStatus>,
) -> impl IntoView + use<> {
    let choices = picks(limit)
        .iter()
        .map(|lira| {
            let value = lira.to_string();
            let id = format!("quick-{value}");
            let checked = amount.replace(['.', ','], "") == value;
            view! {
                <label class="choice">
                    <input type="radio" id=id name="quick" value=value checked=checked />
                    <span>{Money::from_lira(*lira).format(ctx.locale)}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <fieldset class="fieldset">
            <legend>{ctx.t("investment-quick")}</legend>
            <div class="choices">{choices}</div>
        </fieldset>
    }
}

/// The `investment` island's props: where it posts, the fee and limits, and its texts.
fn investment_props(ctx: &PageContext, f: &InvestmentForm, submit_id: &str) -> String {
    json!({
        "csrf": ctx.csrf,
        "action": "/api/investmentRequests",
        "startup": f.startup_slug,
        "feeRateBp": f.fee_rate_bp,
        "locale": ctx.locale.code(),
        "quick": picks(f.limit),
        "minimum": 100_000,
        "remaining": f.limit.map(|l| l.remaining.kurus() / 100),
        "idempotencyKey": f.idempotency_key,
        "labels": {
            "amount": ctx.t("investment-amount"), "hint": ctx.t("investment-amount-hint"),
            "quick": ctx.t("investment-quick"), "feeAdded": ctx.t("investment-fee-added"),
            "summary": ctx.t("investment-summary"), "summaryAmount": ctx.t("investment-summary-amount"),
            "summaryFee": ctx.t("investment-summary-fee"), "summaryPayment": ctx.t("investment-summary-payment"),
            "summaryTotal": ctx.t("investment-summary-total"), "risk": ctx.t("investment-risk"),
            "riskLink": ctx.t("policy-genel-risk-bildirimi"), "submit": ctx.t(submit_id),
            "createdTitle": ctx.t("investment-created-title"), "created": ctx.t("investment-created"),
            "createdLink": ctx.t("investment-created-link"), "close": ctx.t("dialog-close"),
        },
        "messages": {
            "required": ctx.t("validation-required"), "number": ctx.t("validation-number"),
            "minimum": ctx.t("validation-minimum-investment"), "risk": ctx.t("validation-risk"),
            "escrowMinimum": ctx.t("validation-escrow-minimum"),
            "overLimit": f.limit.map_or_else(String::new, |l| ctx.locale.t_args(
                "validation-over-limit",
                &[("remaining", l.remaining.format(ctx.locale).into())],
            )),
            "failed": ctx.t("newsletter-failed"),
        },
    })
    .to_string()
}

/// The form that works without JavaScript: amount, fee switch, summary and risk notice.
fn investment_form(
    ctx: &PageContext,
    f: &InvestmentForm,
    errors: &FieldErrors,
    submit_id: &str,
) -> impl IntoView + use<> {
    let risk_label = view! {
        {ctx.t("investment-risk")} " "
        <a href="/politikalar/genel-risk-bildirimi">{ctx.t("policy-genel-risk-bildirimi")}</a>
    }
    .into_any();
    let rate = fee_rate(ctx, f.fee_rate_bp);
    view! {
        <form class="form investment-form" method="post" action="/investmentFlow" novalidate>
            {csrf_field(ctx)}
            <input type="hidden" name="startup" value=f.startup_slug.clone() />
            <input type="hidden" name="idempotency_key" value=f.idempotency_key.clone() />
            {quick_amounts(ctx, &f.amount, f.limit)}
            {input(ctx, errors, "amount", "investment-amount", "text", &f.amount, "off")}
            <p class="field__hint">{ctx.t("investment-amount-hint")} " " {ctx.locale.t_args("investment-fee-rate", &[("rate", rate.into())])}</p>
            {checkbox(ctx, errors, "fee_added", view! { {ctx.t("investment-fee-added")} }.into_any(), f.fee_added)}
            {summary(ctx, f.breakdown)}
            {checkbox(ctx, errors, "risk", risk_label, f.risk)}
            <div class="form__actions">
                <button class="button button--primary" type="submit">{ctx.t(submit_id)}</button>
            </div>
        </form>
    }
}

/// The link to the round's information form, which must be opened before a request is sent.
fn information_form(ctx: &PageContext, f: &InvestmentForm) -> Option<impl IntoView + use<>> {
    let id = f.information_form?;
    let href = format!("/startups/{}/documents/{id}", f.startup_slug);
    Some(view! {
        <aside class="flash flash--info" aria-labelledby="information-form-title">
            <p id="information-form-title"><strong>{ctx.t("investment-information-form")}</strong></p>
            <p>
                <a href=href target="_blank" rel="noopener">{ctx.t("investment-information-form-open")}</a>
                " · " {ctx.t("investment-information-form-note")}
            </p>
        </aside>
    })
}

pub fn investment_page(ctx: &PageContext, f: &InvestmentForm, errors: &FieldErrors) -> Page {
    let (title_id, submit_id) = match f.kind {
        PeriodKind::Investment => ("investment-title", "investment-submit"),
        PeriodKind::PreInvestment => ("investment-pre-title", "investment-pre-submit"),
    };
    let body = view! {
        <header class="prose__header">
            <p><a href=format!("/startups/{}", f.startup_slug)>{"← "}{f.startup_name.clone()}</a></p>
            <h1>{ctx.t(title_id)} ": " {f.startup_name.clone()}</h1>
            <p class="lead">{ctx.t("investment-description")}</p>
        </header>
        {journey(ctx, Step::Amount)}
        {limit_view(ctx, f.limit)}
        {information_form(ctx, f)}
        {error_summary(ctx, errors)}
        <div data-island="investment" data-props=investment_props(ctx, f, submit_id)>
            {investment_form(ctx, f, errors, submit_id)}
        </div>
    }
    .into_any();
    let mut page = private_page(ctx.t(title_id), ctx.t("investment-description"), body);
    page.islands.push("investment");
    page
}

/// The confirmation after a request (the spec's success modal, as a page without JavaScript).
pub fn investment_created_page(ctx: &PageContext) -> Page {
    let body = view! {
        <section class="bare-card auth-card" role="dialog" aria-labelledby="created-title">
            {journey(ctx, Step::Review)}
            <h1 id="created-title">{ctx.t("investment-created-title")}</h1>
            <p>{ctx.t("investment-created")}</p>
            <p><a class="button button--primary" href="/pendingInvestments">{ctx.t("investment-created-link")}</a></p>
        </section>
    }
    .into_any();
    private_page(
        ctx.t("investment-created-title"),
        ctx.t("investment-created"),
        body,
    )
}

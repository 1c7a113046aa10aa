//! The campaign editor: founders (on `/vc-dashboard`) and staff (on `/dashboard`) draft the
//! next version of a campaign, section by section in both languages, with its offer, its use of
//! funds, key figures and a pitch video; staff's comments on the last version stand beside the
//! sections they are about. Saving keeps the draft; submitting sends it for review. While a
//! version is under review the draft can only be read.

use leptos::prelude::*;

use super::{comment_note, text_field};
use crate::domain::campaign::{CampaignForm, FUND_ROWS};
use crate::domain::startups::SECTIONS;
use crate::forms::{FieldErrors, csrf_field, error_summary, error_view, textarea_text};
use crate::shell::{Page, PageContext};

/// What the editor shows.
pub struct CampaignEditor {
    pub startup: String,
    /// Where the form posts (and the page lives).
    pub action: String,
    /// Staff's page, or a founder's.
    pub staff: bool,
    /// The newest version: `(number, status code)`.
    pub latest: Option<(i64, String)>,
    /// Staff's comments on the newest version, by section (`terms` for the offer).
    pub comments: Vec<(String, String)>,
    /// A version is under review: nothing can be saved.
    pub locked: bool,
    pub form: CampaignForm,
    pub errors: FieldErrors,
    /// The longest campaign allowed, in days.
    pub max_days: i64,
}

fn value<'a>(form: &'a CampaignForm, key: &str) -> &'a str {
    form.get(key).map_or("", |v| v.as_str())
}

fn area(
    ctx: &PageContext,
    e: &CampaignEditor,
    name: String,
    label: String,
    rows: u8,
    lang: &'static str,
) -> impl IntoView + use<> {
    let error = e.errors.get(&name);
    let described = error.map(|_| format!("{name}-error"));
    let text = value(&e.form, &name).to_owned();
    view! {
        <div class="field">
            <label class="field__label" for=name.clone()>{label}</label>
            <textarea class="input" id=name.clone() name=name.clone() rows=rows.to_string() lang=lang
                readonly=e.locked aria-invalid=error.map(|_| "true") aria-describedby=described>
                {textarea_text(&text)}
            </textarea>
            {error_view(ctx, &name, error)}
        </div>
    }
}

fn story(ctx: &PageContext, e: &CampaignEditor) -> impl IntoView + use<> {
    let sections = SECTIONS
        .iter()
        .map(|s| {
            let title = ctx.t(&format!("section-{s}"));
            view! {
                <fieldset class="fieldset">
                    <legend>{title.clone()}</legend>
                    {comment_note(ctx, &e.comments, s)}
                    <div class="form__row">
                        {area(ctx, e, format!("s_{s}_tr"), format!("{title} (TR)"), 5, "tr")}
                        {area(ctx, e, format!("s_{s}_en"), format!("{title} (EN)"), 5, "en")}
                    </div>
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <h2>{ctx.t("campaign-story")}</h2>
        {comment_note(ctx, &e.comments, "description")}
        <div class="form__row">
            {area(ctx, e, "description_tr".into(), format!("{} (TR)", ctx.t("campaign-description")), 3, "tr")}
            {area(ctx, e, "description_en".into(), format!("{} (EN)", ctx.t("campaign-description")), 3, "en")}
        </div>
        {sections}
    }
}

fn offer(ctx: &PageContext, e: &CampaignEditor) -> impl IntoView + use<> {
    let f = |name: &str, label: &str, kind: &'static str| {
        text_field(
            ctx,
            &e.errors,
            name,
            ctx.t(label),
            kind,
            value(&e.form, name),
            e.locked,
        )
    };
    let args = [("days", e.max_days.into())];
    let rows = (0..FUND_ROWS)
        .map(|i| {
            let (tr, en, amount) = (
                format!("fund_tr_{i}"),
                format!("fund_en_{i}"),
                format!("fund_amount_{i}"),
            );
            let legend = ctx
                .locale
                .t_args("campaign-fund-line", &[("n", ((i + 1) as i64).into())]);
            view! {
                <fieldset class="fieldset fund-line">
                    <legend>{legend}</legend>
                    <div class="form__row">
                        {f(&tr, "campaign-fund-item-tr", "text")}
                        {f(&en, "campaign-fund-item-en", "text")}
                        {f(&amount, "campaign-fund-amount", "text")}
                    </div>
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <h2>{ctx.t("campaign-offer")}</h2>
        {comment_note(ctx, &e.comments, "terms")}
        <div class="form__row">
            {f("goal", "campaign-goal", "text")}
            {f("minimum_raise", "campaign-minimum-raise", "text")}
            {f("maximum_raise", "campaign-maximum-raise", "text")}
        </div>
        <div class="form__row">
            {f("pre_money_valuation", "campaign-pre-money", "text")}
            {f("share_price", "campaign-share-price", "text")}
            {f("shares_offered", "campaign-shares-offered", "text")}
        </div>
        <div class="form__row">
            {f("starts_on", "campaign-starts-on", "date")}
            {f("ends_on", "campaign-ends-on", "date")}
        </div>
        <p class="field__hint">{ctx.locale.t_args("campaign-period-hint", &args)}</p>
        <h2>{ctx.t("campaign-use-of-funds")}</h2>
        <p class="field__hint">{ctx.t("campaign-use-of-funds-hint")}</p>
        {rows}
        <h2>{ctx.t("campaign-figures")}</h2>
        <div class="form__row">
            {f("financials_period", "campaign-financials-period", "text")}
            {f("revenue", "campaign-revenue", "text")}
            {f("net_income", "campaign-net-income", "text")}
        </div>
        <h2>{ctx.t("campaign-video")}</h2>
        {comment_note(ctx, &e.comments, "video")}
        {f("pitch_video", "campaign-video-link", "url")}
        <p class="field__hint">{ctx.t("campaign-video-hint")}</p>
    }
}

pub fn campaign_editor_page(ctx: &PageContext, e: CampaignEditor) -> Page {
    let status = e.latest.as_ref().map(|(number, status)| {
        let args = [("number", (*number).into())];
        view! {
            <p class=format!("flash campaign-status campaign-status--{status}") role="status">
                {ctx.locale.t_args("campaign-latest", &args)} " "
                <strong>{ctx.t(&format!("campaign-status-{status}"))}</strong>
            </p>
        }
    });
    let actions = (!e.locked).then(|| {
        view! {
            <div class="form__actions">
                <button class="button button--ghost" type="submit" name="intent" value="save">{ctx.t("campaign-save")}</button>
                <button class="button button--primary" type="submit" name="intent" value="submit">{ctx.t("campaign-submit")}</button>
            </div>
        }
    });
    let locked = e
        .locked
        .then(|| view! { <p class="muted">{ctx.t("campaign-locked")}</p> });
    let title = format!("{}: {}", ctx.t("campaign-editor-title"), e.startup);
    let content = view! {
        <p class="lead">{ctx.t("campaign-editor-text")}</p>
        {status}
        {locked}
        {error_summary(ctx, &e.errors)}
        <form class="form form--aligned stack" method="post" action=e.action.clone() novalidate>
            {csrf_field(ctx)}
            {story(ctx, &e)}
            {offer(ctx, &e)}
            {actions}
        </form>
    }
    .into_any();
    if e.staff {
        crate::pages::dashboard::staff_layout(ctx, title, content)
    } else {
        crate::pages::vc_dashboard::layout(ctx, title, content)
    }
}

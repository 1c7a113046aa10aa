//! `/dashboard/startups/{id}/campaign`: staff read the submitted version as investors would,
//! write a comment on any section, and send it back to the founder or pass it to the
//! investment committee. The issuer's checks are shown with whatever they fail.

use leptos::prelude::*;

use super::text_field;
use crate::domain::campaign::Campaign;
use crate::domain::money::Money;
use crate::domain::startups::SECTIONS;
use crate::domain::time_fmt::format_date_short;
use crate::forms::{FieldErrors, csrf_field, error_summary, textarea_text};
use crate::pages::dashboard::staff_layout;
use crate::shell::{Page, PageContext};

/// What the review page shows.
pub struct CampaignReview {
    pub startup_id: i64,
    pub startup: String,
    /// The version under review: `(id, number, status code, content)`, if any was submitted.
    pub version: Option<(i64, i64, String, Campaign)>,
    /// Who submitted it and when, as a sentence.
    pub submitted: String,
    pub comments: Vec<(String, String)>,
    /// The issuer's checks it fails, as Fluent ids.
    pub breaches: Vec<&'static str>,
    /// The issuer's facts as typed (`legal_form`, `registry_number`, `assets`, `revenue`,
    /// `raised_12m`).
    pub issuer: Vec<(&'static str, String)>,
    pub errors: FieldErrors,
}

fn money(ctx: &PageContext, kurus: i64) -> String {
    Money::from_kurus(kurus).format(ctx.locale)
}

/// A version as investors would read it: description, offer, use of funds, figures, video and
/// the sections, in both languages.
pub fn version_view(ctx: &PageContext, c: &Campaign) -> impl IntoView + use<> {
    let t = &c.terms;
    let facts = [
        ("campaign-goal", money(ctx, c.goal_kurus)),
        ("campaign-minimum-raise", money(ctx, t.minimum_raise_kurus)),
        ("campaign-maximum-raise", money(ctx, t.maximum_raise_kurus)),
        (
            "campaign-pre-money",
            money(ctx, t.pre_money_valuation_kurus),
        ),
        ("campaign-share-price", money(ctx, t.share_price_kurus)),
        (
            "campaign-shares-offered",
            crate::domain::campaign::group(t.shares_offered, ctx.locale),
        ),
        (
            "campaign-period",
            format!(
                "{} – {} ({})",
                format_date_short(c.starts_on, ctx.locale),
                format_date_short(c.ends_on, ctx.locale),
                ctx.locale
                    .t_args("campaign-days", &[("days", c.days().into())])
            ),
        ),
    ]
    .into_iter()
    .map(|(k, v)| view! { <dt>{super::shown_label(ctx, k)}</dt><dd>{v}</dd> })
    .collect_view();
    let funds = t
        .use_of_funds
        .iter()
        .map(|r| view! { <tr><td lang="tr">{r.tr.clone()}</td><td lang="en">{r.en.clone()}</td><td class="num">{money(ctx, r.kurus)}</td></tr> })
        .collect_view();
    let sections = SECTIONS
        .iter()
        .filter_map(|s| c.sections.get(*s).map(|body| (*s, body)))
        .map(|(s, (tr, en))| {
            let (tr, en) = (crate::markdown::render(tr), crate::markdown::render(en));
            view! {
                <h3>{ctx.t(&format!("section-{s}"))}</h3>
                <div class="form__row"><div class="prose" lang="tr" inner_html=tr></div><div class="prose" lang="en" inner_html=en></div></div>
            }
        })
        .collect_view();
    let video = (!c.pitch_video.is_empty()).then(|| {
        view! { <p>{ctx.t("campaign-video")} ": " <a href=c.pitch_video.clone() rel="noopener noreferrer">{c.pitch_video.clone()}</a></p> }
    });
    view! {
        <div class="form__row"><p lang="tr">{c.description_tr.clone()}</p><p lang="en">{c.description_en.clone()}</p></div>
        <dl class="facts">{facts}</dl>
        <h3>{ctx.t("campaign-use-of-funds")}</h3>
        <div class="table-wrap">
            <table class="table">
                <thead><tr>
                    <th scope="col">{ctx.t("terms-fund-item")} " (TR)"</th>
                    <th scope="col">{ctx.t("terms-fund-item")} " (EN)"</th>
                    <th scope="col" class="num">{ctx.t("dashboard-col-amount")}</th>
                </tr></thead>
                <tbody>{funds}</tbody>
            </table>
        </div>
        {video}
        {sections}
    }
}

fn comment_boxes(ctx: &PageContext, r: &CampaignReview) -> impl IntoView + use<> {
    std::iter::once("description")
        .chain(["terms", "video"])
        .chain(SECTIONS)
        .map(|s| {
            let name = format!("c_{s}");
            let label = match s {
                "description" => ctx.t("campaign-description"),
                "terms" => ctx.t("campaign-offer"),
                "video" => ctx.t("campaign-video"),
                s => ctx.t(&format!("section-{s}")),
            };
            let current = r
                .comments
                .iter()
                .find(|(k, _)| k == s)
                .map(|(_, b)| b.clone())
                .unwrap_or_default();
            view! {
                <div class="field">
                    <label class="field__label" for=name.clone()>{label}</label>
                    <textarea class="input" id=name.clone() name=name rows="2">{textarea_text(&current)}</textarea>
                </div>
            }
        })
        .collect_view()
}

fn issuer_section(ctx: &PageContext, r: &CampaignReview) -> impl IntoView + use<> {
    let breaches = if r.breaches.is_empty() {
        view! { <p class="flash flash--success" role="status">{ctx.t("issuer-passes")}</p> }
            .into_any()
    } else {
        let items = r
            .breaches
            .iter()
            .map(|b| view! { <li>{ctx.t(b)}</li> })
            .collect_view();
        view! { <div class="flash flash--error" role="status"><p>{ctx.t("issuer-fails")}</p><ul>{items}</ul></div> }.into_any()
    };
    let value = |k: &str| {
        r.issuer
            .iter()
            .find(|(n, _)| *n == k)
            .map_or("", |(_, v)| v.as_str())
            .to_owned()
    };
    let field = |name: &'static str, label: &str| {
        text_field(
            ctx,
            &r.errors,
            name,
            ctx.t(label),
            "text",
            &value(name),
            false,
        )
    };
    let forms = ["anonim", "limited_converting"]
        .into_iter()
        .map(|code| {
            let chosen = value("legal_form") == code;
            view! { <option value=code selected=chosen>{ctx.t(&format!("issuer-legal-form-{code}"))}</option> }
        })
        .collect_view();
    view! {
        <h2>{ctx.t("issuer-title")}</h2>
        {breaches}
        <form class="form form--aligned stack" method="post" action=format!("/dashboard/startups/{}/issuer", r.startup_id) novalidate>
            {csrf_field(ctx)}
            <div class="form__row">
                <div class="field">
                    <label class="field__label" for="legal_form">{ctx.t("issuer-legal-form")}</label>
                    <select class="input" id="legal_form" name="legal_form">
                        <option value="">{ctx.t("form-choose")}</option>
                        {forms}
                    </select>
                </div>
                {field("registry_number", "issuer-registry")}
            </div>
            <div class="form__row">
                {field("assets", "issuer-assets")}
                {field("revenue", "issuer-revenue")}
                {field("raised_12m", "issuer-raised-12m")}
            </div>
            <div class="form__actions"><button class="button button--ghost" type="submit">{ctx.t("issuer-save")}</button></div>
        </form>
        <form class="form" method="post" action=format!("/dashboard/startups/{}/issuer/evidence", r.startup_id) enctype="multipart/form-data">
            {csrf_field(ctx)}
            <div class="field">
                <label class="field__label" for="evidence">{ctx.t("issuer-evidence")}</label>
                <input class="input" id="evidence" name="evidence" type="file" accept="application/pdf" />
            </div>
            <div class="form__actions"><button class="button button--ghost" type="submit">{ctx.t("issuer-evidence-add")}</button></div>
        </form>
    }
}

pub fn campaign_review_page(ctx: &PageContext, r: CampaignReview) -> Page {
    let draft = format!("/dashboard/startups/{}/campaign/draft", r.startup_id);
    let body = match &r.version {
        None => view! { <p class="empty-state">{ctx.t("campaign-none-submitted")}</p> }.into_any(),
        Some((id, number, status, c)) => {
            let args = [("number", (*number).into())];
            let reviewable = status == "submitted";
            let actions = reviewable.then(|| {
                view! {
                    <form class="form stack" method="post" action=format!("/dashboard/campaigns/{id}/review") novalidate>
                        {csrf_field(ctx)}
                        <h2>{ctx.t("campaign-comments")}</h2>
                        {comment_boxes(ctx, &r)}
                        <div class="form__actions">
                            <button class="button button--ghost" type="submit" name="intent" value="return">{ctx.t("campaign-return")}</button>
                            <button class="button button--primary" type="submit" name="intent" value="committee">{ctx.t("campaign-to-committee")}</button>
                        </div>
                    </form>
                }
            });
            view! {
                <p class=format!("flash campaign-status campaign-status--{status}") role="status">
                    {ctx.locale.t_args("campaign-latest", &args)} " " <strong>{ctx.t(&format!("campaign-status-{status}"))}</strong>
                </p>
                <p class="muted">{r.submitted.clone()}</p>
                {version_view(ctx, c)}
                {actions}
            }
            .into_any()
        }
    };
    let title = format!("{}: {}", ctx.t("campaign-review-title"), r.startup);
    let content = view! {
        <p><a href=format!("/dashboard/startups/{}", r.startup_id)>{ctx.t("campaign-back-to-startup")}</a>
           " · " <a href=draft>{ctx.t("campaign-edit-draft")}</a></p>
        {error_summary(ctx, &r.errors)}
        {issuer_section(ctx, &r)}
        <h2>{ctx.t("campaign-version-title")}</h2>
        {body}
    }
    .into_any();
    staff_layout(ctx, title, content)
}

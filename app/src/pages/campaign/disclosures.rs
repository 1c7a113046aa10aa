//! Disclosures after funding: the founders' page (`/vc-dashboard/startups/{id}/disclosures`)
//! with what they posted, when the next fund-use report is due and the form, and staff's review
//! list (`/dashboard/disclosures`), where each submitted one is approved or returned with a note.

use leptos::prelude::*;

use super::text_field;
use crate::domain::campaign::FundUse;
use crate::domain::disclosures::{DisclosureForm, Spending, spent_field};
use crate::domain::money::Money;
use crate::forms::{
    FieldErrors, choice_group, csrf_field, error_summary, error_view, textarea_text,
};
use crate::i18n::Locale;
use crate::pages::dashboard::staff_layout;
use crate::pages::vc_dashboard::layout;
use crate::shell::{Page, PageContext};

/// A disclosure as the lists show it.
pub struct DisclosureItem {
    pub id: i64,
    pub startup: String,
    pub kind: String,
    pub title_tr: String,
    pub title_en: String,
    pub body_tr: String,
    pub body_en: String,
    pub spending: Vec<Spending>,
    pub posted_on: time::Date,
    /// `submitted`, `approved` or `returned`.
    pub status: String,
    pub note: String,
}

/// What the founders' page shows.
pub struct FounderDisclosures {
    pub id: i64,
    pub startup: String,
    /// Disclosures open once the round is funded.
    pub funded: bool,
    /// The plan in the information form.
    pub plan: Vec<FundUse>,
    /// `(overdue since, next due)` while fund-use reports are owed.
    pub due: Option<(Option<time::Date>, time::Date)>,
    pub posted: Vec<DisclosureItem>,
    pub form: DisclosureForm,
    pub errors: FieldErrors,
}

fn pick<'a>(locale: Locale, tr: &'a str, en: &'a str) -> &'a str {
    if locale == Locale::En && !en.is_empty() {
        en
    } else {
        tr
    }
}

/// The plan's lines with what was spent on each and what is left.
pub fn spending_table(ctx: &PageContext, lines: &[Spending]) -> impl IntoView + use<> {
    let money = |k: i64| Money::from_kurus(k).format(ctx.locale);
    let rows = lines
        .iter()
        .map(|l| {
            view! {
                <tr>
                    <td>{pick(ctx.locale, &l.tr, &l.en).to_owned()}</td>
                    <td class="num">{money(l.planned)}</td>
                    <td class="num">{money(l.spent)}</td>
                    <td class="num">{money(l.planned - l.spent)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap"><table class="table">
            <thead><tr>
                <th scope="col">{ctx.t("disclosure-line")}</th>
                <th scope="col" class="num">{ctx.t("disclosure-planned")}</th>
                <th scope="col" class="num">{ctx.t("disclosure-spent")}</th>
                <th scope="col" class="num">{ctx.t("disclosure-left")}</th>
            </tr></thead>
            <tbody>{rows}</tbody>
        </table></div>
    }
}

/// One disclosure; `both` shows both languages (staff review both).
fn item(ctx: &PageContext, d: &DisclosureItem, both: bool) -> impl IntoView + use<> {
    let status = ctx.t(&format!("disclosure-status-{}", d.status));
    let note = (!d.note.is_empty()).then(|| {
        view! { <p class="muted"><strong>{ctx.t("disclosure-note")} ": "</strong>{d.note.clone()}</p> }
    });
    let texts = if both {
        view! {
            <h3 lang="tr">{d.title_tr.clone()}</h3><p class="prewrap" lang="tr">{d.body_tr.clone()}</p>
            <h3 lang="en">{d.title_en.clone()}</h3><p class="prewrap" lang="en">{d.body_en.clone()}</p>
        }
        .into_any()
    } else {
        view! {
            <h3>{pick(ctx.locale, &d.title_tr, &d.title_en).to_owned()}</h3>
            <p class="prewrap">{pick(ctx.locale, &d.body_tr, &d.body_en).to_owned()}</p>
        }
        .into_any()
    };
    let spending = (!d.spending.is_empty()).then(|| spending_table(ctx, &d.spending));
    let posted = crate::domain::time_fmt::format_date_short(d.posted_on, ctx.locale);
    view! {
        <p class="muted">
            <time>{posted}</time>" · "{ctx.t(&format!("disclosure-kind-{}", d.kind))}" · "
            <span class=format!("badge badge--{}", d.status) data-status=d.status.clone()>{status}</span>
        </p>
        {texts}
        {spending}
        {note}
    }
}

fn area(
    ctx: &PageContext,
    errors: &FieldErrors,
    name: &'static str,
    value: &str,
    rows: u8,
) -> impl IntoView + use<> {
    let error = errors.get(name);
    view! {
        <div class="field">
            <label class="field__label" for=name>{ctx.t(&format!("disclosure-{}", name.replace('_', "-")))}</label>
            <textarea class="input" id=name name=name rows=rows.to_string() aria-invalid=error.map(|_| "true")
                aria-describedby=error.map(|_| format!("{name}-error"))>{textarea_text(value)}</textarea>
            {error_view(ctx, name, error)}
        </div>
    }
}

fn form(ctx: &PageContext, p: &FounderDisclosures) -> impl IntoView + use<> {
    let (f, e) = (&p.form, &p.errors);
    let kinds = [
        (
            "material-event",
            "disclosure-kind-material-event".to_owned(),
        ),
        ("fund-use", "disclosure-kind-fund-use".to_owned()),
    ];
    let kind = choice_group(
        ctx,
        e,
        "kind",
        "disclosure-kind",
        "radio",
        &kinds,
        &[f.kind.as_str()],
    );
    let spent = p
        .plan
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let planned = Money::from_kurus(line.kurus).format(ctx.locale);
            let label = format!(
                "{} ({}: {planned})",
                pick(ctx.locale, &line.tr, &line.en),
                ctx.t("disclosure-planned")
            );
            let typed = f.spent.get(i).map_or("", |s| s.as_str());
            text_field(ctx, e, spent_field(i), label, "text", typed, false)
        })
        .collect_view();
    let title = |name: &'static str, value: &str| {
        let label = ctx.t(&format!("disclosure-{}", name.replace('_', "-")));
        text_field(ctx, e, name, label, "text", value, false)
    };
    view! {
        <form class="form stack" method="post" action=format!("/vc-dashboard/startups/{}/disclosures", p.id) novalidate>
            {csrf_field(ctx)}
            {kind}
            <div class="form__row">{title("title_tr", &f.title_tr)}{title("title_en", &f.title_en)}</div>
            <div class="form__row">{area(ctx, e, "body_tr", &f.body_tr, 6)}{area(ctx, e, "body_en", &f.body_en, 6)}</div>
            <fieldset class="fieldset">
                <legend>{ctx.t("disclosure-spending")}</legend>
                <p class="muted">{ctx.t("disclosure-spending-help")}</p>
                <div class="form__row">{spent}</div>
            </fieldset>
            <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("disclosure-submit")}</button></div>
        </form>
    }
}

pub fn founder_disclosures_page(ctx: &PageContext, p: FounderDisclosures) -> Page {
    let due = p.due.map(|(overdue, next)| {
        let date = |d| crate::domain::time_fmt::format_date_short(d, ctx.locale);
        match overdue {
            Some(since) => view! { <p class="flash flash--error" role="status">{ctx.locale.t_args("disclosure-overdue", &[("date", date(since).into())])}</p> }.into_any(),
            None => view! { <p class="flash flash--info" role="status">{ctx.locale.t_args("disclosure-next-due", &[("date", date(next).into())])}</p> }.into_any(),
        }
    });
    let posted = p
        .posted
        .iter()
        .map(|d| view! { <article class="card stack" data-disclosure=d.id>{item(ctx, d, false)}</article> })
        .collect_view();
    let empty = p
        .posted
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("disclosure-none")}</p> });
    let body = if p.funded {
        form(ctx, &p).into_any()
    } else {
        view! { <p class="empty-state">{ctx.t("disclosure-after-funding")}</p> }.into_any()
    };
    let title = format!("{}: {}", ctx.t("disclosure-title"), p.startup);
    let content = view! {
        <p class="lead">{ctx.t("disclosure-lead")}</p>
        {error_summary(ctx, &p.errors)}
        {due}
        <h2>{ctx.t("disclosure-new")}</h2>
        {body}
        <h2>{ctx.t("disclosure-posted")}</h2>
        {empty}
        <div class="stack">{posted}</div>
    }
    .into_any();
    layout(ctx, title, content)
}

/// Staff's review list: submitted disclosures with their forms, then recent decisions. A
/// refused review comes back with its disclosure's id, the note typed and the errors.
pub struct StaffDisclosures {
    pub pending: Vec<DisclosureItem>,
    pub reviewed: Vec<DisclosureItem>,
    pub refused: Option<(i64, String, FieldErrors)>,
}

pub fn staff_disclosures_page(ctx: &PageContext, s: StaffDisclosures) -> Page {
    let pending = s
        .pending
        .iter()
        .map(|d| {
            let (note, errors) = match &s.refused {
                Some((id, note, errors)) if *id == d.id => (note.clone(), errors.clone()),
                _ => (String::new(), FieldErrors::default()),
            };
            let field = format!("note-{}", d.id);
            let error = errors.get("note");
            view! {
                <article class="card stack" data-disclosure=d.id>
                    <h2>{d.startup.clone()}</h2>
                    {item(ctx, d, true)}
                    <form class="form stack" method="post" action=format!("/dashboard/disclosures/{}", d.id) novalidate>
                        {csrf_field(ctx)}
                        <div class="field">
                            <label class="field__label" for=field.clone()>{ctx.t("disclosure-note")}</label>
                            <textarea class="input" id=field.clone() name="note" rows="2" aria-invalid=error.map(|_| "true")
                                aria-describedby=error.map(|_| "note-error")>{textarea_text(&note)}</textarea>
                            {error_view(ctx, "note", error)}
                        </div>
                        <p class="muted">{ctx.t("disclosure-approve-effect")}</p>
                        <div class="form__actions">
                            <button class="button button--ghost" type="submit" name="decision" value="return">{ctx.t("disclosure-return")}</button>
                            <button class="button button--primary" type="submit" name="decision" value="approve">{ctx.t("disclosure-approve")}</button>
                        </div>
                    </form>
                </article>
            }
        })
        .collect_view();
    let empty = s
        .pending
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("disclosure-queue-empty")}</p> });
    let reviewed = (!s.reviewed.is_empty()).then(|| {
        let items = s
            .reviewed
            .iter()
            .map(|d| view! { <article class="card stack" data-disclosure=d.id><h2>{d.startup.clone()}</h2>{item(ctx, d, false)}</article> })
            .collect_view();
        view! { <h2>{ctx.t("disclosure-reviewed")}</h2><div class="stack">{items}</div> }
    });
    let summary = s.refused.as_ref().map(|(_, _, e)| error_summary(ctx, e));
    let content = view! {
        {summary}
        <p class="lead">{ctx.t("disclosure-staff-lead")}</p>
        {empty}
        <div class="stack">{pending}</div>
        {reviewed}
    }
    .into_any();
    staff_layout(ctx, ctx.t("disclosure-staff-title"), content)
}

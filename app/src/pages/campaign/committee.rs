//! `/dashboard/committee` (investment committee members): the versions waiting for their vote,
//! and one version with the issuer's checks, the votes cast so far and the member's own vote
//! (approve or reject, with a note). A version that breaks an issuer check cannot be approved;
//! the page says which check.

use leptos::prelude::*;

use super::version_view;
use crate::domain::campaign::Campaign;
use crate::domain::time_fmt::format_date_short;
use crate::forms::{FieldErrors, csrf_field, error_summary, error_view, textarea_text};
use crate::pages::dashboard::staff_layout;
use crate::shell::{Page, PageContext};

/// The versions before the committee: `(version id, startup, number, submitted on, approvals,
/// rejections)`.
pub struct CommitteeList {
    pub members: usize,
    pub min_members: usize,
    pub needed: usize,
    pub queue: Vec<(i64, String, i64, time::Date, i64, i64)>,
}

pub fn committee_list_page(ctx: &PageContext, l: CommitteeList) -> Page {
    let too_few = (l.members < l.min_members).then(|| {
        let args = [("min", (l.min_members as i64).into()), ("members", (l.members as i64).into())];
        view! { <p class="flash flash--error" role="status">{ctx.locale.t_args("committee-too-few", &args)}</p> }
    });
    let rows = l
        .queue
        .iter()
        .map(|(id, startup, number, on, yes, no)| {
            view! {
                <tr>
                    <td><a href=format!("/dashboard/committee/{id}")>{startup.clone()}</a></td>
                    <td class="num">{*number}</td>
                    <td class="cell--fixed">{format_date_short(*on, ctx.locale)}</td>
                    <td class="num">{*yes}</td>
                    <td class="num">{*no}</td>
                </tr>
            }
        })
        .collect_view();
    let empty = l
        .queue
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("committee-empty")}</p> });
    let args = [
        ("needed", (l.needed as i64).into()),
        ("members", (l.members as i64).into()),
    ];
    let content = view! {
        <p class="lead">{ctx.locale.t_args("committee-rule", &args)}</p>
        {too_few}
        <div class="table-wrap"><table class="table">
            <thead><tr>
                <th scope="col">{ctx.t("dashboard-col-startup")}</th>
                <th scope="col" class="num">{ctx.t("campaign-version-number")}</th>
                <th scope="col">{ctx.t("dashboard-col-date")}</th>
                <th scope="col" class="num">{ctx.t("committee-approvals")}</th>
                <th scope="col" class="num">{ctx.t("committee-rejections")}</th>
            </tr></thead>
            <tbody>{rows}</tbody>
        </table></div>
        {empty}
    }
    .into_any();
    staff_layout(ctx, ctx.t("committee-title"), content)
}

/// One version before the committee.
pub struct CommitteeVersion {
    pub id: i64,
    pub startup: String,
    pub number: i64,
    pub campaign: Campaign,
    pub breaches: Vec<&'static str>,
    /// `(member, vote code or empty, note)`.
    pub votes: Vec<(String, String, String)>,
    /// The viewer voted already.
    pub voted: bool,
    /// The version is still before the committee.
    pub open: bool,
    pub note: String,
    pub errors: FieldErrors,
}

pub fn committee_version_page(ctx: &PageContext, v: CommitteeVersion) -> Page {
    let breaches = (!v.breaches.is_empty()).then(|| {
        let items = v.breaches.iter().map(|b| view! { <li>{ctx.t(b)}</li> }).collect_view();
        view! { <div class="flash flash--error" role="status"><p>{ctx.t("committee-cannot-approve")}</p><ul>{items}</ul></div> }
    });
    let votes = v
        .votes
        .iter()
        .map(|(who, vote, note)| {
            let said = if vote.is_empty() {
                ctx.t("minutes-no-vote")
            } else {
                ctx.t(&format!("minutes-vote-{vote}"))
            };
            view! { <tr><td>{who.clone()}</td><td>{said}</td><td>{note.clone()}</td></tr> }
        })
        .collect_view();
    let form = (v.open && !v.voted).then(|| {
        let approve = v.breaches.is_empty().then(|| {
            view! { <button class="button button--primary" type="submit" name="vote" value="approve">{ctx.t("committee-approve")}</button> }
        });
        let error = v.errors.get("note");
        view! {
            <form class="form stack" method="post" action=format!("/dashboard/committee/{}/vote", v.id) novalidate>
                {csrf_field(ctx)}
                <div class="field">
                    <label class="field__label" for="note">{ctx.t("committee-note")}</label>
                    <textarea class="input" id="note" name="note" rows="3" aria-invalid=error.map(|_| "true")
                        aria-describedby=error.map(|_| "note-error")>{textarea_text(&v.note)}</textarea>
                    {error_view(ctx, "note", error)}
                </div>
                <div class="form__actions">
                    <button class="button button--ghost" type="submit" name="vote" value="reject">{ctx.t("committee-reject")}</button>
                    {approve}
                </div>
            </form>
        }
    });
    let voted = v
        .voted
        .then(|| view! { <p class="muted">{ctx.t("committee-voted")}</p> });
    let title = format!("{}: {} ({})", ctx.t("committee-title"), v.startup, v.number);
    let content = view! {
        <p><a href="/dashboard/committee">{ctx.t("committee-back")}</a></p>
        {error_summary(ctx, &v.errors)}
        {breaches}
        <h2>{ctx.t("committee-votes")}</h2>
        <table class="table">
            <thead><tr><th scope="col">{ctx.t("committee-member")}</th><th scope="col">{ctx.t("committee-vote")}</th><th scope="col">{ctx.t("committee-note")}</th></tr></thead>
            <tbody>{votes}</tbody>
        </table>
        {voted}
        {form}
        <h2>{ctx.t("campaign-version-title")}</h2>
        {version_view(ctx, &v.campaign)}
    }
    .into_any();
    staff_layout(ctx, title, content)
}

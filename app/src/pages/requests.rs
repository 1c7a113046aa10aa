//! `/pendingInvestments`: the investor's requests that are not (yet) holdings, each with its
//! timeline (every step with its date, the current one, the next action with its deadline),
//! the payment link when it is the investor's turn, and the cancellation window's countdown
//! with the withdraw button while it is open. After staff change a live round's terms, the
//! card asks the investor to reconfirm or withdraw, showing what changed and until when.

use leptos::prelude::*;
use time::{Duration, OffsetDateTime};

use crate::domain::investing::RequestStatus;
use crate::domain::money::Money;
use crate::domain::startups::PeriodKind;
use crate::domain::time_fmt::format_date_short;
use crate::domain::timeline::{StepState, Timeline, format_left, format_moment, next_sentence};
use crate::forms::csrf_field;
use crate::shell::{Page, PageContext};

/// A request as `/pendingInvestments` shows it.
#[derive(Clone, Debug)]
pub struct RequestCard {
    pub id: i64,
    pub startup_slug: String,
    pub startup_name: String,
    pub kind: PeriodKind,
    pub amount: Money,
    /// What goes to escrow, and the service fee, shown apart.
    pub investment: Money,
    pub fee: Money,
    pub total: Money,
    pub status: RequestStatus,
    pub created: time::Date,
    pub timeline: Timeline,
    /// While the investor may withdraw: until when, and what is left of the window.
    pub withdraw: Option<(OffsetDateTime, Duration)>,
    /// The staff's reason, for a rejection.
    pub reason: Option<String>,
    /// The round's terms changed: the investor is asked to reconfirm.
    pub reconfirm: Option<Reconfirm>,
}

/// What changed in the round's terms, and until when the investor may reconfirm.
#[derive(Clone, Debug)]
pub struct Reconfirm {
    /// Each changed term: its name, the value before and after, in the reader's language.
    pub changes: Vec<(String, String, String)>,
    pub deadline: OffsetDateTime,
    /// The round's current information form, while the investor has not opened it.
    pub form_to_open: Option<String>,
}

/// The changed terms, and the reconfirm and withdraw buttons.
fn reconfirm_view(ctx: &PageContext, id: i64, r: &Reconfirm) -> impl IntoView + use<> {
    let rows = r
        .changes
        .iter()
        .map(|(term, before, after)| {
            let change = ctx.locale.t_args(
                "reconfirm-change",
                &[
                    ("before", before.clone().into()),
                    ("after", after.clone().into()),
                ],
            );
            view! { <div><dt>{term.clone()}</dt><dd>{change}</dd></div> }
        })
        .collect_view();
    let lead = ctx.locale.t_args(
        "reconfirm-lead",
        &[("deadline", format_moment(r.deadline, ctx.locale).into())],
    );
    let form = r.form_to_open.clone().map(|href| {
        view! { <p><a href=href>{ctx.t("reconfirm-open-form")}</a></p> }
    });
    view! {
        <section class="reconfirm flash flash--info" aria-labelledby=format!("reconfirm-{id}")>
            <h3 id=format!("reconfirm-{id}")>{ctx.t("reconfirm-title")}</h3>
            <p>{lead}</p>
            <dl class="reconfirm__changes">{rows}</dl>
            {form}
            <div class="form__actions">
                <form method="post" action=format!("/pendingInvestments/{id}/reconfirm")>
                    {csrf_field(ctx)}
                    <button class="button button--primary" type="submit">{ctx.t("reconfirm-button")}</button>
                </form>
                <form method="post" action=format!("/pendingInvestments/{id}/decline")>
                    {csrf_field(ctx)}
                    <button class="button button--ghost" type="submit">{ctx.t("reconfirm-decline")}</button>
                </form>
            </div>
        </section>
    }
}

/// The request's timeline: its steps, then what happens next.
pub fn timeline_view(ctx: &PageContext, timeline: &Timeline) -> impl IntoView + use<> {
    let steps = timeline
        .steps
        .iter()
        .map(|step| {
            let when = step.at.map(|at| {
                let iso = at
                    .format(&time::format_description::well_known::Rfc3339)
                    .unwrap_or_default();
                view! { " " <time datetime=iso>{format_moment(at, ctx.locale)}</time> }
            });
            let current = (step.state == StepState::Current).then_some("step");
            view! {
                <li class=format!("timeline__step timeline__step--{}", step.state.code()) aria-current=current>
                    <span class="timeline__label">{ctx.t(step.label)}</span>
                    {when}
                </li>
            }
        })
        .collect_view();
    let next = next_sentence(&timeline.next, ctx.locale);
    view! {
        <div class="timeline">
            <ol class="timeline__steps">{steps}</ol>
            <p class="timeline__next"><strong>{ctx.t("timeline-next")} ": "</strong>{next}</p>
        </div>
    }
}

/// The countdown and the withdraw button, while the window is open.
fn withdraw_view(ctx: &PageContext, r: &RequestCard) -> Option<impl IntoView + use<>> {
    let (until, left) = r.withdraw?;
    let iso = until
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    let text = if r.status == RequestStatus::Waitlisted {
        ctx.t("pending-withdraw-waitlist")
    } else {
        ctx.locale.t_args(
            "pending-withdraw-until",
            &[
                ("until", format_moment(until, ctx.locale).into()),
                ("left", format_left(left, ctx.locale).into()),
            ],
        )
    };
    Some(view! {
        <div class="countdown">
            <p><time datetime=iso class="countdown__until">{text}</time></p>
            <form method="post" action=format!("/pendingInvestments/{}/cancel", r.id)>
                {csrf_field(ctx)}
                <button class="button button--ghost" type="submit">{ctx.t("pending-cancel")}</button>
            </form>
        </div>
    })
}

fn request_card(ctx: &PageContext, r: RequestCard) -> impl IntoView + use<> {
    let reconfirm = r.reconfirm.as_ref().map(|c| reconfirm_view(ctx, r.id, c));
    // Nothing is paid on a request that waits for its investor's reconfirmation.
    let pay = match r.status {
        _ if r.reconfirm.is_some() => None,
        RequestStatus::Approved => Some("pending-pay"),
        RequestStatus::FeePaid => Some("pending-transfer"),
        _ => None,
    }
    .map(|label| {
        view! { <a class="button button--primary" href=format!("/invFlow?request={}", r.id)>{ctx.t(label)}</a> }
    });
    let reason = r
        .reason
        .clone()
        .filter(|_| r.status == RequestStatus::Rejected)
        .map(|reason| {
            view! { <p><strong>{ctx.t("mkk-rejection-reason")} ": "</strong>{reason}</p> }
        });
    // Withdrawing is one of the question's two answers while it is open.
    let withdraw = r.reconfirm.is_none().then(|| withdraw_view(ctx, &r));
    let heading = format!("request-{}-title", r.id);
    view! {
        <article class="card request-card" data-status=r.status.code() aria-labelledby=heading.clone()>
            <h2 class="card__title" id=heading.clone()><a href=format!("/startups/{}", r.startup_slug)>{r.startup_name.clone()}</a></h2>
            <p class="muted">{ctx.t(&format!("request-kind-{}", r.kind.code()))} " · " {ctx.t("pending-date")} " " {format_date_short(r.created, ctx.locale)}</p>
            <dl class="figures">
                <div><dt>{ctx.t("investment-summary-payment")}</dt><dd data-field="investment">{r.investment.format(ctx.locale)}</dd></div>
                <div><dt>{ctx.t("investment-summary-fee")}</dt><dd data-field="fee">{r.fee.format(ctx.locale)}</dd></div>
                <div><dt>{ctx.t("investment-summary-total")}</dt><dd>{r.total.format(ctx.locale)}</dd></div>
            </dl>
            <p><span class=format!("badge badge--request-{}", r.status.code())>{ctx.t(&format!("request-status-{}", r.status.code()))}</span></p>
            {reason}
            {reconfirm}
            {timeline_view(ctx, &r.timeline)}
            <div class="form__actions">{pay} {withdraw}</div>
        </article>
    }
}

pub fn pending_page(ctx: &PageContext, rows: Vec<RequestCard>) -> Page {
    // Requests that ended (refunded, cancelled, rejected, lapsed) move to a history below.
    let (ended, open): (Vec<RequestCard>, Vec<RequestCard>) =
        rows.into_iter().partition(|r| r.status.is_end());
    let empty = open
        .is_empty()
        .then(|| view! { <p class="empty-state">{ctx.t("pending-empty")}</p> });
    let items = open
        .into_iter()
        .map(|r| request_card(ctx, r))
        .collect_view();
    let history = (!ended.is_empty()).then(|| {
        let items = ended
            .into_iter()
            .map(|r| request_card(ctx, r))
            .collect_view();
        view! {
            <section class="section" aria-labelledby="requests-history">
                <h2 class="section__title" id="requests-history">{ctx.t("pending-history")}</h2>
                <div class="card-grid request-list request-list--history">{items}</div>
            </section>
        }
    });
    let body = view! {
        <header class="prose__header"><h1>{ctx.t("pending-title")}</h1></header>
        {empty}
        <div class="card-grid request-list">{items}</div>
        {history}
    }
    .into_any();
    let mut page = Page::new(ctx.t("pending-title"), ctx.t("pending-title"), body);
    page.indexable = false;
    page
}

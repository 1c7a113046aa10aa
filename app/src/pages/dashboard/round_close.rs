//! `/dashboard/rounds/{id}/close` (superadmins): before a round ends early, what would happen,
//! in figures, and the two fair ways: schedule an early close (only while escrow holds the
//! success threshold: investors are told, and it waits for every open window and deadline), or
//! terminate the round with a written reason (everyone refunded). Each asks for the startup's
//! name.

use leptos::prelude::*;

use super::staff_layout;
use crate::domain::money::Money;
use crate::domain::timeline::format_moment;
use crate::forms::{FieldErrors, csrf_field, error_summary, error_view, textarea_text};
use crate::shell::{Page, PageContext};

pub struct RoundClose {
    pub id: i64,
    pub name: String,
    pub goal: Money,
    pub received: Money,
    pub may_schedule: bool,
    pub earliest: time::OffsetDateTime,
    pub open_requests: i64,
    pub investors: i64,
    pub escrow_requests: i64,
    pub escrow: Money,
    pub fees_paid: i64,
    pub fees: Money,
    /// An early close already scheduled for then.
    pub scheduled: Option<time::OffsetDateTime>,
    pub errors: FieldErrors,
    pub typed_name: String,
    pub typed_reason: String,
}

fn confirm_name(ctx: &PageContext, c: &RoundClose, id: &'static str) -> impl IntoView + use<> {
    let error = c.errors.get(id);
    let described = error.map(|_| format!("{id}-error"));
    view! {
        <div class="field">
            <label class="field__label" for=id>{ctx.locale.t_args("round-close-type-name", &[("name", c.name.clone().into())])}</label>
            <input class="input" id=id name="name" type="text" autocomplete="off" value=c.typed_name.clone()
                aria-invalid=error.map(|_| "true") aria-describedby=described />
            {error_view(ctx, id, error)}
        </div>
    }
}

/// What ending the round now concerns, in figures.
fn facts(ctx: &PageContext, c: &RoundClose) -> impl IntoView + use<> {
    let l = ctx.locale;
    let n = |k: i64| crate::i18n::FluentArg::Num(k);
    [
        (ctx.t("round-close-goal"), c.goal.format(l)),
        (ctx.t("round-close-received"), c.received.format(l)),
        (
            ctx.t("round-close-open-requests"),
            l.t_args(
                "round-close-requests-of",
                &[
                    ("requests", n(c.open_requests)),
                    ("investors", n(c.investors)),
                ],
            ),
        ),
        (
            ctx.t("round-close-escrow"),
            l.t_args(
                "round-close-money-of",
                &[
                    ("count", n(c.escrow_requests)),
                    ("amount", c.escrow.format(l).into()),
                ],
            ),
        ),
        (
            ctx.t("round-close-fees"),
            l.t_args(
                "round-close-money-of",
                &[
                    ("count", n(c.fees_paid)),
                    ("amount", c.fees.format(l).into()),
                ],
            ),
        ),
    ]
    .into_iter()
    .map(|(k, v)| view! { <dt>{k}</dt><dd>{v}</dd> })
    .collect_view()
}

pub fn round_close_page(ctx: &PageContext, c: RoundClose) -> Page {
    let l = ctx.locale;
    let n = |k: i64| crate::i18n::FluentArg::Num(k);
    let facts = facts(ctx, &c);
    let when = format_moment(c.earliest, l);
    let schedule = match (c.scheduled, c.may_schedule) {
        (Some(at), _) => view! { <p class="flash flash--info" role="status">{l.t_args("round-close-scheduled-for", &[("date", format_moment(at, l).into())])}</p> }.into_any(),
        (None, false) => view! { <p class="muted">{ctx.t("round-close-below-threshold")}</p> }.into_any(),
        (None, true) => view! {
            <form class="form stack" method="post" action=format!("/dashboard/rounds/{}/close", c.id) novalidate>
                {csrf_field(ctx)}
                <input type="hidden" name="intent" value="schedule" />
                <p>{l.t_args("round-close-schedule-effect", &[("date", when.clone().into()), ("investors", n(c.investors))])}</p>
                {confirm_name(ctx, &c, "name_schedule")}
                <div class="form__actions"><button class="button button--primary" type="submit">{ctx.t("round-close-schedule")}</button></div>
            </form>
        }
        .into_any(),
    };
    let reason_error = c.errors.get("reason");
    let terminate = c.scheduled.is_none().then(|| view! {
        <h2>{ctx.t("round-close-terminate-title")}</h2>
        <p>{l.t_args("round-close-terminate-effect", &[("escrow", c.escrow.format(l).into()), ("count", n(c.escrow_requests)), ("fees", c.fees.format(l).into()), ("investors", n(c.investors))])}</p>
        <form class="form stack" method="post" action=format!("/dashboard/rounds/{}/close", c.id) novalidate>
            {csrf_field(ctx)}
            <input type="hidden" name="intent" value="terminate" />
            <div class="field">
                <label class="field__label" for="reason">{ctx.t("round-close-reason")}</label>
                <textarea class="input" id="reason" name="reason" rows="3" aria-invalid=reason_error.map(|_| "true")
                    aria-describedby=reason_error.map(|_| "reason-error")>{textarea_text(&c.typed_reason)}</textarea>
                {error_view(ctx, "reason", reason_error)}
            </div>
            {confirm_name(ctx, &c, "name_terminate")}
            <div class="form__actions"><button class="button button--danger" type="submit">{ctx.t("round-close-terminate")}</button></div>
        </form>
    });
    let content = view! {
        <p><a href=format!("/dashboard/rounds/{}", c.id)>{ctx.t("round-close-back")}</a></p>
        {error_summary(ctx, &c.errors)}
        <dl class="facts">{facts}</dl>
        <h2>{ctx.t("round-close-schedule-title")}</h2>
        {schedule}
        {terminate}
    }
    .into_any();
    staff_layout(
        ctx,
        format!("{}: {}", ctx.t("round-close-title"), c.name),
        content,
    )
}

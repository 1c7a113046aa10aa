//! The founders' accounts on the staff's startup page: the addresses invited (and whether each
//! has joined with a verified address), and the invitation form.

use leptos::prelude::*;

use super::EditorExtras;
use crate::forms::{FieldErrors, csrf_field, input};
use crate::shell::PageContext;

pub(super) fn founders_panel(
    ctx: &PageContext,
    id: i64,
    extras: &EditorExtras,
    errors: &FieldErrors,
) -> impl IntoView + use<> {
    let list = extras
        .invited
        .iter()
        .map(|(email, joined)| {
            let state = ctx.t(if *joined {
                "founders-joined"
            } else {
                "founders-not-joined"
            });
            view! { <li>{email.clone()}" · "<span class="muted">{state}</span></li> }
        })
        .collect_view();
    let none = extras
        .invited
        .is_empty()
        .then(|| view! { <p class="muted">{ctx.t("founders-none")}</p> });
    view! {
        <section class="card stack" id="founder-accounts" aria-labelledby="founder-accounts-title">
            <h2 id="founder-accounts-title">{ctx.t("founders-invite-title")}</h2>
            <p class="muted">{ctx.t("founders-invite-text")}</p>
            {none}
            <ul>{list}</ul>
            <form class="form" method="post" action=format!("/dashboard/startups/{id}/founders") novalidate>
                {csrf_field(ctx)}
                {input(ctx, errors, "founder_email", "founders-invite-label", "email", &extras.founder_email, "off")}
                <div class="form__actions">
                    <button class="button button--ghost" type="submit">{ctx.t("founders-invite-submit")}</button>
                </div>
            </form>
        </section>
    }
}

//! The confirmation page every irreversible staff action goes through (issue 28): what will
//! happen now, in figures, then a form that asks for what the action needs (a reason, mailed
//! to whoever it concerns) and for something typed to show the action is meant (the member's
//! e-mail address). A refused one comes back here with what was typed and its message.

use leptos::prelude::*;

use super::staff_layout;
use crate::forms::{FieldErrors, csrf_field, error_summary, error_view, textarea_text};
use crate::shell::{Page, PageContext};

/// What the page asks and shows.
pub struct Confirm {
    pub title: String,
    /// Where "back" goes.
    pub back: String,
    /// What will happen now, one sentence each, with the figures in them.
    pub effects: Vec<String>,
    /// Where the form posts, and its fixed fields.
    pub action: String,
    pub hidden: Vec<(&'static str, String)>,
    /// A required reason: its label and what was typed.
    pub reason: Option<(String, String)>,
    /// Text to type to confirm: its label and what was typed (the field is `confirm`).
    pub typed: Option<(String, String)>,
    pub button: String,
    pub errors: FieldErrors,
}

pub fn confirm_page(ctx: &PageContext, c: Confirm) -> Page {
    let effects = c
        .effects
        .iter()
        .map(|e| view! { <li>{e.clone()}</li> })
        .collect_view();
    let hidden = c
        .hidden
        .iter()
        .map(|(name, value)| view! { <input type="hidden" name=*name value=value.clone() /> })
        .collect_view();
    let reason = c.reason.as_ref().map(|(label, typed)| {
        let error = c.errors.get("reason");
        view! {
            <div class="field">
                <label class="field__label" for="reason">{label.clone()}</label>
                <textarea class="input" id="reason" name="reason" rows="4" aria-invalid=error.map(|_| "true")
                    aria-describedby=error.map(|_| "reason-error")>{textarea_text(typed)}</textarea>
                {error_view(ctx, "reason", error)}
            </div>
        }
    });
    let typed = c.typed.as_ref().map(|(label, typed)| {
        let error = c.errors.get("confirm");
        view! {
            <div class="field">
                <label class="field__label" for="confirm">{label.clone()}</label>
                <input class="input" id="confirm" name="confirm" type="text" autocomplete="off"
                    value=typed.clone() aria-invalid=error.map(|_| "true")
                    aria-describedby=error.map(|_| "confirm-error") />
                {error_view(ctx, "confirm", error)}
            </div>
        }
    });
    let content = view! {
        <p><a href=c.back.clone()>{ctx.t("confirm-back")}</a></p>
        {error_summary(ctx, &c.errors)}
        <section class="card stack confirm" aria-labelledby="confirm-effects">
            <h2 id="confirm-effects">{ctx.t("confirm-effects")}</h2>
            <ul>{effects}</ul>
        </section>
        <form class="form stack" method="post" action=c.action.clone() novalidate>
            {csrf_field(ctx)}
            {hidden}
            {reason}
            {typed}
            <div class="form__actions">
                <a class="button button--ghost" href=c.back.clone()>{ctx.t("confirm-cancel")}</a>
                <button class="button button--danger" type="submit">{c.button.clone()}</button>
            </div>
        </form>
    }
    .into_any();
    staff_layout(ctx, c.title, content)
}

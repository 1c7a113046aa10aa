//! `/newsletter`: the subscription form on its own page, where a no-JavaScript submission
//! that needs correcting is shown again; and `/newsletter/confirm`, the page the confirmation
//! mail's link opens (one button, so mail scanners that follow links confirm nothing).

use leptos::prelude::*;

use crate::components::{NewsletterState, newsletter_island};
use crate::forms::csrf_field;
use crate::shell::{Page, PageContext};

pub fn newsletter_page(ctx: &PageContext, state: &NewsletterState) -> Page {
    let body = view! {
        <section class="newsletter-page stack">
            <h1 id="newsletter-title">{ctx.t("newsletter-page-title")}</h1>
            <p class="lead">{ctx.t("newsletter-text")}</p>
            {newsletter_island(ctx, state)}
        </section>
    }
    .into_any();
    let mut page = Page::new(
        ctx.t("newsletter-page-title"),
        ctx.t("newsletter-page-description"),
        body,
    );
    page.footer_newsletter = false;
    page.islands.push("newsletter");
    page.indexable = state.error_id.is_none();
    page
}

/// What the confirmation page shows.
pub enum Confirmation<'a> {
    /// A live link: the button that confirms it.
    Ask(&'a str),
    /// Confirmed just now.
    Done,
    /// An unknown, used or expired link.
    Invalid,
}

pub fn newsletter_confirm_page(ctx: &PageContext, state: Confirmation<'_>) -> Page {
    let content = match state {
        Confirmation::Ask(token) => view! {
            <p class="lead">{ctx.t("newsletter-confirm-text")}</p>
            <form class="form" method="post" action="/newsletter/confirm">
                {csrf_field(ctx)}
                <input type="hidden" name="token" value=token.to_owned() />
                <button class="button button--primary" type="submit">{ctx.t("newsletter-confirm-button")}</button>
            </form>
        }
        .into_any(),
        Confirmation::Done => view! {
            <div class="flash flash--success" role="status">{ctx.t("newsletter-confirmed")}</div>
        }
        .into_any(),
        Confirmation::Invalid => view! {
            <div class="flash flash--error" role="alert">{ctx.t("newsletter-confirm-invalid")}</div>
            <p><a class="button button--primary" href="/newsletter">{ctx.t("newsletter-page-title")}</a></p>
        }
        .into_any(),
    };
    let body = view! {
        <section class="newsletter-page stack">
            <h1>{ctx.t("newsletter-confirm-title")}</h1>
            {content}
        </section>
    }
    .into_any();
    let mut page = Page::new(
        ctx.t("newsletter-confirm-title"),
        ctx.t("newsletter-confirm-text"),
        body,
    );
    page.footer_newsletter = false;
    page.indexable = false;
    page
}

//! `/newsletter`: the subscription form on its own page, where a no-JavaScript submission
//! that needs correcting is shown again.

use leptos::prelude::*;

use crate::components::{NewsletterState, newsletter_island};
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

//! Error pages: not found, forbidden, and unexpected failures.

use leptos::prelude::*;

use crate::shell::{Page, PageContext};

fn error_page(title: String, text: String, home_label: String) -> Page {
    let body = view! {
        <section class="not-found">
            <h1>{title.clone()}</h1>
            <p>{text.clone()}</p>
            <a class="button button--primary" href="/">{home_label}</a>
        </section>
    }
    .into_any();
    let mut page = Page::new(title, text, body);
    page.indexable = false;
    page
}

pub fn not_found(ctx: &PageContext) -> Page {
    let body = view! {
        <section class="not-found">
            <p class="not-found__code" aria-hidden="true">"404"</p>
            <h1>{ctx.t("not-found-title")}</h1>
            <p>{ctx.t("not-found-text")}</p>
            <a class="button button--primary" href="/">{ctx.t("not-found-home")}</a>
        </section>
    }
    .into_any();
    let mut page = Page::new(ctx.t("not-found-title"), ctx.t("not-found-text"), body);
    page.indexable = false;
    page
}

pub fn forbidden(ctx: &PageContext) -> Page {
    error_page(
        ctx.t("forbidden-title"),
        ctx.t("forbidden-text"),
        ctx.t("not-found-home"),
    )
}

pub fn bad_request(ctx: &PageContext, message_id: &str) -> Page {
    bad_request_text(ctx, ctx.t(message_id))
}

/// An error page with a message already in the page's language.
pub fn bad_request_text(ctx: &PageContext, message: String) -> Page {
    error_page(ctx.t("error-title"), message, ctx.t("not-found-home"))
}

pub fn server_error(ctx: &PageContext, request_id: &str) -> Page {
    let text = ctx
        .locale
        .t_args("server-error-text", &[("id", request_id.into())]);
    error_page(ctx.t("error-title"), text, ctx.t("not-found-home"))
}

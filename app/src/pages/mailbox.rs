//! The staff mailbox: outgoing mails, newest first.

use leptos::prelude::*;

use crate::shell::{Page, PageContext};

pub struct OutboxMail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub status: String,
    pub created_at: String,
}

pub fn mailbox_page(ctx: &PageContext, mails: Vec<OutboxMail>) -> Page {
    let empty = mails
        .is_empty()
        .then(|| view! { <p class="muted">{ctx.t("mailbox-empty")}</p> });
    let items = mails
        .into_iter()
        .map(|m| {
            view! {
                <details class="faq__item">
                    <summary>{m.subject} " — " {m.to}</summary>
                    <p class="meta">{m.created_at} " · " {m.status}</p>
                    {if m.text.is_empty() {
                        view! { <p class="muted">{ctx.t("mailbox-purged")}</p> }.into_any()
                    } else {
                        view! { <pre class="mail-text">{m.text}</pre> }.into_any()
                    }}
                </details>
            }
        })
        .collect_view();
    let body = view! {
        <section class="stack">
            <p><a class="brand" href="/">{crate::brand::logo(ctx.t("site-name"))}</a></p>
            <h1>{ctx.t("mailbox-title")}</h1>
            <p class="lead">{ctx.t("mailbox-text")}</p>
            {empty}
            {items}
        </section>
    }
    .into_any();
    let mut page = Page::new(ctx.t("mailbox-title"), ctx.t("mailbox-text"), body);
    page.indexable = false;
    page
}

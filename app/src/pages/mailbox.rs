//! The staff mailbox: outgoing mails, newest first.

use leptos::prelude::*;

use crate::pages::dashboard::staff_layout;
use crate::pages::staff_table::Cell;
use crate::shell::{Page, PageContext};

pub struct OutboxMail {
    pub to: String,
    pub subject: String,
    pub text: String,
    /// `pending`, `sent` or `failed`, shown by its label.
    pub status: &'static str,
    pub created_at: time::OffsetDateTime,
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
                    <p class="meta">{Cell::DateTime(m.created_at).text(ctx)} " · " {ctx.t(&format!("mailbox-status-{}", m.status))}</p>
                    {if m.text.is_empty() {
                        view! { <p class="muted">{ctx.t("mailbox-purged")}</p> }.into_any()
                    } else {
                        view! { <pre class="mail-text">{m.text}</pre> }.into_any()
                    }}
                </details>
            }
        })
        .collect_view();
    // Inside the staff area's shell, like every other staff page.
    let body = view! {
        <p class="lead">{ctx.t("mailbox-text")}</p>
        {empty}
        <div class="mailbox">{items}</div>
    }
    .into_any();
    staff_layout(ctx, ctx.t("mailbox-title"), body)
}

//! `/unsubscribe`: stopping one kind of optional mail from its one-click link (laid out like
//! the newsletter confirmation page).

use leptos::prelude::*;

use crate::i18n::FluentArg;
use crate::shell::{Page, PageContext};

/// Where the unsubscribe link stands.
pub enum Unsubscribe {
    /// A genuine link, opened: asks before switching `kind` off.
    Confirm { token: String, kind: &'static str },
    /// `kind` is switched off.
    Done { kind: &'static str },
    /// A forged, cut or garbled link.
    Invalid,
}

fn with_kind(ctx: &PageContext, id: &str, kind: &str) -> String {
    let args: [(&'static str, FluentArg); 1] =
        [("kind", ctx.t(&format!("mail-kind-{kind}")).into())];
    ctx.locale.t_args(id, &args)
}

pub fn unsubscribe_page(ctx: &PageContext, state: &Unsubscribe) -> Page {
    let content = match state {
        Unsubscribe::Confirm { token, kind } => {
            let action = format!(
                "/unsubscribe?token={}&lang={}",
                crate::domain::paths::encode_query(token),
                ctx.locale.code()
            );
            view! {
                <p class="lead">{with_kind(ctx, "unsubscribe-confirm", kind)}</p>
                <form class="form" method="post" action=action>
                    <input type="hidden" name="List-Unsubscribe" value="One-Click" />
                    <button class="button button--primary" type="submit">{ctx.t("unsubscribe-submit")}</button>
                </form>
            }
            .into_any()
        }
        Unsubscribe::Done { kind } => view! {
            <div class="flash flash--success" role="status">{with_kind(ctx, "unsubscribe-done", kind)}</div>
        }
        .into_any(),
        Unsubscribe::Invalid => view! {
            <div class="flash flash--error" role="alert">{ctx.t("unsubscribe-invalid")}</div>
        }
        .into_any(),
    };
    let body = view! {
        <section class="newsletter-page stack">
            <h1>{ctx.t("unsubscribe-title")}</h1>
            {content}
            <p><a href="/profile?tab=notifications">{ctx.t("unsubscribe-profile")}</a></p>
        </section>
    }
    .into_any();
    let mut page = Page::new(
        ctx.t("unsubscribe-title"),
        ctx.t("unsubscribe-description"),
        body,
    );
    page.footer_newsletter = false;
    page.indexable = false;
    page
}

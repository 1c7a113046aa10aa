//! `/unsubscribe`: stopping one kind of optional mail from its one-click link.

use leptos::prelude::*;

use crate::i18n::FluentArg;
use crate::pages::auth::auth_page;
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

fn kind_label(ctx: &PageContext, kind: &str) -> String {
    ctx.t(&format!("mail-kind-{kind}"))
}

pub fn unsubscribe_page(ctx: &PageContext, state: &Unsubscribe) -> Page {
    let profile = view! {
        <p><a href="/profile?tab=notifications">{ctx.t("unsubscribe-profile")}</a></p>
    };
    let content = match state {
        Unsubscribe::Confirm { token, kind } => {
            let args: [(&'static str, FluentArg); 1] = [("kind", kind_label(ctx, kind).into())];
            let action = format!(
                "/unsubscribe?token={}&lang={}",
                crate::domain::paths::encode_query(token),
                ctx.locale.code()
            );
            view! {
                <p>{ctx.locale.t_args("unsubscribe-confirm", &args)}</p>
                <form class="form" method="post" action=action>
                    <input type="hidden" name="List-Unsubscribe" value="One-Click" />
                    <div class="form__actions">
                        <button class="button button--primary" type="submit">{ctx.t("unsubscribe-submit")}</button>
                    </div>
                </form>
                {profile}
            }
            .into_any()
        }
        Unsubscribe::Done { kind } => {
            let args: [(&'static str, FluentArg); 1] = [("kind", kind_label(ctx, kind).into())];
            view! {
                <p role="status">{ctx.locale.t_args("unsubscribe-done", &args)}</p>
                {profile}
            }
            .into_any()
        }
        Unsubscribe::Invalid => view! {
            <p role="alert">{ctx.t("unsubscribe-invalid")}</p>
            {profile}
        }
        .into_any(),
    };
    auth_page(
        ctx,
        "unsubscribe-title",
        ctx.t("unsubscribe-description"),
        content,
    )
}

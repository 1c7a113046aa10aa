//! Where the staff editor meets the campaign (issue 27): a note saying whether the committee
//! approved a version (the story, goal and period then change only through a new one), and the
//! publish switch, offered only once a version is approved.

use leptos::prelude::*;

use super::EditorExtras;
use crate::forms::{FieldErrors, checkbox};
use crate::shell::PageContext;

/// The campaign's state, with a link to its review page (for a saved startup).
pub(super) fn campaign_note(
    ctx: &PageContext,
    extras: &EditorExtras,
) -> Option<impl IntoView + use<>> {
    extras.id.map(|id| {
        let text = if extras.campaign_approved {
            "startup-campaign-locked"
        } else {
            "startup-campaign-unapproved"
        };
        view! {
            <p class="flash flash--info" role="note">{ctx.t(text)} " "
                <a href=format!("/dashboard/startups/{id}/campaign")>{ctx.t("campaign-review-title")}</a></p>
        }
    })
}

/// The publish switch, or why there is none yet.
pub(super) fn publish_control(
    ctx: &PageContext,
    extras: &EditorExtras,
    published: bool,
    errors: &FieldErrors,
) -> AnyView {
    if extras.campaign_approved {
        let label = view! { {ctx.t("dashboard-published")} }.into_any();
        checkbox(ctx, errors, "published", label, published).into_any()
    } else {
        // A forged `published` is refused under this note, with its message.
        let error = errors.get("published");
        view! {
            <p class="muted" id="published">{ctx.t("startup-publish-needs-approval")}</p>
            {crate::forms::error_view(ctx, "published", error)}
        }
        .into_any()
    }
}

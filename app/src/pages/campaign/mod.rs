//! Campaigns as the platform runs them: the editor founders and staff draft a version in
//! (`editor`), staff's review of a submitted version (`review`), the investment committee's
//! list and vote (`committee`), the offer as the startup's page shows it (`terms`), and the
//! founders' disclosures after funding with staff's review of them (`disclosures`).

mod committee;
mod disclosures;
mod editor;
mod review;
mod terms;

use leptos::prelude::*;

pub use committee::{CommitteeList, CommitteeVersion, committee_list_page, committee_version_page};
pub use disclosures::{
    DisclosureItem, FounderDisclosures, StaffDisclosures, founder_disclosures_page,
    staff_disclosures_page,
};
pub use editor::{CampaignEditor, campaign_editor_page};
pub use review::{CampaignReview, campaign_review_page, version_view};
pub use terms::{TermsCard, terms_card};

use crate::forms::{FieldErrors, error_view};
use crate::shell::PageContext;

/// A one-line field whose name is made at run time (`fund_tr_3`).
pub(crate) fn text_field(
    ctx: &PageContext,
    errors: &FieldErrors,
    name: &str,
    label: String,
    kind: &'static str,
    value: &str,
    readonly: bool,
) -> impl IntoView + use<> {
    let error = errors.get(name);
    let described = error.map(|_| format!("{name}-error"));
    view! {
        <div class="field">
            <label class="field__label" for=name.to_owned()>{label}</label>
            <input class="input" id=name.to_owned() name=name.to_owned() type=kind value=value.to_owned()
                autocomplete="off" readonly=readonly aria-invalid=error.map(|_| "true")
                aria-describedby=described />
            {error_view(ctx, name, error)}
        </div>
    }
}

/// Staff's comment on `section`, shown where the founder edits it.
pub(crate) fn comment_note(
    ctx: &PageContext,
    comments: &[(String, String)],
    section: &str,
) -> Option<impl IntoView + use<>> {
    comments
        .iter()
        .find(|(s, _)| s == section)
        .map(|(_, body)| {
            view! {
                <p class="flash flash--info campaign-comment" role="note">
                    <strong>{ctx.t("campaign-staff-comment")} ": "</strong>{body.clone()}
                </p>
            }
        })
}

/// A field's label where a value is shown, not typed: without the unit the value carries
/// ("Price per share (TL)" reads "Price per share: 100 TL").
pub(crate) fn shown_label(ctx: &PageContext, id: &str) -> String {
    ctx.t(id).trim_end_matches(" (TL)").to_owned()
}

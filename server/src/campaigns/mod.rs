//! Campaigns as a licensed platform runs them (SPK III-35/A.2, issue 27). A startup's founders
//! (or staff) draft the next version of its campaign (`drafts`); staff review it, comment per
//! section and send it back or on (`review`, where the issuer's checks are recorded too); the
//! investment committee votes on it (`committee`), and an approved version becomes the live,
//! published campaign with its information form generated and the minutes filed (`approval`,
//! `forms`). After funding, founders post disclosures that staff approve (`disclosures`). The
//! database refuses publication without an approved version, a campaign longer
//! than the rules allow and a request without the approved information form. All SQL is in
//! `queries`.

mod approval;
pub mod committee;
mod disclosures;
mod drafts;
mod forms;
mod fund_use;
pub mod queries;
mod review;

pub use approval::{Platform, decide};
pub use fund_use::remind as remind_fund_use;

use ortak_app::pages::staff_table::RowAction;

use crate::web::{Access, Routes};

/// The button on a staff member's page that adds them to the investment committee, or takes
/// them off it (superadmins).
pub fn membership_action(id: i64, member: bool) -> RowAction {
    RowAction {
        action: format!("/dashboard/users/{id}/committee"),
        name: "member",
        value: if member { "off" } else { "on" }.into(),
        label_id: if member {
            "committee-remove"
        } else {
            "committee-add"
        }
        .into(),
        fields: &[],
    }
}

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Fund)
            .get("/vc-dashboard/startups/{id}/campaign", drafts::team_page)
            .post("/vc-dashboard/startups/{id}/campaign", drafts::team_save)
            .get(
                "/vc-dashboard/startups/{id}/disclosures",
                disclosures::team_page,
            )
            .post(
                "/vc-dashboard/startups/{id}/disclosures",
                disclosures::team_post,
            ),
        Routes::new(Access::Staff)
            .get("/dashboard/disclosures", disclosures::staff_list)
            .nav("disclosure-staff-title")
            .post("/dashboard/disclosures/{id}", disclosures::review)
            .get("/dashboard/startups/{id}/campaign", review::page)
            .get(
                "/dashboard/startups/{id}/campaign/draft",
                drafts::staff_page,
            )
            .post(
                "/dashboard/startups/{id}/campaign/draft",
                drafts::staff_save,
            )
            .post("/dashboard/campaigns/{version}/review", review::review)
            .post("/dashboard/startups/{id}/issuer", review::issuer)
            .post_limited(
                "/dashboard/startups/{id}/issuer/evidence",
                review::evidence,
                crate::startups::documents::DOCUMENT_MAX_BYTES + 64 * 1024,
            ),
        Routes::new(Access::Committee)
            .get("/dashboard/committee", committee::list)
            .nav("committee-title")
            .get("/dashboard/committee/{id}", committee::version)
            .post("/dashboard/committee/{id}/vote", committee::vote),
        Routes::new(Access::SuperAdmin)
            .post("/dashboard/users/{id}/committee", committee::set_member),
    ]
}

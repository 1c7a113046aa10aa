//! Investing: what a member does to invest. The MKK membership form (`mkk`), sending a request
//! by the plain form or the island (`requests`, `api`), their own requests (`lists`), their
//! overview and reports (`portfolio`) and the qualified-investor declaration (`qualified`).
//! `transitions` moves a request after it is sent (staff and payments call it). Builds on
//! `startups` (the card decides whether a round is open); all SQL is in `queries`.

mod api;
mod lists;
pub mod mkk;
pub mod portfolio;
mod qualified;
mod queries;
mod requests;
mod transitions;

pub use transitions::{mail_investor, record_event, staff_transition};

use crate::web::{Access, Routes};

pub fn routes() -> Vec<Routes> {
    vec![
        Routes::new(Access::Member)
            .get("/mkk", mkk::page)
            .post("/mkk", mkk::save)
            .get("/investmentFlow", requests::amount_page)
            .post("/investmentFlow", requests::submit_form)
            .get("/investmentFlow/created", requests::created)
            .post("/api/investmentRequests", api::submit_json)
            .get("/pendingInvestments", lists::pending)
            .post("/pendingInvestments/{id}/cancel", lists::cancel)
            .get("/userInvestments", lists::mine)
            .get("/overview", portfolio::overview)
            .get("/reports", portfolio::reports)
            .get("/reports/{id}/file", portfolio::report_file)
            .get("/qualifiedInvestor", qualified::form)
            .post_limited(
                "/qualifiedInvestor",
                qualified::submit,
                qualified::EVIDENCE_MAX_BYTES + 64 * 1024,
            ),
    ]
}

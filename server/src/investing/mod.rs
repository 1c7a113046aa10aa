//! Investing: what a member does to invest, and what happens to a request after. The MKK
//! membership form (`mkk`), sending a request by the plain form or the island (`requests`,
//! `api`, with the annual limit in `limits`), their own requests with timelines and their
//! holdings (`lists`), their overview and reports (`portfolio`) and the qualified-investor
//! declaration (`qualified`). The money path: the ledger (`ledger`), the moves that follow it
//! (`transitions`, called by staff and `payments`), the status mails with the timeline
//! (`notify`), the round jobs: waitlist, payment deadlines, closing (`rounds`), and
//! reconfirmation after staff change a live round's terms (`reconfirmation`). Builds on
//! `startups` (the card decides whether a round is open); all SQL is in `queries`.

mod admission;
mod api;
pub mod early_close;
pub mod ledger;
pub mod limits;
mod lists;
pub mod mkk;
mod notify;
pub mod portfolio;
mod qualified;
mod queries;
pub mod receipts;
pub mod reconfirmation;
mod requests;
pub mod rounds;
pub mod statements;
pub mod transitions;

pub use qualified::FOLDER as QUALIFIED_FOLDER;
pub use transitions::staff_transition;

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
            .post("/pendingInvestments/{id}/reconfirm", lists::reconfirm)
            .post("/pendingInvestments/{id}/decline", lists::decline)
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

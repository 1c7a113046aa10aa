//! The forms visitors and members send: contact, fund (GSYF) and academy applications
//! (`inbox_forms`, landing in staff's inboxes), and the startup application (`startup`, with
//! its `draft`). Each is stored for staff, acknowledged on screen and by e-mail in the
//! sender's language, and announced to staff by e-mail; `intake` holds the spam screen and
//! the acknowledgement they share, `queries` all their SQL.

mod draft;
mod inbox_forms;
mod intake;
pub mod queries;
pub mod startup;

pub use draft::purge_stale as purge_stale_drafts;

use crate::web::{Access, Routes};

pub fn routes() -> Vec<Routes> {
    let public = Routes::new(Access::Public)
        .get("/gsyf", inbox_forms::gsyf_form)
        .post("/gsyf", inbox_forms::gsyf)
        .get("/academy", inbox_forms::academy_form)
        .post("/academy", inbox_forms::academy)
        .get("/projectFlow/done", startup::done)
        .get("/projectFlow/1", startup::first_form)
        .post_limited(
            "/projectFlow/1",
            startup::save_first,
            startup::UPLOAD_BODY_LIMIT,
        )
        .get("/projectFlow/{step}", startup::step_form)
        .post("/projectFlow/{step}", startup::save_step)
        .get("/contactUs", inbox_forms::contact_form)
        .post("/contactUs", inbox_forms::contact);
    vec![public]
}

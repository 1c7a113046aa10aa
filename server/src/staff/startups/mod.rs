//! `/dashboard/startups`: staff create and edit startups (every field, both languages of the
//! analysis sections with a Markdown preview, publish switch), add presentation pages and
//! quarterly reports, and turn an application into a startup draft. Every save is audited.
//!
//! `list` is the table; `editor` renders the editor page; `form` is what it posts and `save`
//! checks and stores it; `attachments` adds and removes pages and reports; `founders` invites
//! the founders' accounts; `from_application`
//! makes a draft of an application (routed with the applications section). The SQL is in
//! `staff/queries/startups.rs` and `startup_drafts.rs`.

mod attachments;
mod documents;
mod editor;
mod form;
mod founders;
mod from_application;
mod list;
mod save;

pub use from_application::from_application;

use crate::web::{Access, Routes};

/// Presentation pages may be at most this large (they are shown inline).
pub const PAGE_MAX_BYTES: usize = 2 * 1024 * 1024;

/// The startup editor posts twelve sections in two languages.
const EDITOR_BODY_LIMIT: usize = crate::web::input_screen::MAX_FORM_BODY;

pub fn routes() -> Routes {
    Routes::new(Access::Staff)
        .get("/dashboard/startups", list::list)
        .nav("dashboard-startups")
        .get("/dashboard/startups.json", list::list)
        .get("/dashboard/startups/new", editor::new)
        .post_limited("/dashboard/startups/new", save::create, EDITOR_BODY_LIMIT)
        .get("/dashboard/startups/{id}", editor::edit)
        .post_limited("/dashboard/startups/{id}", save::update, EDITOR_BODY_LIMIT)
        .post_limited(
            "/dashboard/startups/{id}/pages",
            attachments::add_page,
            PAGE_MAX_BYTES + 64 * 1024,
        )
        .post_limited(
            "/dashboard/startups/{id}/images/{kind}",
            attachments::set_picture,
            crate::startups::images::IMAGE_MAX_BYTES + 64 * 1024,
        )
        .post("/dashboard/startups/{id}/founders", founders::invite)
        .post_limited(
            "/dashboard/startups/{id}/founders/photo",
            attachments::set_founder_photo,
            crate::startups::images::IMAGE_MAX_BYTES + 64 * 1024,
        )
        .post(
            "/dashboard/startups/{id}/pages/{n}/delete",
            attachments::remove_page,
        )
        .post_limited(
            "/dashboard/startups/{id}/documents/{kind}",
            documents::upload,
            crate::startups::documents::DOCUMENT_MAX_BYTES + 64 * 1024,
        )
        .post_limited(
            "/dashboard/startups/{id}/reports",
            attachments::add_report,
            crate::startups::reports::REPORT_MAX_BYTES + 64 * 1024,
        )
}

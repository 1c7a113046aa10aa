//! The staff dashboard (`/dashboard`): today's figures, users and their MKK data, startup
//! applications, messages and applications from the forms, newsletter subscribers, and the
//! audit log. Every staff action is recorded in `audit_log`, which nothing can change.

pub mod academy_events;
pub mod applications;
pub mod audit_log;
pub mod content;
pub mod funds;
pub mod home;
pub mod inboxes;
pub mod investments;
pub mod mail_templates;
pub mod mailbox;
pub mod member;
pub mod newsletter;
pub mod qualified;
pub mod queries;
pub mod startups;
pub mod table;
pub mod transfers;
pub mod users;
pub mod vip_groups;

use crate::web::Routes;

/// The staff sections, in the order the navigation shows them.
pub fn routes() -> Vec<Routes> {
    vec![
        home::routes(),
        investments::routes(),
        startups::routes(),
        users::routes(),
        member::routes(),
        member::superadmin_routes(),
        qualified::routes(),
        vip_groups::routes(),
        funds::routes(),
        applications::routes(),
        inboxes::contact_routes(),
        academy_events::routes(),
        mail_templates::routes(),
        newsletter::routes(),
        content::blog_routes(),
        content::faq_routes(),
        transfers::routes(),
        mailbox::routes(),
        audit_log::routes(),
    ]
}

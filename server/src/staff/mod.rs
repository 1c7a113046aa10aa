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
mod member_access;
mod member_mkk;
pub mod newsletter;
pub mod qualified;
pub mod queries;
mod request_investor;
pub mod rounds;
pub mod startups;
mod statements;
pub mod table;
pub mod transfers;
pub mod users;
pub mod vip_groups;

use crate::web::Routes;

/// The staff sections, in the order the navigation shows them.
pub fn routes() -> Vec<Routes> {
    let mut routes = vec![home::routes(), investments::routes()];
    routes.extend(rounds::routes());
    routes.extend(member_access::routes());
    routes.extend([
        startups::routes(),
        users::routes(),
        member::routes(),
        member_mkk::routes(),
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
        statements::routes(),
        mailbox::routes(),
        audit_log::routes(),
    ]);
    routes
}

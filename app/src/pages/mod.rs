//! One module per page or family of pages. Each returns a [`Page`](crate::shell::Page) for the
//! shell to wrap.

pub mod about;
pub mod applications;
pub mod auth;
pub mod blog;
pub mod campaign;
pub mod content;
pub mod dashboard;
pub mod documents;
pub mod errors;
pub mod faq;
pub mod home;
pub mod investing;
pub mod journey;
pub mod limits;
pub mod mailbox;
pub mod newsletter;
pub mod onboarding;
pub mod overview;
pub mod payment;
pub mod portfolio;
pub mod profile;
pub mod project;
pub mod qualified;
pub mod questions;
pub mod reports;
pub mod requests;
pub mod staff_table;
pub mod startup_editor;
pub mod startups;
pub mod track_record;
pub mod two_factor;
pub mod unsubscribe;
pub mod vc_dashboard;

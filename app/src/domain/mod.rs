//! Pure business rules shared by pages, handlers and the islands' JSON.

pub mod accounts;
pub mod applications;
pub mod card;
pub mod collation;
pub mod email;
pub mod iban;
pub mod identity;
pub mod investing;
pub mod limits;
pub mod mkk;
pub mod money;
pub mod notifications;
pub mod onboarding;
pub mod paths;
pub mod phone;
pub mod profile;
pub mod project;
pub mod quarters;
pub mod round_documents;
pub mod rounds;
pub mod startup_form;
pub mod startups;
pub mod terms;
pub mod text;
pub mod time_fmt;
pub mod timeline;

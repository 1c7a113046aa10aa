//! The request layer every area builds on: the request context ([`Ctx`]), the route table and
//! its access levels, the one render path, cookies, CSRF, flash messages, posted input, error
//! pages, security headers, input screening, uploads, the public page cache, static assets and
//! stored files. Nothing here knows about an area.

pub mod access;
pub mod assets;
pub mod client_ip;
pub mod cookies;
pub mod csrf;
pub mod ctx;
mod current_user;
pub mod errors;
pub mod files;
pub mod flash;
pub mod form;
pub mod headers;
pub mod input_screen;
mod kept_file;
pub mod list_cache;
pub mod metrics;
pub mod page_cache;
mod queries;
pub mod render;
pub mod routes;
pub mod session;
mod shared_page;
pub mod upload;

pub use access::{Access, CommitteeMember, FundMember, Member, Staff, SuperAdmin};
pub use ctx::Ctx;
pub use routes::Routes;

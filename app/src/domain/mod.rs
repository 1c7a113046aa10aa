//! Pure business rules shared by pages, handlers and the islands' JSON.

pub mod email;
pub mod money;
pub mod text;
pub mod time_fmt;

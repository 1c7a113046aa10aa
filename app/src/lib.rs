//! Ortak's pages, components, translations and pure domain rules.
//!
//! Nothing here does I/O: the `ortak` server crate loads data, then calls into this crate to
//! validate it and to render HTML, so every rule and every page has exactly one definition.

#![recursion_limit = "512"]
pub mod brand;
pub mod components;
pub mod domain;
pub mod forms;
pub mod i18n;
pub mod layout;
pub mod markdown;
pub mod pages;
pub mod shell;

//! The integration tests, one binary: each module starts the real server (`CARGO_BIN_EXE_ortak`)
//! on a free port with a temporary SQLite file. One binary instead of one per file keeps the
//! build to a single link and its disk use to one executable.

mod common;
mod payments_support;

mod abuse;
mod account_attacks;
mod accounts;
mod applications;
mod campaigns;
mod dashboard;
mod database_faults;
mod documents;
mod durability;
mod flows;
mod founders;
mod full_disk;
mod hostile;
mod investing;
mod kept_between_writes;
mod links;
mod money_path;
mod newsletter;
mod notifications;
mod oidc;
mod oidc_certified;
mod onboarding;
mod operations;
mod pages;
mod payments;
mod payments_iyzico;
mod payments_money_path;
mod privacy;
mod profile;
mod project;
mod protection;
mod questions;
mod reconfirmation;
mod reports_due;
mod roles;
mod round_documents;
mod rounds;
mod rounds_close;
mod signed_in_reads;
mod smtp_failures;
mod staff_sections;
mod startup_images;
mod startups;
mod terms;
mod trust;
mod two_factor;

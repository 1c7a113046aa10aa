//! The texts a member accepts to join: the membership agreement and the KVKK personal data
//! notice, accepted together and versioned together.

/// The version of the texts Ortak ships. Raise it (a date) when either text changes: every
/// member then accepts again at their next sign-in.
pub const VERSION: &str = "2026-11-21";

/// What each acceptance records, as stored in `acceptances.document`.
pub const DOCUMENTS: [&str; 2] = ["membership-agreement", "kvkk-notice"];

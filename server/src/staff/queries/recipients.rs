//! Members a staff action writes to: their address, first name and the language their mails
//! are written in.

use ortak_app::i18n::Locale;

/// Whom a mail goes to.
pub struct Recipient {
    pub email: String,
    pub first_name: String,
    pub language: Locale,
}

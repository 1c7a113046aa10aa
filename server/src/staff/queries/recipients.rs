//! Members a staff action writes to: their address, first name and the language their mails
//! are written in (`users.language`, `tr` or `en` by its CHECK).

use ortak_app::i18n::Locale;

/// `users.language` as stored. Mirrors [`Locale`], which does not derive `sqlx::Type` (it
/// lives in `app/`, whose i18n has no `sqlx` feature yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(rename_all = "lowercase")]
pub enum Language {
    Tr,
    En,
}

impl From<Language> for Locale {
    fn from(language: Language) -> Locale {
        match language {
            Language::Tr => Locale::Tr,
            Language::En => Locale::En,
        }
    }
}

/// Whom a mail goes to.
pub struct Recipient {
    pub email: String,
    pub first_name: String,
    pub language: Language,
}

impl Recipient {
    pub fn locale(&self) -> Locale {
        self.language.into()
    }
}
